#include "hlolayout/parser/diagnostic.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"

namespace hlolayout {

SourceLocation LocateOffset(absl::string_view text, size_t offset) {
  offset = std::min(offset, text.size());
  SourceLocation location;
  size_t line_start = 0;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++location.line;
      line_start = i + 1;
    }
  }
  location.column = static_cast<int64_t>(offset - line_start) + 1;
  return location;
}

absl::string_view SourceLineAt(absl::string_view text, size_t offset) {
  offset = std::min(offset, text.size());
  size_t begin =
      offset == 0 ? absl::string_view::npos : text.rfind('\n', offset - 1);
  begin = begin == absl::string_view::npos ? 0 : begin + 1;
  size_t end = text.find('\n', begin);
  if (end == absl::string_view::npos) end = text.size();
  absl::string_view line = text.substr(begin, end - begin);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

std::string FormatDiagnostic(absl::string_view text, size_t offset,
                             absl::string_view message,
                             absl::string_view file_name) {
  const SourceLocation location = LocateOffset(text, offset);
  const absl::string_view line = SourceLineAt(text, offset);
  std::string caret;
  for (int64_t i = 0; i + 1 < location.column && i < (int64_t)line.size();
       ++i) {
    caret.push_back(line[i] == '\t' ? '\t' : ' ');
  }
  for (int64_t i = line.size(); i + 1 < location.column; ++i) {
    caret.push_back(' ');
  }
  caret.push_back('^');
  return absl::StrCat(file_name, file_name.empty() ? "" : ":", location.line,
                      ":", location.column, ": ", message, "\n", line, "\n",
                      caret);
}

absl::Status ParseError(absl::string_view text, size_t offset,
                        absl::string_view message,
                        absl::string_view file_name) {
  return absl::InvalidArgumentError(
      FormatDiagnostic(text, offset, message, file_name));
}

std::string DescribeToken(absl::string_view token) {
  if (token.empty()) return "end of input";
  constexpr size_t kMaxShown = 24;
  if (token.size() > kMaxShown) {
    return absl::StrCat("'", token.substr(0, kMaxShown), "...'");
  }
  return absl::StrCat("'", token, "'");
}

}  // namespace hlolayout

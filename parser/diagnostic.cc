#include "hlolayout/parser/diagnostic.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"

namespace hlolayout {

SourceLocation OffsetLocator::Locate(size_t offset) {
  offset = std::min(offset, text_.size());
  if (offset < offset_) {  // behind the last one: from the start again
    offset_ = 0;
    line_ = 1;
    line_start_ = 0;
  }
  const char* const data = text_.data();
  const char* p = data + offset_;
  const char* const end = data + offset;
  while (p < end) {
    const void* newline = std::memchr(p, '\n', end - p);
    if (newline == nullptr) break;
    p = static_cast<const char*>(newline) + 1;
    ++line_;
    line_start_ = static_cast<size_t>(p - data);
  }
  offset_ = offset;
  SourceLocation location;
  location.line = line_;
  location.column = static_cast<int64_t>(offset - line_start_) + 1;
  return location;
}

SourceLocation LocateOffset(absl::string_view text, size_t offset) {
  return OffsetLocator(text).Locate(offset);
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

namespace {

bool IsUtf8Continuation(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

}  // namespace

SourceWindow WindowAround(absl::string_view line, size_t column, size_t width) {
  SourceWindow window;
  window.text = line;
  window.caret_column = column;
  if (line.size() <= width) return window;
  // Room for the caret's own column past the end of the line.
  const size_t caret = std::min(column, line.size());
  size_t begin = caret > width / 2 ? caret - width / 2 : 0;
  size_t end = std::min(line.size(), begin + width);
  begin = end > width ? end - width : 0;
  // Never cut a UTF-8 character in two.
  while (begin > 0 && begin < line.size() && IsUtf8Continuation(line[begin])) {
    ++begin;
  }
  while (end < line.size() && end > begin && IsUtf8Continuation(line[end])) {
    --end;
  }
  window.text = line.substr(begin, end - begin);
  window.cut_before = begin > 0;
  window.cut_after = end < line.size();
  window.caret_column = column - begin;
  return window;
}

std::string FormatDiagnostic(absl::string_view text, size_t offset,
                             absl::string_view message,
                             absl::string_view file_name) {
  OffsetLocator locator(text);
  return FormatDiagnostic(text, offset, message, file_name, &locator);
}

namespace {

// The length of the UTF-8 sequence at `s[i]` when it is a valid one of two
// or more bytes, else 0.
size_t Utf8SequenceAt(absl::string_view s, size_t i) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  size_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
  if (c >= 0xf5 || n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return 0;
  }
  return n;
}

// A byte shown as `\xNN`: control characters other than tab, DEL, and
// bytes that are not part of valid UTF-8 (a binary file's error must not
// send raw bytes to a terminal).
bool Escaped(absl::string_view s, size_t i, size_t* utf8_left) {
  if (*utf8_left > 0) {
    --*utf8_left;
    return false;
  }
  const unsigned char c = static_cast<unsigned char>(s[i]);
  if (c == '\t' || c == '\n') return false;  // (a window has no '\n')
  if (c < 0x20 || c == 0x7f) return true;
  if (c < 0x80) return false;
  const size_t n = Utf8SequenceAt(s, i);
  if (n == 0) return true;
  *utf8_left = n - 1;
  return false;
}

void AppendEscaped(absl::string_view s, std::string* out) {
  size_t utf8_left = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (Escaped(s, i, &utf8_left)) {
      absl::StrAppend(
          out, "\\x",
          absl::Hex(static_cast<unsigned char>(s[i]), absl::kZeroPad2));
    } else {
      out->push_back(s[i]);
    }
  }
}

}  // namespace

std::string FormatDiagnostic(absl::string_view text, size_t offset,
                             absl::string_view message,
                             absl::string_view file_name,
                             OffsetLocator* locator) {
  const SourceLocation location = locator->Locate(offset);
  const SourceWindow window = WindowAround(
      SourceLineAt(text, offset), static_cast<size_t>(location.column - 1),
      kDiagnosticWindowWidth);
  const absl::string_view shown = window.text;
  const absl::string_view ellipsis = "...";
  std::string caret;
  if (window.cut_before) caret.append(ellipsis.size(), ' ');
  size_t utf8_left = 0;
  for (size_t i = 0; i < window.caret_column && i < shown.size(); ++i) {
    if (Escaped(shown, i, &utf8_left)) {
      caret.append(4, ' ');  // under `\xNN`
    } else {
      caret.push_back(shown[i] == '\t' ? '\t' : ' ');
    }
  }
  for (size_t i = shown.size(); i < window.caret_column; ++i) {
    caret.push_back(' ');
  }
  caret.push_back('^');
  std::string out = absl::StrCat(file_name, file_name.empty() ? "" : ":",
                                 location.line, ":", location.column, ": ");
  AppendEscaped(message, &out);
  absl::StrAppend(&out, "\n", window.cut_before ? ellipsis : "");
  AppendEscaped(shown, &out);
  absl::StrAppend(&out, window.cut_after ? ellipsis : "", "\n", caret);
  return out;
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

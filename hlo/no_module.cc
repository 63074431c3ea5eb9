#include "hlolayout/hlo/no_module.h"

#include <cstddef>

#include "absl/strings/str_cat.h"

namespace hlolayout {
namespace {

// True when `text` is only blanks (spaces, tabs, line ends).
bool Blank(absl::string_view text) {
  for (char c : text) {
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return false;
  }
  return true;
}

}  // namespace

absl::Status NoHloModuleError(absl::string_view text,
                              absl::string_view file_name) {
  const char* what = text.empty() ? "the input is empty"
                     : Blank(text)
                         ? "the input is blank"
                         : "the input holds only comments and blank lines";
  return absl::InvalidArgumentError(absl::StrCat(
      file_name, file_name.empty() ? "" : ": ", "no HLO module: ", what,
      "; expected HLO module text (an 'HloModule name' line and its "
      "computations, as XLA writes them with --xla_dump_to)"));
}

absl::Status XlaSideFileError(absl::string_view text,
                              absl::string_view file_name) {
  size_t start = 0;
  while (start < text.size() && (text[start] == ' ' || text[start] == '\n' ||
                                 text[start] == '\r' || text[start] == '\t')) {
    ++start;
  }
  const absl::string_view head = text.substr(start, 64);
  struct Kind {
    absl::string_view first_line_start;
    absl::string_view what;
    absl::string_view suffix;
  };
  static constexpr Kind kKinds[] = {
      {"BufferAssignment:", "buffer assignment", "-buffer-assignment.txt"},
      {"Memory Space: ", "memory usage report", "-memory-usage-report.txt"},
      {"HloLiveRange (max ", "live ranges", "-live-range.txt"},
  };
  for (const Kind& kind : kKinds) {
    if (head.substr(0, kind.first_line_start.size()) != kind.first_line_start) {
      continue;
    }
    return absl::InvalidArgumentError(absl::StrCat(
        file_name, file_name.empty() ? "" : ": ", "this is XLA's ", kind.what,
        " (a *", kind.suffix,
        " file), not an HLO module: give the module it was written for, the "
        "*after_optimizations.txt file beside it (hlolayout memory computes "
        "the ",
        kind.what, " from the module)"));
  }
  return absl::OkStatus();
}

}  // namespace hlolayout

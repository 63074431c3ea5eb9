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

}  // namespace hlolayout

// hlo/no_module.h: the error for an input that holds no HLO module.
//
// ReadHlo and ReadHloModules read an empty text, or one of comments and
// blank lines only, without error and find no module in it. The commands
// and functions that need a module (`hlolayout report`, `hlolayout memory`,
// hl.report(), hl.memory()) refuse such an input with this error, saying
// what they expected, as they refuse any other bad input:
//
//   NoHloModuleError("", "empty.txt")
//   -> InvalidArgument "empty.txt: no HLO module: the input is empty;
//      expected HLO module text (an 'HloModule name' line and its
//      computations, as XLA writes them with --xla_dump_to)"
#ifndef HLOLAYOUT_HLO_NO_MODULE_H_
#define HLOLAYOUT_HLO_NO_MODULE_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace hlolayout {

// The error for `text`, which was read and holds no module. `file_name`
// prefixes the message when not empty. The message says whether the text
// is empty, blank, or blank lines and comments only.
absl::Status NoHloModuleError(absl::string_view text,
                              absl::string_view file_name);

// The error for a text that is one of the files XLA writes beside a
// module's dump rather than a module (its first line tells):
//   BufferAssignment:                -> *-buffer-assignment.txt
//   Memory Space: default (color=0)  -> *-memory-usage-report.txt
//   HloLiveRange (max 51):           -> *-live-range.txt
// The message names the file and says to give the module it was written
// for. OK for any other text (cheap: only the first line is looked at).
absl::Status XlaSideFileError(absl::string_view text,
                              absl::string_view file_name);

}  // namespace hlolayout

#endif  // HLOLAYOUT_HLO_NO_MODULE_H_

// cli/args.h: command-line flags of a subcommand.
//
//   hlolayout explain --json 'f32[2]'      switches {json}, positional {f32[2]}
//   hlolayout report --top=5 dump.txt      values {top: 5}
//
// Flags start with "--" and may appear anywhere; "--name=value" or
// "--name value" for flags that take a value; "--" ends the flags; "-" alone
// is a positional argument (standard input).
#ifndef HLOLAYOUT_CLI_ARGS_H_
#define HLOLAYOUT_CLI_ARGS_H_

#include <ostream>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace hlolayout::cli {

struct Args {
  std::vector<std::string> positional;
  absl::flat_hash_set<std::string> switches;
  absl::flat_hash_map<std::string, std::string> values;

  bool Has(absl::string_view name) const {
    return switches.contains(name) || values.contains(name);
  }
  // The value of a flag, or `fallback` when absent.
  std::string Value(absl::string_view name, absl::string_view fallback) const;
};

// Errors: "flag '--top' needs a value", and for a flag not in `switches`
// or `valued` "unknown flag '--jsn'; did you mean '--json'?; flags: --file,
// --json" (every flag the command parses, so that a user sees them all and
// cli/flags_test.cc checks that the command's --help lists each).
absl::StatusOr<Args> ParseArgs(const std::vector<std::string>& args,
                               absl::Span<const absl::string_view> switches,
                               absl::Span<const absl::string_view> valued);

// UnknownFlag
//
// The error above for `--name`.
absl::Status UnknownFlag(absl::string_view name,
                         absl::Span<const absl::string_view> switches,
                         absl::Span<const absl::string_view> valued);

// UnknownSubcommand
//
// Prints "hlolayout grid: unknown subcommand 'epxlain'; did you mean
// 'explain'?; subcommands: explain, locate, ..." (every one of `known`) to
// `err` and returns 2. `command` is "grid", `what` "subcommand" or "op".
int UnknownSubcommand(std::ostream& err, absl::string_view command,
                      absl::string_view what, absl::string_view sub,
                      const std::vector<std::string>& known);

}  // namespace hlolayout::cli

#endif  // HLOLAYOUT_CLI_ARGS_H_

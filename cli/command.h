// cli/command.h: how a subcommand and a batch op plug into `hlolayout`.
//
// Each feature adds one `Command` (a subcommand such as `hlolayout explain`)
// and zero or more `BatchOp`s (lines `OP<TAB>ARG...` of `hlolayout batch`),
// defined in its own file under cli/ and listed once in cli/registry.cc.
//
//   hlolayout explain 'f32[3,5]{1,0:T(2,2)}'
//   printf 'print\tf32[2,3]\n' | hlolayout batch     # -> f32[2,3]{1,0}
#ifndef HLOLAYOUT_CLI_COMMAND_H_
#define HLOLAYOUT_CLI_COMMAND_H_

#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace hlolayout::cli {

// Streams a command reads and writes. Tests pass string streams.
struct IoContext {
  std::istream& in;
  std::ostream& out;
  std::ostream& err;
  // The file descriptor behind `in` when it is the process's standard input
  // (the program sets 0; tests and the Python module leave -1): then
  // OpenInput("-") maps a regular file (`< big.bin`) and reads a pipe
  // straight from the descriptor, without a stream's copies.
  int in_fd = -1;
  // The program sets it: the process exits right after the command, so a
  // command may leave what it built for the exit to free (freeing the
  // modules of a 40 MB dump, 250,000 blocks, was a tenth of `hlolayout
  // memory`). Tests and the Python module leave it false.
  bool exits_after = false;
};

// A subcommand: `hlolayout NAME ARGS...`.
struct Command {
  absl::string_view name;
  // One line for `hlolayout --help`.
  absl::string_view summary;
  // Full text for `hlolayout NAME --help`: usage, flags, examples.
  absl::string_view help;
  // `args` excludes the program and command names. `--help` is handled by
  // the dispatcher before `run` is called. Returns the process exit status:
  // 0 success, 1 bad input (message already on io.err), 2 usage error.
  int (*run)(const std::vector<std::string>& args, IoContext& io);
  // When set, builds the help text instead of `help` (for help that lists
  // what is registered, like the batch ops).
  std::string (*help_builder)() = nullptr;
  // False: the dispatcher answers `--help` anywhere in the arguments with
  // `help`. True (commands with subcommands, such as `hlolayout grid
  // explain`): only `hlolayout NAME --help` is answered by the dispatcher;
  // `hlolayout NAME SUB --help` reaches `run`, which prints SUB's help.
  bool has_subcommands = false;
  // Commands with subcommands: every subcommand `run` accepts, in the order
  // the help lists them (`help`, the same as --help, aside). `run` accepts
  // no other and answers any other with UnknownSubcommand (cli/args.h);
  // cli/flags_test.cc checks that the help lists each and that each one's
  // --help lists every flag it parses.
  std::vector<std::string> (*subcommands)() = nullptr;
};

class BatchCache;  // cli/batch_cache.h: parsed shapes shared by batch ops.

// One op of `hlolayout batch`: a line `name<TAB>arg1<TAB>arg2...`.
struct BatchOp {
  absl::string_view name;
  int min_args;
  int max_args;
  // One line for `hlolayout batch --help`, e.g. "print SHAPE -> canonical".
  absl::string_view usage;
  // Returns the answer line (without newline) or an error whose message is
  // printed as `error: <message>` (newlines in it are replaced by spaces).
  absl::StatusOr<std::string> (*run)(absl::Span<const absl::string_view> args,
                                     BatchCache& cache);
};

// Every subcommand and batch op, in the order `--help` lists them.
absl::Span<const Command* const> AllCommands();
absl::Span<const BatchOp* const> AllBatchOps();

}  // namespace hlolayout::cli

#endif  // HLOLAYOUT_CLI_COMMAND_H_

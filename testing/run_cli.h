// testing/run_cli.h: runs `hlolayout ARGS...` in-process for tests.
//
//   CliResult r = RunCli({"print", "f32[2]"});
//   r.status == 0 && r.out == "f32[2]{0}\n"
//
// With the environment variable HLOLAYOUT_RECORD_CLI naming a file, every
// call also appends its arguments and standard input to that file, one line
// each: bench/cli_corpus.py replays the tests' invocations on two builds of
// the CLI and compares their outputs byte for byte.
#ifndef HLOLAYOUT_TESTING_RUN_CLI_H_
#define HLOLAYOUT_TESTING_RUN_CLI_H_

#include <sstream>
#include <string>
#include <vector>

#include "hlolayout/cli/dispatch.h"

namespace hlolayout::cli {

struct CliResult {
  int status;
  std::string out;
  std::string err;
};

// Appends `args` and `input` to $HLOLAYOUT_RECORD_CLI (nothing when it is
// not set): {"args_hex": ["7072696e74", ...], "stdin_hex": "..."}, paths
// under the test's runfiles made relative to the repository's top.
void RecordCliInvocation(const std::vector<std::string>& args,
                         const std::string& input);

// Dispatches `args` with `input` as standard input.
inline CliResult RunCli(const std::vector<std::string>& args,
                        const std::string& input = "") {
  RecordCliInvocation(args, input);
  std::istringstream in(input);
  std::ostringstream out, err;
  IoContext io{in, out, err};
  const int status = Dispatch(args, io);
  return {status, out.str(), err.str()};
}

}  // namespace hlolayout::cli

#endif  // HLOLAYOUT_TESTING_RUN_CLI_H_

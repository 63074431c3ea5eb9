// testing/run_cli.h: runs `hlolayout ARGS...` in-process for tests.
//
//   CliResult r = RunCli({"print", "f32[2]"});
//   r.status == 0 && r.out == "f32[2]{0}\n"
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

// Dispatches `args` with `input` as standard input.
inline CliResult RunCli(const std::vector<std::string>& args,
                        const std::string& input = "") {
  std::istringstream in(input);
  std::ostringstream out, err;
  IoContext io{in, out, err};
  const int status = Dispatch(args, io);
  return {status, out.str(), err.str()};
}

}  // namespace hlolayout::cli

#endif  // HLOLAYOUT_TESTING_RUN_CLI_H_

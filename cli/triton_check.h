// cli/triton_check.h: `hlolayout triton check`, whether Triton accepts a
// layout where a type of a module uses it, and the layout it gives (one
// layout from the command line, or many as JSON lines).
//
//   hlolayout triton check '#ttg.amd_mfma<{...}>' --shape 64x64
//       --threads-per-warp 64 --num-warps 4   (one command line)
//   hlolayout triton check --batch cases.jsonl   # one JSON line per case
#ifndef HLOLAYOUT_CLI_TRITON_CHECK_H_
#define HLOLAYOUT_CLI_TRITON_CHECK_H_

#include <string>
#include <vector>

#include "hlolayout/cli/input.h"

namespace hlolayout::cli {

extern const char kTritonCheckHelp[];

int RunTritonCheck(const std::vector<std::string>& args, IoContext& io);

}  // namespace hlolayout::cli

#endif  // HLOLAYOUT_CLI_TRITON_CHECK_H_

// cli/cute_smem_command.h: `hlolayout cute smem`, the GMMA/UMMA
// shared-memory atoms tiled to a shape and their Triton twins.
#ifndef HLOLAYOUT_CLI_CUTE_SMEM_COMMAND_H_
#define HLOLAYOUT_CLI_CUTE_SMEM_COMMAND_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "hlolayout/cli/command.h"

namespace hlolayout::cli {

extern const absl::string_view kCuteSmemHelp;

// Runs `hlolayout cute smem ARGS...` (args after "smem").
int RunCuteSmem(const std::vector<std::string>& args, IoContext& io);

}  // namespace hlolayout::cli

#endif  // HLOLAYOUT_CLI_CUTE_SMEM_COMMAND_H_

// cli/dispatch.h: runs `hlolayout ARGS...` against the registered commands.
//
//   Dispatch({"print", "f32[2]"}, io)  writes "f32[2]{0}\n" and returns 0.
//
// With no arguments it explains the design card's example shape and says
// how to get help; "--help"/"help" list the commands; "COMMAND --help"
// prints that command's help. Unknown commands are usage errors (status 2).
#ifndef HLOLAYOUT_CLI_DISPATCH_H_
#define HLOLAYOUT_CLI_DISPATCH_H_

#include <string>
#include <vector>

#include "hlolayout/cli/command.h"

namespace hlolayout::cli {

// The shape `hlolayout` explains when run with no arguments.
inline constexpr char kExampleShape[] =
    "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}";

int Dispatch(const std::vector<std::string>& args, IoContext& io);

}  // namespace hlolayout::cli

#endif  // HLOLAYOUT_CLI_DISPATCH_H_

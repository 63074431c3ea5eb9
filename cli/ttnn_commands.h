// cli/ttnn_commands.h: the subcommands of `hlolayout ttnn` (one file each:
// ttnn_spec_command.cc, ttnn_locate_command.cc, ttnn_draw_command.cc,
// ttnn_mesh_command.cc); cli/ttnn_command.cc dispatches to them.
#ifndef HLOLAYOUT_CLI_TTNN_COMMANDS_H_
#define HLOLAYOUT_CLI_TTNN_COMMANDS_H_

#include <string>
#include <vector>

#include "hlolayout/cli/command.h"

namespace hlolayout::cli {

std::string TtnnSpecHelp();
std::string TtnnLocateHelp();
std::string TtnnDrawHelp();
std::string TtnnMeshHelp();

int RunTtnnSpec(const std::vector<std::string>& args, IoContext& io);
int RunTtnnLocate(const std::vector<std::string>& args, IoContext& io);
int RunTtnnDraw(const std::vector<std::string>& args, IoContext& io);
int RunTtnnMesh(const std::vector<std::string>& args, IoContext& io);

}  // namespace hlolayout::cli

#endif  // HLOLAYOUT_CLI_TTNN_COMMANDS_H_

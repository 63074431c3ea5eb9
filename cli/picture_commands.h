// cli/picture_commands.h: the `draw` subcommands of `hlolayout cute` and
// `hlolayout grid` (issue 13), kept here so the cute and grid command files
// only dispatch to them.
//
//   hlolayout cute draw '(4,(2,2)):(2,(1,8))' [--svg FILE|-]
//   hlolayout cute draw --tv '(4,8):(1,4)' '(2,2):(32,64)' --tile 8,8
//   hlolayout grid draw 'tensor<...>' [--svg FILE|-]
#ifndef HLOLAYOUT_CLI_PICTURE_COMMANDS_H_
#define HLOLAYOUT_CLI_PICTURE_COMMANDS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/command.h"
#include "hlolayout/ttmlir/ttmlir_explain.h"

namespace hlolayout::cli {

extern const absl::string_view kCuteDrawHelp;
extern const absl::string_view kGridDrawHelp;

// `args` after "draw". Exit status as Command::run.
int RunCuteDraw(const std::vector<std::string>& args, IoContext& io);

// `load` reads TENSOR (inline, a file or '-') as the other grid
// subcommands do; `args` carries its flags (--type, --worker-grid, ...).
int RunGridDraw(const std::vector<std::string>& args, IoContext& io,
                absl::StatusOr<grid::GridAnalysis> (*load)(const std::string&,
                                                           const Args&,
                                                           IoContext&));

}  // namespace hlolayout::cli

#endif  // HLOLAYOUT_CLI_PICTURE_COMMANDS_H_

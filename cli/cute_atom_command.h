// cli/cute_atom_command.h: the `hlolayout cute` subcommands for CuTe's atoms
// (issue 27): atom, atoms, tiled-mma, tiled-copy, conflicts and the pictures
// draw-mma, draw-copy and draw-banks. cli/cute_command.cc dispatches to them.
//
//   hlolayout cute atom SM80_16x8x16_F16F16F16F16_TN --json
//   hlolayout cute tiled-mma SM80_16x8x16_F32F16F16F32_TN --atom-layout
//   '(2,2,1)' hlolayout cute tiled-copy 'Copy_Atom<SM75_U32x4_LDSM_N, half_t>'
//       --operand A --mma SM80_16x8x16_F32F16F16F32_TN --atom-layout '(2,2,1)'
#ifndef HLOLAYOUT_CLI_CUTE_ATOM_COMMAND_H_
#define HLOLAYOUT_CLI_CUTE_ATOM_COMMAND_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "hlolayout/cli/command.h"

namespace hlolayout::cli {

// True for the subcommand names above.
bool IsCuteAtomSubcommand(absl::string_view op);

// `args` starts with the subcommand name. Exit status as Command::run.
int RunCuteAtomSubcommand(const std::vector<std::string>& args, IoContext& io);

// The subcommands' help (`hlolayout cute SUB --help`).
absl::string_view CuteAtomSubcommandHelp(absl::string_view op);

// Lines for `hlolayout cute --help`, one per subcommand.
std::string CuteAtomSubcommandSummaries();
// The subcommand names, in the order of the summaries.
std::vector<std::string> CuteAtomSubcommandNames();

}  // namespace hlolayout::cli

#endif  // HLOLAYOUT_CLI_CUTE_ATOM_COMMAND_H_

// cli/cute_conflicts_command.h: `hlolayout cute conflicts` (shared-memory
// bank conflicts of a tiled copy or a TV layout) and `hlolayout cute
// draw-banks` (a shared-memory layout coloured by bank).
//
//   hlolayout cute conflicts '(32,16):(16,1)'
//       'Copy_Atom<SM75_U32x4_LDSM_N, half_t>' --operand A
//       --mma SM80_16x8x16_F16F16F16F16_TN --atom-layout '(2,1,1)'
//   hlolayout cute draw-banks '(8,64):(64,1)' --bits 16
#ifndef HLOLAYOUT_CLI_CUTE_CONFLICTS_COMMAND_H_
#define HLOLAYOUT_CLI_CUTE_CONFLICTS_COMMAND_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "hlolayout/cli/command.h"

namespace hlolayout::cli {

extern const absl::string_view kConflictsHelp;
extern const absl::string_view kDrawBanksHelp;

// `args` after the subcommand name. Exit status as Command::run.
int RunConflicts(const std::vector<std::string>& args, IoContext& io);
int RunDrawBanks(const std::vector<std::string>& args, IoContext& io);

}  // namespace hlolayout::cli

#endif  // HLOLAYOUT_CLI_CUTE_CONFLICTS_COMMAND_H_

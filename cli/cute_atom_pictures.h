// cli/cute_atom_pictures.h: `hlolayout cute draw-mma` and `draw-copy`, the
// pictures CuTe's print_latex makes of a tiled MMA (A, B and C panels) and a
// tiled copy (S and D panels), as terminal text or SVG.
//
//   hlolayout cute draw-mma SM80_16x8x8_F32TF32TF32F32_TN
//       --atom-layout '(2,2,1)'
//   hlolayout cute draw-copy 'Copy_Atom<SM75_U32x4_LDSM_N, half_t>'
//       --operand A --mma SM80_16x8x16_F32F16F16F32_TN --svg ldsm.svg
#ifndef HLOLAYOUT_CLI_CUTE_ATOM_PICTURES_H_
#define HLOLAYOUT_CLI_CUTE_ATOM_PICTURES_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "hlolayout/cli/command.h"

namespace hlolayout::cli {

extern const absl::string_view kDrawMmaHelp;
extern const absl::string_view kDrawCopyHelp;

// `args` after the subcommand name. Exit status as Command::run.
int RunDrawMma(const std::vector<std::string>& args, IoContext& io);
int RunDrawCopy(const std::vector<std::string>& args, IoContext& io);

}  // namespace hlolayout::cli

#endif  // HLOLAYOUT_CLI_CUTE_ATOM_PICTURES_H_

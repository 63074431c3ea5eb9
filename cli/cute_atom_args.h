// cli/cute_atom_args.h: the options shared by the tiled MMA and tiled copy
// subcommands of `hlolayout cute` and their pictures.
//
//   NAME [--atom-layout L] [--permutation P]                    a tiled MMA
//   'Copy_Atom<OP, T>' (--thr L --val L | --operand X --mma NAME
//                      [--atom-layout L] [--permutation P])     a tiled copy
#ifndef HLOLAYOUT_CLI_CUTE_ATOM_ARGS_H_
#define HLOLAYOUT_CLI_CUTE_ATOM_ARGS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cute/atom/tiled_copy.h"
#include "hlolayout/cute/atom/tiled_mma.h"

namespace hlolayout::cli {

// The flags each form reads (for ParseArgs).
inline constexpr absl::string_view kTiledMmaFlags[] = {"atom-layout",
                                                       "permutation"};
inline constexpr absl::string_view kTiledCopyFlags[] = {
    "thr", "val", "operand", "mma", "atom-layout", "permutation"};

// TiledMmaFromArgs
//
// The MMA atom `name` tiled by --atom-layout and --permutation. On a bad
// option, `failed_option` is set to its flag ("--permutation").
absl::StatusOr<cute::TiledMma> TiledMmaFromArgs(const std::string& name,
                                                const Args& args,
                                                std::string& failed_option);

// TiledCopyFromArgs
//
// The tiled copy of the one positional argument. `failed_option` is
// "usage" for a wrong combination of flags (exit status 2), else as above.
absl::StatusOr<cute::TiledCopy> TiledCopyFromArgs(
    const std::vector<std::string>& positional, const Args& args,
    std::string& failed_option);

}  // namespace hlolayout::cli

#endif  // HLOLAYOUT_CLI_CUTE_ATOM_ARGS_H_

// cli/cute_atom_pictures.cc: the picture subcommands of CuTe's atoms.
#include "hlolayout/cli/cute_atom_pictures.h"

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/cute_atom_args.h"
#include "hlolayout/cli/draw_output.h"
#include "hlolayout/draw/cell_grid.h"
#include "hlolayout/views/tv_picture.h"

namespace hlolayout::cli {

const absl::string_view kDrawMmaHelp =
    R"(usage: hlolayout cute draw-mma NAME [--atom-layout L] [--permutation P]
                                [--svg FILE|-] [--ascii] [--color WHEN]

Draws a tiled MMA as CuTe's print_latex does: the A (M x K), B (K x N) and
C (M x N) tiles, each element labelled "T<thread> V<value>" with the first
(thread, value) pair that holds it and filled with CuTe's colour for that
thread (its eight TikzColor_TV colours, thread % 8). NAME, --atom-layout and
--permutation are those of `hlolayout cute tiled-mma`. At most 16,384 cells
per panel.

flags:
  --svg FILE     write a self-contained SVG; '-' = stdout (cells carry
                 data-coord="r,c", data-thread and data-value)
  --ascii        + - | instead of box-drawing characters (text only)
  --color WHEN   auto (default), always or never (text only)
  --help         this text

examples:
  hlolayout cute draw-mma SM80_8x8x4_F64F64F64F64_TN --atom-layout '(1,2,1)'
  hlolayout cute draw-mma SM80_16x8x16_F32F16F16F32_TN --atom-layout '(2,2,1)' --svg tiled_mma.svg
)";

const absl::string_view kDrawCopyHelp =
    R"(usage: hlolayout cute draw-copy 'Copy_Atom<OP, T>' (--thr L --val L |
                   --operand A|B|C|C_atom --mma NAME [--atom-layout L]
                   [--permutation P]) [--svg FILE|-] [--ascii] [--color WHEN]

Draws a tiled copy as CuTe's print_latex does: the tile in source order (S)
and in destination order (D), each element labelled "T<thread> V<value>"
and coloured by thread (CuTe's colours). The options are those of
`hlolayout cute tiled-copy`.

flags:
  --svg FILE     write a self-contained SVG; '-' = stdout
  --ascii        + - | instead of box-drawing characters (text only)
  --color WHEN   auto (default), always or never (text only)
  --help         this text

example:
  hlolayout cute draw-copy 'Copy_Atom<SM75_U32x4_LDSM_N, half_t>' --operand A --mma SM80_16x8x16_F32F16F16F32_TN
)";

namespace {

// `places`: where each grid goes in the SVG (empty: side by side).
int Emit(const std::vector<draw::CellGrid>& grids, const std::string& title,
         absl::Span<const draw::GridPlace> places, const Args& args,
         absl::string_view who, IoContext& io) {
  absl::StatusOr<bool> colour = ShouldColour(args.Value("color", "auto"), io);
  if (!colour.ok()) {
    io.err << who << ": " << colour.status().message() << "\n";
    return 2;
  }
  if (args.Has("svg")) {
    absl::Status s =
        WriteSvg(args.Value("svg", "-"),
                 places.empty() ? draw::GridsToSvg(grids, title)
                                : draw::GridsToSvg(grids, title, places),
                 io);
    if (!s.ok()) {
      io.err << who << ": " << s.message() << "\n";
      return 1;
    }
    return 0;
  }
  io.out << draw::PictureToText(title, grids,
                                draw::TextStyle{*colour, args.Has("ascii")});
  return 0;
}

std::vector<absl::string_view> With(absl::Span<const absl::string_view> base) {
  std::vector<absl::string_view> out(base.begin(), base.end());
  out.push_back("svg");
  out.push_back("color");
  return out;
}

}  // namespace

int RunDrawMma(const std::vector<std::string>& raw, IoContext& io) {
  constexpr absl::string_view kWho = "hlolayout cute draw-mma";
  static const std::vector<absl::string_view> valued = With(kTiledMmaFlags);
  absl::StatusOr<Args> args = ParseArgs(raw, {"ascii"}, valued);
  if (!args.ok()) {
    io.err << kWho << ": " << args.status().message() << "\n";
    return 2;
  }
  if (args->positional.size() != 1) {
    io.err << kWho << ": expected one MMA atom NAME (" << kWho << " --help)\n";
    return 2;
  }
  std::string failed;
  absl::StatusOr<cute::TiledMma> tm =
      TiledMmaFromArgs(args->positional[0], *args, failed);
  if (!tm.ok()) {
    io.err << kWho << ": " << (failed.empty() ? "" : failed + ": ")
           << tm.status().message() << "\n";
    return 1;
  }
  absl::StatusOr<std::vector<draw::CellGrid>> grids = draw::TiledMmaGrids(*tm);
  if (!grids.ok()) {
    io.err << kWho << ": " << grids.status().message() << "\n";
    return 1;
  }
  std::string title = absl::StrCat("TiledMMA ", tm->atom.name);
  if (args->Has("atom-layout")) {
    absl::StrAppend(&title, " atom layout ", args->Value("atom-layout", ""));
  }
  if (args->Has("permutation")) {
    absl::StrAppend(&title, " permutation ", args->Value("permutation", ""));
  }
  return Emit(*grids, title, draw::kMmaPlaces, *args, kWho, io);
}

int RunDrawCopy(const std::vector<std::string>& raw, IoContext& io) {
  constexpr absl::string_view kWho = "hlolayout cute draw-copy";
  static const std::vector<absl::string_view> valued = With(kTiledCopyFlags);
  absl::StatusOr<Args> args = ParseArgs(raw, {"ascii"}, valued);
  if (!args.ok()) {
    io.err << kWho << ": " << args.status().message() << "\n";
    return 2;
  }
  std::string failed;
  absl::StatusOr<cute::TiledCopy> tc =
      TiledCopyFromArgs(args->positional, *args, failed);
  if (!tc.ok()) {
    io.err << kWho << ": "
           << (failed.empty() || failed == "usage" ? "" : failed + ": ")
           << tc.status().message() << "\n";
    return failed == "usage" ? 2 : 1;
  }
  absl::StatusOr<std::vector<draw::CellGrid>> grids = draw::TiledCopyGrids(*tc);
  if (!grids.ok()) {
    io.err << kWho << ": " << grids.status().message() << "\n";
    return 1;
  }
  return Emit(*grids, absl::StrCat("TiledCopy ", tc->atom.name()), {}, *args,
              kWho, io);
}

}  // namespace hlolayout::cli

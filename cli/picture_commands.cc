#include "hlolayout/cli/picture_commands.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/draw_output.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/cute/print.h"
#include "hlolayout/views/cute_picture.h"
#include "hlolayout/views/grid_analysis_picture.h"

namespace hlolayout::cli {

const absl::string_view kCuteDrawHelp =
    R"(usage: hlolayout cute draw LAYOUT [--svg FILE|-] [--ascii] [--color WHEN]
       hlolayout cute draw --tv THR_LAYOUT VAL_LAYOUT --tile M,N [--svg FILE|-]

Draws a CuTe layout as a grid of its codomain indices: a rank-2 layout as
rows (mode 0) by columns (mode 1), a rank-1 or integral layout as one row,
cell (i,j) labelled with L(i,j) and coloured by it; nested modes get heavier
lines between their groups. A swizzled (composed) layout, e.g.
'Sw<3,4,3> o _0 o (_8,_64):(_64,_1)', draws over its inner layout's shape
with the swizzled indices. At most 16,384 cells.

With --tv, draws a thread-value partition of an MxN tile: thread t and value
v own index THR(t) + VAL(v) (column-major in the tile: row = index % M,
column = index / M), labelled "T3 V1" and coloured by thread; the picture
CuTe's print_svg makes for MMA atoms, for any TV layout.

flags:
  --svg FILE   write a self-contained SVG; '-' = stdout (cells carry
               data-coord="i,j" and data-index="k", or data-thread and
               data-value with --tv)
  --tv         THR_LAYOUT VAL_LAYOUT instead of LAYOUT
  --tile M,N   the tile of --tv
  --ascii      + - | instead of box-drawing characters (text only)
  --color WHEN auto (default), always or never (text only)
  --help       this text

examples:
  hlolayout cute draw '(4,(2,2)):(2,(1,8))'
  hlolayout cute draw '(8,8):(8,1)' --svg rowmajor.svg
  hlolayout cute draw --tv '(4,8):(1,4)' '(2,2):(32,64)' --tile 8,16
)";

const absl::string_view kGridDrawHelp =
    R"(usage: hlolayout grid draw TENSOR|FILE|- [--svg FILE|-] [--ascii] [--color WHEN]

Draws a tensor type with a tt-mlir layout: the shard grid over the last two
collapsed (physical) dims, each shard coloured by shard, tiles inside a
tilized shard as red boxes, padding hatched (text: each cell shows its
shard number, row-major over the grid, '~' partly padding, '.' padding).
Hover text names the core (x,y) or DRAM bank holding each shard.
Interleaved TTNN layouts show their pages coloured by DRAM bank (page mod
banks) or page. One cell per scalar when the picture has at most 4,096
cells (text: 1,024 cells, 48 columns), else one per tile or block, with the
scale stated.

flags:
  --svg FILE   write a self-contained SVG; '-' = stdout (cells carry
               data-core="y,x" (2024 form) or data-shard="y,x", and
               data-fill)
  --worker-grid=RxC, --dram-banks=N, --type=K   as for 'grid explain'
  --ascii      + - | instead of box-drawing characters (text only)
  --color WHEN auto (default), always or never (text only)
  --help       this text

example:
  hlolayout grid draw 'tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, memref<1x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>>>'
)";

namespace {

// Writes `grid` as SVG (--svg) or text. Returns the exit status.
int Emit(const draw::CellGrid& grid, const std::string& title, const Args& args,
         absl::string_view who, IoContext& io) {
  absl::StatusOr<bool> colour = ShouldColour(args.Value("color", "auto"), io);
  if (!colour.ok()) {
    io.err << who << ": " << colour.status().message() << "\n";
    return 2;
  }
  if (args.Has("svg")) {
    absl::Status s =
        WriteSvg(args.Value("svg", "-"), draw::GridsToSvg({grid}, title), io);
    if (!s.ok()) {
      io.err << who << ": " << s.message() << "\n";
      return 1;
    }
    return 0;
  }
  io.out << draw::PictureToText(title, {grid},
                                draw::TextStyle{*colour, args.Has("ascii")});
  return 0;
}

}  // namespace

int RunCuteDraw(const std::vector<std::string>& raw, IoContext& io) {
  constexpr absl::string_view kWho = "hlolayout cute draw";
  static constexpr absl::string_view kSwitches[] = {"ascii", "tv"};
  static constexpr absl::string_view kValued[] = {"svg", "tile", "color"};
  absl::StatusOr<Args> args = ParseArgs(raw, kSwitches, kValued);
  if (!args.ok()) {
    io.err << kWho << ": " << args.status().message() << "\n";
    return 2;
  }
  const bool tv = args->Has("tv");
  const size_t want = tv ? 2 : 1;
  if (args->positional.size() != want) {
    io.err << kWho << ": expects "
           << (tv ? "THR_LAYOUT VAL_LAYOUT" : "one LAYOUT")
           << " (hlolayout cute draw --help)\n";
    return 2;
  }
  // A TV partition takes two layouts; a picture of one layout also takes a
  // swizzle or a composed (swizzled) layout.
  std::vector<cute::AnyLayout> layouts;
  for (const std::string& text : args->positional) {
    absl::StatusOr<cute::AnyLayout> l = cute::ParseAnyLayout(text);
    if (l.ok() && tv && !l->is_layout()) {
      l = absl::InvalidArgumentError(
          absl::StrCat("--tv takes layouts, not '", text, "'"));
    }
    if (!l.ok()) {
      io.err << kWho << ": " << l.status().message() << "\n";
      return 1;
    }
    layouts.push_back(*l);
  }
  absl::StatusOr<draw::CellGrid> grid;
  std::string title;
  if (tv) {
    if (!args->Has("tile")) {
      io.err << kWho << ": --tv needs --tile M,N\n";
      return 2;
    }
    const std::string tile = args->Value("tile", "");
    std::vector<std::string> mn = absl::StrSplit(tile, ',');
    int64_t m = 0, n = 0;
    if (mn.size() != 2 || !absl::SimpleAtoi(mn[0], &m) ||
        !absl::SimpleAtoi(mn[1], &n)) {
      io.err << kWho << ": bad --tile '" << tile << "': expected M,N\n";
      return 2;
    }
    grid = draw::CuteTvGrid(layouts[0].layout(), layouts[1].layout(), m, n);
    title = absl::StrCat("TV ", cute::ToString(layouts[0]), " ",
                         cute::ToString(layouts[1]), " on ", m, "x", n);
  } else {
    grid = draw::CuteLayoutGrid(layouts[0]);
    if (grid.ok()) title = grid->heading;  // "CuTe layout L"
  }
  if (!grid.ok()) {
    io.err << kWho << ": " << grid.status().message() << "\n";
    return 1;
  }
  return Emit(*grid, title, *args, kWho, io);
}

int RunGridDraw(const std::vector<std::string>& raw, IoContext& io,
                absl::StatusOr<grid::GridAnalysis> (*load)(const std::string&,
                                                           const Args&,
                                                           IoContext&)) {
  constexpr absl::string_view kWho = "hlolayout grid draw";
  static constexpr absl::string_view kSwitches[] = {"ascii"};
  static constexpr absl::string_view kValued[] = {"svg", "color", "worker-grid",
                                                  "dram-banks", "type"};
  absl::StatusOr<Args> args = ParseArgs(raw, kSwitches, kValued);
  if (!args.ok() || args->positional.size() != 1) {
    io.err << kWho << ": "
           << (args.ok() ? "expects one TENSOR (or FILE, or '-')"
                         : args.status().message())
           << "\n";
    return 2;
  }
  absl::StatusOr<grid::GridAnalysis> a = load(args->positional[0], *args, io);
  if (!a.ok()) {
    io.err << kWho << ": " << a.status().message() << "\n";
    return 1;
  }
  for (const std::string& w : a->warnings) {
    io.err << kWho << ": warning: " << w << "\n";
  }
  absl::StatusOr<draw::GridAnalysisPicture> picture =
      draw::DrawGridAnalysis(*a, /*for_text=*/!args->Has("svg"));
  if (!picture.ok()) {
    io.err << kWho << ": " << picture.status().message() << "\n";
    return 1;
  }
  return Emit(picture->grid, picture->title, *args, kWho, io);
}

}  // namespace hlolayout::cli

// draw/tikz.h: a CellGrid (draw/cell_grid.h) as TikZ, the third form
// hlolayout writes its pictures in after SVG and terminal text. The text
// follows the pictures the CuTe DSL prints (cute.viz.print_latex and
// print_latex_tv; the rules are in docs/cute-dsl.md, "TikZ pictures"), so
// that the twin's pictures compile in LaTeX as the DSL's do.
//
//   CellGrid g = *CuteLayoutGrid(*cute::ParseAnyLayout("(2,3):(3,1)"));
//   std::vector<std::string> p = GridToTikz(
//       g, [](const GridCell& c) { return TikzFill{{0, 1, TikzGrey(c.ids[0])}};
//       }, TikzOptions{});
//   p[1] == "\\node[fill="   p[2] == "black!00"   p[3] == "] at (0,0) {0};\n"
//   TikzDocument("%% Layout: {} (2,3):(3,1)", p)   // the lines of a .tex file
//
// The picture is a list of pieces: the DSL prints each on a line of its own
// or hands them, joined by spaces, to a caller's function.
#ifndef HLOLAYOUT_DRAW_TIKZ_H_
#define HLOLAYOUT_DRAW_TIKZ_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "hlolayout/draw/cell_grid.h"

namespace hlolayout::draw {

// A horizontal stripe of a cell: from `from` to `to` of its height (0 its
// top edge, 1 its bottom edge), filled with the TikZ colour `colour`.
struct TikzStripe {
  double from = 0;
  double to = 1;
  std::string colour;
};
using TikzFill = std::vector<TikzStripe>;

struct TikzOptions {
  // false: each cell is a node filled with its first stripe's colour and
  // labelled (print_latex). true: each stripe is a filled rectangle, then
  // the label node (print_latex_tv).
  bool striped = false;
  // The cells drawn (row-major indices into the grid), in this order; empty:
  // every cell, row by row.
  std::vector<int64_t> order;
  // "M (row)" and "N (col)" arrows beside the grid.
  bool axis_labels = false;
  // Lines above the grid (in \texttt, LaTeX's special characters escaped);
  // empty: no title.
  std::vector<std::string> title;
};

// The pieces of the picture of `grid`, each cell filled as `fill` says.
std::vector<std::string> GridToTikz(
    const CellGrid& grid, const std::function<TikzFill(const GridCell&)>& fill,
    const TikzOptions& options);

// The lines of a standalone LaTeX file holding the picture: `comment` (a
// line starting with %), the preamble, the pieces one a line, the end.
std::vector<std::string> TikzDocument(const std::string& comment,
                                      const std::vector<std::string>& pieces);

// `text` with LaTeX's special characters (# $ % & _ { } \ ^ ~) written so
// that they print as themselves.
std::string TikzEscape(absl::string_view text);

// Colours as TikZ writes them.
//   TikzGreyPercent(k): the grey of index k, in percent of black: ten times
//     k's three low bits read backwards (0, 40, 20, 60, 10, 50, 30, 70), so
//     that neighbouring indices differ most.
//   TikzGrey(k) == "black!40" for k = 1 (two digits: "black!00").
//   TikzRgb(175, 175, 255) == "{rgb,255:red,175;green,175;blue,255}".
//   TikzTvColour(t): CuteTvColour(t) (draw/palette.h) as TikzRgb.
//   TikzHue(i, n, s): hue i/n of the colour wheel (red at 0) at saturation
//     s and full value, each channel rounded to the nearest of 0..255
//     (halves to even). Precondition: n > 0.
int TikzGreyPercent(int64_t k);
std::string TikzGrey(int64_t k);
std::string TikzRgb(int red, int green, int blue);
std::string TikzTvColour(int64_t thread);
std::string TikzHue(int64_t i, int64_t n, double saturation);

}  // namespace hlolayout::draw

#endif  // HLOLAYOUT_DRAW_TIKZ_H_

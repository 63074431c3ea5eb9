// views/tv_picture.h: pictures of tiled MMAs and tiled copies like CuTe's
// print_latex, as CellGrids (draw/cell_grid.h) for SVG and the terminal.
//
// Each cell of a panel is one element of the tile, labelled "T<thread>
// V<value>" (in SVG T<thread> over V<value>, so that cells stay narrow) with
// the first (thread, value) pair, threads outer and values inner, that maps
// to it (CuTe's rule), and filled with CuTe's colour for that thread:
// CuteTvColour(t) is TikzColor_TV's entry t % 8,
//
//   CuteTvColour(0) == "#AFAFFF"   (rgb 175,175,255)
//   CuteTvColour(9) == "#AFFFAF"   (rgb 175,255,175)
//
//   TiledMmaGrids(tm)   -> {A: M x K, B: K x N (as print_latex draws it,
//                           k down, n across), C: M x N}
//   GridsToSvg(grids, title, kMmaPlaces)   print_latex's arrangement: C
//                           with A to its left and B above it
//   TiledCopyGrids(tc)  -> {S, D}: the tile in source and destination order,
//                           side by side
//
// Cells: <g class="tv-cell" data-coord="r,c" data-thread="t" data-value="v">
// (class "tv-cell unowned" for an element no pair maps to).
#ifndef HLOLAYOUT_VIEWS_TV_PICTURE_H_
#define HLOLAYOUT_VIEWS_TV_PICTURE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/cute/atom/tiled_copy.h"
#include "hlolayout/cute/atom/tiled_mma.h"
#include "hlolayout/cute/layout.h"
#include "hlolayout/draw/cell_grid.h"
#include "hlolayout/draw/palette.h"  // CuteTvColour, CuteTvAnsi256

namespace hlolayout::draw {

// TvPanel
//
// One panel: `tv` maps (thread, value) to the column-major index of a
// rows x cols tile; with `transpose` the panel is drawn cols x rows (CuTe's
// B panel). Errors: a tile of more than kMaxTvCells cells or more than 2^22
// (thread, value) pairs, an index outside the tile.
inline constexpr int64_t kMaxTvCells = 16384;
absl::StatusOr<CellGrid> TvPanel(const cute::Layout& tv, int64_t rows,
                                 int64_t cols, bool transpose,
                                 const std::string& heading);

// TvTileGrid
//
// A (thread, value) layout over a tile given as a layout (M,N):(a,b), as
// the CuTe DSL's print_latex_tv places it: the index k = tv(t, v) sits at
// row floor(k / a) mod M and column floor(k / b) mod N (a mode of one
// element is its one row or column whatever its stride); the first pair,
// threads outer and values inner, owns a cell, and the cells no pair
// reaches stay unowned. `order`, when not null, receives the owned cells
// (row-major indices) in the order their owners came. Errors: a tile that
// is not two integer modes, a mode of several elements with stride 0, the
// limits of TvPanel.
absl::StatusOr<CellGrid> TvTileGrid(const cute::Layout& tv,
                                    const cute::Layout& tile,
                                    std::vector<int64_t>* order);

// TiledMmaGrids
//
// The A, B and C panels of a tiled MMA.
absl::StatusOr<std::vector<CellGrid>> TiledMmaGrids(const cute::TiledMma& tm);

// Where print_latex puts the A, B and C panels: B above C, A to C's left
// (A's rows are C's rows, B's columns C's columns), for GridsToSvg.
inline constexpr GridPlace kMmaPlaces[3] = {{1, 0}, {0, 1}, {1, 1}};

// TiledCopyGrids
//
// The S and D panels of a tiled copy, each as print_latex draws it: cell
// (m, n) of the Tiler_MN's shape (m + M*n the tile index), also when the
// tiler is made of layouts (make_tiled_copy_C_atom). Error for a tiler of
// rank other than 2.
absl::StatusOr<std::vector<CellGrid>> TiledCopyGrids(const cute::TiledCopy& tc);

}  // namespace hlolayout::draw

#endif  // HLOLAYOUT_VIEWS_TV_PICTURE_H_

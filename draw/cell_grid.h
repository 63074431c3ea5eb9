// draw/cell_grid.h: a picture as labelled grids of coloured cells, rendered
// as SVG (side by side) or as terminal text (one under the other). The
// layout, CuTe and grid pictures build CellGrids; this file draws them.
//
//   CellGrid g;  g.rows = 1;  g.cols = 2;  g.heading = "offsets";
//   g.cells.resize(2);  g.cells[0].label = "0";  g.cells[1].label = "1";
//   g.cells[0].colour = 0;  g.cells[1].colour = 1;
//   std::string svg = GridsToSvg({g}, "f32[2]");
//   std::string txt = GridsToText({g}, TextStyle{});
//
// Borders: a heavy line between neighbouring cells whose `group` differs
// (tiles), an inset red box around each run of cells with the same `sub`
// (second-level tiles; -1 draws none), a dotted line between cells of the
// same group whose `byte` differs (sub-byte elements sharing a byte).
#ifndef HLOLAYOUT_DRAW_CELL_GRID_H_
#define HLOLAYOUT_DRAW_CELL_GRID_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/types/span.h"

namespace hlolayout::draw {

struct GridCell {
  bool present = true;    // false: an empty spot (end of a wrapped row)
  std::string label;      // text inside the cell
  std::string title;      // hover text (SVG <title>)
  std::string css_class;  // "element", "padding", ...
  // Attributes written on the cell, e.g. {"data-offset", "17"}.
  std::vector<std::pair<std::string, std::string>> attrs;
  int64_t colour = -1;  // palette group; -1 white
  // A fill outside the palette ("#RRGGBB", e.g. CuTe's TV colours): used
  // instead of `colour` when set, with `ansi` (xterm-256) in terminals.
  std::string rgb;
  int ansi = -1;
  bool hatched = false;  // padding: grey hatch instead of a colour
  int64_t group = -1;    // heavy border between cells of different groups
  int64_t sub = -1;      // red box around runs of equal sub; -1 none
  int64_t byte = -1;     // dotted border between different bytes; -1 none
  // Tile-granularity cells: the fraction of the cell holding elements, drawn
  // as a coloured bar over the hatch. -1: an ordinary cell.
  double fill = -1;
  // What the cell stands for, as numbers, for renderers that colour cells
  // with a caller's function (draw/tikz.h): a CuTe layout's cell holds
  // {index}, a thread-value cell {thread, value}; empty elsewhere.
  std::vector<int64_t> ids;
};

struct CellGrid {
  std::string heading;             // bold first line
  std::vector<std::string> notes;  // lines under it (scale, legend)
  std::string css_class;           // on the grid's <g>, e.g. "view logical"
  int64_t rows = 0;
  int64_t cols = 0;
  std::vector<std::string> row_labels;  // empty or `rows` entries
  std::vector<std::string> col_labels;  // empty or `cols` entries
  std::vector<GridCell> cells;          // rows * cols, row-major
  // Tile granularity: small SVG cells; in text one character per cell and
  // no borders.
  bool coarse = false;
  // Small unlabelled SVG cells, borders kept (pictures of many scalars).
  bool compact = false;
  // SVG: each cell's label words one under the other ("T12 V3" as T12 over
  // V3), for narrow cells; the text form keeps one line.
  bool stacked_labels = false;
};

// Lays `count` cells out `cols` to a row: sets the grid's columns, as many
// rows as they need and its cells, those after the last one absent
// (present = false, the end of a wrapped row). The caller fills cells 0 to
// count - 1.
inline void WrapCells(int64_t count, int64_t cols, CellGrid* g) {
  g->cols = cols;
  g->rows = cols <= 0 ? 0 : (count + cols - 1) / cols;
  g->cells.resize(g->rows * g->cols);
  for (int64_t i = count; i < g->rows * g->cols; ++i) {
    g->cells[i].present = false;
  }
}

// A self-contained SVG with the grids side by side under `title`. A grid
// whose heading is the title itself (a one-grid picture) is not headed
// again.
std::string GridsToSvg(absl::Span<const CellGrid> grids,
                       const std::string& title);

// Where a grid goes in an arrangement: its row and column in a table of
// grids (0-based).
struct GridPlace {
  int row = 0;
  int col = 0;
};

// The same with grid i at places[i]: every grid of the picture gets one
// cell size, the grids of a table row have the top edges of their cells
// aligned and those of a table column the left edges, so that a row of
// cells in one grid continues in its neighbour (CuTe's print_latex of a
// TiledMMA: B above C, A to C's left). Precondition: one place per grid,
// no two grids in one place.
std::string GridsToSvg(absl::Span<const CellGrid> grids,
                       const std::string& title,
                       absl::Span<const GridPlace> places);

struct TextStyle {
  bool colour = false;  // ANSI 256-colour backgrounds
  bool ascii = false;   // + - | instead of box-drawing characters
};

// The grids as text, one under the other, separated by a blank line.
std::string GridsToText(absl::Span<const CellGrid> grids, TextStyle style);

// A picture as text: `title`, a blank line, then the grids as GridsToText
// draws them, except that a grid whose heading is the title itself (a
// one-grid picture) is not headed again: its notes follow the title.
std::string PictureToText(const std::string& title,
                          absl::Span<const CellGrid> grids, TextStyle style);

}  // namespace hlolayout::draw

#endif  // HLOLAYOUT_DRAW_CELL_GRID_H_

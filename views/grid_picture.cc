#include "hlolayout/views/grid_picture.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/ttmlir/element_type.h"

namespace hlolayout::draw {
namespace {

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

std::string Percent(double f) {
  return absl::StrCat(static_cast<int64_t>(f * 100 + 0.5), "%");
}

// The two pictured grid dims, a (rows; -1 for one row) and b (columns): the
// grid (gy, gx), physical shard (py, px), shard (sy, sx) and collapsed
// extent (ey, ex) along them, the tile when tilized, and the unit of one
// cell (uy x ux scalars) with the cells a shard takes (nby x nbx).
struct Pictured {
  int64_t a = -1, b = 0;
  int64_t gy = 1, gx = 1, py = 1, px = 1, sy = 1, sx = 1, ey = 1, ex = 1;
  bool tilized = false;
  int64_t th = 1, tw = 1;
  int64_t uy = 1, ux = 1, nby = 1, nbx = 1;
};

// The pictured dims of `layout` (grid rank >= 1) and the cell unit: scalars
// when they fit in the limits, else blocks of k x k scalars.
Pictured PictureDims(const grid::MetalLayout& layout, bool for_text) {
  const std::vector<int64_t>& grid = layout.grid();
  const std::vector<int64_t>& E = layout.collapsed_extent();
  const std::vector<int64_t>& S = layout.shard_shape();
  const std::vector<int64_t>& P = layout.physical_shard_shape();
  const int64_t gr = layout.grid_rank();
  Pictured p;
  p.b = gr - 1;
  p.a = gr >= 2 ? gr - 2 : -1;
  const int64_t a = p.a, b = p.b;
  p.gy = a >= 0 ? grid[a] : 1;
  p.gx = grid[b];
  p.py = a >= 0 ? P[a] : 1;
  p.px = P[b];
  p.sy = a >= 0 ? S[a] : 1;
  p.sx = S[b];
  p.ey = a >= 0 ? E[a] : 1;
  p.ex = E[b];
  p.tilized = layout.tile().has_value() && a >= 0;
  p.th = p.tilized ? layout.tile()->height : 1;
  p.tw = p.tilized ? layout.tile()->width : 1;
  const int64_t max_cells = for_text ? 1024 : 4096;
  const int64_t max_cols = for_text ? 48 : 1 << 30;
  auto cells = [&](int64_t y, int64_t x) {
    return p.gy * CeilDiv(p.py, y) * p.gx * CeilDiv(p.px, x);
  };
  auto cols_for = [&](int64_t x) { return p.gx * CeilDiv(p.px, x); };
  if (cells(1, 1) > max_cells || cols_for(1) > max_cols) {
    int64_t k = 2;
    while (cells(k, k) > max_cells || cols_for(k) > max_cols) {
      k += std::max<int64_t>(1, k / 8);
    }
    p.uy = p.ux = k;
  }
  p.nby = CeilDiv(p.py, p.uy);
  p.nbx = CeilDiv(p.px, p.ux);
  return p;
}

// The heading and notes: the grid, cores and shard, what colours and
// hatching mean, which grid dims are drawn, the scale.
void AddHeadingAndNotes(const grid::MetalLayout& layout, const Pictured& p,
                        bool for_text, CellGrid& g) {
  const std::vector<int64_t>& grid = layout.grid();
  g.heading = absl::StrCat(
      "grid ", grid::DimsToString(grid), ": ", layout.num_cores(),
      " cores, shard ", grid::DimsToString(layout.shard_shape()),
      p.tilized
          ? absl::StrCat(", padded to ",
                         grid::DimsToString(layout.physical_shard_shape()),
                         " (tiles of ", p.th, "x", p.tw, ")")
          : "");
  g.notes.push_back(absl::StrCat(
      "collapsed tensor ", grid::DimsToString(layout.collapsed_extent()),
      "; colour: core; hatched", for_text ? " or '.'" : "", ": padding"));
  if (layout.grid_rank() > 2) {
    g.notes.push_back(absl::StrCat("the last two grid dims; outer index 0 of ",
                                   grid::DimsToString(std::vector<int64_t>(
                                       grid.begin(), grid.end() - 2))));
  }
  g.notes.push_back(
      p.uy == 1 && p.ux == 1
          ? (p.tilized ? "1 cell = 1 scalar; red boxes: tiles"
                       : "1 cell = 1 scalar")
          : absl::StrCat("scale: 1 cell = ", p.uy, "x", p.ux,
                         " scalars; filled in proportion to the elements "
                         "it holds"));
}

// One cell per unit of every core's shard, coloured by core and filled in
// proportion to the elements it holds.
void FillCoreCells(const Pictured& p, bool for_text, CellGrid& g) {
  const int64_t uy = p.uy, ux = p.ux, nby = p.nby, nbx = p.nbx;
  g.rows = p.gy * nby;
  g.cols = p.gx * nbx;
  g.coarse = false;
  g.cells.resize(g.rows * g.cols);
  for (int64_t r = 0; r < g.rows; ++r) {
    const int64_t y = r / nby, lr0 = (r % nby) * uy,
                  lr1 = std::min(p.py, lr0 + uy);
    const int64_t vy = std::clamp<int64_t>(
        std::min(p.sy, p.ey - y * p.sy) - lr0, 0, lr1 - lr0);
    for (int64_t c = 0; c < g.cols; ++c) {
      const int64_t x = c / nbx, lc0 = (c % nbx) * ux,
                    lc1 = std::min(p.px, lc0 + ux);
      const int64_t vx = std::clamp<int64_t>(
          std::min(p.sx, p.ex - x * p.sx) - lc0, 0, lc1 - lc0);
      const double fill = static_cast<double>(vy) * vx /
                          (static_cast<double>(lr1 - lr0) * (lc1 - lc0));
      GridCell& cell = g.cells[r * g.cols + c];
      const int64_t core = y * p.gx + x;
      const std::string core_text =
          p.a >= 0 ? absl::StrCat(y, ",", x) : absl::StrCat(x);
      cell.css_class = fill > 0 ? "grid-cell" : "grid-cell padding";
      cell.attrs = {{"data-core", core_text}, {"data-fill", Percent(fill)}};
      cell.group = core;
      cell.colour = core;
      if (uy == 1 && ux == 1) {
        cell.hatched = fill == 0;
        if (p.tilized) {
          cell.sub = core * 1000003 + (lr0 / p.th) * 1009 + lc0 / p.tw;
        }
      } else {
        cell.fill = fill;
      }
      if (for_text) {
        cell.label = fill == 0 ? "." : absl::StrCat(core);
        if (fill > 0 && fill < 1) cell.label += "~";
      }
      cell.title = absl::StrCat(
          "core (", core_text, "), shard ",
          uy == 1 && ux == 1 ? absl::StrCat("position (", lr0, ",", lc0, ")")
                             : absl::StrCat("rows ", lr0, "-", lr1 - 1,
                                            ", columns ", lc0, "-", lc1 - 1),
          ": ",
          fill == 0  ? "padding"
          : fill < 1 ? absl::StrCat(Percent(fill), " elements")
                     : "elements");
    }
  }
}

}  // namespace

absl::StatusOr<CellGrid> GridLayoutGrid(const grid::MetalLayout& layout,
                                        bool for_text) {
  const int64_t gr = layout.grid_rank();
  if (gr < 1 || static_cast<int64_t>(layout.collapsed_extent().size()) != gr ||
      static_cast<int64_t>(layout.shard_shape().size()) != gr ||
      static_cast<int64_t>(layout.physical_shard_shape().size()) != gr) {
    return absl::InvalidArgumentError("cannot draw a grid of rank 0");
  }
  const Pictured p = PictureDims(layout, for_text);
  CellGrid g;
  g.css_class = "grid-layout";
  g.compact = !for_text;
  AddHeadingAndNotes(layout, p, for_text, g);
  FillCoreCells(p, for_text, g);
  return g;
}

}  // namespace hlolayout::draw

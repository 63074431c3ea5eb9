#include "hlolayout/draw/grid_picture.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/grid/element_type.h"

namespace hlolayout::draw {
namespace {

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

std::string Percent(double f) {
  return absl::StrCat(static_cast<int64_t>(f * 100 + 0.5), "%");
}

}  // namespace

absl::StatusOr<CellGrid> GridLayoutGrid(const grid::MetalLayout& layout,
                                        bool for_text) {
  const std::vector<int64_t>& grid = layout.grid();
  const std::vector<int64_t>& E = layout.collapsed_extent();
  const std::vector<int64_t>& S = layout.shard_shape();
  const std::vector<int64_t>& P = layout.physical_shard_shape();
  const int64_t gr = layout.grid_rank();
  if (gr < 1 || static_cast<int64_t>(E.size()) != gr ||
      static_cast<int64_t>(S.size()) != gr ||
      static_cast<int64_t>(P.size()) != gr) {
    return absl::InvalidArgumentError("cannot draw a grid of rank 0");
  }
  // Pictured dims: a (rows, -1 for one row) and b (columns).
  const int64_t b = gr - 1, a = gr >= 2 ? gr - 2 : -1;
  const int64_t gy = a >= 0 ? grid[a] : 1, gx = grid[b];
  const int64_t py = a >= 0 ? P[a] : 1, px = P[b];
  const int64_t sy = a >= 0 ? S[a] : 1, sx = S[b];
  const int64_t ey = a >= 0 ? E[a] : 1, ex = E[b];
  const bool tilized = layout.tile().has_value() && a >= 0;
  const int64_t th = tilized ? layout.tile()->height : 1;
  const int64_t tw = tilized ? layout.tile()->width : 1;
  const int64_t max_cells = for_text ? 1024 : 4096;
  const int64_t max_cols = for_text ? 48 : 1 << 30;
  // Unit of one cell: scalars when they fit, else tiles, else blocks.
  int64_t uy = 1, ux = 1;
  auto cells = [&](int64_t y, int64_t x) {
    return gy * CeilDiv(py, y) * gx * CeilDiv(px, x);
  };
  auto cols_for = [&](int64_t x) { return gx * CeilDiv(px, x); };
  if (cells(1, 1) > max_cells || cols_for(1) > max_cols) {
    int64_t k = 2;
    while (cells(k, k) > max_cells || cols_for(k) > max_cols) {
      k += std::max<int64_t>(1, k / 8);
    }
    uy = ux = k;
  }
  const int64_t nby = CeilDiv(py, uy), nbx = CeilDiv(px, ux);
  CellGrid g;
  g.css_class = "grid-layout";
  g.compact = !for_text;
  g.heading =
      absl::StrCat("grid ", grid::DimsToString(grid), ": ", layout.num_cores(),
                   " cores, shard ", grid::DimsToString(S),
                   tilized ? absl::StrCat(", padded to ", grid::DimsToString(P),
                                          " (tiles of ", th, "x", tw, ")")
                           : "");
  g.notes.push_back(absl::StrCat("collapsed tensor ", grid::DimsToString(E),
                                 "; colour: core; hatched",
                                 for_text ? " or '.'" : "", ": padding"));
  if (gr > 2) {
    g.notes.push_back(absl::StrCat("the last two grid dims; outer index 0 of ",
                                   grid::DimsToString(std::vector<int64_t>(
                                       grid.begin(), grid.end() - 2))));
  }
  g.notes.push_back(
      uy == 1 && ux == 1
          ? (tilized ? "1 cell = 1 scalar; red boxes: tiles"
                     : "1 cell = 1 scalar")
          : absl::StrCat("scale: 1 cell = ", uy, "x", ux,
                         " scalars; filled in proportion to the elements "
                         "it holds"));
  g.rows = gy * nby;
  g.cols = gx * nbx;
  g.coarse = false;
  g.cells.resize(g.rows * g.cols);
  for (int64_t r = 0; r < g.rows; ++r) {
    const int64_t y = r / nby, lr0 = (r % nby) * uy,
                  lr1 = std::min(py, lr0 + uy);
    const int64_t vy =
        std::clamp<int64_t>(std::min(sy, ey - y * sy) - lr0, 0, lr1 - lr0);
    for (int64_t c = 0; c < g.cols; ++c) {
      const int64_t x = c / nbx, lc0 = (c % nbx) * ux,
                    lc1 = std::min(px, lc0 + ux);
      const int64_t vx =
          std::clamp<int64_t>(std::min(sx, ex - x * sx) - lc0, 0, lc1 - lc0);
      const double fill = static_cast<double>(vy) * vx /
                          (static_cast<double>(lr1 - lr0) * (lc1 - lc0));
      GridCell& cell = g.cells[r * g.cols + c];
      const int64_t core = y * gx + x;
      const std::string core_text =
          a >= 0 ? absl::StrCat(y, ",", x) : absl::StrCat(x);
      cell.css_class = fill > 0 ? "grid-cell" : "grid-cell padding";
      cell.attrs = {{"data-core", core_text}, {"data-fill", Percent(fill)}};
      cell.group = core;
      cell.colour = core;
      if (uy == 1 && ux == 1) {
        cell.hatched = fill == 0;
        if (tilized) cell.sub = core * 1000003 + (lr0 / th) * 1009 + lc0 / tw;
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
  return g;
}

}  // namespace hlolayout::draw

// views/tv_picture.cc: CuTe-style thread-value panels.
#include "hlolayout/views/tv_picture.h"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/cute/atom/static_text.h"

namespace hlolayout::draw {

namespace {

constexpr int64_t kMaxPairs = int64_t{1} << 22;

}  // namespace

namespace {

// Where the pair (t, v) with tile index k sits: its row and column in the
// rows x cols tile (before any transpose), or why it sits nowhere.
using Placement = std::function<absl::StatusOr<std::pair<int64_t, int64_t>>(
    int64_t t, int64_t v, int64_t k)>;

// Index k at row k % rows, column k / rows; an index outside the tile is an
// error.
Placement ColumnMajor(int64_t rows, int64_t cols) {
  return
      [rows, cols](int64_t t, int64_t v,
                   int64_t k) -> absl::StatusOr<std::pair<int64_t, int64_t>> {
        if (k < 0 || k >= rows * cols) {
          return absl::InvalidArgumentError(
              absl::StrCat("thread ", t, " value ", v, " maps to index ", k,
                           ", outside the ", rows, "x", cols, " tile"));
        }
        return std::make_pair(k % rows, k / rows);
      };
}

// Division and remainder rounding toward minus infinity (the remainder has
// the divisor's sign).
int64_t FloorDiv(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
int64_t FloorMod(int64_t a, int64_t b) { return a - FloorDiv(a, b) * b; }

// A panel whose pairs sit where `place` says; `order`, when given, gets
// the grid cells (row-major) in the order their first pair came.
absl::StatusOr<CellGrid> Panel(const cute::Layout& tv, int64_t rows,
                               int64_t cols, bool transpose,
                               const std::string& heading,
                               const Placement& place,
                               std::vector<int64_t>* order) {
  if (rows < 1 || cols < 1 || rows > kMaxTvCells || cols > kMaxTvCells ||
      rows * cols > kMaxTvCells) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a ", rows, "x", cols, " tile is too large to draw (at most ",
        kMaxTvCells, " cells)"));
  }
  if (!tv.shape().is_tuple() || tv.rank() != 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "expected a (thread, value) layout, found ", cute::StaticText(tv)));
  }
  const int64_t threads = tv.mode(0).size();
  const int64_t values = tv.mode(1).size();
  if (tv.size() > kMaxPairs) {
    return absl::InvalidArgumentError(absl::StrCat(
        threads, " threads x ", values,
        " values are too many to draw (at most ", kMaxPairs, " pairs)"));
  }
  CellGrid g;
  g.css_class = "cute tv";
  g.stacked_labels = true;
  g.heading = heading;
  g.notes.push_back(absl::StrCat("TV layout ", cute::StaticText(tv)));
  g.notes.push_back(
      "cell: first (thread, value) on it; colour: thread (CuTe's)");
  const int64_t grid_rows = transpose ? cols : rows;
  const int64_t grid_cols = transpose ? rows : cols;
  g.rows = grid_rows;
  g.cols = grid_cols;
  for (int64_t i = 0; i < grid_rows; ++i)
    g.row_labels.push_back(absl::StrCat(i));
  for (int64_t j = 0; j < grid_cols; ++j)
    g.col_labels.push_back(absl::StrCat(j));
  g.cells.resize(grid_rows * grid_cols);
  for (int64_t i = 0; i < grid_rows; ++i) {
    for (int64_t j = 0; j < grid_cols; ++j) {
      GridCell& c = g.cells[i * grid_cols + j];
      c.css_class = "tv-cell unowned";
      c.attrs = {{"data-coord", absl::StrCat(i, ",", j)}};
      c.title = absl::StrCat("(", i, ",", j, "): no thread-value pair");
    }
  }
  std::vector<int32_t> owners(static_cast<size_t>(rows * cols), 0);
  for (int64_t t = 0; t < threads; ++t) {
    for (int64_t v = 0; v < values; ++v) {
      absl::StatusOr<std::pair<int64_t, int64_t>> at =
          place(t, v, tv(t + threads * v));
      if (!at.ok()) return at.status();
      const auto [r, col] = *at;
      const int64_t gi = transpose ? col : r, gj = transpose ? r : col;
      GridCell& c = g.cells[gi * grid_cols + gj];
      const int64_t slot = r + rows * col;
      if (owners[slot]++ == 0) {
        c.css_class = "tv-cell";
        c.label = absl::StrCat("T", t, " V", v);
        c.attrs = {{"data-coord", absl::StrCat(gi, ",", gj)},
                   {"data-thread", absl::StrCat(t)},
                   {"data-value", absl::StrCat(v)}};
        c.title = absl::StrCat("(", gi, ",", gj, "): thread ", t, " value ", v);
        c.rgb = std::string(CuteTvColour(t));
        c.ansi = CuteTvAnsi256(t);
        c.colour = t;
        c.ids = {t, v};
        if (order != nullptr) order->push_back(gi * grid_cols + gj);
      } else if (owners[slot] <= 4) {
        absl::StrAppend(&c.title, "; also thread ", t, " value ", v);
      } else if (owners[slot] == 5) {
        absl::StrAppend(&c.title, "; ...");
      }
    }
  }
  return g;
}

}  // namespace

absl::StatusOr<CellGrid> TvPanel(const cute::Layout& tv, int64_t rows,
                                 int64_t cols, bool transpose,
                                 const std::string& heading) {
  return Panel(tv, rows, cols, transpose, heading, ColumnMajor(rows, cols),
               nullptr);
}

absl::StatusOr<CellGrid> TvTileGrid(const cute::Layout& tv,
                                    const cute::Layout& tile,
                                    std::vector<int64_t>* order) {
  const cute::IntTuple& shape = tile.shape();
  const cute::IntTuple& stride = tile.stride();
  if (!shape.is_tuple() || tile.rank() != 2 || !shape.elements()[0].is_int() ||
      !shape.elements()[1].is_int()) {
    return absl::InvalidArgumentError(
        absl::StrCat("the tile must be two integer modes (M,N):(a,b), not ",
                     cute::StaticText(tile)));
  }
  int64_t extent[2], step[2];
  for (int i = 0; i < 2; ++i) {
    extent[i] = shape.elements()[i].value();
    step[i] = stride.elements()[i].value();
    if (extent[i] > 1 && step[i] == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("tile mode ", i, " has ", extent[i],
                       " elements and stride 0: they would all sit in one ",
                       i == 0 ? "row" : "column"));
    }
  }
  const int64_t m = extent[0], n = extent[1], a = step[0], b = step[1];
  Placement place =
      [m, n, a, b](int64_t, int64_t,
                   int64_t k) -> absl::StatusOr<std::pair<int64_t, int64_t>> {
    return std::make_pair(m == 1 ? 0 : FloorMod(FloorDiv(k, a), m),
                          n == 1 ? 0 : FloorMod(FloorDiv(k, b), n));
  };
  return Panel(tv, m, n, false,
               absl::StrCat("TV layout over the tile ", cute::StaticText(tile)),
               place, order);
}

absl::StatusOr<std::vector<CellGrid>> TiledMmaGrids(const cute::TiledMma& tm) {
  const int64_t m = tm.tile_mnk[0], n = tm.tile_mnk[1], k = tm.tile_mnk[2];
  std::vector<CellGrid> out;
  absl::StatusOr<CellGrid> a = TvPanel(
      tm.layout_a_tv, m, k, false, absl::StrCat("A (M=", m, " x K=", k, ")"));
  if (!a.ok()) return a.status();
  absl::StatusOr<CellGrid> b = TvPanel(
      tm.layout_b_tv, n, k, true, absl::StrCat("B (K=", k, " x N=", n, ")"));
  if (!b.ok()) return b.status();
  absl::StatusOr<CellGrid> c = TvPanel(
      tm.layout_c_tv, m, n, false, absl::StrCat("C (M=", m, " x N=", n, ")"));
  if (!c.ok()) return c.status();
  out.push_back(*std::move(a));
  out.push_back(*std::move(b));
  out.push_back(*std::move(c));
  return out;
}

absl::StatusOr<std::vector<CellGrid>> TiledCopyGrids(
    const cute::TiledCopy& tc) {
  const std::vector<int64_t> extent = tc.tile_extent();
  if (extent.size() != 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "only rank-2 tiles are drawn; Tiler_MN has ", extent.size(), " modes"));
  }
  // print_latex_copy draws right_inverse(layoutS_TV).with_shape(shape(
  // Tiler_MN)) (get_layoutS_MN): cell (m, n) of the tiler's shape is tile
  // index m + M*n, whether the tiler is a shape or layouts.
  const int64_t m = extent[0], n = extent[1];
  std::vector<CellGrid> out;
  absl::StatusOr<CellGrid> s =
      Panel(tc.layout_s_tv, m, n, false,
            absl::StrCat("S (", m, " x ", n, "), source order"),
            ColumnMajor(m, n), nullptr);
  if (!s.ok()) return s.status();
  absl::StatusOr<CellGrid> d =
      Panel(tc.layout_d_tv, m, n, false,
            absl::StrCat("D (", m, " x ", n, "), destination order"),
            ColumnMajor(m, n), nullptr);
  if (!d.ok()) return d.status();
  out.push_back(*std::move(s));
  out.push_back(*std::move(d));
  return out;
}

}  // namespace hlolayout::draw

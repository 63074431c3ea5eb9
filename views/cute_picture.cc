#include "hlolayout/views/cute_picture.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/cute/print.h"

namespace hlolayout::draw {
namespace {

constexpr int64_t kMaxCells = 16384;

// The size of the first leaf-or-tuple inside `shape` when it is a tuple
// with several entries: the period of the heavy lines. 0: no lines.
int64_t InnerPeriod(const cute::IntTuple& shape) {
  if (shape.is_int() || shape.elements().size() < 2) return 0;
  absl::StatusOr<int64_t> s = cute::Size(shape.elements()[0]);
  return s.ok() ? *s : 0;
}

}  // namespace

absl::StatusOr<CellGrid> CuteLayoutGrid(const cute::AnyLayout& layout) {
  if (layout.rank() > 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cannot draw ", cute::ToString(layout), ": rank ", layout.rank(),
        " (draw takes rank 1 or 2; group modes first)"));
  }
  const cute::IntTuple shape = layout.shape();
  const bool two = layout.rank() == 2 && shape.is_tuple();
  int64_t rows = 1, cols = layout.size();
  if (two) {
    absl::StatusOr<int64_t> r = cute::Size(shape.elements()[0]);
    absl::StatusOr<int64_t> c = cute::Size(shape.elements()[1]);
    if (!r.ok()) return r.status();
    if (!c.ok()) return c.status();
    rows = *r;
    cols = *c;
  }
  if (rows * cols > kMaxCells) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot draw ", cute::ToString(layout), ": ", rows * cols,
                     " cells (at most ", kMaxCells, ")"));
  }
  const int64_t row_period = two ? InnerPeriod(shape.elements()[0]) : 0;
  const int64_t col_period = two ? InnerPeriod(shape.elements()[1])
                                 : (shape.is_tuple() && layout.rank() == 1
                                        ? InnerPeriod(shape.elements()[0])
                                        : 0);
  CellGrid g;
  g.css_class = "cute";
  g.heading = absl::StrCat("CuTe layout ", cute::ToString(layout));
  g.notes.push_back(
      two ? absl::StrCat("cell (i,j) shows the index of coordinate (i,j): "
                         "rows mode 0 (",
                         rows, "), columns mode 1 (", cols, ")")
          : absl::StrCat("cell i shows the index of coordinate i (", cols,
                         ")"));
  if (row_period > 0 || col_period > 0) {
    g.notes.push_back("heavy lines: between groups of a nested mode");
  }
  g.rows = rows;
  g.cols = cols;
  for (int64_t i = 0; i < rows; ++i) g.row_labels.push_back(absl::StrCat(i));
  for (int64_t j = 0; j < cols; ++j) g.col_labels.push_back(absl::StrCat(j));
  g.cells.resize(rows * cols);
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) {
      absl::StatusOr<int64_t> k = layout.TryEvaluate(i + j * rows);
      if (!k.ok()) return k.status();
      GridCell& c = g.cells[i * cols + j];
      const std::string coord = two ? absl::StrCat(i, ",", j) : absl::StrCat(j);
      c.css_class = "cute-cell";
      c.label = absl::StrCat(*k);
      c.attrs = {{"data-coord", coord}, {"data-index", absl::StrCat(*k)}};
      c.title = absl::StrCat("(", coord, ") -> ", *k);
      c.colour = *k;
      c.ids = {*k};
      const int64_t gr = row_period > 0 ? i / row_period : 0;
      const int64_t gc = col_period > 0 ? j / col_period : 0;
      c.group = gr * (cols + 1) + gc;
    }
  }
  return g;
}

absl::StatusOr<CellGrid> CuteTvGrid(const cute::Layout& thr,
                                    const cute::Layout& val, int64_t m,
                                    int64_t n) {
  if (m < 1 || n < 1 || m > kMaxCells || n > kMaxCells || m * n > kMaxCells) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad tile ", m, "x", n, " (1 to ", kMaxCells, " cells)"));
  }
  if (thr.size() > (1 << 20) || val.size() > (1 << 20) ||
      thr.size() * val.size() > (1 << 20)) {
    return absl::InvalidArgumentError("too many thread-value pairs to draw");
  }
  CellGrid g;
  g.css_class = "cute tv";
  g.heading = absl::StrCat("thread-value partition of a ", m, "x", n, " tile");
  g.notes.push_back(absl::StrCat("threads ", cute::ToString(thr), ", values ",
                                 cute::ToString(val)));
  g.notes.push_back(
      "(t,v) owns index THR(t)+VAL(v) = row + column*M; colour: thread");
  g.rows = m;
  g.cols = n;
  for (int64_t i = 0; i < m; ++i) g.row_labels.push_back(absl::StrCat(i));
  for (int64_t j = 0; j < n; ++j) g.col_labels.push_back(absl::StrCat(j));
  g.cells.resize(m * n);
  std::vector<int> owners(m * n, 0);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      GridCell& c = g.cells[i * n + j];
      c.css_class = "tv-cell unowned";
      c.attrs = {{"data-coord", absl::StrCat(i, ",", j)}};
      c.title = absl::StrCat("(", i, ",", j, "): no thread-value pair");
    }
  }
  for (int64_t v = 0; v < val.size(); ++v) {
    for (int64_t t = 0; t < thr.size(); ++t) {
      absl::StatusOr<int64_t> a = thr.TryEvaluate(t);
      absl::StatusOr<int64_t> b = val.TryEvaluate(v);
      if (!a.ok()) return a.status();
      if (!b.ok()) return b.status();
      const int64_t k = *a + *b;
      if (k < 0 || k >= m * n) {
        return absl::InvalidArgumentError(
            absl::StrCat("thread ", t, " value ", v, " maps to index ", k,
                         ", outside the ", m, "x", n, " tile"));
      }
      const int64_t i = k % m, j = k / m;
      GridCell& c = g.cells[i * n + j];
      if (owners[i * n + j]++ == 0) {
        c.css_class = "tv-cell";
        c.label = absl::StrCat("T", t, " V", v);
        c.attrs = {{"data-coord", absl::StrCat(i, ",", j)},
                   {"data-thread", absl::StrCat(t)},
                   {"data-value", absl::StrCat(v)}};
        c.title = absl::StrCat("(", i, ",", j, "): thread ", t, " value ", v);
        c.colour = c.group = t;
      } else {
        absl::StrAppend(&c.title, "; also thread ", t, " value ", v);
        if (owners[i * n + j] == 2) c.label += "+";
      }
    }
  }
  return g;
}

}  // namespace hlolayout::draw

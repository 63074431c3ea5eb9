// views/bank_picture.cc
#include "hlolayout/views/bank_picture.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/cute/atom/bank_conflicts.h"
#include "hlolayout/cute/print.h"

namespace hlolayout::draw {

namespace {
constexpr int64_t kMaxCells = 16384;
}  // namespace

absl::StatusOr<CellGrid> BankGridOf(
    int64_t rows, int64_t cols, int bits,
    const std::function<absl::StatusOr<int64_t>(int64_t, int64_t)>& offset,
    const std::string& heading) {
  if (bits < 1 || bits > 1024) {
    return absl::InvalidArgumentError(
        absl::StrCat("element width ", bits, " bits is outside 1..1024"));
  }
  if (rows < 1 || cols < 1 || rows > kMaxCells || cols > kMaxCells ||
      rows * cols > kMaxCells) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a ", rows, "x", cols, " layout is too large to draw (at most ",
        kMaxCells, " cells)"));
  }
  CellGrid g;
  g.css_class = "cute banks";
  g.heading = heading;
  g.notes.push_back(absl::StrCat(
      "cell: bank of the element's first byte (32 banks of 4 bytes, ", bits,
      "-bit elements); colour: bank % 8"));
  g.rows = rows;
  g.cols = cols;
  for (int64_t i = 0; i < rows; ++i) g.row_labels.push_back(absl::StrCat(i));
  for (int64_t j = 0; j < cols; ++j) g.col_labels.push_back(absl::StrCat(j));
  g.cells.resize(rows * cols);
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) {
      absl::StatusOr<int64_t> k = offset(i, j);
      if (!k.ok()) return k.status();
      if (*k < 0 || *k > (INT64_MAX / 1024)) {
        return absl::InvalidArgumentError(
            absl::StrCat("element (", i, ",", j, ") has offset ", *k,
                         ", not a shared-memory address"));
      }
      const int64_t bank = (*k * bits / 32) % 32;
      GridCell& c = g.cells[i * cols + j];
      c.css_class = "bank-cell";
      c.label = absl::StrCat(bank);
      c.attrs = {{"data-coord", absl::StrCat(i, ",", j)},
                 {"data-offset", absl::StrCat(*k)},
                 {"data-bank", absl::StrCat(bank)}};
      c.title = absl::StrCat("(", i, ",", j, ") -> offset ", *k, ", byte ",
                             *k * bits / 8, ", bank ", bank);
      c.colour = bank % 8;
    }
  }
  return g;
}

absl::StatusOr<CellGrid> BankGrid(const cute::AnyLayout& layout, int bits) {
  const cute::IntTuple shape = layout.shape();
  const bool two = shape.is_tuple() && cute::Rank(shape) == 2;
  if (shape.is_tuple() && cute::Rank(shape) > 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("draw-banks takes a rank-1 or rank-2 layout, not rank ",
                     cute::Rank(shape)));
  }
  const int64_t rows = two ? *cute::Size(shape[0]) : 1;
  const int64_t cols = two ? *cute::Size(shape[1]) : layout.size();
  const cute::SmemLayout smem = cute::SmemLayout::Any(layout);
  return BankGridOf(
      rows, cols, bits,
      [&](int64_t i, int64_t j) { return smem.Offset(i, j, rows, cols); },
      absl::StrCat("banks of ", cute::ToString(layout)));
}

}  // namespace hlolayout::draw

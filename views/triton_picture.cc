#include "hlolayout/views/triton_picture.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/triton/evaluator.h"

namespace hlolayout::triton {
namespace {

struct Geometry {
  int64_t rows = 1, cols = 1;
};

Geometry Shape(const LinearLayout& l) {
  Geometry g;
  const int rank = l.num_out_dims();
  if (rank == 0) return g;
  g.cols = l.OutDimSize(rank - 1);
  for (int o = 0; o + 1 < rank; ++o) g.rows *= l.OutDimSize(o);
  return g;
}

std::string Coord(const LinearLayout& l, int64_t cell) {
  std::vector<int64_t> idx(l.num_out_dims());
  for (int o = l.num_out_dims() - 1; o >= 0; --o) {
    idx[o] = cell % l.OutDimSize(o);
    cell /= l.OutDimSize(o);
  }
  return absl::StrJoin(idx, ",");
}

void Labels(const LinearLayout& l, draw::CellGrid& g) {
  const int rank = l.num_out_dims();
  for (int64_t j = 0; j < g.cols; ++j) g.col_labels.push_back(absl::StrCat(j));
  for (int64_t i = 0; i < g.rows; ++i) {
    if (rank <= 2) {
      g.row_labels.push_back(absl::StrCat(i));
      continue;
    }
    // Leading dims as "a,b".
    std::vector<int64_t> idx(rank - 1);
    int64_t r = i;
    for (int o = rank - 2; o >= 0; --o) {
      idx[o] = r % l.OutDimSize(o);
      r /= l.OutDimSize(o);
    }
    g.row_labels.push_back(absl::StrJoin(idx, ","));
  }
}

// The cell of every input, inputs in order (in-dim 0 fastest), through the
// batch evaluator. Precondition: the layout's size was checked.
std::vector<int64_t> CellsOfAllInputs(const LinearLayout& l) {
  const int64_t n = l.TotalInDimSize();
  std::vector<std::vector<int32_t>> ins(l.num_in_dims(),
                                        std::vector<int32_t>(n));
  std::vector<const int32_t*> in_ptrs;
  for (int d = 0; d < l.num_in_dims(); ++d) {
    const int offset = l.InDimOffset(d);
    const int64_t mask = l.InDimSize(d) - 1;
    for (int64_t x = 0; x < n; ++x) {
      ins[d][x] = static_cast<int32_t>((x >> offset) & mask);
    }
    in_ptrs.push_back(ins[d].data());
  }
  std::vector<std::vector<int32_t>> outs(l.num_out_dims(),
                                         std::vector<int32_t>(n));
  std::vector<int32_t*> out_ptrs;
  for (auto& o : outs) out_ptrs.push_back(o.data());
  ApplyBatch(l, in_ptrs, out_ptrs, n);
  std::vector<int64_t> cells(n, 0);
  for (int o = 0; o < l.num_out_dims(); ++o) {
    const int64_t size = l.OutDimSize(o);
    for (int64_t x = 0; x < n; ++x) cells[x] = cells[x] * size + outs[o][x];
  }
  return cells;
}

// 2^bits as digits while it fits in int64, else "2^bits".
std::string PowerOfTwo(int bits) {
  if (bits < 63) return absl::StrCat(int64_t{1} << bits);
  return absl::StrCat("2^", bits);
}

// Which inputs a picture's layout has.
enum class PictureKind { kNone, kDistributed, kShared, kTensorMemory };

PictureKind KindOf(const LinearLayout& l) {
  if (l.num_in_dims() >= 2 && l.in_dim_name(0) == "offset" &&
      l.in_dim_name(1) == "block") {
    return PictureKind::kShared;
  }
  if (l.num_in_dims() == 4 && l.in_dim_name(0) == "register" &&
      l.in_dim_name(1) == "lane" && l.in_dim_name(2) == "warp" &&
      l.in_dim_name(3) == "block") {
    return PictureKind::kDistributed;
  }
  if (l.num_in_dims() >= 2 && l.in_dim_name(0) == "row" &&
      l.in_dim_name(1) == "col") {
    return PictureKind::kTensorMemory;
  }
  return PictureKind::kNone;
}

// The cells of a picture being filled: every input in turn names its
// holder; the first holder of a cell labels it, all are listed in its title.
class Filling {
 public:
  Filling(const LinearLayout& l, draw::CellGrid& g)
      : l_(l),
        g_(g),
        cells_(CellsOfAllInputs(l)),
        owners_(g.cells.size()),
        filled_(g.cells.size(), false) {}

  // The cell of the next input (inputs in order, in-dim 0 fastest).
  int64_t NextCell() { return cells_[next_++]; }

  // Records `who` as a holder of `cell`; the cell to label when it is its
  // first holder, else nullptr.
  draw::GridCell* Claim(int64_t cell, std::string who) {
    owners_[cell].push_back(std::move(who));
    if (filled_[cell]) return nullptr;
    filled_[cell] = true;
    return &g_.cells[cell];
  }

  // Titles every cell with its holders; hatches the cells no one holds.
  void Finish() {
    for (size_t cell = 0; cell < g_.cells.size(); ++cell) {
      draw::GridCell& c = g_.cells[cell];
      if (!filled_[cell]) {
        c.label = "-";
        c.hatched = true;
        c.title = absl::StrCat("(", Coord(l_, cell), ") is held by no one");
        continue;
      }
      c.title = absl::StrCat("(", Coord(l_, cell),
                             "): ", absl::StrJoin(owners_[cell], " | "));
      if (owners_[cell].size() > 1) {
        c.label += absl::StrCat(" +", owners_[cell].size() - 1);
      }
    }
  }

 private:
  const LinearLayout& l_;
  draw::CellGrid& g_;
  const std::vector<int64_t> cells_;
  int64_t next_ = 0;
  std::vector<std::vector<std::string>> owners_;
  std::vector<bool> filled_;
};

// A register layout: each cell names its thread and register.
void FillDistributed(const LinearLayout& l, draw::CellGrid& g, Filling& f) {
  g.css_class = "triton distributed";
  const int32_t lanes = l.InDimSize(1);
  g.notes.push_back(absl::StrCat(
      "cell: the thread (lane + ", lanes,
      " x warp) and register holding the element; colour and heavy lines: "
      "warp"));
  for (int32_t b = 0; b < l.InDimSize(3); ++b) {
    for (int32_t w = 0; w < l.InDimSize(2); ++w) {
      for (int32_t t = 0; t < lanes; ++t) {
        for (int32_t r = 0; r < l.InDimSize(0); ++r) {
          const int64_t cell = f.NextCell();
          const int64_t thread = t + int64_t{w} * lanes;
          std::string who = absl::StrCat("T", thread, ":", r);
          if (l.InDimSize(3) > 1) who = absl::StrCat("B", b, ":", who);
          draw::GridCell* c = f.Claim(cell, who);
          if (c == nullptr) continue;
          c->label = who;
          c->colour = w + int64_t{b} * l.InDimSize(2);
          c->group = c->colour;
          c->css_class = "triton-cell";
          c->attrs = {{"data-coord", Coord(l, cell)},
                      {"data-thread", absl::StrCat(thread)},
                      {"data-register", absl::StrCat(r)},
                      {"data-warp", absl::StrCat(w)}};
        }
      }
    }
  }
}

// Tensor memory: each cell names its lane (row) and column.
void FillTensorMemory(const LinearLayout& l, draw::CellGrid& g, Filling& f) {
  g.css_class = "triton tensor-memory";
  g.notes.push_back(
      "cell: the tensor-memory lane (row) and 32-bit column holding the "
      "element; colour: the warp whose 32 lanes hold the row");
  // Inputs come row fastest, then col, then any further in-dim (block).
  const int32_t rows = l.InDimSize(0), cols = l.InDimSize(1);
  const int64_t rest = l.TotalInDimSize() / (int64_t{rows} * cols);
  for (int64_t b = 0; b < rest; ++b) {
    for (int32_t c = 0; c < cols; ++c) {
      for (int32_t r = 0; r < rows; ++r) {
        const int64_t cell = f.NextCell();
        std::string who = absl::StrCat(r, ":", c);
        if (rest > 1) who = absl::StrCat("B", b, ":", who);
        draw::GridCell* gc = f.Claim(cell, who);
        if (gc == nullptr) continue;
        gc->label = who;
        gc->colour = r / 32 + 4 * b;
        gc->group = gc->colour;
        gc->css_class = "triton-cell";
        gc->attrs = {{"data-coord", Coord(l, cell)},
                     {"data-row", absl::StrCat(r)},
                     {"data-col", absl::StrCat(c)}};
      }
    }
  }
}

// A shared layout: each cell names its offset (after padding) and bank.
void FillShared(const LinearLayout& l, int element_bits,
                absl::Span<const std::pair<int32_t, int32_t>> padding,
                draw::CellGrid& g, Filling& f) {
  g.css_class = "triton shared";
  g.notes.push_back(absl::StrCat(
      padding.empty() ? "cell: the shared-memory offset of the element"
                      : "cell: the shared-memory offset of the element "
                        "after padding",
      " and its 4-byte bank (", element_bits, "-bit elements); colour: bank"));
  // Inputs come offset fastest, then block (and a partitioned layout's
  // partition).
  const int64_t offsets = l.InDimSize(0);
  const int64_t copies = l.TotalInDimSize() / offsets;
  for (int64_t b = 0; b < copies; ++b) {
    for (int64_t logical = 0; logical < offsets; ++logical) {
      const int64_t cell = f.NextCell();
      const int64_t o = PaddedOffset(logical, padding);
      const int64_t bank = (o * element_bits / 32) % 32;
      draw::GridCell* c = f.Claim(
          cell, copies > 1 ? absl::StrCat("B", b, ":", o) : absl::StrCat(o));
      if (c == nullptr) continue;
      c->label = absl::StrCat(o, " b", bank);
      c->colour = bank;
      c->css_class = "triton-cell";
      c->attrs = {{"data-coord", Coord(l, cell)},
                  {"data-offset", absl::StrCat(o)},
                  {"data-bank", absl::StrCat(bank)}};
    }
  }
}

// Refuses a layout too large to draw. Sizes as logarithms: a layout may
// have up to 64 input (and output) bits, where 1 << bits overflows.
absl::Status CheckPictureSize(const LinearLayout& l) {
  if (l.TotalOutDimSizeLog2() > kMaxPictureCellsLog2) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot draw ", PowerOfTwo(l.TotalOutDimSizeLog2()),
                     " elements (at most ", kMaxPictureCells, ")"));
  }
  if (l.TotalInDimSizeLog2() > kMaxPictureCellsLog2 + 4) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cannot draw a layout of ", PowerOfTwo(l.TotalInDimSizeLog2()),
        " inputs (at most ", 16 * kMaxPictureCells, ")"));
  }
  return absl::OkStatus();
}

}  // namespace

int64_t PaddedOffset(int64_t offset,
                     absl::Span<const std::pair<int32_t, int32_t>> padding) {
  int64_t out = offset;
  for (const auto& [interval, pad] : padding) {
    if (interval <= 0) continue;
    out += offset / interval * pad;
  }
  return out;
}

absl::StatusOr<draw::CellGrid> LayoutPicture(
    const LinearLayout& l, const std::string& heading, int element_bits,
    absl::Span<const std::pair<int32_t, int32_t>> padding) {
  const PictureKind kind = KindOf(l);
  if (kind == PictureKind::kNone) {
    return absl::InvalidArgumentError(
        "pictures are of register layouts (register, lane, warp, block), "
        "shared layouts (offset, block) or tensor memory (row, col)");
  }
  if (absl::Status s = CheckPictureSize(l); !s.ok()) return s;
  const Geometry geo = Shape(l);
  draw::CellGrid g;
  g.heading = heading;
  g.rows = geo.rows;
  g.cols = geo.cols;
  g.cells.resize(geo.rows * geo.cols);
  Labels(l, g);
  Filling f(l, g);
  if (kind == PictureKind::kDistributed) {
    FillDistributed(l, g, f);
  } else if (kind == PictureKind::kTensorMemory) {
    FillTensorMemory(l, g, f);
  } else {
    FillShared(l, element_bits, padding, g, f);
  }
  f.Finish();
  return g;
}

}  // namespace hlolayout::triton

#include "hlolayout/views/amd_picture.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/ttgir_printer.h"

namespace hlolayout::triton {
namespace {

absl::Status Err(absl::string_view message) {
  return absl::InvalidArgumentError(message);
}

// "v3{17}", "v0{5}.[31:16]" or "v[2:3]{9}": register `r` of `bits`-bit
// elements in lane `lane`, as the calculator writes it.
std::string VgprLabel(int64_t r, int64_t lane, int bits) {
  if (bits >= 64) {
    const int64_t per = bits / 32;
    return absl::StrCat("v[", r * per, ":", r * per + per - 1, "]{", lane, "}");
  }
  if (bits == 32) return absl::StrCat("v", r, "{", lane, "}");
  const int64_t per = 32 / bits;
  const int64_t lo = (r % per) * bits;
  return absl::StrCat("v", r / per, "{", lane, "}.[", lo + bits - 1, ":", lo,
                      "]");
}

// One warp's tile: rows along the layout's second-to-last dim, columns
// along its last (leading dims are 1).
absl::StatusOr<draw::CellGrid> OperandGrid(const LinearLayout& l,
                                           const std::string& heading,
                                           const std::string& rows_name,
                                           const std::string& cols_name,
                                           int bits) {
  const int rank = l.num_out_dims();
  const int reg = l.InDimIndex("register"), lane = l.InDimIndex("lane");
  if (rank < 2 || reg < 0 || lane < 0) {
    return Err("an instruction tile is a register layout of rank 2 or 3");
  }
  draw::CellGrid g;
  g.heading = heading;
  g.rows = l.OutDimSize(rank - 2);
  g.cols = l.OutDimSize(rank - 1);
  g.css_class = "triton instruction";
  g.cells.resize(g.rows * g.cols);
  for (int64_t i = 0; i < g.rows; ++i) {
    g.row_labels.push_back(absl::StrCat(rows_name, i));
  }
  for (int64_t j = 0; j < g.cols; ++j) {
    g.col_labels.push_back(absl::StrCat(cols_name, j));
  }
  g.notes.push_back(absl::StrCat(
      "cell: the VGPR and lane holding the element (", bits,
      "-bit elements), as AMD's matrix instruction calculator writes it; "
      "colour: VGPR"));
  std::vector<std::vector<std::string>> owners(g.cells.size());
  for (int64_t t = 0; t < l.InDimSize(lane); ++t) {
    for (int64_t r = 0; r < l.InDimSize(reg); ++r) {
      NamedInts in;
      for (int d = 0; d < l.num_in_dims(); ++d) {
        const std::string& name = l.in_dim_name(d);
        in.emplace_back(name, d == reg    ? static_cast<int32_t>(r)
                              : d == lane ? static_cast<int32_t>(t)
                                          : 0);
      }
      absl::StatusOr<NamedInts> out = l.Apply(in);
      if (!out.ok()) return out.status();
      const int64_t i = (*out)[rank - 2].second, j = (*out)[rank - 1].second;
      const int64_t cell = i * g.cols + j;
      const std::string label = VgprLabel(r, t, bits);
      owners[cell].push_back(label);
      if (owners[cell].size() > 1) continue;
      draw::GridCell& c = g.cells[cell];
      c.label = label;
      c.colour = bits >= 32 ? r : r * bits / 32;
      c.css_class = "triton-cell";
      c.attrs = {{"data-coord", absl::StrCat(i, ",", j)},
                 {"data-lane", absl::StrCat(t)},
                 {"data-register", absl::StrCat(r)}};
    }
  }
  for (size_t cell = 0; cell < g.cells.size(); ++cell) {
    draw::GridCell& c = g.cells[cell];
    const int64_t i = static_cast<int64_t>(cell) / g.cols;
    const int64_t j = static_cast<int64_t>(cell) % g.cols;
    if (owners[cell].empty()) {
      c.label = "-";
      c.hatched = true;
      c.title = absl::StrCat("(", i, ",", j, ") is held by no lane");
      continue;
    }
    c.title =
        absl::StrCat("(", i, ",", j, "): ", absl::StrJoin(owners[cell], " | "));
    if (owners[cell].size() > 1) {
      c.label += absl::StrCat(" +", owners[cell].size() - 1);
    }
  }
  return g;
}

// The instruction's layout for one warp and one tile.
Layout OneWarp(const Layout& parent) {
  if (const auto* m = parent.get<AmdMfmaLayout>()) {
    AmdMfmaLayout one = *m;
    one.warps_per_cta.assign(m->warps_per_cta.size(), 1);
    one.tiles_per_warp.assign(m->instr_shape.size() > m->warps_per_cta.size()
                                  ? m->instr_shape.size()
                                  : m->warps_per_cta.size(),
                              1);
    one.cga.clear();
    return Layout(one);
  }
  AmdWmmaLayout one = *parent.get<AmdWmmaLayout>();
  one.warps_per_cta.assign(one.warps_per_cta.size(), 1);
  one.tiles_per_warp.assign(one.tiles_per_warp.size(), 1);
  one.cta_register.clear();
  one.cta_warp.clear();
  one.cga.clear();
  return Layout(one);
}

int Rank(const Layout& l) { return LayoutRank(l); }

}  // namespace

int InstructionKWidth(const Layout& layout) {
  const Layout* parent = &layout;
  if (const auto* d = layout.get<DotOperandLayout>()) {
    if (d->parent == nullptr) return 0;
    parent = d->parent.get();
  }
  if (const auto* m = parent->get<AmdMfmaLayout>()) {
    if (m->instr_shape.size() < 3) return 0;
    const int64_t mn = m->instr_shape[0], k = m->instr_shape[2];
    const int64_t kw = k * mn / 64;
    return static_cast<int>(kw >= 1 ? kw : k);
  }
  if (const auto* w = parent->get<AmdWmmaLayout>()) {
    if (w->instr_shape.size() < 3) return 0;
    return w->version == 1 ? w->instr_shape[2] : w->instr_shape[2] / 2;
  }
  return 0;
}

absl::StatusOr<std::vector<draw::CellGrid>> InstructionPictures(
    const Layout& layout, const InstructionPictureOptions& options) {
  const Layout* parent = &layout;
  int k_width = options.k_width;
  if (const auto* d = layout.get<DotOperandLayout>()) {
    if (d->parent == nullptr) return Err("a dot_op needs a parent layout");
    parent = d->parent.get();
    if (k_width == 0) k_width = d->k_width;
  }
  const auto* mfma = parent->get<AmdMfmaLayout>();
  const auto* wmma = parent->get<AmdWmmaLayout>();
  if (mfma == nullptr && wmma == nullptr) {
    return Err(
        "instruction pictures are of amd_mfma and amd_wmma layouts (or a "
        "dot_op over one)");
  }
  const std::vector<int32_t>& instr =
      mfma != nullptr ? mfma->instr_shape : wmma->instr_shape;
  if (instr.size() < 3) return Err("the instruction shape is [M, N, K]");
  if (k_width == 0) k_width = InstructionKWidth(*parent);
  const Layout one = OneWarp(*parent);
  const int rank = Rank(one);
  const int64_t m = instr[0], n = instr[1], k = instr[2];
  const int lanes = mfma != nullptr ? 64 : 32;
  // The K each operand's tile covers: kWidth per lane times the lane groups
  // along K (an MFMA operand whose other dim is 4 lanes has 16 of them).
  auto k_tile = [&](int64_t non_k) -> int64_t {
    if (wmma != nullptr) {
      return wmma->version == 1 ? k_width : int64_t{k_width} * 2;
    }
    return int64_t{k_width} * (lanes / non_k);
  };
  std::vector<int64_t> lead(rank - 2, 1);
  auto shape = [&](int64_t rows, int64_t cols) {
    std::vector<int64_t> s = lead;
    s.push_back(rows);
    s.push_back(cols);
    return s;
  };
  const int64_t c_bits = mfma != nullptr && mfma->element_bits == 64 ? 64 : 32;
  const std::string name = PrintLayout(*parent);
  std::vector<draw::CellGrid> grids;
  for (int op = 0; op < 3; ++op) {
    const bool is_c = op == 2;
    const int64_t kt = k_tile(op == 0 ? m : n);
    absl::StatusOr<LinearLayout> l =
        is_c ? ToLinearLayout(one, shape(m, n))
             : ToLinearLayout(
                   Layout(DotOperandLayout{
                       op, std::make_shared<const Layout>(one), k_width}),
                   op == 0 ? shape(m, kt) : shape(kt, n));
    if (!l.ok()) return l.status();
    const char* title = op == 0 ? "A" : op == 1 ? "B" : "C";
    absl::StatusOr<draw::CellGrid> g = OperandGrid(
        *l,
        absl::StrCat(title, " (", l->OutDimSize(rank - 2), " x ",
                     l->OutDimSize(rank - 1), is_c ? "" : ", kWidth ",
                     is_c ? std::string() : absl::StrCat(k_width), ") of ",
                     name, " (K = ", k, ")"),
        op == 1 ? "k" : "m", op == 0 ? "k" : "n",
        is_c ? static_cast<int>(c_bits) : options.operand_bits);
    if (!g.ok()) return g.status();
    grids.push_back(*std::move(g));
  }
  return grids;
}

std::vector<draw::CellGrid> SplitIntoColumnBands(const draw::CellGrid& grid,
                                                 int max_width) {
  size_t label = 0, row_label = 0;
  for (const draw::GridCell& c : grid.cells)
    label = std::max(label, c.label.size());
  for (const std::string& l : grid.col_labels)
    label = std::max(label, l.size());
  for (const std::string& l : grid.row_labels) {
    row_label = std::max(row_label, l.size());
  }
  const int64_t cell = static_cast<int64_t>(label) + 2;
  const int64_t room = max_width - static_cast<int64_t>(row_label);
  if (grid.cols <= 1 || cell * grid.cols <= room) return {grid};
  int64_t band = 1;
  while (band * 2 <= grid.cols && cell * band * 2 <= room) band *= 2;
  std::vector<draw::CellGrid> out;
  for (int64_t first = 0; first < grid.cols; first += band) {
    const int64_t n = std::min(band, grid.cols - first);
    draw::CellGrid g;
    g.css_class = grid.css_class;
    g.coarse = grid.coarse;
    g.compact = grid.compact;
    g.stacked_labels = grid.stacked_labels;
    g.rows = grid.rows;
    g.cols = n;
    g.row_labels = grid.row_labels;
    const std::string first_name =
        grid.col_labels.empty() ? absl::StrCat(first) : grid.col_labels[first];
    const std::string last_name = grid.col_labels.empty()
                                      ? absl::StrCat(first + n - 1)
                                      : grid.col_labels[first + n - 1];
    g.heading = absl::StrCat(grid.heading, "; columns ", first_name, "-",
                             last_name, " of ", grid.cols);
    if (out.empty()) g.notes = grid.notes;
    for (int64_t c = first; c < first + n && !grid.col_labels.empty(); ++c) {
      g.col_labels.push_back(grid.col_labels[c]);
    }
    for (int64_t r = 0; r < grid.rows; ++r) {
      for (int64_t c = first; c < first + n; ++c) {
        g.cells.push_back(grid.cells[r * grid.cols + c]);
      }
    }
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace hlolayout::triton

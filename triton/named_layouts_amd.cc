// AMD's layouts as LinearLayouts: MFMA and WMMA accumulators, their dot
// operands, and the rotating shared layout (Triton's
// LinearLayoutConversions.cpp: AMDMfmaEncodingAttr::toLinearLayout,
// mfmaDotToLinearLayout, AMDWmmaEncodingAttr::getTileLayout and
// toLinearLayout, wmmaDotOperandToLinearLayout,
// sharedToLinearLayoutAMDRotating). Triton 3.6's WMMA spelling
// (warpsPerCTA) converts by the 3.6 rules.

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/triton/layout_utils.h"
#include "hlolayout/triton/named_layouts.h"
#include "hlolayout/triton/named_layouts_internal.h"
#include "hlolayout/triton/ops.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::triton::internal {
namespace {

constexpr int kMfmaWarpSize = 64;
constexpr int kWmmaWarpSize = 32;

std::string Dim(int d) { return absl::StrCat("dim", d); }

absl::Status CheckMfma(const AmdMfmaLayout& m, int rank) {
  if (rank != 2 && rank != 3) {
    return Err("an AMD MFMA layout has rank 2 or 3");
  }
  HLOLAYOUT_RETURN_IF_ERROR(CheckPow2("warpsPerCTA", m.warps_per_cta));
  if (m.instr_shape.size() < 2) {
    return Err("instrShape of an AMD MFMA layout is [M, N, K]");
  }
  const int32_t m_dim = m.instr_shape[0], n_dim = m.instr_shape[1];
  if (!((m_dim == 32 && n_dim == 32) || (m_dim == 16 && n_dim == 16) ||
        (m_dim == 64 && n_dim == 4) || (m_dim == 4 && n_dim == 64))) {
    return Err(absl::StrCat("invalid (mDim, nDim) combination: (", m_dim, ", ",
                            n_dim, ")"));
  }
  if (m.element_bits != 32 && m.element_bits != 64) {
    return Err("elementBitWidth must be 32 or 64");
  }
  if (!m.tiles_per_warp.empty()) {
    if (static_cast<int>(m.tiles_per_warp.size()) < rank) {
      return Err("tilesPerWarp of an AMD MFMA layout has one entry per dim");
    }
    HLOLAYOUT_RETURN_IF_ERROR(CheckPow2("tilesPerWarp", m.tiles_per_warp));
  }
  return absl::OkStatus();
}

int32_t TilesPerWarp(const std::vector<int32_t>& t, int d) {
  return t.empty() || d >= static_cast<int>(t.size()) ? 1 : t[d];
}

// For operand `op_idx` of a matrix instruction with (M, N): the dims of K
// and of the other operand dim.
struct OperandDims {
  int k_index;
  int non_k_index;
  std::string k;
  std::string non_k;
};

OperandDims OperandDimsOf(int op_idx, int rank) {
  const std::vector<int32_t> order = DotOperandOrder(op_idx, rank);
  return {op_idx == 0 ? rank - 1 : rank - 2, op_idx == 0 ? rank - 2 : rank - 1,
          Dim(order[0]), Dim(order[1])};
}

// The batch dim of a rank-3 tile: one register and one lane along dim0.
absl::Status AddBatch(LinearLayout& tile, int rank, const std::string& batch) {
  if (rank != 3) return absl::OkStatus();
  HLOLAYOUT_RETURN_IF_ERROR(MulId(tile, 1, "register", batch));
  return MulId(tile, 1, "lane", batch);
}

}  // namespace

absl::StatusOr<LinearLayout> FromMfma(const AmdMfmaLayout& m,
                                      absl::Span<const int64_t> shape) {
  const int rank = static_cast<int>(m.warps_per_cta.size());
  HLOLAYOUT_RETURN_IF_ERROR(CheckMfma(m, rank));
  HLOLAYOUT_RETURN_IF_ERROR(CheckShape(shape, rank));
  if (m.instr_shape[0] == 64 && m.instr_shape[1] == 4 && !m.is_transposed) {
    // Triton asserts it while converting the accumulator (its operands
    // convert).
    return Err("64x4 mfma must be transposed");
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout cga, CgaLayout(m.cga, rank));
  const bool batch = rank == 3;
  const int m_index = batch ? 1 : 0, n_index = m_index + 1;
  const std::string dim_m = Dim(rank - 2), dim_n = Dim(rank - 1);
  const int32_t m_dim = m.instr_shape[0], n_dim = m.instr_shape[1];
  const int height = m.element_bits == 64 ? 1 : 4;
  const int64_t tiles =
      int64_t{m_dim} * n_dim / (int64_t{kMfmaWarpSize} * height);
  // Each lane holds `height` elements along M (along N when transposed);
  // the lanes walk N (M) first, then the other dim; repeated to fill the
  // instruction's tile.
  const std::string& reg_dim = m.is_transposed ? dim_n : dim_m;
  const std::string& lane_first = m.is_transposed ? dim_m : dim_n;
  const int32_t lane_first_size = m.is_transposed ? m_dim : n_dim;
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout tile,
                             Id(height, "register", reg_dim));
  HLOLAYOUT_RETURN_IF_ERROR(MulId(tile, lane_first_size, "lane", lane_first));
  HLOLAYOUT_RETURN_IF_ERROR(
      MulId(tile, kMfmaWarpSize / lane_first_size, "lane", reg_dim));
  if (tiles > 0)
    HLOLAYOUT_RETURN_IF_ERROR(MulId(tile, tiles, "register", reg_dim));
  HLOLAYOUT_ASSIGN_OR_RETURN(tile, TransposeOuts(tile, {dim_n, dim_m}));
  // Tiles are N-contiguous across the whole tensor: tiles per warp and
  // warps along N, the rest of N in registers, then M.
  const int32_t tpw_m = TilesPerWarp(m.tiles_per_warp, m_index);
  const int32_t tpw_n = TilesPerWarp(m.tiles_per_warp, n_index);
  const int32_t wpc_m = m.warps_per_cta[m_index];
  const int32_t wpc_n = m.warps_per_cta[n_index];
  HLOLAYOUT_RETURN_IF_ERROR(MulId(tile, tpw_n, "register", dim_n));
  HLOLAYOUT_RETURN_IF_ERROR(MulId(tile, wpc_n, "warp", dim_n));
  const int64_t n_tile = int64_t{n_dim} * wpc_n * tpw_n;
  const int64_t n_repeats = (shape[n_index] + n_tile - 1) / n_tile;
  HLOLAYOUT_RETURN_IF_ERROR(MulId(tile, n_repeats, "register", dim_n));
  HLOLAYOUT_RETURN_IF_ERROR(MulId(tile, tpw_m, "register", dim_m));
  HLOLAYOUT_RETURN_IF_ERROR(MulId(tile, wpc_m, "warp", dim_m));
  if (batch) {
    HLOLAYOUT_RETURN_IF_ERROR(AddBatch(tile, rank, Dim(0)));
    HLOLAYOUT_RETURN_IF_ERROR(MulId(tile, m.warps_per_cta[0], "warp", Dim(0)));
  }
  return CombineCtaCgaWithShape(std::move(tile), cga, shape);
}

absl::StatusOr<LinearLayout> FromMfmaDot(const DotOperandLayout& d,
                                         const AmdMfmaLayout& m,
                                         absl::Span<const int64_t> shape) {
  const int rank = static_cast<int>(m.warps_per_cta.size());
  HLOLAYOUT_RETURN_IF_ERROR(CheckMfma(m, rank));
  HLOLAYOUT_RETURN_IF_ERROR(CheckShape(shape, rank));
  if (d.k_width <= 0 || !IsPow2(d.k_width)) {
    return Err(absl::StrCat("kWidth ", d.k_width,
                            " of an MFMA dot operand must be a power of two"));
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout cga, CgaLayout(m.cga, rank));
  const OperandDims dims = OperandDimsOf(d.op_idx, rank);
  const int32_t m_dim = m.instr_shape[0], n_dim = m.instr_shape[1];
  const int32_t non_k_dim = d.op_idx == 0 ? m_dim : n_dim;
  const int64_t k_size = shape[dims.k_index];
  // kWidth elements along K per lane; lanes walk the other dim, then K.
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout tile,
                             Id(d.k_width, "register", dims.k));
  HLOLAYOUT_RETURN_IF_ERROR(MulId(tile, non_k_dim, "lane", dims.non_k));
  HLOLAYOUT_RETURN_IF_ERROR(
      MulId(tile, kMfmaWarpSize / non_k_dim, "lane", dims.k));
  int64_t k_tile = int64_t{kMfmaWarpSize} / non_k_dim * d.k_width;
  // The 64x64 operand of a 4x64 or 64x4 instruction repeats 16 times along
  // K.
  if ((m_dim == 64 && n_dim == 4 && d.op_idx == 0) ||
      (m_dim == 4 && n_dim == 64 && d.op_idx == 1)) {
    HLOLAYOUT_RETURN_IF_ERROR(MulId(tile, 16, "register", dims.k));
    k_tile *= 16;
  }
  if (k_size > k_tile) {
    HLOLAYOUT_RETURN_IF_ERROR(MulId(tile, k_size / k_tile, "register", dims.k));
  }
  HLOLAYOUT_RETURN_IF_ERROR(
      MulId(tile, TilesPerWarp(m.tiles_per_warp, dims.non_k_index), "register",
            dims.non_k));
  HLOLAYOUT_ASSIGN_OR_RETURN(tile, TransposeOuts(tile, {dims.k, dims.non_k}));
  HLOLAYOUT_RETURN_IF_ERROR(AddBatch(tile, rank, Dim(0)));
  HLOLAYOUT_ASSIGN_OR_RETURN(
      LinearLayout warps,
      IdentityStandardND("warp", m.warps_per_cta, MatrixOrder(rank, true)));
  HLOLAYOUT_RETURN_IF_ERROR(MulInto(tile, warps));
  // The parent's CGA layout (Triton passes the MFMA layout's, not the
  // operand's), then the standard order of the dims.
  HLOLAYOUT_ASSIGN_OR_RETURN(
      LinearLayout out, CombineCtaCgaWithShape(std::move(tile), cga, shape));
  return TransposeOuts(out, StandardOutDimNames(rank));
}

namespace {

absl::Status CheckWmma(const AmdWmmaLayout& w, int rank) {
  if (w.version < 1 || w.version > 3) {
    return Err("WMMA version must be in the [1, 3] range");
  }
  if (rank != 2 && rank != 3) return Err("an AMD WMMA layout has rank 2 or 3");
  if (w.instr_shape.size() != 3) {
    return Err(absl::StrCat("invalid WMMA v", w.version, " instruction shape"));
  }
  if (w.legacy_warps) {
    HLOLAYOUT_RETURN_IF_ERROR(CheckPow2("warpsPerCTA", w.warps_per_cta));
    if (!w.tiles_per_warp.empty()) {
      if (static_cast<int>(w.tiles_per_warp.size()) < rank) {
        return Err("tilesPerWarp of an AMD WMMA layout has one entry per dim");
      }
      HLOLAYOUT_RETURN_IF_ERROR(CheckPow2("tilesPerWarp", w.tiles_per_warp));
    }
  }
  return absl::OkStatus();
}

// AMDWmmaEncodingAttr::getTileLayout: one instruction's accumulator tile,
// out-dims in the standard order.
absl::StatusOr<LinearLayout> WmmaTile(const AmdWmmaLayout& w, int rank,
                                      bool legacy) {
  const std::vector<int32_t> thread_order = MatrixOrder(rank, !w.is_transposed);
  DimBases regs, lanes = {{1, 0}, {2, 0}, {4, 0}, {8, 0}};
  if (w.version == 1) {
    regs = {{0, 2}, {0, 4}, {0, 8}};
    lanes.push_back({0, 1});
  } else {
    regs = {{0, 1}, {0, 2}, {0, 4}};
    if (!legacy && w.instr_shape[0] == 32 && w.instr_shape[1] == 16) {
      // 32x16: two 16x16 tiles stacked, the second in more registers.
      regs.push_back({0, 16});
    }
    lanes.push_back({0, 8});
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout tile,
                             LinearLayout::CreateInferred(
                                 {{"register", regs}, {"lane", lanes}},
                                 {Dim(thread_order[0]), Dim(thread_order[1])}));
  return tile;
}

// Triton 3.6's AMDWmmaEncodingAttr::toLinearLayout (warpsPerCTA spelling).
absl::StatusOr<LinearLayout> FromWmmaLegacy(const AmdWmmaLayout& w,
                                            absl::Span<const int64_t> shape,
                                            int rank) {
  const bool batch = rank == 3;
  const int m_index = batch ? 1 : 0, n_index = m_index + 1;
  const int32_t m_dim = w.instr_shape[0], n_dim = w.instr_shape[1];
  if (!((shape[m_index] == 1 || shape[m_index] >= m_dim) &&
        (shape[n_index] == 1 || shape[n_index] >= n_dim))) {
    return Err("Unsupported tensor shape for given wmma layout");
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout cga, CgaLayout(w.cga, rank));
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout tile,
                             WmmaTile(w, rank, /*legacy=*/true));
  const std::string dim_m = Dim(rank - 2), dim_n = Dim(rank - 1);
  HLOLAYOUT_ASSIGN_OR_RETURN(tile, TransposeOuts(tile, {dim_n, dim_m}));
  const int32_t tpw_m = TilesPerWarp(w.tiles_per_warp, m_index);
  const int32_t tpw_n = TilesPerWarp(w.tiles_per_warp, n_index);
  const int32_t wpc_m = w.warps_per_cta[m_index];
  const int32_t wpc_n = w.warps_per_cta[n_index];
  HLOLAYOUT_RETURN_IF_ERROR(MulId(tile, tpw_n, "register", dim_n));
  HLOLAYOUT_RETURN_IF_ERROR(MulId(tile, wpc_n, "warp", dim_n));
  HLOLAYOUT_RETURN_IF_ERROR(
      MulId(tile, shape[n_index] / (int64_t{n_dim} * wpc_n * tpw_n), "register",
            dim_n));
  HLOLAYOUT_RETURN_IF_ERROR(MulId(tile, tpw_m, "register", dim_m));
  HLOLAYOUT_RETURN_IF_ERROR(MulId(tile, wpc_m, "warp", dim_m));
  if (batch) {
    HLOLAYOUT_RETURN_IF_ERROR(AddBatch(tile, rank, Dim(0)));
    HLOLAYOUT_RETURN_IF_ERROR(MulId(tile, w.warps_per_cta[0], "warp", Dim(0)));
  }
  return CombineCtaCgaWithShape(std::move(tile), cga, shape);
}

}  // namespace

absl::StatusOr<LinearLayout> WmmaCtaLayout(const AmdWmmaLayout& w) {
  const int rank = LayoutRank(Layout(w));
  if (w.legacy_warps) {
    // chooseWmmaCTALinearLayout: per dim, fastest first, tiles then warps.
    LinearLayout cta;
    for (int32_t d : MatrixOrder(rank, true)) {
      HLOLAYOUT_RETURN_IF_ERROR(
          MulId(cta, TilesPerWarp(w.tiles_per_warp, d), "register", Dim(d)));
      HLOLAYOUT_RETURN_IF_ERROR(MulId(cta, w.warps_per_cta[d], "warp", Dim(d)));
    }
    return TransposeOuts(cta, StandardOutDimNames(rank));
  }
  for (const DimBases* bases : {&w.cta_register, &w.cta_warp}) {
    for (const auto& b : *bases) {
      if (static_cast<int>(b.size()) != rank) {
        return Err(absl::StrCat("a WMMA ctaLayout basis has ", b.size(),
                                " values, the layout rank is ", rank));
      }
    }
  }
  return LinearLayout::CreateInferred(
      {{"register", w.cta_register}, {"warp", w.cta_warp}},
      StandardOutDimNames(rank));
}

absl::StatusOr<LinearLayout> FromWmma(const AmdWmmaLayout& w,
                                      absl::Span<const int64_t> shape) {
  const int rank = LayoutRank(Layout(w));
  HLOLAYOUT_RETURN_IF_ERROR(CheckWmma(w, rank));
  HLOLAYOUT_RETURN_IF_ERROR(CheckShape(shape, rank));
  if (w.legacy_warps) return FromWmmaLegacy(w, shape, rank);
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout cga, CgaLayout(w.cga, rank));
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout tile,
                             WmmaTile(w, rank, /*legacy=*/false));
  HLOLAYOUT_RETURN_IF_ERROR(AddBatch(tile, rank, Dim(0)));
  HLOLAYOUT_ASSIGN_OR_RETURN(tile,
                             TransposeOuts(tile, StandardOutDimNames(rank)));
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout cta, WmmaCtaLayout(w));
  HLOLAYOUT_RETURN_IF_ERROR(MulInto(tile, cta));
  HLOLAYOUT_ASSIGN_OR_RETURN(
      tile, TransposeOuts(tile, PermutedDimNames(MatrixOrder(rank, true))));
  return CombineCtaCgaWithShape(std::move(tile), cga, shape);
}

namespace {

// Triton 3.6's wmmaDotOperandToLinearLayout (warpsPerCTA spelling).
absl::StatusOr<LinearLayout> FromWmmaDotLegacy(const DotOperandLayout& d,
                                               const AmdWmmaLayout& w,
                                               absl::Span<const int64_t> shape,
                                               int rank) {
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout cga, CgaLayout(w.cga, rank));
  const OperandDims dims = OperandDimsOf(d.op_idx, rank);
  const int32_t k_dim = w.instr_shape[2];
  const int32_t non_k_dim = d.op_idx == 0 ? w.instr_shape[0] : w.instr_shape[1];
  const int32_t tiles_non_k = TilesPerWarp(w.tiles_per_warp, dims.non_k_index);
  const int64_t k_size = shape[dims.k_index];
  const int depth = kWmmaWarpSize / non_k_dim;
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout tile,
                             Id(d.k_width, "register", dims.k));
  HLOLAYOUT_RETURN_IF_ERROR(MulId(tile, non_k_dim, "lane", dims.non_k));
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout k_lanes,
                             w.version == 1 ? Zeros(depth, "lane", dims.k)
                                            : Id(depth, "lane", dims.k));
  HLOLAYOUT_RETURN_IF_ERROR(MulInto(tile, k_lanes));
  const int64_t k_tile = int64_t{depth} * d.k_width;
  if (tiles_non_k > 1) {
    HLOLAYOUT_RETURN_IF_ERROR(MulId(
        tile, std::max<int64_t>(k_size, k_dim) / k_tile, "register", dims.k));
    HLOLAYOUT_RETURN_IF_ERROR(MulId(tile, tiles_non_k, "register", dims.non_k));
  } else {
    HLOLAYOUT_RETURN_IF_ERROR(MulId(tile, k_dim / k_tile, "register", dims.k));
  }
  HLOLAYOUT_RETURN_IF_ERROR(AddBatch(tile, rank, Dim(0)));
  HLOLAYOUT_ASSIGN_OR_RETURN(
      LinearLayout warps,
      BroadcastedDotOperandLayout(w.warps_per_cta, MatrixOrder(rank, true),
                                  dims.k_index, "warp"));
  const std::vector<std::string> rep =
      PermutedDimNames(DotOperandOrder(d.op_idx, rank));
  HLOLAYOUT_ASSIGN_OR_RETURN(tile, TransposeOuts(tile, rep));
  HLOLAYOUT_ASSIGN_OR_RETURN(warps, TransposeOuts(warps, rep));
  HLOLAYOUT_RETURN_IF_ERROR(MulInto(tile, warps));
  return CombineCtaCgaWithShape(std::move(tile), cga, shape);
}

}  // namespace

absl::StatusOr<LinearLayout> FromWmmaDot(const DotOperandLayout& d,
                                         const AmdWmmaLayout& w,
                                         absl::Span<const int64_t> shape) {
  const int rank = LayoutRank(Layout(w));
  HLOLAYOUT_RETURN_IF_ERROR(CheckWmma(w, rank));
  HLOLAYOUT_RETURN_IF_ERROR(CheckShape(shape, rank));
  if (d.k_width <= 0 || !IsPow2(d.k_width)) {
    return Err(absl::StrCat("kWidth ", d.k_width,
                            " of a WMMA dot operand must be a power of two"));
  }
  if (w.legacy_warps) return FromWmmaDotLegacy(d, w, shape, rank);
  HLOLAYOUT_RETURN_IF_ERROR(CgaLayout(w.cga, rank).status());
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout cga,
                             DotOperandCgaLayout(w.cga, rank, d.op_idx));
  const OperandDims dims = OperandDimsOf(d.op_idx, rank);
  const int32_t k_dim = w.instr_shape[2];
  // getOperandNonKDim: the operands swap for a transposed asymmetric (32x16)
  // instruction.
  const bool flip = w.is_transposed && w.instr_shape[0] != w.instr_shape[1];
  const int32_t non_k_dim = (flip ? 1 - d.op_idx : d.op_idx) == 0
                                ? w.instr_shape[0]
                                : w.instr_shape[1];
  constexpr int kTileDim = 16;
  const int k_depth = kWmmaWarpSize / kTileDim;
  // kWidth registers along K, 16 lanes along the other dim, then two lane
  // groups along K (v1: both hold the same K), repeated to cover K and, for
  // a 32x16 instruction, the second 16 rows.
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout tile,
                             Id(d.k_width, "register", dims.k));
  HLOLAYOUT_RETURN_IF_ERROR(MulId(tile, kTileDim, "lane", dims.non_k));
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout k_lanes,
                             w.version == 1 ? Zeros(k_depth, "lane", dims.k)
                                            : Id(k_depth, "lane", dims.k));
  HLOLAYOUT_RETURN_IF_ERROR(MulInto(tile, k_lanes));
  const int64_t k_tile = int64_t{k_depth} * d.k_width;
  HLOLAYOUT_RETURN_IF_ERROR(MulId(tile, k_dim / k_tile, "register", dims.k));
  if (non_k_dim / kTileDim > 1) {
    HLOLAYOUT_RETURN_IF_ERROR(
        MulId(tile, non_k_dim / kTileDim, "register", dims.non_k));
  }
  // The CTA layout with K projected away and its broadcast registers
  // dropped.
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout cta, WmmaCtaLayout(w));
  NamedBases bases = cta.bases();
  const int k_out = cta.OutDimIndex(dims.k);
  for (auto& [name, b] : bases) {
    for (auto& basis : b) basis[k_out] = 0;
  }
  for (auto& [name, b] : bases) {
    if (name != "register") continue;
    DimBases kept;
    for (auto& basis : b) {
      if (std::any_of(basis.begin(), basis.end(),
                      [](int32_t v) { return v != 0; })) {
        kept.push_back(std::move(basis));
      }
    }
    b = std::move(kept);
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(
      cta, LinearLayout::CreateInferred(std::move(bases),
                                        StandardOutDimNames(rank)));
  HLOLAYOUT_RETURN_IF_ERROR(MulInto(tile, cta));
  HLOLAYOUT_ASSIGN_OR_RETURN(
      tile,
      TransposeOuts(tile, PermutedDimNames(DotOperandOrder(d.op_idx, rank))));
  return CombineCtaCgaWithShape(std::move(tile), cga, shape);
}

absl::StatusOr<LinearLayout> FromRotating(const AmdRotatingSharedLayout& s,
                                          absl::Span<const int64_t> shape) {
  const int rank = static_cast<int>(s.order.size());
  HLOLAYOUT_RETURN_IF_ERROR(CheckShape(shape, rank));
  if (s.vec <= 0 || s.per_phase <= 0 || s.max_phase <= 0) {
    return Err(
        "vec, perPhase and maxPhase of a rotating shared layout must be "
        "positive");
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout cga, CgaLayout(s.cga, rank));
  if (rank == 1) {
    HLOLAYOUT_ASSIGN_OR_RETURN(
        LinearLayout cta, Id(ShapePerCta(shape, s.cga)[0], "offset", "dim0"));
    return CombineCtaCgaWithShape(std::move(cta), cga, shape);
  }
  // Unlike the swizzled layout, the columns and rows are those of the whole
  // tensor, not of one CTA's piece (as Triton does).
  const int col_dim = s.order[0], row_dim = s.order[1];
  const int64_t num_cols = shape[col_dim], num_rows = shape[row_dim];
  DimBases bases2d;
  for (int64_t col = 1; col < num_cols; col *= 2) {
    bases2d.push_back({0, static_cast<int32_t>(col)});
  }
  for (int64_t row = 1; row < num_rows; row *= 2) {
    const int64_t phase = (row / s.per_phase) % s.max_phase;
    const int64_t block = row / s.max_phase / s.per_phase % s.max_phase;
    const int64_t col = (s.vec * (phase ^ block)) % num_cols;
    bases2d.push_back({static_cast<int32_t>(row), static_cast<int32_t>(col)});
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(
      LinearLayout cta,
      LinearLayout::CreateInferred({{"offset", bases2d}},
                                   {Dim(row_dim), Dim(col_dim)}));
  for (int i = 2; i < rank; ++i) {
    HLOLAYOUT_RETURN_IF_ERROR(
        MulId(cta, shape[s.order[i]], "offset", Dim(s.order[i])));
  }
  return CombineCtaCgaWithShape(std::move(cta), cga, shape);
}

}  // namespace hlolayout::triton::internal

// Padded and partitioned shared layouts and Blackwell's tensor memory as
// LinearLayouts (Triton's LinearLayoutConversions.cpp:
// PaddedSharedEncodingAttr::getLinearComponent, paddedLinearLayout,
// partitionedSharedToLinearLayout, tensorMemoryToLinearLayout,
// tensorMemoryScalesToLinearLayout). Tensor memory written in Triton 3.6's
// spelling (CTASplitM / CTASplitN) converts by the 3.6 rules.

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

absl::Status CheckMemoryShape(absl::Span<const int64_t> shape) {
  return CheckShape(shape, 2);
}

}  // namespace

absl::StatusOr<LinearLayout> FromPadded(const PaddedSharedLayout& p,
                                        absl::Span<const int64_t> shape) {
  const LinearLayout& l = p.linear;
  HLOLAYOUT_RETURN_IF_ERROR(CheckShape(shape, l.num_out_dims()));
  for (int d = 0; d < l.num_out_dims(); ++d) {
    if (l.OutDimSize(d) != shape[d]) {
      return Err(absl::StrCat("Mismatch in expected shape for dimension ", d,
                              ". Expected: ", shape[d],
                              ", got: ", l.OutDimSize(d)));
    }
  }
  return l;
}

absl::StatusOr<LinearLayout> FromPartitioned(const PartitionedSharedLayout& p,
                                             absl::Span<const int64_t> shape) {
  if (p.partition_layout == nullptr) {
    return Err("missing partitionLayout");
  }
  const int rank = LayoutRank(*p.partition_layout);
  HLOLAYOUT_RETURN_IF_ERROR(CheckShape(shape, rank));
  if (p.partition_dim < 0 || p.partition_dim >= rank) {
    return Err(absl::StrCat("partitionDim (", p.partition_dim,
                            ") must be less than the layout rank (", rank,
                            ")"));
  }
  const int64_t pieces = int64_t{p.num_partitions} * p.num_groups;
  const int64_t piece = shape[p.partition_dim] / pieces;
  if (piece < 1) {
    return Err(absl::StrCat("dim ", p.partition_dim, " of the tensor (",
                            shape[p.partition_dim],
                            ") is smaller than its numPartitions * numGroups "
                            "pieces (",
                            pieces, ")"));
  }
  std::vector<int64_t> piece_shape(shape.begin(), shape.end());
  piece_shape[p.partition_dim] = piece;
  if (p.partition_layout->get<PaddedSharedLayout>() != nullptr) {
    // Triton asserts it (its paddedLinearLayout would take the padded
    // layout's linear component instead).
    return Err(
        "toLinearLayout does not support partitioned layouts wrapping padded "
        "layouts; use paddedLinearLayout instead");
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout base,
                             Convert(*p.partition_layout, piece_shape));
  const std::vector<std::string> dims =
      StandardOutDimNames(base.num_out_dims());
  HLOLAYOUT_RETURN_IF_ERROR(
      MulId(base, p.num_partitions, "partition", dims[p.partition_dim]));
  HLOLAYOUT_RETURN_IF_ERROR(
      MulId(base, p.num_groups, "offset", dims[p.partition_dim]));
  return base;
}

namespace {

// `tile *= identity1D(rows, row, dim0) * cols` (Triton multiplies the rows
// and columns first: the in-dims come out row, col and the out-dims dim0,
// dim1).
absl::Status MulRowsCols(LinearLayout& tile, int64_t rows,
                         const LinearLayout& cols) {
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout rc, Id(rows, "row", "dim0"));
  HLOLAYOUT_RETURN_IF_ERROR(MulInto(rc, cols));
  return MulInto(tile, rc);
}

// The 64-row tile of blockM = 64 (one CTA): 16 rows, the columns, then the
// row bits 16 and 32, with the 64-row bit where the second half goes.
absl::StatusOr<LinearLayout> Block64Tile(LinearLayout tile,
                                         const LinearLayout& cols,
                                         int64_t rows_per_cta,
                                         int64_t cols_per_cta,
                                         int32_t block_n) {
  HLOLAYOUT_RETURN_IF_ERROR(MulRowsCols(tile, 16, cols));
  NamedBases bases = tile.bases();
  for (auto& [name, b] : bases) {
    if (name != "row") continue;
    if (rows_per_cta > 64) {
      b.push_back({64, 0});
    } else if (cols_per_cta > block_n) {
      b.push_back({0, block_n});
    } else {
      b.push_back({0, 0});  // the element is not defined
    }
    b.push_back({16, 0});
    b.push_back({32, 0});
  }
  return LinearLayout::CreateInferred(std::move(bases), StandardOutDimNames(2));
}

// The rest of the tensor in more columns, dim0 first.
absl::Status Repeat(LinearLayout& tile, int64_t rows, int64_t cols) {
  const int64_t reps_m = rows / tile.OutDimSize(tile.OutDimIndex("dim0"));
  const int64_t reps_n = cols / tile.OutDimSize(tile.OutDimIndex("dim1"));
  if (reps_m < 1 || reps_n < 1) {
    return Err(absl::StrCat(
        "the tensor memory tile (", tile.OutDimSize(tile.OutDimIndex("dim0")),
        "x", tile.OutDimSize(tile.OutDimIndex("dim1")),
        ") does not fit the allocation (", rows, "x", cols, ")"));
  }
  HLOLAYOUT_RETURN_IF_ERROR(MulId(tile, reps_m, "col", "dim0"));
  return MulId(tile, reps_n, "col", "dim1");
}

// Triton 3.6's tensorMemoryToLinearLayout (CTASplitM / CTASplitN).
absl::StatusOr<LinearLayout> TensorMemoryLegacy(const TensorMemoryLayout& t,
                                                int64_t rows, int64_t cols) {
  if (t.cta_split_n > 1) {
    TensorMemoryLayout inner = t;
    inner.cta_split_n = 1;
    HLOLAYOUT_ASSIGN_OR_RETURN(
        LinearLayout l, TensorMemoryLegacy(inner, rows, cols / t.cta_split_n));
    HLOLAYOUT_RETURN_IF_ERROR(MulId(l, t.cta_split_n, "col", "dim1"));
    return l;
  }
  if (t.cta_split_m > 1) {
    int32_t split_m = t.cta_split_m;
    TensorMemoryLayout inner = t;
    inner.cta_split_m = 1;
    const bool m64_two_cta = t.block_m == 64 && t.two_ctas;
    if (m64_two_cta) {
      // Laid out as the transpose of 128 x blockN.
      inner.block_m = 128;
      split_m /= 2;
    }
    HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout l,
                               TensorMemoryLegacy(inner, rows / split_m, cols));
    if (m64_two_cta) {
      // The second CTA's rows: the last row and the last column bases swap
      // (Triton 3.6.0; later versions swap another column basis).
      NamedBases bases = l.bases();
      DimBases* row = nullptr;
      DimBases* col = nullptr;
      for (auto& [name, b] : bases) {
        if (name == "row") row = &b;
        if (name == "col") col = &b;
      }
      if (row == nullptr || col == nullptr || row->empty() || col->empty()) {
        return Err("this two-CTA tensor memory layout cannot be converted");
      }
      std::swap(row->back(), col->back());
      HLOLAYOUT_ASSIGN_OR_RETURN(
          l, LinearLayout::Create(std::move(bases), l.out_dims(),
                                  l.IsSurjective()));
    }
    HLOLAYOUT_RETURN_IF_ERROR(MulId(l, split_m, "col", "dim0"));
    return l;
  }
  const int32_t block_n =
      static_cast<int32_t>(std::min<int64_t>(t.block_n, cols));
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout tile,
                             Zeros(t.col_stride, "col", "dim1"));
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout col_layout,
                             Id(block_n, "col", "dim1"));
  if (t.block_m == 64) {
    HLOLAYOUT_ASSIGN_OR_RETURN(
        tile, Block64Tile(tile, col_layout, rows, cols, block_n));
  } else {
    HLOLAYOUT_RETURN_IF_ERROR(MulRowsCols(tile, t.block_m, col_layout));
  }
  HLOLAYOUT_RETURN_IF_ERROR(Repeat(tile, rows, cols));
  return tile;
}

}  // namespace

absl::StatusOr<LinearLayout> FromTensorMemory(const TensorMemoryLayout& t,
                                              absl::Span<const int64_t> shape) {
  HLOLAYOUT_RETURN_IF_ERROR(CheckMemoryShape(shape));
  if (t.block_m != 64 && t.block_m != 128) {
    return Err(absl::StrCat("blockM must be 64 or 128 but got ", t.block_m));
  }
  if (!IsPow2(t.block_n) || !IsPow2(t.col_stride)) {
    return Err(
        "blockN and colStride of a tensor memory layout must be "
        "powers of two");
  }
  if (t.legacy_split) {
    if (!IsPow2(t.cta_split_m) || !IsPow2(t.cta_split_n)) {
      return Err(
          "CTASplitM and CTASplitN must be greater than 0 and a power of 2");
    }
    return TensorMemoryLegacy(t, shape[0], shape[1]);
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout cga, CgaLayout(t.cga, 2));
  const std::vector<int64_t> per_cta = ShapePerCta(shape, t.cga);
  const bool m64_two_cta = t.block_m == 64 && t.two_ctas;
  const int32_t block_n =
      static_cast<int32_t>(std::min<int64_t>(t.block_n, per_cta[1]));
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout tile,
                             Zeros(t.col_stride, "col", "dim1"));
  LinearLayout cols;
  if (t.fp4_padded) {
    // The low physical column bit picks the real or the padded half.
    HLOLAYOUT_ASSIGN_OR_RETURN(cols, Zeros(2, "col", "dim1"));
  }
  HLOLAYOUT_RETURN_IF_ERROR(MulId(cols, block_n, "col", "dim1"));
  if (t.block_m == 64 && !t.two_ctas) {
    HLOLAYOUT_ASSIGN_OR_RETURN(
        tile, Block64Tile(tile, cols, per_cta[0], per_cta[1], block_n));
  } else {
    HLOLAYOUT_RETURN_IF_ERROR(MulRowsCols(tile, t.block_m, cols));
    if (m64_two_cta) {
      // The last column bit becomes the 64-row bit.
      NamedBases bases = tile.bases();
      DimBases* row = nullptr;
      DimBases* col = nullptr;
      for (auto& [name, b] : bases) {
        if (name == "row") row = &b;
        if (name == "col") col = &b;
      }
      if (row == nullptr || col == nullptr || col->empty()) {
        return Err("this two-CTA tensor memory layout cannot be converted");
      }
      row->push_back(col->back());
      col->pop_back();
      HLOLAYOUT_ASSIGN_OR_RETURN(
          tile, LinearLayout::Create(std::move(bases), tile.out_dims(),
                                     tile.IsSurjective()));
    }
  }
  HLOLAYOUT_RETURN_IF_ERROR(Repeat(tile, per_cta[0], per_cta[1]));
  HLOLAYOUT_RETURN_IF_ERROR(MulInto(tile, cga));
  return tile;
}

namespace {

// The scale factors' 32 x 4 atom: 32 rows (the 4 groups of 32 rows of the
// TMEM hold copies), 4 columns of K, then a second 32-row half of M in the
// next columns.
absl::StatusOr<LinearLayout> ScalesAtom() {
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout tile, Id(32, "row", "dim0"));
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout warps, Zeros(4, "row", "dim0"));
  HLOLAYOUT_RETURN_IF_ERROR(MulInto(tile, warps));
  HLOLAYOUT_RETURN_IF_ERROR(MulId(tile, 4, "col", "dim1"));
  HLOLAYOUT_RETURN_IF_ERROR(MulId(tile, 2, "col", "dim0"));
  return tile;
}

NamedInts Named2(int64_t rows, int64_t cols) {
  return {{"dim0", static_cast<int32_t>(rows)},
          {"dim1", static_cast<int32_t>(cols)}};
}

absl::StatusOr<LinearLayout> ScalesLegacy(const TensorMemoryScalesLayout& t,
                                          int64_t rows, int64_t cols) {
  if (t.cta_split_n > 1) {
    TensorMemoryScalesLayout inner = t;
    inner.cta_split_n = 1;
    HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout l,
                               ScalesLegacy(inner, rows, cols / t.cta_split_n));
    HLOLAYOUT_RETURN_IF_ERROR(MulId(l, t.cta_split_n, "col", "dim1"));
    return l;
  }
  if (t.cta_split_m > 1) {
    TensorMemoryScalesLayout inner = t;
    inner.cta_split_m = 1;
    HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout l,
                               ScalesLegacy(inner, rows / t.cta_split_m, cols));
    HLOLAYOUT_RETURN_IF_ERROR(MulId(l, t.cta_split_m, "col", "dim0"));
    return l;
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout tile, ScalesAtom());
  HLOLAYOUT_RETURN_IF_ERROR(MulId(tile, (rows + 63) / 64, "col", "dim0"));
  HLOLAYOUT_RETURN_IF_ERROR(MulId(tile, (cols + 3) / 4, "col", "dim1"));
  return EnsureLayoutNotLargerThan(tile, Named2(rows, cols));
}

}  // namespace

absl::StatusOr<LinearLayout> FromTensorMemoryScales(
    const TensorMemoryScalesLayout& t, absl::Span<const int64_t> shape) {
  HLOLAYOUT_RETURN_IF_ERROR(CheckMemoryShape(shape));
  if (t.legacy_split) {
    if (!IsPow2(t.cta_split_m) || !IsPow2(t.cta_split_n)) {
      return Err(
          "CTASplitM and CTASplitN must be greater than 0 and a power of 2");
    }
    return ScalesLegacy(t, shape[0], shape[1]);
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout cga, CgaLayout(t.cga, 2));
  const std::vector<int64_t> per_cta = ShapePerCta(shape, t.cga);
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout tile, ScalesAtom());
  int64_t reps_mn = (per_cta[0] + 63) / 64;
  const int64_t reps_k = (per_cta[1] + 3) / 4;
  if (reps_mn > 1) {
    // The two MN-adjacent 64 x 4 pieces make one repeated scale block.
    HLOLAYOUT_RETURN_IF_ERROR(MulId(tile, 2, "col", "dim0"));
    reps_mn /= 2;
  }
  if (t.k_then_mn) {
    HLOLAYOUT_RETURN_IF_ERROR(MulId(tile, reps_k, "col", "dim1"));
    HLOLAYOUT_RETURN_IF_ERROR(MulId(tile, reps_mn, "col", "dim0"));
  } else {
    HLOLAYOUT_RETURN_IF_ERROR(MulId(tile, reps_mn, "col", "dim0"));
    HLOLAYOUT_RETURN_IF_ERROR(MulId(tile, reps_k, "col", "dim1"));
  }
  HLOLAYOUT_RETURN_IF_ERROR(MulId(tile, 1, "block", "dim0"));
  HLOLAYOUT_ASSIGN_OR_RETURN(
      tile, EnsureLayoutNotLargerThan(tile, Named2(per_cta[0], per_cta[1])));
  HLOLAYOUT_RETURN_IF_ERROR(MulInto(tile, cga));
  return tile;
}

}  // namespace hlolayout::triton::internal

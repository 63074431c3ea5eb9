// index_util/xla_index_util.h: XLA's own index and size functions, with
// XLA's exact behaviour, including where it is approximate.
//
// Use these to predict what XLA computes; use the exact functions
// (layout/reference_index.h, index_util/tiled_indexer.h, layout/sizes.h) to
// know where an element really is. Side by side:
//
//   XLA function (here)                      exact counterpart
//   XlaMultidimensionalIndexToLinearIndex    ReferenceOffset
//     (IndexUtil; minor_to_major only, tiles, L and E ignored)
//   XlaLinearIndexFirstTileOnly              ReferenceOffset
//     (LayoutUtil::LinearIndex; first tile only, rank 1 ignores it)
//   XlaByteSizeOf (ShapeUtil; tiles ignored) ComputeArraySizes().padded_bytes
//   XlaArraySize (ShapeUtil; first tile,     ComputeArraySizes().padded_bytes
//     L only when tiled, split configs)
//
// Where they differ, for example f32[4,8]{1,0:T(2,4)(2,1)}, index (1,0):
//   XlaMultidimensionalIndexToLinearIndex -> 8   (row-major, untiled)
//   XlaLinearIndexFirstTileOnly           -> 4   (row 1 of the 2x4 tile)
//   ReferenceOffset                      -> 1   (the (2,1) tile pairs rows)
// and f32[3,5]{1,0:T(2,2)}: XlaByteSizeOf 60, XlaArraySize 96.
//
// Unlike XLA, nothing here CHECK-fails or wraps on bad input: wrong ranks,
// out-of-range indices and int64 overflow are errors. Functions that XLA
// defines on valid input only (BumpIndices, CompareIndices) have
// preconditions.
#ifndef HLOLAYOUT_INDEX_UTIL_XLA_INDEX_UTIL_H_
#define HLOLAYOUT_INDEX_UTIL_XLA_INDEX_UTIL_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout {

// IndexUtil::MultidimensionalIndexToLinearIndex: walks minor_to_major,
// ignoring tiles. f32[10,20]{0,1}, {3,5} -> 3 + 5*10 = 53.
// Errors: not an array, rank mismatch, index out of [0, dim).
absl::StatusOr<int64_t> XlaMultidimensionalIndexToLinearIndex(
    const Shape& shape, absl::Span<const int64_t> multi_index);

// IndexUtil::LinearIndexToMultidimensionalIndex: index[d] =
// (linear / stride_d) mod dims[d] along minor_to_major.
// f32[10,20]{0,1}, 53 -> {3,5}. Errors: linear outside [0, elements).
absl::StatusOr<std::vector<int64_t>> XlaLinearIndexToMultidimensionalIndex(
    const Shape& shape, int64_t linear_index);

// IndexUtil::GetDimensionStride: product of the dims more minor than
// `dimension`. f32[10,20]{0,1}: stride of dim 1 is 10.
absl::StatusOr<int64_t> XlaGetDimensionStride(const Shape& shape,
                                              int64_t dimension);

// IndexUtil::BumpIndices: row-major odometer, LAST logical dim fastest,
// layout ignored. Returns false (with every index back at 0) after the last
// index. f32[2,2]: {0,1} -> {1,0}, true; {1,1} -> {0,0}, false.
// CHECKs indices.size() == shape.rank(). Precondition: every index in
// bounds.
bool XlaBumpIndices(const Shape& shape, absl::Span<int64_t> indices);

// IndexUtil::IndexInBounds: false on a rank mismatch or index[d] >=
// dims[d]. As in XLA, NEGATIVE INDICES ARE NOT CHECKED (they give true).
bool XlaIndexInBounds(const Shape& shape, absl::Span<const int64_t> index);

// IndexUtil::CompareIndices: lexicographic; -1 if lhs < rhs at the first
// difference, +1 if greater, 0 if equal (XLA's header comment has the sign
// backwards; its code and tests agree with this).
// Precondition: lhs.size() == rhs.size().
int XlaCompareIndices(absl::Span<const int64_t> lhs,
                      absl::Span<const int64_t> rhs);

// LayoutUtil::LinearIndex: the first tile only; rank 0 gives 0 and rank 1
// gives the index unchanged (tile ignored). f32[3,5]{1,0:T(2,2)}, {2,3} ->
// 17 (agrees: one tile level); f32[5]{0:T(2,2)}, {3} -> 3 (exact: 5).
// Errors: rank/bounds as above, `*` in the first tile (XLA multiplies by
// INT64_MIN), overflow.
absl::StatusOr<int64_t> XlaLinearIndexFirstTileOnly(
    const Shape& shape, absl::Span<const int64_t> index);

// ShapeUtil::ByteSizeOf: arrays are ceil(n*E/8) bytes with E(n), else
// n*ByteWidth; tiles, L, SC and M are ignored. Tuples are pointer_size per
// element (the index table), tokens 0, opaque pointer_size.
// Errors: buffers, unbounded dims, pointer_size <= 0 where needed, overflow.
absl::StatusOr<int64_t> XlaByteSizeOf(const Shape& shape,
                                      int64_t pointer_size = -1);

// ShapeUtil::ArraySize: untiled -> XlaByteSizeOf (L ignored); tiled -> the
// FIRST tile rounds up the minor dims (a larger tile pads with virtual
// size-1 dims), the other dims count at their largest split-config
// segment, then L(n), then E/ByteWidth. Later tiles are ignored.
// s4[9216,6144]{1,0:T(64,128)(8,1)E(4)} -> 28311552;
// f32[2,3]{1,0:T(8,128)} -> 4096. Errors: `*` in the first tile, overflow.
absl::StatusOr<int64_t> XlaArraySize(const Shape& shape);

// ShapeUtil::ArrayDataSize: 0 if any dim is 0, else
// XlaLinearIndexFirstTileOnly(last element) + 1 elements, in bytes.
absl::StatusOr<int64_t> XlaArrayDataSize(const Shape& shape);

}  // namespace hlolayout

#endif  // HLOLAYOUT_INDEX_UTIL_XLA_INDEX_UTIL_H_

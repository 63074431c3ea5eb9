// ttmlir/ttmlir_collapse.h: tt-mlir's own collapse function, quirks included.
//
// TTNN layouts are still built with tt-mlir's `collapsedLinearAffineMap`
// (docs/tt-mlir.md, "Collapsing the tensor"), which differs from the
// specification's intent that ttmlir/collapse.h implements. To say what
// tt-mlir's builder writes, this file reproduces it step by step:
//   1. start from the minor identity with min(rank, grid rank) results;
//   2. for each interval (negative bounds + rank; skipped when begin >= end)
//      join its dims tightly (row-major over `shape`) and put the join at
//      result position `begin`;
//   3. put d_k at result k for every k below the smallest interval start;
//   4. every dim must appear in some result;
//   5. prepend constant-0 results up to the grid rank.
//
//   shape 2x3x64x128, grid rank 2, [(0, -1)]
//     -> (d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3)
//   shape 128, grid rank 2 -> (d0) -> (0, d0)
//   shape 8x96x32, grid rank 3 -> (d0 * 96 + d1, d1, d2)   (a quirk)
//
// An empty tensor (a dim of size 0) gets the minor identity, unjoined, as in
// tt-mlir. Where tt-mlir asserts (a result position past the map, a dim left
// out), this returns an error naming the assertion instead.
#ifndef HLOLAYOUT_TTMLIR_TTMLIR_COLLAPSE_H_
#define HLOLAYOUT_TTMLIR_TTMLIR_COLLAPSE_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "hlolayout/ttmlir/affine_map.h"
#include "hlolayout/ttmlir/collapse.h"

namespace hlolayout::grid {

// TtmlirCollapsedLinearMap
//
// The map tt-mlir's collapsedLinearAffineMap builds. `int32_overflow`, when
// given, is set when a join stride exceeds INT32_MAX: tt-mlir computes it in
// a 32-bit int, so its map would differ from this one. Errors: tt-mlir's
// assertions ("tt-mlir asserts: the join of interval (0, 3) replaces result
// 4 of a 4-result map"), a negative dim, strides overflowing int64.
absl::StatusOr<AffineMap> TtmlirCollapsedLinearMap(
    absl::Span<const int64_t> shape, int64_t grid_rank,
    absl::Span<const CollapseInterval> intervals = DefaultCollapseIntervals(),
    bool* int32_overflow = nullptr);

// EvalShape
//
// tt-mlir's evalShape: per result, its value at the last index minus its
// value at index 0, plus 1 (1 for a constant result).
//   (d0, d1, d2) -> (d0 * 32 + d1, d2) on 6x32x32 -> {192, 32}
// Precondition: map.num_dims() == shape.size(), every dim >= 0, and the
// values fit int64 (true for maps TtmlirCollapsedLinearMap returns). A
// result over a dim of size 0 has extent 0.
std::vector<int64_t> EvalShape(const AffineMap& map,
                               absl::Span<const int64_t> shape);

}  // namespace hlolayout::grid

#endif  // HLOLAYOUT_TTMLIR_TTMLIR_COLLAPSE_H_

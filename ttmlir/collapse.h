// ttmlir/collapse.h: building the `linear` map from `collapseIntervals`.
//
// The seed collapses ranges of logical dims into one physical dim each. An
// interval is a half-open dim range [begin, end); a negative bound counts
// from the end (-1 is rank - 1), so the default [(0, -1)] joins every dim
// but the last:
//
//   2x3x64x128, [(0, -1)], grid rank 2
//     -> (d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3)
//   7-D, [(0, 3), (-3, -1)], grid rank 4
//     -> (d0 <> d1 <> d2, d3, d4 <> d5, d6)
//
// Dims outside every interval stay as their own physical dim, in dim order
// (d3 and d6 above). The join is tight and row-major: the innermost dim has
// coefficient 1. When the grid rank exceeds the number of physical dims,
// constant-0 results are prepended, as tt-mlir does for 1-D tensors:
// [128] on a 1x2x4 grid -> (d0) -> (0, 0, d0).
//
// Differences from tt-mlir's collapsedLinearAffineMap (see
// docs/tt-mlir.md, "Collapsing the tensor"), on purpose:
//   - several intervals work: results are placed in dim order, not at
//     position `begin` (tt-mlir asserts on the 7-D example);
//   - a grid rank above the collapsed rank pads with constant-0 results
//     instead of leaving duplicate dims; a grid rank below it is an error.
//   - overlapping, reversed or out-of-range intervals are errors; empty
//     intervals (begin == end after normalization) are skipped, so rank 1
//     with the default gives (d0).
#ifndef HLOLAYOUT_TTMLIR_COLLAPSE_H_
#define HLOLAYOUT_TTMLIR_COLLAPSE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "hlolayout/ttmlir/affine_map.h"

namespace hlolayout::grid {

// A collapse interval as written: [begin, end), negative counts from the end.
struct CollapseInterval {
  int64_t begin = 0;
  int64_t end = -1;

  friend bool operator==(const CollapseInterval& a, const CollapseInterval& b) {
    return a.begin == b.begin && a.end == b.end;
  }
};

// The seed's default, [(0, -1)].
std::vector<CollapseInterval> DefaultCollapseIntervals();

// CollapseGroups
//
// The physical dims as ranges of logical dims, in order: every non-empty
// interval becomes one group, every dim outside the intervals a group of its
// own.
//   rank 7, [(0, 3), (-3, -1)] -> {[0,3), [3,4), [4,6), [6,7)}
// Errors: a bound outside [-rank, rank] ("interval (0, 9) is out of range
// for rank 4"), begin > end after normalization ("interval (3, 1) is
// reversed"), two intervals sharing a dim ("intervals (0, 2) and (1, 3)
// overlap").
absl::StatusOr<std::vector<CollapseInterval>> CollapseGroups(
    int64_t rank, absl::Span<const CollapseInterval> intervals);

// CollapsedLinearMap
//
// The layout map for `shape` collapsed by `intervals` onto a grid of rank
// `grid_rank`, with tight row-major strides.
//   2x3x64x128, [(1, -1)], grid rank 3 -> (d0, d1 * 64 + d2, d3)
// Errors: those of CollapseGroups, more physical dims than `grid_rank`
// ("collapsed rank 3 exceeds grid rank 2"), a non-positive tensor dim,
// strides overflowing int64.
absl::StatusOr<AffineMap> CollapsedLinearMap(
    absl::Span<const int64_t> shape, int64_t grid_rank,
    absl::Span<const CollapseInterval> intervals = DefaultCollapseIntervals());

// JoinNotation
//
// The seed's `<>` notation for groups of `rank` dims:
//   "(d0, d1, d2, d3) -> (d0 <> d1 <> d2, d3)".
// Precondition: `groups` came from CollapseGroups(rank, ...).
std::string JoinNotation(int64_t rank,
                         absl::Span<const CollapseInterval> groups);

}  // namespace hlolayout::grid

#endif  // HLOLAYOUT_TTMLIR_COLLAPSE_H_

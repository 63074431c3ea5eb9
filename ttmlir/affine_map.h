// ttmlir/affine_map.h: the `linear` map of a tt-mlir tensor layout.
//
// A layout map sends a logical index (one value per tensor dim) to a
// coordinate of the collapsed physical space (one value per grid dim). Each
// result is a sum of dims times nonnegative coefficients plus a constant,
// as the seed writes it:
//
//   (d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3)
//   [1, 1, 6, 100]   -> (262, 100)
//
// Only this "linear" subset of MLIR affine maps is modelled: no symbols, no
// floordiv/mod/ceildiv, no negative coefficients. A constant-only result
// (`0`) stands for a grid dim that the tensor does not reach (grid rank
// larger than the collapsed rank).
//
// Whether a map is a valid layout depends on the tensor shape too (see
// ValidateLayoutMap): every dim must feed some result, and inside each result
// the terms must not overlap (each coefficient exceeds the largest value
// the smaller terms can reach), so that distinct elements get distinct
// coordinates and the map can be inverted digit by digit.
#ifndef HLOLAYOUT_TTMLIR_AFFINE_MAP_H_
#define HLOLAYOUT_TTMLIR_AFFINE_MAP_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/optional.h"
#include "absl/types/span.h"

namespace hlolayout::grid {

// One term `d<dim> * coefficient` of a result. Coefficient >= 1.
struct AffineTerm {
  int64_t dim = 0;
  int64_t coefficient = 1;

  friend bool operator==(const AffineTerm& a, const AffineTerm& b) {
    return a.dim == b.dim && a.coefficient == b.coefficient;
  }
};

// One result: `terms` (sorted by dim, each dim at most once) plus
// `constant` (>= 0).
struct AffineResult {
  std::vector<AffineTerm> terms;
  int64_t constant = 0;

  friend bool operator==(const AffineResult& a, const AffineResult& b) {
    return a.terms == b.terms && a.constant == b.constant;
  }
  friend bool operator!=(const AffineResult& a, const AffineResult& b) {
    return !(a == b);
  }
};

// AffineMap
//
// A value type: `num_dims` inputs d0..d{n-1} and a list of results.
//
// Example:
//   AffineMap m(3, {{{{0, 96}, {1, 1}}, 0}, {{{2, 1}}, 0}});
//   m.ToString() == "(d0, d1, d2) -> (d0 * 96 + d1, d2)"
class AffineMap {
 public:
  AffineMap() = default;
  // Sorts each result's terms by dim and merges repeated dims.
  // Precondition (CHECK): num_dims >= 0; dims in [0, num_dims);
  // coefficients >= 1; constants >= 0; merged coefficients do not overflow.
  AffineMap(int64_t num_dims, std::vector<AffineResult> results);

  // The identity map (d0, ..., d{n-1}) -> (d0, ..., d{n-1}).
  static AffineMap Identity(int64_t num_dims);

  int64_t num_dims() const { return num_dims_; }
  int64_t num_results() const { return static_cast<int64_t>(results_.size()); }
  const std::vector<AffineResult>& results() const { return results_; }
  const AffineResult& result(int64_t i) const;

  // Coefficient of `dim` in result `i`, 0 when the dim does not appear.
  int64_t Coefficient(int64_t i, int64_t dim) const;

  // Evaluate
  //
  // Plugs `index` into every result:
  //   (d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3) at [1, 1, 6, 100]
  //   gives {262, 100}.
  // Returns an error when a value overflows int64.
  // Precondition (CHECK): index.size() == num_dims().
  absl::StatusOr<std::vector<int64_t>> Evaluate(
      absl::Span<const int64_t> index) const;

  // "(d0, d1) -> (d0 * 32 + d1, 0)": MLIR's spelling, which the grid
  // parser reads back.
  std::string ToString() const;

  friend bool operator==(const AffineMap& a, const AffineMap& b) {
    return a.num_dims_ == b.num_dims_ && a.results_ == b.results_;
  }
  friend bool operator!=(const AffineMap& a, const AffineMap& b) {
    return !(a == b);
  }

 private:
  int64_t num_dims_ = 0;
  std::vector<AffineResult> results_;
};

// ValidateLayoutMap
//
// Checks that `map` is a usable layout map for a tensor of `shape`:
//   - map.num_dims() == shape.size() ("map has 3 dims but the tensor has
//     rank 4");
//   - every dim of size > 1 appears in some result ("d1 does not appear in
//     the map");
//   - inside every result, after sorting the terms of dims of size > 1 by
//     decreasing coefficient, each coefficient is larger than the largest
//     value the following terms reach: `d0 * 64 + d1` on 2x64 is fine,
//     `d0 * 32 + d1` on 2x64 is not ("result 0 is not one-to-one: ...");
//   - the extent of each result (value at the last index + 1) fits int64.
// Then the map is one-to-one on the tensor and InvertLayoutMap works.
// Precondition: every shape dim >= 1.
absl::Status ValidateLayoutMap(const AffineMap& map,
                               absl::Span<const int64_t> shape);

// CollapsedExtent
//
// The size of each physical dim, as the seed computes it: the map at the last
// logical index, plus 1.
//   (d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3) on 2x3x64x128
//   gives {384, 128}; (d0, d1, d2) -> (d0 * 32 + d1, d2) on 2x8x32 gives
//   {40, 32} (the trailing gap of a bumped stride is not allocated).
// Precondition: ValidateLayoutMap(map, shape).ok().
std::vector<int64_t> CollapsedExtent(const AffineMap& map,
                                     absl::Span<const int64_t> shape);

// InvertLayoutMap
//
// The logical index whose image is `coordinate`, or nullopt when no element
// maps there (a gap of a bumped stride, a coordinate past the extent, or
// values that disagree for a dim that feeds several results).
//   (d0, d1, d2) -> (d0 * 32 + d1, d2) on 2x8x32: {33, 5} -> {1, 1, 5};
//   {9, 5} -> nullopt.
// Preconditions: ValidateLayoutMap(map, shape).ok();
// coordinate.size() == map.num_results().
absl::optional<std::vector<int64_t>> InvertLayoutMap(
    const AffineMap& map, absl::Span<const int64_t> shape,
    absl::Span<const int64_t> coordinate);

// CountImageBelow
//
// The number of logical indices whose result `i` is < `bound`. Exact for
// any valid map; it looks only at the dims of result `i`, so it counts
// elements of the tensor only when those dims feed no other result (see
// IsSeparable). Runs in time linear in the number of terms.
// Precondition: ValidateLayoutMap(map, shape).ok().
int64_t CountImageBelow(const AffineMap& map, absl::Span<const int64_t> shape,
                        int64_t i, int64_t bound);

// IsSeparable
//
// True when every dim of size > 1 appears in exactly one result, so the
// image is a product of per-result sets. The seed's
// (d0, d1, d2) -> (d0 * 96 + d1, d1, d2) is not separable.
bool IsSeparable(const AffineMap& map, absl::Span<const int64_t> shape);

}  // namespace hlolayout::grid

#endif  // HLOLAYOUT_TTMLIR_AFFINE_MAP_H_

#include "hlolayout/ttmlir/ttmlir_collapse.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace hlolayout::grid {
namespace {

AffineResult Dim(int64_t d) { return AffineResult{{{d, 1}}, 0}; }

}  // namespace

absl::StatusOr<AffineMap> TtmlirCollapsedLinearMap(
    absl::Span<const int64_t> shape, int64_t grid_rank,
    absl::Span<const CollapseInterval> intervals, bool* int32_overflow) {
  const int64_t rank = static_cast<int64_t>(shape.size());
  if (int32_overflow != nullptr) *int32_overflow = false;
  if (grid_rank < 0) return absl::InvalidArgumentError("negative grid rank");
  bool empty = false;
  for (int64_t d = 0; d < rank; ++d) {
    if (shape[d] < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("tensor dim ", d, " has size ", shape[d]));
    }
    empty |= shape[d] == 0;
  }
  const int64_t n = std::min(rank, grid_rank);
  std::vector<AffineResult> results;
  for (int64_t k = 0; k < n; ++k) results.push_back(Dim(rank - n + k));
  if (empty) {
    // tt-mlir returns the minor identity for an empty tensor, unjoined.
    while (static_cast<int64_t>(results.size()) < grid_rank) {
      results.insert(results.begin(), AffineResult{});
    }
    return AffineMap(rank, std::move(results));
  }
  int64_t minimum_dim = rank;
  for (const CollapseInterval& interval : intervals) {
    int64_t begin = interval.begin < 0 ? interval.begin + rank : interval.begin;
    int64_t end = interval.end < 0 ? interval.end + rank : interval.end;
    if (begin >= end) continue;
    if (begin < 0 || end > rank) {
      return absl::InvalidArgumentError(
          absl::StrCat("tt-mlir asserts: interval (", interval.begin, ", ",
                       interval.end, ") names dims outside rank ", rank));
    }
    minimum_dim = std::min(minimum_dim, begin);
    AffineResult joined;
    int64_t multiplier = 1;
    for (int64_t d = end - 1; d >= begin; --d) {
      joined.terms.push_back({d, multiplier});
      if (int32_overflow != nullptr &&
          multiplier > std::numeric_limits<int32_t>::max()) {
        *int32_overflow = true;
      }
      if (__builtin_mul_overflow(multiplier, shape[d], &multiplier)) {
        return absl::InvalidArgumentError("collapse stride overflows int64");
      }
    }
    std::reverse(joined.terms.begin(), joined.terms.end());
    if (begin >= static_cast<int64_t>(results.size())) {
      return absl::InvalidArgumentError(
          absl::StrCat("tt-mlir asserts: the join of interval (",
                       interval.begin, ", ", interval.end, ") replaces result ",
                       begin, " of a ", results.size(), "-result map"));
    }
    results[begin] = std::move(joined);
  }
  for (int64_t d = 0; d < minimum_dim; ++d) {
    if (d >= static_cast<int64_t>(results.size())) {
      return absl::InvalidArgumentError(
          absl::StrCat("tt-mlir asserts: d", d, " replaces result ", d,
                       " of a ", results.size(), "-result map"));
    }
    results[d] = Dim(d);
  }
  for (int64_t d = 0; d < rank; ++d) {
    bool found = false;
    for (const AffineResult& r : results) {
      for (const AffineTerm& t : r.terms) found |= t.dim == d;
    }
    if (!found) {
      return absl::InvalidArgumentError(absl::StrCat(
          "tt-mlir asserts: d", d, " does not participate in the map"));
    }
  }
  while (static_cast<int64_t>(results.size()) < grid_rank) {
    results.insert(results.begin(), AffineResult{});
  }
  return AffineMap(rank, std::move(results));
}

std::vector<int64_t> EvalShape(const AffineMap& map,
                               absl::Span<const int64_t> shape) {
  std::vector<int64_t> out;
  for (const AffineResult& r : map.results()) {
    int64_t span = 0;
    for (const AffineTerm& t : r.terms)
      span += t.coefficient * (shape[t.dim] - 1);
    out.push_back(span + 1);
  }
  return out;
}

}  // namespace hlolayout::grid

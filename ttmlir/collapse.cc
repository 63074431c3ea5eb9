#include "hlolayout/ttmlir/collapse.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/util/check.h"

namespace hlolayout::grid {

std::vector<CollapseInterval> DefaultCollapseIntervals() { return {{0, -1}}; }

absl::StatusOr<std::vector<CollapseInterval>> CollapseGroups(
    int64_t rank, absl::Span<const CollapseInterval> intervals) {
  HLOLAYOUT_CHECK(rank >= 0) << "rank " << rank;
  std::vector<CollapseInterval> normalized;
  std::vector<std::string> written_forms;  // parallel to `normalized`
  for (const CollapseInterval& in : intervals) {
    std::string written = absl::StrCat("(", in.begin, ", ", in.end, ")");
    if (in.begin < -rank || in.begin > rank || in.end < -rank ||
        in.end > rank) {
      return absl::InvalidArgumentError(absl::StrCat(
          "interval ", written, " is out of range for rank ", rank));
    }
    CollapseInterval n{in.begin < 0 ? in.begin + rank : in.begin,
                       in.end < 0 ? in.end + rank : in.end};
    if (n.begin > n.end) {
      return absl::InvalidArgumentError(
          absl::StrCat("interval ", written, " is reversed"));
    }
    if (n.begin == n.end) continue;  // empty: joins nothing
    for (size_t k = 0; k < normalized.size(); ++k) {
      const CollapseInterval& o = normalized[k];
      if (n.begin < o.end && o.begin < n.end) {
        return absl::InvalidArgumentError(absl::StrCat(
            "intervals ", written_forms[k], " and ", written, " overlap"));
      }
    }
    normalized.push_back(n);
    written_forms.push_back(std::move(written));
  }
  std::sort(normalized.begin(), normalized.end(),
            [](const CollapseInterval& a, const CollapseInterval& b) {
              return a.begin < b.begin;
            });
  std::vector<CollapseInterval> groups;
  int64_t next = 0;
  for (const CollapseInterval& n : normalized) {
    for (; next < n.begin; ++next) groups.push_back({next, next + 1});
    groups.push_back(n);
    next = n.end;
  }
  for (; next < rank; ++next) groups.push_back({next, next + 1});
  return groups;
}

absl::StatusOr<AffineMap> CollapsedLinearMap(
    absl::Span<const int64_t> shape, int64_t grid_rank,
    absl::Span<const CollapseInterval> intervals) {
  const int64_t rank = static_cast<int64_t>(shape.size());
  for (int64_t d = 0; d < rank; ++d) {
    if (shape[d] < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("tensor dim ", d, " has size ", shape[d]));
    }
  }
  if (grid_rank < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("grid rank ", grid_rank, " is not positive"));
  }
  absl::StatusOr<std::vector<CollapseInterval>> groups =
      CollapseGroups(rank, intervals);
  if (!groups.ok()) return groups.status();
  const int64_t physical = static_cast<int64_t>(groups->size());
  if (physical > grid_rank) {
    return absl::InvalidArgumentError(absl::StrCat(
        "collapsed rank ", physical, " exceeds grid rank ", grid_rank));
  }
  std::vector<AffineResult> results(grid_rank - physical);  // constant 0
  for (const CollapseInterval& g : *groups) {
    AffineResult r;
    int64_t stride = 1;
    for (int64_t d = g.end - 1; d >= g.begin; --d) {
      r.terms.push_back({d, stride});
      if (d > g.begin && __builtin_mul_overflow(stride, shape[d], &stride)) {
        return absl::InvalidArgumentError(
            absl::StrCat("stride of d", d - 1, " overflows int64"));
      }
    }
    results.push_back(std::move(r));
  }
  AffineMap map(rank, std::move(results));
  absl::Status valid = ValidateLayoutMap(map, shape);
  if (!valid.ok()) return valid;
  return map;
}

std::string JoinNotation(int64_t rank,
                         absl::Span<const CollapseInterval> groups) {
  std::vector<std::string> dims;
  for (int64_t d = 0; d < rank; ++d) dims.push_back(absl::StrCat("d", d));
  std::vector<std::string> results;
  for (const CollapseInterval& g : groups) {
    HLOLAYOUT_CHECK(g.begin >= 0 && g.begin < g.end && g.end <= rank)
        << "group (" << g.begin << ", " << g.end << ")";
    std::vector<std::string> joined;
    for (int64_t d = g.begin; d < g.end; ++d) joined.push_back(dims[d]);
    results.push_back(absl::StrJoin(joined, " <> "));
  }
  return absl::StrCat("(", absl::StrJoin(dims, ", "), ") -> (",
                      absl::StrJoin(results, ", "), ")");
}

}  // namespace hlolayout::grid

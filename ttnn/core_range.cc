#include "hlolayout/ttnn/core_range.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "hlolayout/ttnn/refusal.h"
#include "hlolayout/util/check.h"

namespace hlolayout::ttnn {

absl::StatusOr<CoreRangeSet> CoreRangeSet::Make(std::vector<CoreRange> ranges) {
  for (const CoreRange& r : ranges) {
    for (int64_t v : {r.start.x, r.start.y, r.end.x, r.end.y}) {
      if (v < 0 || v > kMaxCoreCoord) {
        return Refused(rule::kDimRange,
                       absl::StrCat("core coordinate ", v, " in range ",
                                    CoreName(r.start), "-", CoreName(r.end),
                                    " is outside 0..", kMaxCoreCoord));
      }
    }
    if (r.end.x < r.start.x || r.end.y < r.start.y) {
      return Refused(
          rule::kCoreRangeOrder,
          absl::StrCat("core range ", CoreName(r.start), "-", CoreName(r.end),
                       " ends before it starts (tt-metal: \"Invalid core "
                       "range\", the end may not lie left of or above the "
                       "start)"));
    }
  }
  int64_t cores = 0;
  for (const CoreRange& r : ranges) {
    cores += r.size();
    if (cores > kMaxCores) {
      return Refused(
          rule::kDimRange,
          absl::StrCat("the core ranges hold more than ", kMaxCores, " cores"));
    }
  }
  for (size_t i = 0; i < ranges.size(); ++i) {
    for (size_t j = i + 1; j < ranges.size(); ++j) {
      if (ranges[i].Intersects(ranges[j])) {
        return Refused(
            rule::kCoreRangeOverlap,
            absl::StrCat("core ranges ", CoreName(ranges[i].start), "-",
                         CoreName(ranges[i].end), " and ",
                         CoreName(ranges[j].start), "-",
                         CoreName(ranges[j].end),
                         " overlap (tt-metal: a CoreRangeSet holds disjoint "
                         "ranges)"));
      }
    }
  }
  CoreRangeSet set;
  set.ranges_ = std::move(ranges);
  return set;
}

int64_t CoreRangeSet::num_cores() const {
  int64_t n = 0;
  for (const CoreRange& r : ranges_) n += r.size();
  return n;
}

CoreRange CoreRangeSet::BoundingBox() const {
  HLOLAYOUT_CHECK(!ranges_.empty());
  CoreRange box = ranges_[0];
  for (const CoreRange& r : ranges_) {
    box.start.x = std::min(box.start.x, r.start.x);
    box.start.y = std::min(box.start.y, r.start.y);
    box.end.x = std::max(box.end.x, r.end.x);
    box.end.y = std::max(box.end.y, r.end.y);
  }
  return box;
}

bool CoreRangeSet::Contains(CoreCoord c) const {
  for (const CoreRange& r : ranges_) {
    if (r.Contains(c)) return true;
  }
  return false;
}

std::vector<CoreCoord> CoreRangeSet::Cores(bool row_wise,
                                           int64_t max_cores) const {
  std::vector<CoreCoord> cores;
  const int64_t limit = max_cores < 0 ? num_cores() : max_cores;
  cores.reserve(static_cast<size_t>(std::min(limit, num_cores())));
  for (const CoreRange& r : ranges_) {
    if (row_wise) {
      for (int64_t y = r.start.y; y <= r.end.y; ++y) {
        for (int64_t x = r.start.x; x <= r.end.x; ++x) {
          if (static_cast<int64_t>(cores.size()) >= limit) return cores;
          cores.push_back({x, y});
        }
      }
    } else {
      for (int64_t x = r.start.x; x <= r.end.x; ++x) {
        for (int64_t y = r.start.y; y <= r.end.y; ++y) {
          if (static_cast<int64_t>(cores.size()) >= limit) return cores;
          cores.push_back({x, y});
        }
      }
    }
  }
  return cores;
}

std::string CoreRangeSet::ToString() const {
  std::string s = "[";
  for (size_t i = 0; i < ranges_.size(); ++i) {
    if (i) s += ", ";
    absl::StrAppend(&s, CoreName(ranges_[i].start), "-",
                    CoreName(ranges_[i].end));
  }
  s += "]";
  return s;
}

}  // namespace hlolayout::ttnn

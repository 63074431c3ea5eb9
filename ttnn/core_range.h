// ttnn/core_range.h: Tensix cores and sets of core rectangles, as tt-metal's
// CoreCoord, CoreRange and CoreRangeSet (core_coord.cpp).
//
// A CoreRange is the rectangle of cores from `start` to `end` inclusive; a
// CoreRangeSet is a list of rectangles that do not overlap, kept in the
// order given (tt-metal does not sort or merge them). Its cores in a
// sharding order: rectangle by rectangle, each row by row (ROW_MAJOR: x
// fastest) or column by column (COL_MAJOR: y fastest).
//
//   auto set = CoreRangeSet::Make({{{0, 0}, {1, 1}}, {{0, 2}, {0, 2}}});
//   set->Cores(/*row_wise=*/true)  == (0,0) (1,0) (0,1) (1,1) (0,2)
//   set->Cores(/*row_wise=*/false) == (0,0) (0,1) (1,0) (1,1) (0,2)
//   NthCore(set->ranges(), /*row_wise=*/true, 3) == (1,1)
#ifndef HLOLAYOUT_TTNN_CORE_RANGE_H_
#define HLOLAYOUT_TTNN_CORE_RANGE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/optional.h"
#include "absl/types/span.h"

namespace hlolayout::ttnn {

struct CoreCoord {
  int64_t x = 0;
  int64_t y = 0;
  friend bool operator==(const CoreCoord& a, const CoreCoord& b) {
    return a.x == b.x && a.y == b.y;
  }
  friend bool operator!=(const CoreCoord& a, const CoreCoord& b) {
    return !(a == b);
  }
};

struct CoreRange {
  CoreCoord start;
  CoreCoord end;

  int64_t width() const { return end.x - start.x + 1; }
  int64_t height() const { return end.y - start.y + 1; }
  int64_t size() const { return width() * height(); }
  bool Contains(CoreCoord c) const {
    return c.x >= start.x && c.x <= end.x && c.y >= start.y && c.y <= end.y;
  }
  bool Intersects(const CoreRange& o) const;
  friend bool operator==(const CoreRange& a, const CoreRange& b) {
    return a.start == b.start && a.end == b.end;
  }
  friend bool operator!=(const CoreRange& a, const CoreRange& b) {
    return !(a == b);
  }
};

// Core coordinates stay below this, and a set holds at most kMaxCores
// cores, so that listing them is cheap (real chips have at most 13x10
// workers and 12 DRAM banks).
inline constexpr int64_t kMaxCoreCoord = 4095;
inline constexpr int64_t kMaxCores = 65536;

class CoreRangeSet {
 public:
  CoreRangeSet() = default;

  // Make
  //
  // Refused as tt-metal refuses it: a range whose end lies before its start
  // in x or y ("invalid core range"), two ranges that overlap. Also refused:
  // a negative coordinate, one above kMaxCoreCoord, more than kMaxCores
  // cores in all.
  static absl::StatusOr<CoreRangeSet> Make(std::vector<CoreRange> ranges);

  const std::vector<CoreRange>& ranges() const { return ranges_; }
  bool empty() const { return ranges_.empty(); }
  int64_t num_cores() const;
  // The smallest rectangle holding every range. Precondition: !empty().
  CoreRange BoundingBox() const;
  bool Contains(CoreCoord c) const;

  // The cores in order (see above), at most `max_cores` of them (-1: all).
  std::vector<CoreCoord> Cores(bool row_wise, int64_t max_cores = -1) const;

  // "[(0,0)-(7,0)]", "[(0,0)-(7,1), (0,2)-(3,2)]".
  std::string ToString() const;

  friend bool operator==(const CoreRangeSet& a, const CoreRangeSet& b) {
    return a.ranges_ == b.ranges_;
  }
  friend bool operator!=(const CoreRangeSet& a, const CoreRangeSet& b) {
    return !(a == b);
  }

 private:
  std::vector<CoreRange> ranges_;
};

// "(3,1)"
std::string CoreName(CoreCoord c);

// NthCore
//
// Core `n` (from 0) of `ranges` in the sharding order above: what
// CoreRangeSet::Cores(row_wise)[n] is, without listing the cores before
// it. tt-mlir places shards in the same order (row-wise), on core ranges
// it reads from text, which need not form a valid set (ttmlir/ttmlir_attrs.h).
// nullopt when n < 0 or the ranges hold n cores or fewer. Precondition:
// every range has start <= end in both coordinates.
absl::optional<CoreCoord> NthCore(absl::Span<const CoreRange> ranges,
                                  bool row_wise, int64_t n);

}  // namespace hlolayout::ttnn

#endif  // HLOLAYOUT_TTNN_CORE_RANGE_H_

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
// (CoreCoord, CoreRange and NthCore are tenstorrent/core.h's.)
#ifndef HLOLAYOUT_TTNN_CORE_RANGE_H_
#define HLOLAYOUT_TTNN_CORE_RANGE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/optional.h"
#include "absl/types/span.h"
#include "hlolayout/tenstorrent/core.h"

namespace hlolayout::ttnn {

// The shared vocabulary (tenstorrent/core.h), under the TTNN model's names.
using tenstorrent::CoreCoord;
using tenstorrent::CoreName;
using tenstorrent::CoreRange;
using tenstorrent::NthCore;

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

}  // namespace hlolayout::ttnn

#endif  // HLOLAYOUT_TTNN_CORE_RANGE_H_

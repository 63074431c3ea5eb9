// tenstorrent/core.h: Tensix cores and rectangles of them, as tt-metal names
// them (CoreCoord, CoreRange in core_coord.cpp): the vocabulary both
// Tenstorrent models share, the TTNN model (ttnn/) and tt-mlir's layouts
// (ttmlir/).
//
// A CoreCoord is (x, y): x the column of the worker grid, y its row. A
// CoreRange is the rectangle of cores from `start` to `end` inclusive. A list
// of ranges is walked in a sharding order: range by range, each row by row
// (row-wise: x fastest) or column by column (y fastest). tt-metal assigns
// shards so (ROW_MAJOR and COL_MAJOR orientation), and tt-mlir places shards
// row-wise on the core ranges of its layouts.
//
//   NthCore({{{0, 0}, {1, 1}}, {{0, 2}, {0, 2}}}, /*row_wise=*/true, 3)
//       == CoreCoord{1, 1}
//   CoreName({3, 1}) == "(3,1)"
#ifndef HLOLAYOUT_TENSTORRENT_CORE_H_
#define HLOLAYOUT_TENSTORRENT_CORE_H_

#include <cstdint>
#include <string>

#include "absl/types/optional.h"
#include "absl/types/span.h"

namespace hlolayout::tenstorrent {

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

// "(3,1)"
std::string CoreName(CoreCoord c);

// NthCore
//
// Core `n` (from 0) of `ranges` in the sharding order above, without listing
// the cores before it. The ranges need not form a valid set (they may
// overlap: tt-mlir's text can say so). nullopt when n < 0 or the ranges hold
// n cores or fewer. Precondition: every range has start <= end in both
// coordinates.
absl::optional<CoreCoord> NthCore(absl::Span<const CoreRange> ranges,
                                  bool row_wise, int64_t n);

}  // namespace hlolayout::tenstorrent

#endif  // HLOLAYOUT_TENSTORRENT_CORE_H_

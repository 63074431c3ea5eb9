#include "hlolayout/ttnn/sharded_config.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/ttnn/refusal.h"
#include "hlolayout/util/int_math.h"

namespace hlolayout::ttnn {
namespace {

absl::Status Refuse(absl::string_view why) {
  return Refused(rule::kShardDerive,
                 absl::StrCat("cannot derive the shard shape: ", why));
}

// height / parts, refused unless exact.
absl::StatusOr<int64_t> Cut(int64_t extent, int64_t parts,
                            absl::string_view what, absl::string_view across) {
  if (extent % parts != 0) {
    return Refuse(absl::StrCat("the tensor's ", what, " ", extent,
                               " does not divide into ", parts, " ", across,
                               " (ttnn: \"Invalid sharding core_grid\"); give "
                               "the shard shape"));
  }
  return extent / parts;
}

}  // namespace

absl::StatusOr<std::array<int64_t, 2>> DeriveShardShape(
    absl::Span<const int64_t> shape, const CoreRangeSet& grid,
    TensorMemoryLayout layout, ShardOrientation orientation) {
  if (layout != TensorMemoryLayout::kHeightSharded &&
      layout != TensorMemoryLayout::kWidthSharded &&
      layout != TensorMemoryLayout::kBlockSharded) {
    return Refuse(
        absl::StrCat("only HEIGHT, WIDTH and BLOCK_SHARDED shards "
                     "are derived, not ",
                     MemoryLayoutName(layout)));
  }
  if (shape.size() < 2) {
    return Refuse(absl::StrCat("the shape [", absl::StrJoin(shape, ", "),
                               "] has rank ", shape.size(),
                               " (ttnn reads it as [..., height, width])"));
  }
  if (grid.ranges().size() != 1 || grid.ranges()[0].start != CoreCoord{0, 0}) {
    return Refuse(absl::StrCat(
        "ttnn derives a shard only on a CoreGrid, the cores (0,0)-(x-1,y-1); "
        "this grid is ",
        grid.ToString(), "; give the shard shape"));
  }
  const int64_t x = grid.ranges()[0].width();
  const int64_t y = grid.ranges()[0].height();
  absl::StatusOr<int64_t> height =
      CheckedVolume(shape.subspan(0, shape.size() - 1), "tensor height");
  if (!height.ok()) return height.status();
  const int64_t width = shape.back();
  const int64_t cores = x * y;
  absl::StatusOr<int64_t> h = *height, w = width;
  switch (layout) {
    case TensorMemoryLayout::kHeightSharded:
      h = Cut(*height, cores, "height", "cores");
      break;
    case TensorMemoryLayout::kWidthSharded:
      w = Cut(width, cores, "width", "cores");
      break;
    default: {
      const bool row = orientation == ShardOrientation::kRowMajor;
      h = Cut(*height, row ? y : x, "height",
              row ? "rows of cores" : "columns of cores (COL_MAJOR)");
      if (h.ok()) {
        w = Cut(width, row ? x : y, "width",
                row ? "columns of cores" : "rows of cores (COL_MAJOR)");
      }
    }
  }
  if (!h.ok()) return h.status();
  if (!w.ok()) return w.status();
  return std::array<int64_t, 2>{*h, *w};
}

}  // namespace hlolayout::ttnn

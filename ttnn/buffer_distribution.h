// ttnn/buffer_distribution.h: which core holds which pages of a sharded
// buffer, as tt-metal's BufferDistributionSpec computes it
// (buffer_distribution_spec.cpp).
//
// Inputs: the tensor's padded shape, the shard shape (any rank), the page
// shape, the core grid, the orientation and the strategy. Both shapes are
// counted in pages (last dim / page width, dim -2 / page height, rounded
// up), then squeezed: neighbouring dims are merged while the shard spans
// them whole (or is 1 over a divisible dim), so [9,2] pages in shards of
// [3,2] become [18] in [6]. Shards are numbered row-major over the grid of
// shards; the cores are
//   ROUND_ROBIN_1D  every core of the grid in orientation order; shard i
//                   goes to core i mod n, as its (i div n)-th shard;
//   GRID_2D         (shards of rank <= 2, one core rectangle) the leading
//                   block of the rectangle that is as wide as the shards
//                   across (the rows of the 2-D plane, all outer dims
//                   folded in, across COL_MAJOR) and as tall as the shards
//                   down; then as ROUND_ROBIN_1D over that block.
// Every core gets room for max_shards_per_core shards; a device page is
// (slot * shard_volume + page inside the shard, row-major in the shard's
// full shape); slots of partial shards and of missing shards are padding.
//
//   // 288x64 tiles of 32x32 in shards of 96x64 on cores (0,0)-(2,0):
//   d.tensor_shape_in_pages() == {18}, d.shard_shape_in_pages() == {6}
//   d.HostPage(/*core=*/1, /*device_page=*/0) == 6
#ifndef HLOLAYOUT_TTNN_BUFFER_DISTRIBUTION_H_
#define HLOLAYOUT_TTNN_BUFFER_DISTRIBUTION_H_

#include <array>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "hlolayout/ttnn/core_range.h"
#include "hlolayout/ttnn/memory_config.h"

namespace hlolayout::ttnn {

// Where a host page lands.
struct DevicePlace {
  int64_t core_index = 0;   // into cores()
  int64_t device_page = 0;  // page index on that core
  int64_t shard = 0;        // the shard's row-major number
};

class BufferDistribution {
 public:
  // Make
  //
  // Refused as tt-metal refuses it: a shard of rank 0 or with a 0 dim
  // ("Shard shape must have non zero volume!"), GRID_2D with a shard of
  // rank > 2 or more than one core range, or more shards across (down) than
  // the rectangle is wide (tall), a shard of higher rank than the tensor,
  // a non-empty tensor over no cores. `page_shape` must be positive.
  static absl::StatusOr<BufferDistribution> Make(
      absl::Span<const int64_t> tensor_shape,
      absl::Span<const int64_t> shard_shape,
      const std::array<int64_t, 2>& page_shape, const CoreRangeSet& grid,
      ShardOrientation orientation, ShardDistributionStrategy strategy);

  // The squeezed shapes, in pages.
  const std::vector<int64_t>& tensor_shape_in_pages() const {
    return tensor_pages_;
  }
  const std::vector<int64_t>& shard_shape_in_pages() const {
    return shard_pages_;
  }
  // Shards along each squeezed dim.
  const std::vector<int64_t>& shard_grid() const { return shard_grid_; }
  // The cores, in the order shards are dealt to them.
  const std::vector<CoreCoord>& cores() const { return cores_; }

  int64_t num_cores() const { return static_cast<int64_t>(cores_.size()); }
  int64_t num_shards() const { return num_shards_; }
  int64_t num_cores_with_data() const;
  int64_t shard_volume() const { return shard_volume_; }
  int64_t host_pages() const { return host_pages_; }
  int64_t max_shards_per_core() const;
  int64_t max_dev_pages_per_core() const {
    return max_shards_per_core() * shard_volume_;
  }
  // Shards on core `core_index`.
  int64_t ShardsOnCore(int64_t core_index) const;

  // The host page at `device_page` of core `core_index`, or -1 where that
  // device page is padding. Preconditions: core_index in [0, num_cores()),
  // device_page in [0, max_dev_pages_per_core()).
  int64_t HostPage(int64_t core_index, int64_t device_page) const;

  // Where host page `host_page` (row-major over tensor_shape_in_pages())
  // lands. Precondition: 0 <= host_page < host_pages().
  DevicePlace Place(int64_t host_page) const;

  // The row-major index of the shard holding host page `host_page`, and the
  // shard's coordinates. Precondition as Place.
  int64_t ShardOf(int64_t host_page) const;

 private:
  BufferDistribution() = default;

  std::vector<int64_t> tensor_pages_;
  std::vector<int64_t> shard_pages_;
  std::vector<int64_t> shard_grid_;
  std::vector<CoreCoord> cores_;
  int64_t num_shards_ = 0;
  int64_t shard_volume_ = 0;
  int64_t host_pages_ = 0;
};

// The shape in pages of `shape`: last dim / page width, dim -2 / page
// height, rounded up (convert_shape_to_pages).
std::vector<int64_t> ShapeInPages(absl::Span<const int64_t> shape,
                                  const std::array<int64_t, 2>& page_shape);

// squeeze_shape_ranks. Precondition: tensor rank >= shard rank >= 1, shard
// dims >= 1.
void SqueezeShapeRanks(absl::Span<const int64_t> tensor,
                       absl::Span<const int64_t> shard,
                       std::vector<int64_t>* squeezed_tensor,
                       std::vector<int64_t>* squeezed_shard);

}  // namespace hlolayout::ttnn

#endif  // HLOLAYOUT_TTNN_BUFFER_DISTRIBUTION_H_

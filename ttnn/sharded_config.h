// ttnn/sharded_config.h: the shard shape TTNN's helper
// `ttnn.create_sharded_memory_config(shape, core_grid, strategy,
// orientation)` derives from a tensor's shape and a core grid, so that a
// height, width or block sharded spec needs no shard shape where the grid
// and the shape decide it.
//
//   DeriveShardShape({32, 2048, 1024}, *CoreRangeSet::Make({{{0, 0}, {7, 7}}}),
//                    TensorMemoryLayout::kBlockSharded,
//                    ShardOrientation::kRowMajor)
//   -> {8192, 128}   // [65536, 1024] cut into 8 rows and 8 columns of cores
//
// The rule (ttnn/ttnn/core.py in ttnn 0.81.1, docs/ttnn.md "Derived shard
// shapes"): the tensor seen as a plane [product of all dims but the last,
// last dim] of its *logical* shape; the grid must be a CoreGrid, the
// rectangle of cores (0,0)-(x-1,y-1); HEIGHT cuts the height into x*y
// equal shards of full width, WIDTH the width into x*y of full height,
// BLOCK the height into y and the width into x (ROW_MAJOR) or the height
// into x and the width into y (COL_MAJOR). Each cut must be exact.
#ifndef HLOLAYOUT_TTNN_SHARDED_CONFIG_H_
#define HLOLAYOUT_TTNN_SHARDED_CONFIG_H_

#include <array>
#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "hlolayout/ttnn/core_range.h"
#include "hlolayout/ttnn/memory_config.h"

namespace hlolayout::ttnn {

// The shard [height, width], or a refusal with rule kShardDerive: a rank
// below 2 (ttnn unpacks [..., height, width]), a grid that is not one
// rectangle starting at core (0,0) (ttnn derives only on a CoreGrid), a
// memory layout other than HEIGHT, WIDTH or BLOCK_SHARDED, a cut that is
// not exact (ttnn: "Invalid sharding core_grid"), sizes over 64 bits.
absl::StatusOr<std::array<int64_t, 2>> DeriveShardShape(
    absl::Span<const int64_t> shape, const CoreRangeSet& grid,
    TensorMemoryLayout layout, ShardOrientation orientation);

}  // namespace hlolayout::ttnn

#endif  // HLOLAYOUT_TTNN_SHARDED_CONFIG_H_

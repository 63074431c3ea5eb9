// ttnn/resolve.h: how TensorSpec turns a 2-D shard spec into an ND one and
// back (tensor_spec.cpp, populate_sharding_specs).
//
// From 2-D (HEIGHT/WIDTH/BLOCK_SHARDED with a ShardSpec): the ND spec with
// the same shard [h, w], grid and orientation, GRID_2D for block sharding
// and ROUND_ROBIN_1D otherwise; a rank-1 tensor gets the shard [w] (and
// h must be 1).
//
// From ND (created with an NdShardSpec): the shard is folded into 2-D,
// [product of the dims above the last, last], walking up from dim -2 while
// the shard spans the tensor's dim whole. It stays ND_SHARDED unless
//   - the fold loses nothing: at the first dim the shard does not span, all
//     shard dims above it are 1, and that dim divides, or is the shard's
//     top dim, or all tensor dims above it are 1;
//   - the 2-D shards fit the grid's core count;
//   - ROUND_ROBIN_1D whose 2-D shard is the full height (WIDTH_SHARDED) or
//     full width (HEIGHT_SHARDED); otherwise BLOCK_SHARDED, which needs one
//     rectangle, the shards across and down within it, and for
//     ROUND_ROBIN_1D exactly as many shards across as the rectangle's width
//     (swapped for COL_MAJOR).
//
//   // padded [3, 47, 120], ND shard [2, 13, 24]: 13 of 47 rows, not a
//   // divisor, not the top dim -> stays ND_SHARDED
//   // padded [4, 64, 64], ND shard [1, 64, 64] on 4 cores -> HEIGHT_SHARDED
//   //   with ShardSpec [64, 64]
#ifndef HLOLAYOUT_TTNN_RESOLVE_H_
#define HLOLAYOUT_TTNN_RESOLVE_H_

#include <array>
#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "hlolayout/ttnn/memory_config.h"

namespace hlolayout::ttnn {

// ResolveMemoryConfig
//
// `memory` after TensorSpec's resolution, for a tensor of `padded_shape`
// and `physical_shape`. Interleaved configs come back unchanged. Errors:
// a rank-1 tensor with a 2-D shard of height other than 1.
absl::StatusOr<MemoryConfig> ResolveMemoryConfig(
    const MemoryConfig& memory, absl::Span<const int64_t> padded_shape,
    const std::array<int64_t, 2>& physical_shape);

}  // namespace hlolayout::ttnn

#endif  // HLOLAYOUT_TTNN_RESOLVE_H_

// ttnn/memory_config.h: where a TTNN tensor's pages go (ttnn.MemoryConfig).
//
// A MemoryConfig names the buffer type (DRAM or L1) and the memory layout:
//   INTERLEAVED     pages dealt round-robin over every bank;
//   HEIGHT_SHARDED, WIDTH_SHARDED, BLOCK_SHARDED
//                   2-D sharding with a ShardSpec: the tensor seen as a
//                   2-D plane (all outer dims folded into the rows) cut into
//                   shards of `shape` [height, width], one per core of
//                   `grid`, cores taken in `orientation` order;
//   ND_SHARDED      an NdShardSpec: shards of any rank, dealt to the cores
//                   round-robin (ROUND_ROBIN_1D) or laid on a 2-D block of
//                   cores (GRID_2D).
// TensorSpec (ttnn/tensor_spec.h) resolves one form into the other when it
// can: a 2-D spec gains the equal ND spec, an ND spec that is really 2-D
// becomes HEIGHT, WIDTH or BLOCK_SHARDED.
//
//   MemoryConfig m;  m.buffer_type = BufferType::kL1;
//   m.layout = TensorMemoryLayout::kWidthSharded;
//   m.shard_spec = ShardSpec{*CoreRangeSet::Make({{{0, 0}, {7, 0}}}),
//                            {32, 64}, ShardOrientation::kRowMajor};
#ifndef HLOLAYOUT_TTNN_MEMORY_CONFIG_H_
#define HLOLAYOUT_TTNN_MEMORY_CONFIG_H_

#include <array>
#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/optional.h"
#include "absl/types/span.h"
#include "hlolayout/tenstorrent/buffer.h"
#include "hlolayout/ttnn/core_range.h"

namespace hlolayout::ttnn {

enum class Layout { kRowMajor, kTile };
// The buffer types and memory layouts are the shared vocabulary
// (tenstorrent/buffer.h). A TensorSpec lives in DRAM or L1, the two
// BufferTypeFromName reads; SYSTEM_MEMORY (the host), L1_SMALL and TRACE
// are read from tt-mlir's `#ttnn.buffer_type<...>` (ttmlir/ttmlir_attrs.h).
using tenstorrent::AllBufferTypes;
using tenstorrent::AllMemoryLayouts;
using tenstorrent::BufferType;
using tenstorrent::BufferTypeName;
using tenstorrent::IsSharded;
using tenstorrent::MemoryLayoutName;
using tenstorrent::TensorMemoryLayout;

enum class ShardOrientation { kRowMajor, kColMajor };
// CONTIGUOUS_1D (newer tt-metal) is not modelled.
enum class ShardDistributionStrategy { kRoundRobin1D, kGrid2D };

// The names ttnn prints: "ROW_MAJOR"/"TILE", "HEIGHT_SHARDED", "DRAM"/"L1"
// ("SYSTEM_MEMORY", "L1_SMALL", "TRACE"), "ROW_MAJOR"/"COL_MAJOR",
// "ROUND_ROBIN_1D"/"GRID_2D". Reading accepts them in any case, with or
// without the enum's prefix ("ttnn.TILE_LAYOUT" and
// "TensorMemoryLayout.HEIGHT_SHARDED" too); of the buffer types, DRAM and L1
// only.
absl::string_view LayoutName(Layout v);
absl::string_view OrientationName(ShardOrientation v);
absl::string_view DistributionName(ShardDistributionStrategy v);
absl::optional<Layout> LayoutFromName(absl::string_view name);
absl::optional<TensorMemoryLayout> MemoryLayoutFromName(absl::string_view name);
absl::optional<BufferType> BufferTypeFromName(absl::string_view name);
absl::optional<ShardOrientation> OrientationFromName(absl::string_view name);
absl::optional<ShardDistributionStrategy> DistributionFromName(
    absl::string_view name);

// ttnn.ShardSpec: a 2-D shard [height, width] on `grid`.
struct ShardSpec {
  CoreRangeSet grid;
  std::array<int64_t, 2> shape{};
  ShardOrientation orientation = ShardOrientation::kRowMajor;
  friend bool operator==(const ShardSpec& a, const ShardSpec& b) {
    return a.grid == b.grid && a.shape == b.shape &&
           a.orientation == b.orientation;
  }
};

// ttnn.NdShardSpec: a shard of any rank on `grid`.
struct NdShardSpec {
  std::vector<int64_t> shard_shape;
  CoreRangeSet grid;
  ShardOrientation orientation = ShardOrientation::kRowMajor;
  ShardDistributionStrategy distribution =
      ShardDistributionStrategy::kRoundRobin1D;
  friend bool operator==(const NdShardSpec& a, const NdShardSpec& b) {
    return a.shard_shape == b.shard_shape && a.grid == b.grid &&
           a.orientation == b.orientation && a.distribution == b.distribution;
  }
};

// ttnn.MemoryConfig. Built with an NdShardSpec, `layout` is ND_SHARDED and
// `created_with_nd_shard_spec` is set (TensorSpec resolves from the ND
// spec); built with a ShardSpec, from the 2-D one.
struct MemoryConfig {
  TensorMemoryLayout layout = TensorMemoryLayout::kInterleaved;
  BufferType buffer_type = BufferType::kDram;
  absl::optional<ShardSpec> shard_spec;
  absl::optional<NdShardSpec> nd_shard_spec;
  bool created_with_nd_shard_spec = false;

  bool sharded() const { return IsSharded(layout); }

  static MemoryConfig Interleaved(BufferType buffer_type);
  static MemoryConfig Sharded(TensorMemoryLayout layout, BufferType buffer_type,
                              ShardSpec spec);
  static MemoryConfig NdSharded(BufferType buffer_type, NdShardSpec spec);
};

}  // namespace hlolayout::ttnn

#endif  // HLOLAYOUT_TTNN_MEMORY_CONFIG_H_

// ttnn/refusal.h: a refusal of tt-metal, with the name of its rule.
//
// Every input tt-metal refuses is refused here with an InvalidArgument
// status whose message states the rule in words, and which carries the
// rule's short name as a payload, so that tools (the CLI's --json, the
// differential harness) can tell the rules apart without parsing words:
//
//   absl::Status s = Refused(rule::kGrid2dShardRank, "...");
//   RefusalRule(s) == "grid2d-shard-rank"
//
// docs/ttnn.md lists every rule with the tt-metal source that has it.
#ifndef HLOLAYOUT_TTNN_REFUSAL_H_
#define HLOLAYOUT_TTNN_REFUSAL_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/optional.h"

namespace hlolayout::ttnn {

namespace rule {
// tile.cpp
inline constexpr absl::string_view kTileShape = "tile-shape";
// core_coord.cpp
inline constexpr absl::string_view kCoreRangeOrder = "core-range-order";
inline constexpr absl::string_view kCoreRangeOverlap = "core-range-overlap";
// page_config.cpp (PageConfig's constructor)
inline constexpr absl::string_view kRowMajorTile = "row-major-tile";
// tensor_spec.cpp (validate_dtype_and_layout)
inline constexpr absl::string_view kDtypeLayout = "dtype-layout";
// tensor_layout.cpp
inline constexpr absl::string_view kShardTileMultiple = "shard-tile-multiple";
// tensor_spec.cpp (get_shape_fits_shard_grid_error)
inline constexpr absl::string_view kHeightShardWidth = "height-shard-width";
inline constexpr absl::string_view kHeightShardCount = "height-shard-count";
inline constexpr absl::string_view kWidthShardHeight = "width-shard-height";
inline constexpr absl::string_view kWidthShardCount = "width-shard-count";
inline constexpr absl::string_view kBlockShardOneRange =
    "block-shard-one-range";
inline constexpr absl::string_view kBlockShardGridFit = "block-shard-grid-fit";
// tensor_spec.cpp (populate_nd_shard_spec_from_legacy)
inline constexpr absl::string_view kShard1dTensor = "shard-1d-tensor";
// tensor_layout.cpp (compute_buffer_sharding_args)
inline constexpr absl::string_view kShardedWithoutSpec = "sharded-without-spec";
// page_config.cpp (rm_element_size_bytes)
inline constexpr absl::string_view kRowMajorElementSize =
    "row-major-element-size";
// buffer_distribution_spec.cpp
inline constexpr absl::string_view kShardVolume = "shard-volume";
inline constexpr absl::string_view kShardRank = "shard-rank";
inline constexpr absl::string_view kGrid2dShardRank = "grid2d-shard-rank";
inline constexpr absl::string_view kGrid2dOneRange = "grid2d-one-range";
inline constexpr absl::string_view kGrid2dWidth = "grid2d-width";
inline constexpr absl::string_view kGrid2dHeight = "grid2d-height";
inline constexpr absl::string_view kEmptyGrid = "empty-grid";
// shape.cpp: tt-metal keeps dims as uint32_t
inline constexpr absl::string_view kDimRange = "dim-range";
// ttnn/ttnn/core.py (create_sharded_memory_config): deriving a shard shape
inline constexpr absl::string_view kShardDerive = "shard-derive";
// hlolayout's device check (ttnn/device.h): a spec the named device cannot
// hold (tt-metal refuses it only when it allocates the buffer)
inline constexpr absl::string_view kDeviceGrid = "device-grid";
inline constexpr absl::string_view kDeviceL1 = "device-l1";
inline constexpr absl::string_view kDeviceDram = "device-dram";
// hlolayout's own refusals of inputs tt-metal has no rule for (an
// interleaved config with a shard spec, a zero shard dim it would divide
// by, a strategy not modelled)
inline constexpr absl::string_view kNotModelled = "not-modelled";
// mesh mappers (distributed_tensor.cpp, xtensor partition.cpp)
inline constexpr absl::string_view kMeshPlacements = "mesh-placements";
inline constexpr absl::string_view kMeshDim = "mesh-dim";
inline constexpr absl::string_view kMeshChunks = "mesh-chunks";
inline constexpr absl::string_view kMeshShardShape = "mesh-shard-shape";
inline constexpr absl::string_view kMeshSize = "mesh-size";
}  // namespace rule

// An InvalidArgument status with `message` (the rule in words), carrying
// `rule` (one of the names above).
absl::Status Refused(absl::string_view rule, absl::string_view message);

// The rule a status from Refused carries; nullopt for other statuses.
absl::optional<std::string> RefusalRule(const absl::Status& status);

}  // namespace hlolayout::ttnn

#endif  // HLOLAYOUT_TTNN_REFUSAL_H_

#include "hlolayout/answers/ttmlir_ttnn.h"

#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/ttmlir/element_type.h"
#include "hlolayout/ttmlir/ttmlir_attrs.h"
#include "hlolayout/ttnn/core_range.h"
#include "hlolayout/ttnn/data_type.h"
#include "hlolayout/ttnn/memory_config.h"
#include "hlolayout/ttnn/tile.h"

namespace hlolayout {
namespace {

// tt-mlir's element as a TTNN data type: the tile's data type or the
// scalar's, when TTNN has it.
absl::StatusOr<ttnn::DataType> TtnnDataType(const grid::MlirElement& element) {
  if (element.tile) {
    switch (element.tile->dtype) {
      case grid::TileDataType::kBfpBF8:
        return ttnn::DataType::kBfloat8B;
      case grid::TileDataType::kBfpBF4:
        return ttnn::DataType::kBfloat4B;
      default:
        break;
    }
  }
  switch (element.scalar.type) {
    case F32:
      return ttnn::DataType::kFloat32;
    case BF16:
      return ttnn::DataType::kBfloat16;
    case U32:
      return ttnn::DataType::kUint32;
    case U16:
      return ttnn::DataType::kUint16;
    case U8:
      return ttnn::DataType::kUint8;
    case S32:
      return ttnn::DataType::kInt32;
    default:
      break;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "TTNN has no data type for ", grid::MlirElementToString(element)));
}

}  // namespace

absl::StatusOr<ttnn::TensorSpecInput> TtnnSpecInputOf(
    const grid::TtnnLayoutAttr& layout) {
  ttnn::TensorSpecInput in;
  in.shape = layout.logical_shape();
  const grid::MlirElement& element = layout.element();
  absl::StatusOr<ttnn::DataType> dtype = TtnnDataType(element);
  if (!dtype.ok()) return dtype.status();
  in.dtype = *dtype;
  in.layout = layout.tiled() ? ttnn::Layout::kTile : ttnn::Layout::kRowMajor;
  if (layout.tiled()) {
    absl::StatusOr<ttnn::Tile> tile =
        ttnn::MakeTile(element.tile->height, element.tile->width);
    if (!tile.ok()) return tile.status();
    in.tile = *tile;
  }
  const ttnn::BufferType buffer = layout.buffer_type();
  if (buffer != ttnn::BufferType::kDram && buffer != ttnn::BufferType::kL1) {
    return absl::InvalidArgumentError(
        absl::StrCat("a TTNN TensorSpec lives in DRAM or L1, not ",
                     grid::BufferTypeMlirName(buffer)));
  }
  if (!layout.mem_layout()) {
    return absl::InvalidArgumentError("the layout has no memory layout");
  }
  if (!layout.sharded()) {
    in.memory = ttnn::MemoryConfig::Interleaved(buffer);
    return in;
  }
  if (layout.core_ranges().empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("the layout places no core: ", layout.placement_error()));
  }
  absl::StatusOr<ttnn::CoreRangeSet> cores =
      ttnn::CoreRangeSet::Make(layout.core_ranges());
  if (!cores.ok()) return cores.status();
  const std::vector<int64_t>& shard = layout.physical_shard_shape();
  in.memory = ttnn::MemoryConfig::Sharded(*layout.mem_layout(), buffer,
                                          {*std::move(cores),
                                           {shard[0], shard[1]},
                                           ttnn::ShardOrientation::kRowMajor});
  return in;
}

}  // namespace hlolayout

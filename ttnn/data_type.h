// ttnn/data_type.h: TTNN's element types (ttnn.DataType) and their sizes.
//
// A TTNN tensor stores each element in one of ttnn's DataTypes. Plain types
// take a fixed number of bytes; the block-float types bfloat8_b and
// bfloat4_b share one exponent byte per face row of a tile, so they exist
// only in TILE layout (ttnn/tile.h gives a tile's bytes).
//
//   DataTypeFromName("bfloat16") == DataType::kBfloat16
//   RowMajorElementBytes(DataType::kFloat32) == 4
//   RowMajorElementBytes(DataType::kBfloat8B) == 4   // tt-metal's fallback
#ifndef HLOLAYOUT_TTNN_DATA_TYPE_H_
#define HLOLAYOUT_TTNN_DATA_TYPE_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "absl/types/optional.h"
#include "absl/types/span.h"

namespace hlolayout::ttnn {

// In the order ttnn.DataType lists them.
enum class DataType {
  kBfloat16,
  kFloat32,
  kUint32,
  kBfloat8B,
  kBfloat4B,
  kUint8,
  kUint16,
  kInt32,
  kFp8E4m3,
  kInt8,
};

// Every DataType, in the order above.
absl::Span<const DataType> AllDataTypes();

// "bfloat16", "bfloat8_b", "fp8_e4m3", ... (ttnn's Python names). Reading
// also accepts the upper-case enum spelling ("BFLOAT16") and a "ttnn."
// prefix. nullopt for anything else.
absl::optional<DataType> DataTypeFromName(absl::string_view name);
absl::string_view DataTypeName(DataType type);

// bfloat8_b and bfloat4_b.
bool IsBlockFloat(DataType type);

// RowMajorElementBytes
//
// Bytes of one element in a ROW_MAJOR page, as tt-metal's page config
// counts them (page_config.cpp, rm_element_size_bytes): 2 for bfloat16 and
// uint16, 4 for float32, int32, uint32, 1 for uint8, and 4 for the
// block-float types (stored as full floats when not tiled). nullopt for
// int8 and fp8_e4m3, which that function does not list.
absl::optional<int64_t> RowMajorElementBytes(DataType type);

}  // namespace hlolayout::ttnn

#endif  // HLOLAYOUT_TTNN_DATA_TYPE_H_

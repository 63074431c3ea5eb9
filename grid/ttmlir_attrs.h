// grid/ttmlir_attrs.h: the small values tt-mlir's current layouts are made of.
//
//   #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x8>,
//       memref<1x16x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>,
//       <width_sharded>, core_ranges = <[#ttnn.core_range<(0,0), (7,0)>]>>
//   #ttcore.metal_layout<logical_shape = 64x128, dim_alignments = 32x32,
//       collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>,
//       l1, sharded>
//
// Buffer types and TTNN memory layouts (`BufferTypeFromName("dram")`), the
// metal layout's interleaved/sharded flag, core coordinates and ranges
// (`(x, y)`: x is the column of the worker grid, y the row), the element of
// a tensor or memref (a scalar or a `!ttcore.tile`), and the device the
// layouts are placed on. Names are tt-mlir's spellings.
#ifndef HLOLAYOUT_GRID_TTMLIR_ATTRS_H_
#define HLOLAYOUT_GRID_TTMLIR_ATTRS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/optional.h"
#include "absl/types/span.h"
#include "hlolayout/grid/element_type.h"

namespace hlolayout::grid {

// `#ttnn.buffer_type<...>`: where a TTNN tensor lives. l1_small behaves as
// l1 and trace as neither DRAM nor L1, as in tt-mlir.
enum class BufferType { kDram, kL1, kSystemMemory, kL1Small, kTrace };
absl::optional<BufferType> BufferTypeFromName(absl::string_view name);
absl::string_view BufferTypeName(BufferType type);  // "system_memory"
bool IsL1(BufferType type);                         // l1, l1_small
bool IsDram(BufferType type);                       // dram

// The TTNN memory layout `<interleaved>`, `<height_sharded>`, ...
enum class TtnnMemoryLayout {
  kInterleaved,
  kHeightSharded,
  kWidthSharded,
  kBlockSharded,
  kNdSharded,
};
absl::optional<TtnnMemoryLayout> TtnnMemoryLayoutFromName(
    absl::string_view name);
absl::string_view TtnnMemoryLayoutName(TtnnMemoryLayout layout);
// height, width and block sharded (nd_sharded is not a TTNNLayoutAttr
// layout: tt-mlir has a separate attribute for it).
bool IsSharded(TtnnMemoryLayout layout);

// The metal layout's last field: `interleaved` or `sharded`.
enum class MetalMemoryLayout { kInterleaved, kSharded };
absl::optional<MetalMemoryLayout> MetalMemoryLayoutFromName(
    absl::string_view name);
absl::string_view MetalMemoryLayoutName(MetalMemoryLayout layout);

// A core of the worker grid (or a DRAM bank, y = 0): x is the column.
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

// `#ttnn.core_range<(x0,y0), (x1,y1)>`: the inclusive rectangle.
struct CoreRange {
  CoreCoord start;
  CoreCoord end;

  int64_t num_cores() const {
    return (end.x - start.x + 1) * (end.y - start.y + 1);
  }
  friend bool operator==(const CoreRange& a, const CoreRange& b) {
    return a.start == b.start && a.end == b.end;
  }
  friend bool operator!=(const CoreRange& a, const CoreRange& b) {
    return !(a == b);
  }
};

// CoreOfRanges
//
// The `n`-th core of a core range set, enumerated as tt-metal assigns
// shards in row-major shard orientation: range by range, each range row by
// row (y outer, x inner).
//   {(0,0)-(7,0), (0,1)-(3,1)}: n = 9 -> (1, 1).
// nullopt when the set holds n cores or fewer.
// Precondition: every range has start <= end in both coordinates.
absl::optional<CoreCoord> CoreOfRanges(absl::Span<const CoreRange> ranges,
                                       int64_t n);

// "<[#ttnn.core_range<(0,0), (7,0)>, #ttnn.core_range<(0,1), (3,1)>]>", the
// form tt-mlir prints inside a layout.
std::string CoreRangesToString(absl::Span<const CoreRange> ranges);

// The element of a tensor or memref: a scalar type, or a tile.
struct MlirElement {
  ScalarType scalar;              // the tile's data type when tiled
  absl::optional<TileType> tile;  // set for `!ttcore.tile<HxW, dtype>`

  bool tiled() const { return tile.has_value(); }
  friend bool operator==(const MlirElement& a, const MlirElement& b) {
    return a.tile == b.tile && (a.tile.has_value() || a.scalar == b.scalar);
  }
};

// Bytes of one element: the scalar's, or the tile's (TileBytes).
int64_t MlirElementBytes(const MlirElement& element);

// "bf16", "!ttcore.tile<32x32, bf16>" (tt-mlir's current spelling).
std::string MlirElementToString(const MlirElement& element);

// TtnnDevice
//
// What tt-mlir's canonical core placement needs of the device: the worker
// grid (rows x columns, default Wormhole's 8x8) and the DRAM banks (a single
// row, default 12).
struct TtnnDevice {
  int64_t worker_rows = 8;
  int64_t worker_cols = 8;
  int64_t dram_banks = 12;
};

// ParseTtnnDevice
//
// "8x8" sets the worker grid and keeps 12 DRAM banks; "10x12,dram=8" sets
// both. Errors: "bad device '8y8': expected ROWSxCOLS[,dram=N]", values
// below 1 or above 1024.
absl::StatusOr<TtnnDevice> ParseTtnnDevice(absl::string_view text);

}  // namespace hlolayout::grid

#endif  // HLOLAYOUT_GRID_TTMLIR_ATTRS_H_

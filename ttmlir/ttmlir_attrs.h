// ttmlir/ttmlir_attrs.h: the small values tt-mlir's current layouts are made
// of.
//
//   #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x8>,
//       memref<1x16x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>,
//       <width_sharded>, core_ranges = <[#ttnn.core_range<(0,0), (7,0)>]>>
//   #ttcore.metal_layout<logical_shape = 64x128, dim_alignments = 32x32,
//       collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>,
//       l1, sharded>
//
// tt-mlir's names of tt-metal's buffer types and memory layouts (the
// vocabulary shared with the TTNN model, tenstorrent/buffer.h:
// `BufferTypeFromMlirName("dram") == tenstorrent::BufferType::kDram`), the
// metal layout's interleaved/sharded flag, the n-th core of a list of
// tenstorrent::CoreRange (tenstorrent/core.h; `(x, y)`: x is the column of
// the worker grid, y the row) and its tt-mlir text, the element of a tensor
// or memref (a scalar or a `!ttcore.tile`), and the device the layouts are
// placed on. Names are tt-mlir's spellings.
#ifndef HLOLAYOUT_TTMLIR_TTMLIR_ATTRS_H_
#define HLOLAYOUT_TTMLIR_TTMLIR_ATTRS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/optional.h"
#include "absl/types/span.h"
#include "hlolayout/tenstorrent/buffer.h"
#include "hlolayout/tenstorrent/core.h"
#include "hlolayout/tenstorrent/device.h"
#include "hlolayout/ttmlir/element_type.h"

namespace hlolayout::grid {

// `#ttnn.buffer_type<...>`: where a TTNN tensor lives, as tt-metal's
// tenstorrent::BufferType (tenstorrent/buffer.h); tt-mlir spells its names in
// lower case ("dram", "l1", "system_memory", "l1_small", "trace"). l1_small
// behaves as l1 and trace as neither DRAM nor L1, as in tt-mlir.
absl::optional<tenstorrent::BufferType> BufferTypeFromMlirName(
    absl::string_view name);
// "system_memory"
std::string BufferTypeMlirName(tenstorrent::BufferType type);
bool IsL1(tenstorrent::BufferType type);    // l1, l1_small
bool IsDram(tenstorrent::BufferType type);  // dram

// The memory layout `<interleaved>`, `<height_sharded>`, ... as
// tenstorrent::TensorMemoryLayout, its name in lower case.
absl::optional<tenstorrent::TensorMemoryLayout> MemoryLayoutFromMlirName(
    absl::string_view name);
std::string MemoryLayoutMlirName(tenstorrent::TensorMemoryLayout layout);
// height, width and block sharded (nd_sharded is not a TTNNLayoutAttr
// layout: tt-mlir has a separate attribute for it).
bool IsShardedIn2D(tenstorrent::TensorMemoryLayout layout);

// The metal layout's last field: `interleaved` or `sharded`.
enum class MetalMemoryLayout { kInterleaved, kSharded };
absl::optional<MetalMemoryLayout> MetalMemoryLayoutFromName(
    absl::string_view name);
absl::string_view MetalMemoryLayoutName(MetalMemoryLayout layout);

// CoreOfRanges
//
// The `n`-th core of a core range set, enumerated as tt-metal assigns
// shards in row-major shard orientation: range by range, each range row by
// row (y outer, x inner): tenstorrent::NthCore, row-wise.
//   {(0,0)-(7,0), (0,1)-(3,1)}: n = 9 -> (1, 1).
// nullopt when the set holds n cores or fewer.
// Precondition: every range has start <= end in both coordinates.
absl::optional<tenstorrent::CoreCoord> CoreOfRanges(
    absl::Span<const tenstorrent::CoreRange> ranges, int64_t n);

// "<[#ttnn.core_range<(0,0), (7,0)>, #ttnn.core_range<(0,1), (3,1)>]>", the
// form tt-mlir prints inside a layout.
std::string CoreRangesToString(absl::Span<const tenstorrent::CoreRange> ranges);

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
// grid (rows x columns) and the DRAM banks (a single row). The defaults are
// the default board's (tenstorrent/device.h: a Wormhole n150, 8x8 workers
// and 12 DRAM banks).
struct TtnnDevice {
  int64_t worker_rows = tenstorrent::DefaultDevice().grid_y;
  int64_t worker_cols = tenstorrent::DefaultDevice().grid_x;
  int64_t dram_banks = tenstorrent::DefaultDevice().dram_banks;
};

// ParseTtnnDevice
//
// "8x8" sets the worker grid and keeps 12 DRAM banks; "10x12,dram=8" sets
// both. Errors: "bad device '8y8': expected ROWSxCOLS[,dram=N]", values
// below 1 or above 1024.
absl::StatusOr<TtnnDevice> ParseTtnnDevice(absl::string_view text);

}  // namespace hlolayout::grid

#endif  // HLOLAYOUT_TTMLIR_TTMLIR_ATTRS_H_

// ttmlir/metal_layout.h: the seed's `#tt.metal_layout`, a tensor sharded over a
// grid.
//
//   tensor<53x63xf32,
//     #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>,
//                      memref<18x32xf32, #tt.memory_space<l1>>>>
//
// Four steps take a logical element to storage:
//   1. collapse: p = linear(index), e.g. (d0*192 + d1*64 + d2, d3);
//      the collapsed extent E_i is linear_i(last index) + 1;
//   2. grid split: shard S_i = ceilDiv(E_i, grid_i); core c_i = p_i / S_i,
//      offset o_i = p_i % S_i (the last core in each dim is partly filled,
//      trailing cores may hold nothing);
//   3. tilize (when the memref element is a tile): each core pads its shard
//      to whole tiles on the last two dims, the memref counts tiles there;
//   4. bytes: row-major over the memref, times the element or tile size.
// The order (grid first, then tilize) is the seed's: 53x63 on 3x2 gives
// 18x32 shards, each padded to one 32x32 tile, so the cores hold 14, 14 and
// 15 rows of padding by core row and 0, 1 columns by core column.
//
// Multi-device: a grid of rank > 2 reads its outer dims as devices and its
// last two dims as the cores of each device (the seed's 2x2x4 grid is two
// devices of 2x4 cores). This is an interpretation; the seed does not fix
// which dims are devices beyond its example.
#ifndef HLOLAYOUT_TTMLIR_METAL_LAYOUT_H_
#define HLOLAYOUT_TTMLIR_METAL_LAYOUT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/optional.h"
#include "absl/types/span.h"
#include "hlolayout/ttmlir/affine_map.h"
#include "hlolayout/ttmlir/element_type.h"

namespace hlolayout::grid {

// What the padding holds (`oob_val`). The seed only records it.
enum class OobVal { kUndef, kZero, kOne, kInf, kNegInf };
absl::optional<OobVal> OobValFromName(absl::string_view name);  // "undef"...
absl::string_view OobValName(OobVal value);

// Where the shards live. Text names are tt-mlir's: system, mmio, dram, l1.
enum class MemorySpace { kSystem, kSystemMMIO, kDeviceDRAM, kDeviceL1 };
absl::optional<MemorySpace> MemorySpaceFromName(absl::string_view name);
absl::string_view MemorySpaceName(MemorySpace space);  // "l1"
// The seed's names: "System", "SystemMMIO", "DeviceDRAM", "DeviceL1".
absl::string_view MemorySpaceTitle(MemorySpace space);

// Where one logical element is stored.
struct ElementLocation {
  std::vector<int64_t> collapsed;  // linear(index)
  std::vector<int64_t> core;       // grid coordinate
  std::vector<int64_t> offset;     // scalar offset inside the shard
  // Tilized only: the memref index (offset on the leading dims, tile
  // coordinate on the last two) and the position inside the tile.
  std::vector<int64_t> tile;
  std::vector<int64_t> in_tile;
  // Byte offset inside the shard: of the element when scalar, of the start
  // of its tile when tilized.
  int64_t byte_offset = 0;
};

// MetalLayout
//
// A validated value: build it with Create (or ttmlir/parse.h). Accessors are
// cheap; everything derived is computed once by Create.
class MetalLayout {
 public:
  // Create
  //
  // Validates and derives shard and memref shapes. Errors (short,
  // lowercase): a tensor dim < 1; the map not fitting the shape (see
  // ValidateLayoutMap); "map has 2 results but the grid has rank 3"; a grid
  // dim < 1 ("grid dim 1 is 0"); a tile on a memref of rank < 2; sizes
  // overflowing int64.
  static absl::StatusOr<MetalLayout> Create(std::vector<int64_t> logical_shape,
                                            ScalarType element_type,
                                            AffineMap linear, OobVal oob_val,
                                            std::vector<int64_t> grid,
                                            absl::optional<TileType> tile,
                                            MemorySpace memory_space);

  const std::vector<int64_t>& logical_shape() const { return logical_shape_; }
  ScalarType element_type() const { return element_type_; }
  const AffineMap& linear() const { return linear_; }
  OobVal oob_val() const { return oob_val_; }
  const std::vector<int64_t>& grid() const { return grid_; }
  const absl::optional<TileType>& tile() const { return tile_; }
  MemorySpace memory_space() const { return memory_space_; }

  int64_t rank() const { return static_cast<int64_t>(logical_shape_.size()); }
  int64_t grid_rank() const { return static_cast<int64_t>(grid_.size()); }
  // Number of logical elements.
  int64_t logical_volume() const { return logical_volume_; }
  // Number of cores: the product of the grid.
  int64_t num_cores() const { return num_cores_; }

  // E: linear(last index) + 1 per grid dim. {384, 128} for 2x3x64x128.
  const std::vector<int64_t>& collapsed_extent() const { return extent_; }
  // S = ceilDiv(E, grid): the scalar shard. {18, 32} for 53x63 on 3x2.
  const std::vector<int64_t>& shard_shape() const { return shard_; }
  // The shard padded to whole tiles on the last two dims ({32, 32} for the
  // tilized 53x63); equal to shard_shape() when not tilized.
  const std::vector<int64_t>& physical_shard_shape() const {
    return physical_shard_;
  }
  // The memref shape: shard_shape(), or tiles on the last two dims when
  // tilized ({1, 1}).
  const std::vector<int64_t>& memref_shape() const { return memref_; }
  // Scalar positions in one shard: the product of physical_shard_shape().
  int64_t shard_volume() const { return shard_volume_; }
  // Tiles in one shard (0 when not tilized).
  int64_t tiles_per_shard() const { return tiles_per_shard_; }
  // Bytes of one memref element: the scalar type or the tile.
  int64_t memref_element_bytes() const;
  int64_t shard_bytes() const { return shard_bytes_; }
  int64_t total_bytes() const { return total_bytes_; }

  // The valid extent core coordinate `c` holds along grid dim `i`:
  // clamp(E_i - c*S_i, 0, S_i). The count of collapsed coordinates in the
  // core's window; for a bumped-stride result some of them may be gaps (see
  // padding.h for exact counts).
  // Precondition (CHECK): 0 <= i < grid_rank(), 0 <= c < grid()[i].
  int64_t ValidExtent(int64_t i, int64_t c) const;

  // Locate
  //
  // Where logical element `index` is stored.
  //   53x63 on 3x2, tilized: [20, 40] -> core {1, 1}, offset {2, 8},
  //   tile {0, 0}, in_tile {2, 8}.
  // Precondition (CHECK): index in bounds. TryLocate returns an error
  // instead ("index 53 is out of bounds for dim 0 of size 53").
  ElementLocation Locate(absl::Span<const int64_t> index) const;
  absl::StatusOr<ElementLocation> TryLocate(
      absl::Span<const int64_t> index) const;

  // Multi-device view of the grid: the outer grid_rank() - 2 dims are
  // devices (empty when grid_rank() <= 2), the rest the cores of a device.
  std::vector<int64_t> device_grid() const;
  std::vector<int64_t> core_grid() const;

 private:
  MetalLayout() = default;

  std::vector<int64_t> logical_shape_;
  ScalarType element_type_;
  AffineMap linear_;
  OobVal oob_val_ = OobVal::kUndef;
  std::vector<int64_t> grid_;
  absl::optional<TileType> tile_;
  MemorySpace memory_space_ = MemorySpace::kSystem;

  int64_t logical_volume_ = 1;
  int64_t num_cores_ = 1;
  std::vector<int64_t> extent_;
  std::vector<int64_t> shard_;
  std::vector<int64_t> physical_shard_;
  std::vector<int64_t> memref_;
  int64_t shard_volume_ = 1;
  int64_t tiles_per_shard_ = 0;
  int64_t shard_bytes_ = 0;
  int64_t total_bytes_ = 0;
};

// "18x32", "1x1": dims joined by 'x'.
std::string DimsToString(absl::Span<const int64_t> dims);

}  // namespace hlolayout::grid

#endif  // HLOLAYOUT_TTMLIR_METAL_LAYOUT_H_

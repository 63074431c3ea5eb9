// ttmlir/ttnn_attr.h: a `#ttnn.ttnn_layout` as tt-mlir's builder computes it.
//
//   tensor<128x2048xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x8>,
//       memref<4x8x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>,
//       <width_sharded>, core_ranges = <[#ttnn.core_range<(0,0), (7,0)>]>>>
//   -> grid 1x8, shard 128x256 (4x8 tiles), core of shard (0, 5) = (5, 0).
//
// tt-mlir rebuilds a TTNN layout from the tensor's shape, the memref's
// element, the buffer type, the memory layout and the grid
// (TTNNLayoutAttr::Builder); the map and memref written in a test are not
// read back. TtnnLayoutAttr::Build does the same:
//   1. the verifier's checks, refused with its message: DRAM-interleaved and
//      system-memory layouts use grid 1x1, system memory has no memory
//      layout and device buffers need one, no block sharding in DRAM,
//      sharded layouts carry core ranges and others do not;
//   2. coercion: system memory and DRAM interleaved get grid 1x1;
//   3. tile padding: when the element is a tile, the last dim is padded to
//      32 and the second-to-last to 32 (the physical shape);
//   4. the map: tt-mlir's collapse (ttmlir/ttmlir_collapse.h) of the physical
//      shape, (d0 * 32 + d1 * 32 + d2, d3) for a tiled 1x1x30x32;
//   5. the shard (in scalars), from the collapsed shape E:
//        system memory, DRAM interleaved: E;
//        L1 interleaved: all tiles (or scalars) spread over every core:
//          [32, 32 * ceil(tiles / cores)] ([1, ceil(volume / cores)]);
//        height/width/block sharded: ceil(E_i / grid_i) per dim (the grid
//          of height sharding is [M, 1], of width sharding [1, M]);
//   6. the memref: the shard in tiles (ceiling) when tiled;
//   7. canonical core placement on a device (ttmlir/ttmlir_attrs.h): block
//      sharding maps shard (y, x) to core (x, y); height and width sharding
//      lay shard m at (m mod W, m div W), as a full-row rectangle plus a
//      tail; DRAM sharding uses banks 0..n-1.
// Where the written text differs from that, warnings() names the
// difference; the answers are always the builder's.
//
// Locating an element: its collapsed coordinate p = map(index); tiled:
// tile p / 32 and position p mod 32; sharded: shard p / (memref shard in
// scalars), offset p mod it, the core (from the written core ranges, or
// the canonical ones) or DRAM bank; interleaved and system memory: the page
// (row-major tile index, or the row for row-major layouts) and, in DRAM,
// the bank it is interleaved to (page mod banks).
#ifndef HLOLAYOUT_TTMLIR_TTNN_ATTR_H_
#define HLOLAYOUT_TTMLIR_TTNN_ATTR_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/optional.h"
#include "absl/types/span.h"
#include "hlolayout/tenstorrent/buffer.h"
#include "hlolayout/tenstorrent/core.h"
#include "hlolayout/ttmlir/affine_map.h"
#include "hlolayout/ttmlir/ttmlir_attrs.h"
#include "hlolayout/ttmlir/ttmlir_parse.h"

namespace hlolayout::grid {

// Element counts of a TTNN layout.
struct TtnnPadding {
  int64_t logical = 0;        // the tensor's elements
  int64_t physical = 0;       // positions of the tile-padded shape
  int64_t tile_padding = 0;   // physical - logical
  int64_t allocated = 0;      // what the shards (or the buffer) hold
  int64_t shard_padding = 0;  // allocated - physical
  int64_t total = 0;          // allocated - logical
};

// Where one element of a TTNN layout lives.
struct TtnnAttrLocation {
  std::vector<int64_t> physical;  // the collapsed coordinate, map(index)
  // Tiled: the tile of the collapsed plane and the position in it.
  std::vector<int64_t> tile;
  std::vector<int64_t> in_tile;
  // Sharded: the shard (grid coordinate), its row-major number, the offset
  // in it (scalars), and when tiled the tile and position of the offset.
  std::vector<int64_t> shard;
  int64_t shard_index = -1;
  std::vector<int64_t> offset;
  std::vector<int64_t> offset_tile;
  std::vector<int64_t> offset_in_tile;
  absl::optional<tenstorrent::CoreCoord> core;  // L1 sharded
  absl::optional<int64_t> dram_bank;            // DRAM: sharded, or interleaved
  // Interleaved and system memory: the page; in DRAM its bank (above) and
  // its page number inside that bank.
  absl::optional<int64_t> page;
  absl::optional<int64_t> page_in_bank;
};

class TtnnLayoutAttr {
 public:
  // Build
  //
  // The builder's layout for a tensor of `shape` written with `text`.
  // Errors, one sentence each: the verifier's refusals (its words), grids of
  // rank other than 2, nd_sharded (a different tt-mlir attribute), sizes
  // overflowing int64.
  // A dim of size 0 is allowed (tt-mlir builds empty tensors' layouts:
  // their collapsed dims are 0, and no index can be located).
  static absl::StatusOr<TtnnLayoutAttr> Build(absl::Span<const int64_t> shape,
                                              const TtnnLayoutText& text,
                                              const TtnnDevice& device = {});

  const std::vector<int64_t>& logical_shape() const { return shape_; }
  const MlirElement& element() const { return element_; }
  bool tiled() const { return element_.tiled(); }
  tenstorrent::BufferType buffer_type() const { return buffer_type_; }
  const absl::optional<tenstorrent::TensorMemoryLayout>& mem_layout() const {
    return mem_layout_;
  }
  bool sharded() const { return mem_layout_ && IsShardedIn2D(*mem_layout_); }
  const TtnnDevice& device() const { return device_; }

  // The tile-padded shape (the logical shape when not tiled).
  const std::vector<int64_t>& physical_shape() const { return physical_; }
  const AffineMap& linear() const { return linear_; }
  const std::vector<int64_t>& collapsed_shape() const { return collapsed_; }
  const std::vector<int64_t>& grid() const { return grid_; }
  int64_t num_shards() const { return grid_[0] * grid_[1]; }
  // The builder's shard in scalars, before tiling.
  const std::vector<int64_t>& shard_shape() const { return shard_; }
  // The memref's shard in scalars (tiles times the tile when tiled).
  const std::vector<int64_t>& physical_shard_shape() const {
    return physical_shard_;
  }
  const std::vector<int64_t>& memref_shape() const { return memref_; }
  // Pages of an interleaved or system-memory layout: tiles of the collapsed
  // shape, or its rows; and the bytes of one.
  int64_t num_pages() const;
  int64_t page_bytes() const;
  int64_t shard_bytes() const;

  // The placement the layout uses: the written core ranges, else the
  // canonical ones (empty for interleaved layouts, or when the canonical
  // placement fails, see placement_error()).
  const std::vector<tenstorrent::CoreRange>& core_ranges() const {
    return placement_;
  }
  const absl::optional<std::vector<tenstorrent::CoreRange>>&
  canonical_core_ranges() const {
    return canonical_;
  }
  const absl::optional<std::vector<tenstorrent::CoreRange>>&
  written_core_ranges() const {
    return written_ranges_;
  }
  const std::string& placement_error() const { return placement_error_; }

  const TtnnPadding& padding() const { return padding_; }

  // Differences between the text and the builder (one sentence each), and
  // notes that are not differences (ignorePhysicalLayout, a mesh).
  const std::vector<std::string>& warnings() const { return warnings_; }
  const std::vector<std::string>& notes() const { return notes_; }

  // "memref<1x8x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>"
  std::string MemrefText() const;
  // The builder's attribute, as tt-mlir prints it (core ranges as used).
  std::string LayoutText() const;
  // "tensor<128x2048xbf16, " + LayoutText() + ">"; `element` is the tensor's
  // element as written.
  std::string TensorText(const MlirElement& element) const;

  // Locate
  //
  // Where element `index` lives. Errors: wrong rank, an index out of
  // bounds ("index 128 is out of bounds for dim 0 of size 128").
  absl::StatusOr<TtnnAttrLocation> Locate(
      absl::Span<const int64_t> index) const;

  // Elements of the tensor held by shard (y, x) (sharded layouts), computed
  // per dim; nullopt for other layouts.
  absl::optional<int64_t> ShardElements(int64_t y, int64_t x) const;

  // How many collapsed rows below `r` (columns below `c`) hold elements:
  // rows inside the tile padding of the second-to-last dim do not.
  int64_t ValidRowsBelow(int64_t r) const;
  int64_t ValidColsBelow(int64_t c) const;

 private:
  TtnnLayoutAttr() = default;

  // Build's steps, in order: the padded tensor, its collapsed 2-D form, the
  // shard and memref, the padding counts (sets `*int32_overflow` when a
  // collapse stride passes 2^31); the canonical core placement of a sharded
  // layout; the warnings and notes where `text` differs from the builder.
  absl::Status ComputeGeometry(bool* int32_overflow);
  void PlaceCores(const TtnnLayoutText& text);
  void CompareWithText(const TtnnLayoutText& text, bool int32_overflow);
  // Why the written memref `written` is not the builder's: "" or "; ...".
  std::string MemrefDifference(absl::Span<const int64_t> written) const;

  std::vector<int64_t> shape_;
  MlirElement element_;
  tenstorrent::BufferType buffer_type_ = tenstorrent::BufferType::kDram;
  absl::optional<tenstorrent::TensorMemoryLayout> mem_layout_;
  TtnnDevice device_;
  std::vector<int64_t> physical_;
  AffineMap linear_;
  std::vector<int64_t> collapsed_;
  std::vector<int64_t> grid_;
  std::vector<int64_t> shard_;
  std::vector<int64_t> physical_shard_;
  std::vector<int64_t> memref_;
  std::vector<tenstorrent::CoreRange> placement_;
  absl::optional<std::vector<tenstorrent::CoreRange>> canonical_;
  absl::optional<std::vector<tenstorrent::CoreRange>> written_ranges_;
  std::string placement_error_;
  bool ignore_physical_layout_ = false;
  TtnnPadding padding_;
  std::vector<std::string> warnings_;
  std::vector<std::string> notes_;
};

}  // namespace hlolayout::grid

#endif  // HLOLAYOUT_TTMLIR_TTNN_ATTR_H_

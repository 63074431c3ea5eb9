// ttmlir/ttcore_metal_layout.h: the reworked `#ttcore.metal_layout` (tt-mlir
// since mid-2025): logical shape, alignments, collapsed intervals; the grid
// and the shard are the tensor type's own shape.
//
//   tensor<2x6x2x2x!ttcore.tile<32x32, f32>, #ttcore.metal_layout<
//       logical_shape = 128x384, dim_alignments = 32x32,
//       collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>,
//       l1, sharded>>
//   -> physical 128x384 (4x12 tiles), grid 2x6, shard 2x2 tiles;
//      element [127, 383] is in shard (1, 5) at offset (63, 63), core (5, 1).
//
// From the attribute (tt-mlir's MetalLayoutAttr):
//   1. intervals are normalized: negative bounds + rank, sorted by start,
//      dims after the last interval become singletons, and a rank-1 tensor
//      gets a leading empty interval (its synthetic row). `dense<>` thus
//      means one physical dim per logical dim;
//   2. the physical shape: per interval [a, b), the innermost dim aligned up
//      to its alignment, then outward x = alignUp(s[j] * x, al[j]) -- the
//      alignment applies to the cumulative extent; rank 0 gives 32x32 and
//      rank 1 prepends 32;
//   3. tiled tensors divide the last two physical dims by the tile exactly;
//   4. the tensor's shape is grid ++ shard: the device shape is
//      grid ++ physical / grid, exact division.
// Index maps: logical -> physical sums d_j * stride_j inside an interval
// (strides are aligned cumulative extents); physical -> device splits each
// physical coordinate by the shard: shard p / S, offset p mod S.
//
// Refused, with tt-mlir's words where it has them: the verifier's checks
// (alignments of the logical rank, positive, intervals within the rank and
// not reversed), a tile that does not divide the physical shape, a grid
// that does not divide it, a tensor rank other than twice the physical
// rank. hlolayout also refuses intervals that overlap or leave a dim out
// (tt-mlir drops such a dim silently). A tensor whose shard is not the
// computed one is explained with the computed one and a warning.
#ifndef HLOLAYOUT_TTMLIR_TTCORE_METAL_LAYOUT_H_
#define HLOLAYOUT_TTMLIR_TTCORE_METAL_LAYOUT_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/optional.h"
#include "absl/types/span.h"
#include "hlolayout/ttmlir/ttmlir_attrs.h"
#include "hlolayout/ttmlir/ttmlir_parse.h"

namespace hlolayout::grid {

// Element counts of a metal layout.
struct MetalPadding {
  int64_t logical = 0;    // the logical shape's elements
  int64_t physical = 0;   // positions of the physical shape
  int64_t total = 0;      // physical - logical
  int64_t allocated = 0;  // what the tensor type holds (grid x shard)
};

// Where one element of a metal layout lives.
struct MetalLocation {
  std::vector<int64_t> physical;  // scalar physical coordinate
  std::vector<int64_t> shard;     // grid coordinate
  std::vector<int64_t> offset;    // in the shard, scalars
  // Tiled only: the tile's memref index (leading dims unchanged) and the
  // row and column in the tile.
  std::vector<int64_t> offset_tile;
  std::vector<int64_t> offset_in_tile;
  // L1: the core, on a 2-D grid within the worker grid.
  absl::optional<tenstorrent::CoreCoord> core;
};

// NormalizeIntervals
//
// tt-mlir's normalizeAndFlattenIntervals, as pairs: {{0,1},{1,2}} for
// dense<[[0, -1]]> on rank 2, {{0,1},{1,2},{2,3}} for dense<> on rank 3,
// {{0,0},{0,1}} for rank 1. The sort by start is stable here.
std::vector<std::array<int64_t, 2>> NormalizeIntervals(
    absl::Span<const int64_t> flat_intervals, int64_t rank);

class TtcoreMetalLayout {
 public:
  // Build
  //
  // The layout of a tensor `shape` x `element` written with `text`; the
  // device gives the worker grid cores are reported on. Errors: see above.
  static absl::StatusOr<TtcoreMetalLayout> Build(
      absl::Span<const int64_t> shape, const MlirElement& element,
      const MetalLayoutText& text, const TtnnDevice& device = {});

  const MetalLayoutText& text() const { return text_; }
  const std::vector<int64_t>& logical_shape() const {
    return text_.logical_shape;
  }
  const std::vector<int64_t>& dim_alignments() const {
    return text_.dim_alignments;
  }
  const MlirElement& element() const { return element_; }
  bool tiled() const { return element_.tiled(); }
  const TtnnDevice& device() const { return device_; }
  const std::vector<std::array<int64_t, 2>>& normalized_intervals() const {
    return intervals_;
  }
  // computeTileAlignments for these intervals: 1..1,32,32; nullopt when it
  // is undefined (one interval on a tensor of rank >= 2).
  const absl::optional<std::vector<int64_t>>& default_tile_alignments() const {
    return default_alignments_;
  }
  // Scalars; and in tiles when tiled (else equal).
  const std::vector<int64_t>& physical_shape() const { return physical_; }
  const std::vector<int64_t>& physical_shape_units() const {
    return physical_units_;
  }
  const std::vector<int64_t>& grid() const { return grid_; }
  // grid ++ shard (in tiles when tiled), as getDeviceShape gives it.
  const std::vector<int64_t>& device_shape() const { return device_shape_; }
  // The shard in tiles (tiled) or scalars, and always in scalars.
  const std::vector<int64_t>& shard_shape_units() const { return shard_units_; }
  const std::vector<int64_t>& shard_shape() const { return shard_scalars_; }
  const std::vector<int64_t>& host_strides() const { return host_strides_; }
  int64_t host_volume() const { return host_volume_; }
  const MetalPadding& padding() const { return padding_; }
  // Aligned strides of each logical dim inside its interval.
  const std::vector<int64_t>& interval_strides() const { return strides_; }

  const std::vector<std::string>& warnings() const { return warnings_; }

  // "(d0, d1, d2, d3) -> (d0 * 32 + d1 * 32 + d2, d3)", tt-mlir's
  // buildLogicalToPhysicalMap.
  std::string LogicalToPhysicalText() const;
  // "(d0, d1) -> (d0 floordiv 32, d0 floordiv 32 mod 1, d0 mod 32, d1)",
  // tt-mlir's buildPhysicalToLogicalMap.
  std::string PhysicalToLogicalText() const;
  // "memref<2x2x!ttcore.tile<32x32, f32>, #ttcore.memory_space<l1>>"
  std::string MemrefText() const;
  // The tensor type as the builder would write it (shape = device shape).
  std::string TensorText() const;

  // Locate
  //
  // Where logical element `index` lives. Errors: wrong rank, out of bounds.
  absl::StatusOr<MetalLocation> Locate(absl::Span<const int64_t> index) const;

  // The logical index at a scalar physical coordinate, or nullopt for
  // padding. Precondition: coordinate within physical_shape().
  absl::optional<std::vector<int64_t>> LogicalAt(
      absl::Span<const int64_t> physical) const;

  // How many values below `x` along physical dim `i` hold elements.
  // Precondition: 0 <= i < physical rank.
  int64_t ValidBelow(int64_t i, int64_t x) const;

  // Elements held by the shard at grid coordinate `shard`.
  int64_t ShardElements(absl::Span<const int64_t> shard) const;

 private:
  TtcoreMetalLayout() = default;

  // Build's steps after the checks, in order, on `text_` and `element_`:
  // strides and the physical shape; the grid, device shape and shards from
  // the tensor's `shape` (grid ++ shard); the host strides; the padding
  // counts; the warnings where the text differs from the builder.
  absl::Status ComputePhysical();
  absl::Status SplitOverGrid(absl::Span<const int64_t> shape);
  absl::Status ComputeHostStrides();
  absl::Status ComputePadding(absl::Span<const int64_t> shape);
  void CompareWithText(absl::Span<const int64_t> shape);

  MetalLayoutText text_;
  MlirElement element_;
  TtnnDevice device_;
  std::vector<int64_t> tensor_shape_;
  std::vector<std::array<int64_t, 2>> intervals_;
  absl::optional<std::vector<int64_t>> default_alignments_;
  std::vector<int64_t> strides_;  // per logical dim
  std::vector<int64_t> physical_;
  std::vector<int64_t> physical_units_;
  std::vector<int64_t> grid_;
  std::vector<int64_t> device_shape_;
  std::vector<int64_t> shard_units_;
  std::vector<int64_t> shard_scalars_;
  std::vector<int64_t> host_strides_;
  int64_t host_volume_ = 0;
  MetalPadding padding_;
  std::vector<std::string> warnings_;
};

}  // namespace hlolayout::grid

#endif  // HLOLAYOUT_TTMLIR_TTCORE_METAL_LAYOUT_H_

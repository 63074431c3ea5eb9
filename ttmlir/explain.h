// ttmlir/explain.h: the 2024 seed form (#tt.metal_layout) of `hlolayout
// grid` as data: everything `grid explain` reports (GridExplanation), the
// index and collapse-interval readers, and the layout `grid collapse`
// builds. The texts are views (views/ttmlir_text.h).
//
//   tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>,
//          memref<1x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>>>
//   ExplainGridLayout(layout).total_padding  -> 2805
//   ParseIndexList("20,40")                  -> {20, 40}
#ifndef HLOLAYOUT_TTMLIR_EXPLAIN_H_
#define HLOLAYOUT_TTMLIR_EXPLAIN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/optional.h"
#include "absl/types/span.h"
#include "hlolayout/ttmlir/collapse.h"
#include "hlolayout/ttmlir/metal_layout.h"

namespace hlolayout::grid {

// Padding of one core.
struct CorePadding {
  std::vector<int64_t> core;
  int64_t elements = 0;  // logical elements stored on the core
  int64_t padding = 0;   // positions of the physical shard holding oob_val
};

// Everything `grid explain` reports about a layout.
struct GridExplanation {
  std::string tensor;  // canonical one-line text
  std::string map;     // "(d0, d1) -> (d0, d1)"
  std::vector<int64_t> logical_shape;
  std::string element_type;  // "f32"
  int64_t element_bytes = 0;
  int64_t logical_elements = 0;
  std::vector<int64_t> collapsed_extent;
  std::vector<int64_t> grid;
  int64_t cores = 0;
  std::vector<int64_t> device_grid;  // empty unless grid rank > 2
  std::vector<int64_t> core_grid;
  std::vector<int64_t> shard_shape;
  std::vector<int64_t> physical_shard_shape;
  std::vector<int64_t> memref_shape;
  std::string memref;                // "memref<1x1x!tt.tile<...>, ...>"
  absl::optional<std::string> tile;  // "!tt.tile<32 x 32, bfp_bf8>"
  int64_t tile_bytes = 0;            // 0 when not tilized
  int64_t tiles_per_shard = 0;
  std::string memory_space;        // "l1"
  std::string memory_space_title;  // "DeviceL1"
  std::string oob_val;             // "undef"
  // Positions of padding along each grid dim, by core index (PaddingPerDim);
  // nullopt (with `padding_per_dim_note`) for maps whose dims feed several
  // results and for grid dims above 65536 cores.
  absl::optional<std::vector<std::vector<int64_t>>> padding_per_dim;
  std::string padding_per_dim_note;
  // Per core, row-major over the grid; empty with `per_core_note` set when
  // not computed (too many cores or elements).
  std::vector<CorePadding> per_core;
  std::string per_core_note;
  int64_t padding_only_cores = -1;  // -1 when per_core is not computed
  int64_t storage_positions = 0;    // cores * physical shard volume
  int64_t total_padding = 0;
  int64_t shard_bytes = 0;
  int64_t total_bytes = 0;
};

// ExplainGridLayout
//
// Fills every field. Per-core counts are computed for grids of at most
// `max_cores` cores (and, for maps that are not separable, tensors of at
// most 2^26 elements).
GridExplanation ExplainGridLayout(const MetalLayout& layout,
                                  int64_t max_cores = 4096);

// ParseIndexList
//
// "1,1,6,100" -> {1, 1, 6, 100}; spaces around values are allowed; "" is
// the index of a rank-0 tensor. Errors: "bad index value 'x'".
absl::StatusOr<std::vector<int64_t>> ParseIndexList(absl::string_view text);

// ParseCollapseIntervals
//
// "(0,3),(-3,-1)" -> {{0, 3}, {-3, -1}}; "" gives the default [(0, -1)] and
// "none" no interval. Errors: "bad collapse intervals '...'".
absl::StatusOr<std::vector<CollapseInterval>> ParseCollapseIntervals(
    absl::string_view text);

// BuildCollapsedLayout
//
// The layout of `hlolayout grid collapse`: a tensor "2x3x64x128xf32" (dims
// then element type), a grid "2x2x4", collapse intervals, and an optional
// tile "bfp_bf8" (32x32) or "16x32,bf16"; oob_val undef, memory space l1.
//   ("2x3x64x128xf32", "2x2x4", "(1,-1)", "") -> map
//   (d0, d1, d2, d3) -> (d0, d1 * 64 + d2, d3), memref 1x96x32.
absl::StatusOr<MetalLayout> BuildCollapsedLayout(absl::string_view tensor,
                                                 absl::string_view grid,
                                                 absl::string_view intervals,
                                                 absl::string_view tile);

}  // namespace hlolayout::grid

#endif  // HLOLAYOUT_TTMLIR_EXPLAIN_H_

// ttmlir/padding.h: which storage of a grid-sharded tensor is padding.
//
// Storage is addressed by a core coordinate and a scalar offset inside the
// core's physical shard (the shard padded to whole tiles when tilized). A
// position holds a logical element, or padding filled with `oob_val`:
//
//   tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>,
//          memref<1x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>>>
//   ElementAt(core {1, 1}, offset {2, 8})   -> [20, 40]
//   ElementAt(core {0, 0}, offset {20, 0})  -> padding (tile padding)
//   ElementAt(core {2, 1}, offset {0, 31})  -> padding (grid remainder)
//   PaddingPerDim -> {{14, 14, 15}, {0, 1}}
//
// A position is padding when its offset lies past the scalar shard (tile
// padding), when core * shard + offset lies past the collapsed extent (grid
// remainder), or when no element maps there (a gap of a bumped stride such
// as (d0 * 32 + d1, d2) on 2x8x32, or a non-matching tuple of a map whose
// dims feed several results).
#ifndef HLOLAYOUT_TTMLIR_PADDING_H_
#define HLOLAYOUT_TTMLIR_PADDING_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/optional.h"
#include "absl/types/span.h"
#include "hlolayout/ttmlir/metal_layout.h"

namespace hlolayout::grid {

// ElementAt
//
// The logical index stored at (core, offset), or nullopt for padding.
// Errors: wrong ranks, a core outside the grid ("core 3 is out of range
// for grid dim 0 of size 3"), an offset outside the physical shard.
absl::StatusOr<absl::optional<std::vector<int64_t>>> ElementAt(
    const MetalLayout& layout, absl::Span<const int64_t> core,
    absl::Span<const int64_t> offset);

// IsPadding
//
// !ElementAt(...)->has_value(), with the same errors.
absl::StatusOr<bool> IsPadding(const MetalLayout& layout,
                               absl::Span<const int64_t> core,
                               absl::Span<const int64_t> offset);

// PaddingPerDim
//
// For each grid dim i and core coordinate c along it, the number of
// positions of the physical shard along dim i that hold no element:
// physical_shard_shape()[i] minus the image values in the core's window.
// For 53x63 on 3x2, tilized: {{14, 14, 15}, {0, 1}} (rows of padding by
// core row, columns by core column). nullopt when the map is not separable
// (a dim feeds several results), where padding does not factor per dim.
absl::optional<std::vector<std::vector<int64_t>>> PaddingPerDim(
    const MetalLayout& layout);

// ValidElementsPerCore
//
// The number of logical elements each core holds, row-major over the grid.
// Separable maps are counted per dim in O(grid volume); other maps by
// enumerating the tensor, which is refused beyond `max_enumeration`
// elements ("counting padding needs 2^30 elements; limit is ...").
// Errors too when the grid has more than `max_cores` cores.
absl::StatusOr<std::vector<int64_t>> ValidElementsPerCore(
    const MetalLayout& layout, int64_t max_cores = int64_t{1} << 20,
    int64_t max_enumeration = int64_t{1} << 26);

// TotalPadding
//
// Storage positions over all cores minus logical elements: every element
// lands in exactly one position, so the rest is padding. 53x63 on 3x2
// tilized: 6 * 1024 - 3339 = 2805.
int64_t TotalPadding(const MetalLayout& layout);

}  // namespace hlolayout::grid

#endif  // HLOLAYOUT_TTMLIR_PADDING_H_

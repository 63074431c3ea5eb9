// ttmlir/ttnn_layout.h: the TTNN tensor layout from the second half of the
// seed.
//
// TTNN has no affine map: dims [0, N-1) are always collapsed into rows and
// the physical plane is the inner dim wide. The seed's terms:
//   shape                 logical shape, n-D
//   stride                how the n-D data packs into the 2-D plane; as in
//                         the seed's visualizer it has rank + 1 entries:
//                         stride[0] is the padded total volume and
//                         stride[k + 1] the element stride of dim k
//                         (12x12x16 tight: [2304, 192, 16, 1])
//   shard_shape           a 2-D region of the plane, not necessarily a tile
//                         multiple
//   physical_shard_shape  shard_shape padded to tile_shape
//   tile_shape            e.g. 32x32; 1xN means row-major
//   grid_shape            [divup(stride[0] // stride[-2], shard_shape[0]),
//                          divup(stride[-2], shard_shape[1])]
//
// Erratum: the seed writes the second grid term as
// divup(stride[-2], shard_shape[0]); the column count must be divided by
// the shard *width*, shard_shape[1] (as the visualizer does). This file uses
// the corrected formula; LiteralSeedGridShape keeps the typo for comparison.
//
// Examples from the seed's diagram: 12x12x16 with shard 72x16 has 144x16
// rows x cols, grid 2x1, physical shard 96x32 (32x32 tiles); padding dim 1
// to 32 rows (stride [6144, 512, 16, 1]) gives 384x16, shard 96x16, grid 4x1.
#ifndef HLOLAYOUT_TTMLIR_TTNN_LAYOUT_H_
#define HLOLAYOUT_TTMLIR_TTNN_LAYOUT_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace hlolayout::grid {

struct TtnnLayout {
  std::vector<int64_t> shape;
  std::vector<int64_t> stride;  // rank + 1 entries, see above
  std::array<int64_t, 2> shard_shape{};
  std::array<int64_t, 2> physical_shard_shape{};
  std::array<int64_t, 2> tile_shape{};
  std::array<int64_t, 2> grid_shape{};
  // The collapsed plane: [stride[0] // stride[-2], stride[-2]].
  std::array<int64_t, 2> plane_shape{};
  // The plane padded to whole tiles.
  std::array<int64_t, 2> physical_shape{};
};

// TightTtnnStride
//
// The unpadded stride of `shape`: [volume, ..., shape[-1], 1].
// 12x12x16 -> [2304, 192, 16, 1]. Errors: rank 0, a dim < 1, overflow.
absl::StatusOr<std::vector<int64_t>> TightTtnnStride(
    absl::Span<const int64_t> shape);

// MakeTtnnLayout
//
// Validates and derives the TTNN layout. `stride` empty means tight.
// Errors: rank < 1; a dim < 1; a stride of the wrong length; stride[-1] != 1;
// a row pitch stride[-2] below shape[-1]; an outer stride not a multiple of
// the row pitch or smaller than the data it spans; shard or tile dims < 1;
// overflow.
absl::StatusOr<TtnnLayout> MakeTtnnLayout(absl::Span<const int64_t> shape,
                                          absl::Span<const int64_t> stride,
                                          std::array<int64_t, 2> shard_shape,
                                          std::array<int64_t, 2> tile_shape = {
                                              32, 32});

// The seed's grid_shape formula as written (shard_shape[0] twice).
std::array<int64_t, 2> LiteralSeedGridShape(const TtnnLayout& layout);

// Where an element lives in a TTNN layout.
struct TtnnLocation {
  std::array<int64_t, 2> plane{};   // (row, col) in the collapsed plane
  std::array<int64_t, 2> core{};    // plane / shard_shape
  std::array<int64_t, 2> offset{};  // plane % shard_shape
};

// LocateTtnn
//
// row = sum over k < rank-1 of index[k] * stride[k+1] / stride[-2],
// col = index[-1]. Errors for a wrong rank or an out-of-bounds index.
absl::StatusOr<TtnnLocation> LocateTtnn(const TtnnLayout& layout,
                                        absl::Span<const int64_t> index);

}  // namespace hlolayout::grid

#endif  // HLOLAYOUT_TTMLIR_TTNN_LAYOUT_H_

// ttnn/tensor_layout.h: the shapes and sizes tt-metal's TensorLayout derives
// from a logical shape (tensor_layout.cpp, page_config.cpp).
//
// The alignment is a short shape that the innermost dims are padded to:
//   TILE         [tile height, tile width];
//   ROW_MAJOR    [shard width] when sharded (2-D or ND), else [1].
// From it:
//   padded shape    dims -1 and -2 rounded up to the alignment (a tiled
//                   rank-1 shape [n] becomes [tile height, n'] );
//   logical 2-D     [product of all dims but the last, last dim];
//   physical shape  the 2-D plane after alignment: width = last dim rounded
//                   up, height = (dim -2 rounded up) * outer dims;
//   page            TILE: one tile; ROW_MAJOR: one row of the physical plane,
//                   or one shard-wide row segment when sharded;
//   strides         row-major strides of the *logical* shape, where a stride
//                   is rounded up to the alignment of the dim after it
//                   (tt-metal's compute_strides: [3,3,76,18] with tiles
//                   32x32 gives [7296, 2432, 32, 1], not 80*32).
//
//   auto a = DefaultAlignment(tile_32x32, interleaved);      // [32, 32]
//   *PaddedShape({3, 3, 76, 18}, a) == {3, 3, 96, 32}
//   *PhysicalShape({3, 3, 76, 18}, a) == {864, 32}
#ifndef HLOLAYOUT_TTNN_TENSOR_LAYOUT_H_
#define HLOLAYOUT_TTNN_TENSOR_LAYOUT_H_

#include <array>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "hlolayout/ttnn/data_type.h"
#include "hlolayout/ttnn/memory_config.h"
#include "hlolayout/ttnn/tile.h"

namespace hlolayout::ttnn {

// tt-metal's PageConfig: the layout, and the tile when TILE.
struct PageConfig {
  Layout layout = Layout::kRowMajor;
  Tile tile;
};

// The alignment TensorLayout starts from (create_default_alignment).
std::vector<int64_t> DefaultAlignment(const PageConfig& page,
                                      const MemoryConfig& memory);

// compute_padded_shape. Errors: a product over 64 bits.
absl::StatusOr<std::vector<int64_t>> PaddedShape(
    absl::Span<const int64_t> shape, absl::Span<const int64_t> alignment);

// compute_logical_2d_shape: [1, last] below rank 2. Errors: overflow.
absl::StatusOr<std::array<int64_t, 2>> Logical2dShape(
    absl::Span<const int64_t> shape);

// compute_physical_shape. Errors: overflow.
absl::StatusOr<std::array<int64_t, 2>> PhysicalShape(
    absl::Span<const int64_t> shape, absl::Span<const int64_t> alignment);

// get_page_shape. `memory` is the resolved config (both specs filled in).
// An empty plane has a page of one 32-bit word. Errors: a row-major page
// of a type page_config.cpp has no size for (int8, fp8_e4m3).
absl::StatusOr<std::array<int64_t, 2>> PageShape(
    const std::array<int64_t, 2>& physical, DataType dtype,
    const PageConfig& page, const MemoryConfig& memory);

// get_page_size_bytes: tiles in the page times TileBytes, or the page's
// elements times RowMajorElementBytes. Errors as PageShape.
absl::StatusOr<int64_t> PageBytes(const std::array<int64_t, 2>& page_shape,
                                  DataType dtype, const PageConfig& page,
                                  int64_t l1_alignment = kDefaultL1Alignment);

// compute_strides (see above). Errors: overflow.
absl::StatusOr<std::vector<int64_t>> Strides(
    absl::Span<const int64_t> shape, absl::Span<const int64_t> alignment);

}  // namespace hlolayout::ttnn

#endif  // HLOLAYOUT_TTNN_TENSOR_LAYOUT_H_

// layout/sizes.h: how big an array's buffer is and why, exactly.
//
//   f32[3,5]{1,0:T(2,2)}        15 logical elements, 24 after tiling (the
//                               2x2 tiles cover [4,6]), 96 bytes, 1.6x
//   s4[9]{0:T(4)L(16)E(4)}      9 logical, 12 tiled, 16 after L(16):
//                               ceil(16*4/8) = 8 bytes
//
// Unlike XLA's ShapeUtil::ByteSizeOf (which ignores tiles) and ArraySize
// (which uses only the first tile), these sizes follow every tile level,
// `*` combined dims, L(n) tail alignment and E(n) packing (see
// index_util/xla_index_util.h for XLA's own versions).
#ifndef HLOLAYOUT_LAYOUT_SIZES_H_
#define HLOLAYOUT_LAYOUT_SIZES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout {

struct ArraySizes {
  int64_t logical_elements = 0;  // product of dims (bounded dynamic dims at
                                 // their bound)
  int64_t tiled_elements = 0;    // after all tiles (padding included)
  int64_t padded_elements = 0;   // after L(n) tail alignment
  int64_t logical_bytes = 0;     // logical elements at the storage width
                                 // (E(n): ceil(n*E/8); else n*ByteWidth)
  int64_t tiled_bytes = 0;       // tiled elements at the storage width
  int64_t padded_bytes = 0;      // padded elements at the storage width
  double expansion = 1.0;        // padded_bytes / logical_bytes (1.0 when
                                 // logical_bytes is 0)
  int64_t element_bits = 0;      // storage width: E(n), else 8*ByteWidth
  bool packed = false;           // E(n) is set

  int64_t padding_elements() const {
    return padded_elements - logical_elements;
  }
  int64_t padding_bytes() const { return padded_bytes - logical_bytes; }
};

// ComputeArraySizes
//
// f32[3,5]{1,0:T(2,2)} -> {15, 24, 24, 60, 96, 96, 1.6}.
// Precondition-free: returns an error for non-arrays, unbounded dims,
// invalid layouts (see BuildTilingModel) and int64 overflow. A missing
// layout is the default major-to-minor one.
absl::StatusOr<ArraySizes> ComputeArraySizes(const Shape& array_shape);

// FormatExpansion
//
// The expansion factor as XLA's memory reports print it: "1.6x".
std::string FormatExpansion(double expansion);

// Why a dimension is padded.
struct TilePadding {
  int64_t dimension = -1;  // logical dimension number, -1 when the padded
                           // dim combines several (`*`) or is a leading 1
  int64_t size = 0;        // its size (after `*` combining; the reason says so)
  int64_t tile_size = 0;   // the tile size along it, at the level that pads it
  int64_t padded_size = 0;  // rounded up to a multiple of tile_size
  int tile_level = 0;       // 0 for the first tile
  // "dim 1 (size 5) is not a multiple of tile 2 of T(2,2): padded to 6".
  std::string reason;
};

// ExplainTilePadding
//
// One entry for every tiled dim whose size is not a multiple of its tile
// size, in tile-level order then major to minor. f32[3,5]{1,0:T(2,2)} gives
//   dim 0 (size 3) is not a multiple of tile 2 of T(2,2): padded to 4
//   dim 1 (size 5) is not a multiple of tile 2 of T(2,2): padded to 6
// Later levels name the dims they pad by origin, such as
// "dim 0 in tile (T0)". L(n) tail padding is not listed (see ArraySizes).
// Errors as ComputeArraySizes.
absl::StatusOr<std::vector<TilePadding>> ExplainTilePadding(
    const Shape& array_shape);

}  // namespace hlolayout

#endif  // HLOLAYOUT_LAYOUT_SIZES_H_

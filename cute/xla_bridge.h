// cute/xla_bridge.h: an XLA tiled layout as a CuTe layout.
//
// XLA lays out an array by minor_to_major plus a list of tiles
// (docs/xla-shapes.md, "Tiling: where an element lives"): the physical dims
// are the logical dims in minor_to_major reversed (major first); each tile
// applies to the minor suffix of the current shape, mapping dim d with
// index e to (ceil(d/t), t) and (e/t, e%t), all outer parts first and then
// all inner parts; a tile with more dims than the shape pads it with
// leading 1s; a `*` entry merges that dim into the next more minor one
// before tiling. The element's offset is the row-major linear index of the
// final index list (on the padded domain).
//
// XlaTiledLayoutToCute returns a Layout whose top-level modes are the
// logical dims in logical order (mode i is dim i); each mode splits its
// dim's index into mixed-radix digits, least significant first, with the
// top digit taking the quotient. Evaluate it with the hierarchical
// coordinate (e_0, ..., e_{n-1}), one integer per logical dim:
//
//   f32[3,5]{1,0:T(2,2)}             -> ((2,2),(2,3)):((2,12),(1,4))
//   element (2,3): Evaluate((2,3)) == 17
//   8x8 {1,0:T(2,4)(2,1,1,1)}        -> element (6,5) at 51
//
// The layout's size can exceed the element count when dims are padded
// (its top digits are rounded up); only coordinates with e_i < dims[i]
// are meaningful, and for those the value equals XLA's tiled linear index.
#ifndef HLOLAYOUT_CUTE_XLA_BRIDGE_H_
#define HLOLAYOUT_CUTE_XLA_BRIDGE_H_

#include <cstdint>
#include <limits>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "hlolayout/cute/layout.h"

namespace hlolayout::cute {

// The `*` (combine with the next more minor dim) entry of a tile.
inline constexpr int64_t kCombineDim = std::numeric_limits<int64_t>::min();

// XlaTiledLayoutToCute
//
// `dims` are the logical dims, `minor_to_major` a permutation of
// 0..rank-1, `tiles` the tiles in order (entries positive or kCombineDim).
// Returns InvalidArgument for malformed input (non-positive dim, not a
// permutation, bad tile entry, `*` as a tile's last entry), and
// InvalidArgument "cannot be expressed as a cute layout: ..." when the
// tiled index is not a layout function of the logical index: a tile that
// cuts a bounded digit it does not divide, for example a `*`-combined dim
// whose minor part the tile does not divide (f32[3,5] with T(*,2)), or a
// second-level tile that does not divide the first tile's dim. Overflow of
// the padded size is an error too.
absl::StatusOr<Layout> XlaTiledLayoutToCute(
    absl::Span<const int64_t> dims, absl::Span<const int64_t> minor_to_major,
    const std::vector<std::vector<int64_t>>& tiles);

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_XLA_BRIDGE_H_

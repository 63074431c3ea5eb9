// cute/tile_to_shape.h: ordered compact layouts and tile_to_shape.
//
//   MakeOrderedLayout((_2,_2,_2,_2), (_0,_2,_3,_1)) ==
//   (_2,_2,_2,_2):(_1,_4,_8,_2) TileToShape((_2,_2):(_1,_2), (_8,_8)) ==
//   ((_2,_4),(_2,_4)):((_1,_4),(_2,_16)) TileToShape(A, (_64,_64), (_2,_1))
//   repeats A along mode 1 first
//
// tile_to_shape pads the block with `_1:_0` modes to the target's rank,
// takes the repetition count of each mode (target / block, which must
// divide), and returns blocked_product(block, MakeOrderedLayout(counts,
// order)) (cute/product.h).
#ifndef HLOLAYOUT_CUTE_TILE_TO_SHAPE_H_
#define HLOLAYOUT_CUTE_TILE_TO_SHAPE_H_

#include "absl/status/statusor.h"
#include "absl/types/optional.h"
#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/cute/layout.h"

namespace hlolayout::cute {

// MakeOrderedLayout
//
// CuTe's make_ordered_layout(shape, order): compact strides in the order of
// `order` (weakly congruent with the shape; a mode's stride starts at the
// product of the modes of smaller order, column-major inside a mode; equal
// orders start at the same product). Without an order, column-major
// (Layout::Compact). Orders are read as static values (CuTe treats
// dynamic ones as larger than every static one; a Step in a kernel is
// static). Returns an error when the order does not fit the shape or the
// strides overflow.
absl::StatusOr<Layout> MakeOrderedLayout(const IntTuple& shape,
                                         const absl::optional<IntTuple>& order);

// TileToShape
//
// CuTe's tile_to_shape(block, target_shape[, order]).
// @post compatible(target_shape, shape(R)) mode by mode: size of mode i of R
//       == size of mode i of target_shape
// @post mode i of R is (block mode i, repetition mode i)
// Errors (CuTe's static_asserts): the block's rank exceeds the target's
// ("Rank of layout must be <= rank of target shape"); a block mode's size
// does not divide the target's ("block shape does not divide the target
// shape"); and those of MakeOrderedLayout and blocked_product.
absl::StatusOr<Layout> TileToShape(const Layout& block,
                                   const IntTuple& target_shape,
                                   const absl::optional<IntTuple>& order);

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_TILE_TO_SHAPE_H_

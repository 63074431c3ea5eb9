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

namespace internal {

// The repetitions of a CuTe DSL tile_to_shape: the ordered layout of how
// many blocks cover each mode of the target, and whether every mode divides.
struct DslRepetitions {
  Layout layout;
  // False where every size of the block and the target is known and a
  // block mode's does not divide the target's (the DSL tiles anyway: the
  // result covers more than the target).
  bool divides = true;
};

// DslTileRepetitions
//
// For a block already padded to the target's rank (`block_shape`, CuTe's
// append), make_ordered_layout(ceil_div(product_each(target_shape),
// product_each(block_shape)), order) as the CuTe DSL computes it on the
// integers of cute/integer.h: the counts rounded up, unchecked, a `?`
// divided by a static 1 itself and by anything else a `?` of
// divisibility 1. tile_to_shape is blocked_product(block, this layout).
// Errors: ranks that differ, an order that does not fit, a block mode of
// a known size below 1, strides past int64.
absl::StatusOr<DslRepetitions> DslTileRepetitions(
    const IntTuple& block_shape, const IntTuple& target_shape,
    const absl::optional<IntTuple>& order);

}  // namespace internal

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_TILE_TO_SHAPE_H_

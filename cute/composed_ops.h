// cute/composed_ops.h: every cute operation on AnyLayout operands, with
// CuTe's rules for swizzles and composed layouts.
//
//   A = Sw<3,3,3> o _0 o (_8,_64):(_64,_1)
//   Compose(A, (_4,_2))                 == Sw<3,3,3> o _0 o (_4,_2):(_64,_1)
//   Compose((_64,_8):(_8,_1), Sw<3,0,3>) == Sw<3,3,3> o _0 o (_64,_8):(_8,_1)
//   LogicalDivide(A, (_8:_1,_8:_1))      divides the inner layout
//   LogicalProduct((_2,_2):(_1,_2), A)   == Sw<3,2,-6> o _0 o
//   ((_2,_2),(_8,_64)):((_1,_2),(_256,_4)) TileToShape(A, (_64,_64), none) ==
//   Sw<3,3,3> o _0 o ((_8,_8),(_64,_1)):((_64,_512),(_1,_0))
//   RightInverse(Sw<1,0,1> o _0 o (_4,_4):(_8,_1)) == Sw<1,2,1> o _0 o _4:_4
//   SliceAndOffset((_,5), Sw<3,0,3> o _0 o (_8,_8):(_8,_1))
//       == {((_2,_2,_2)):((_7,_18,_28)), _5}   the swizzle decays to strides
//
// The rules (CuTe's layout_composed.hpp and swizzle_layout.hpp; each
// function below names its own):
// - A composed layout `A o O o B` takes every operation on its domain to B:
//   op(A o O o B, x) = A o O o op(B, x) (composition with a layout or tiler,
//   divides, products with it on the left, tile_to_shape, coalesce, filter,
//   get, flatten). CuTe's composition(A, O, B) then drops an identity
//   swizzle at the static offset `_0` (MakeComposed).
// - A swizzle composed with a layout, on either side, gives a composed
//   layout: Sw o L = Sw o _0 o L; L o Sw re-derives the swizzle through L,
//   make_swizzle<L(yyy), L(zzz)> o _0 o L.
// - Layout o (A o _0 o B) = (Layout o A) o B; CuTe requires B's offset to be
//   0.
// - Inverses invert B and compose with the (self-inverse) swizzle:
//   right_inverse(Sw o _0 o B) = right_inverse(B) o Sw (a derived swizzle).
// - logical_product(Layout, Sw o _0 o B) derives the swizzle of the product.
// - slice of Sw o O o B decays to a plain layout when the sliced part of B
//   does not reach both masks of a swizzled bit pair (CuTe's
//   slice_and_offset), and stays composed otherwise.
// - upcast/downcast recast the swizzle, the offset and B; an unset smem
//   pointer keeps the swizzle (it acts on bytes) and scales its width.
// Where CuTe refuses at compile time these return an error naming the
// operation and the condition.
#ifndef HLOLAYOUT_CUTE_COMPOSED_OPS_H_
#define HLOLAYOUT_CUTE_COMPOSED_OPS_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/types/optional.h"
#include "hlolayout/cute/composed_layout.h"
#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/cute/layout.h"
#include "hlolayout/cute/slice.h"
#include "hlolayout/cute/tiler.h"

namespace hlolayout::cute {

// Compose
//
// composition(A, B) for every combination CuTe defines: Layout o Layout,
// Swizzle o Layout, Layout o Swizzle, Swizzle o Swizzle (equal shifts),
// Layout o ComposedLayout (B's offset 0), ComposedLayout o anything, and
// Swizzle o ComposedLayout (as a function: Sw o _0 o B, which CuTe does not
// define). With a tiler (a tuple, a shape or `_`), A must be a layout or a
// composed layout.
absl::StatusOr<AnyLayout> Compose(const AnyLayout& a, const AnyLayout& b);
absl::StatusOr<AnyLayout> Compose(const AnyLayout& a, const Tiler& b);

// RightInverseOf, LeftInverseOf
//
// A swizzle is its own inverse. For A o O o B: with O 0 (or an smem
// pointer), inverse(B) o A; otherwise inverse(B) o (-O) o inverse(A).
absl::StatusOr<AnyLayout> RightInverseOf(const AnyLayout& l);
absl::StatusOr<AnyLayout> LeftInverseOf(const AnyLayout& l);

// ComplementOf
//
// complement of B (a composed layout's default cotarget is cosize(B)).
absl::StatusOr<Layout> ComplementOf(const AnyLayout& l,
                                    const absl::optional<IntTuple>& cotarget);

// CoalesceOf, FilterOf, GetMode, FlattenOf
//
// Of B, kept under A o O.
absl::StatusOr<AnyLayout> CoalesceOf(const AnyLayout& l,
                                     const absl::optional<IntTuple>& profile);
absl::StatusOr<AnyLayout> FilterOf(const AnyLayout& l,
                                   const absl::optional<IntTuple>& profile);
absl::StatusOr<AnyLayout> GetMode(const AnyLayout& l, int i);
absl::StatusOr<AnyLayout> FlattenOf(const AnyLayout& l);

// Divide
//
// logical_, zipped_, tiled_ or flat_divide of A (a layout or a composed
// layout) by a tiler.
enum class DivideKind { kLogical, kZipped, kTiled, kFlat };
absl::StatusOr<AnyLayout> Divide(DivideKind kind, const AnyLayout& a,
                                 const Tiler& b);

// Product
//
// logical_, zipped_, tiled_ or flat_product. A composed A multiplies its B
// by the tiler. A Layout A with a composed tiler `Sw o _0 o T` is CuTe's
// logical_product(Layout, ComposedLayout): the product with T, under a
// swizzle derived from the bits of Sw that T reaches. Errors: a swizzle
// operand, a composed tiler that is not `Sw o _0 o Layout`, and a
// derived swizzle that CuTe's make_swizzle refuses.
enum class ProductKind { kLogical, kZipped, kTiled, kFlat };
absl::StatusOr<AnyLayout> Product(ProductKind kind, const AnyLayout& a,
                                  const AnyLayout& b);
absl::StatusOr<AnyLayout> Product(ProductKind kind, const AnyLayout& a,
                                  const Tiler& b);

// BlockedProductOf, RakedProductOf
//
// Of B with a layout; A a layout or a composed layout.
absl::StatusOr<AnyLayout> BlockedProductOf(const AnyLayout& a,
                                           const AnyLayout& b);
absl::StatusOr<AnyLayout> RakedProductOf(const AnyLayout& a,
                                         const AnyLayout& b);

// TileToShapeOf
//
// tile_to_shape of B (cute/tile_to_shape.h).
absl::StatusOr<AnyLayout> TileToShapeOf(const AnyLayout& a,
                                        const IntTuple& target_shape,
                                        const absl::optional<IntTuple>& order);

// SliceAndOffsetOf, SliceOf
//
// CuTe's slice_and_offset(coord, L) and slice(coord, L) = its first part.
// For a plain layout: (slice, L(coord with _ as 0)). For Sw o O o B with
// an integer O: if every mode is sliced, (Sw o O o slice(B), _0); if the
// kept part of B reaches both bits of a swizzled pair, (Sw o O' o
// slice(B), offset) with O' the swizzle-relevant bits of the coordinate;
// otherwise the swizzle decays into the strides of a plain layout and the
// offset is the swizzled base offset. With an smem pointer offset the
// swizzle stays. Any other composed layout: (A o (O + offset) o slice(B),
// _0).
struct SlicedAnyLayout {
  AnyLayout layout;
  Int offset;
};
absl::StatusOr<SlicedAnyLayout> SliceAndOffsetOf(const SliceCoord& c,
                                                 const AnyLayout& l);
absl::StatusOr<AnyLayout> SliceOf(const SliceCoord& c, const AnyLayout& l);

// UpcastOf, DowncastOf, RecastLayoutOf
//
// upcast<n>, downcast<n> and recast_layout<old_bits,new_bits> of a layout,
// a swizzle (cute/swizzle.h) or a composed layout (each part; the offset
// divided by n, which must divide it; an smem pointer's swizzle is kept
// and its width multiplied or divided by n).
absl::StatusOr<AnyLayout> UpcastOf(const AnyLayout& l, int64_t n);
absl::StatusOr<AnyLayout> DowncastOf(const AnyLayout& l, int64_t n);
absl::StatusOr<AnyLayout> RecastLayoutOf(const AnyLayout& l, int64_t old_bits,
                                         int64_t new_bits);

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_COMPOSED_OPS_H_

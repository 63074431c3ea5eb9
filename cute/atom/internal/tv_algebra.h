// cute/atom/internal/tv_algebra.h: the few pieces of CuTe's algebra that
// tiled MMAs and tiled copies use beyond cute/'s public operations.
//
//   ZipTwoBy(((a,r),(b,s)), <_, _>)          == ((a,b),(r,s))      zip2_by
//   ZipTwoBy((((t,v)),(m,n)), <_, <x, y>>)   splits mode 0 by `_`, mode 1 by
//   <x,y> Zip(((a,b),(c,d)))                        == ((a,c),(b,d))
//   Upcast((_1,_16):(_0,_1), 16)              == (_1,_1):(_0,_1)
//
// All integers are static in CuTe's sense (atoms are compile-time objects),
// so these follow CuTe's static branches.
#ifndef HLOLAYOUT_CUTE_ATOM_INTERNAL_TV_ALGEBRA_H_
#define HLOLAYOUT_CUTE_ATOM_INTERNAL_TV_ALGEBRA_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/cute/layout.h"
#include "hlolayout/cute/tiler.h"

namespace hlolayout::cute::atom_internal {

// ZipTwoBy
//
// CuTe's zip2_by on a layout's shape and stride together: where `guide` is a
// tuple, mode i of `layout` is split by guide element i and the pieces are
// gathered into (firsts, (seconds..., modes past the guide)); where it is not
// a tuple (`_` or a layout), the mode must have rank 2 and splits into its two
// modes. Errors: a mode that cannot be split that way.
absl::StatusOr<Layout> ZipTwoBy(const Layout& layout, const Tiler& guide);

// ZippedDivideGuided
//
// ZipTwoBy(logical_divide(layout, tiler), tiler): cute/divide.h's
// ZippedDivide, also for tilers holding `_` (TiledMMA's thread tiles).
absl::StatusOr<Layout> ZippedDivideGuided(const Layout& layout,
                                          const Tiler& tiler);

// Zip
//
// The transpose of a tuple of equal-rank tuples. Error otherwise.
absl::StatusOr<Layout> Zip(const Layout& layout);

// Upcast
//
// CuTe's upcast<n> for static strides: a stride-0 leaf stays; another leaf
// s:d becomes ceil(s / ceil(n/|d|)) : sign(d)*ceil(|d|/n). Error when
// neither of d and n divides the other (CuTe's "Divisibility condition").
// Precondition: n >= 1.
absl::StatusOr<Layout> Upcast(const Layout& layout, int64_t n);

// WithShape
//
// CuTe's layout.with_shape(shape): composition(layout, make_layout(shape)).
absl::StatusOr<Layout> WithShape(const Layout& layout, const IntTuple& shape);

// ProductEach
//
// The size of each top-level mode of `shape`, as a tuple (an integer shape
// gives the rank-1 tuple of itself).
IntTuple ProductEach(const IntTuple& shape);

// Tuple
//
// MakeLayout of the given modes (CuTe's make_layout(a, b, ...)).
absl::StatusOr<Layout> Tuple(std::vector<Layout> modes);

// Static integers. Atoms, tiled MMAs and tiled copies are compile-time
// objects in CuTe: every integer in them is static, and CuTe's algebra
// treats static size-1 modes differently from dynamic ones (a static _1
// gets stride _0 in make_layout). Every layout built here is all static.
//
//   AllStatic((2,1):(1,2))          == (_2,_1):(_1,_2)
//   StaticCompact((2,1,1))          == (_2,_1,_1):(_1,_0,_0)
//   ParseStaticLayout("(2,2,1)")    == (_2,_2,_1):(_1,_2,_0)
IntTuple AllStatic(const IntTuple& t);
Layout AllStatic(const Layout& layout);
absl::StatusOr<Layout> StaticCompact(const IntTuple& shape);
Layout StaticMake(const IntTuple& shape, const IntTuple& stride);
// ParseStaticLayout
//
// cute/parse.h's ParseLayout with every integer static, whether written `4`
// or `_4` (a shape alone gets CuTe's static compact strides). Errors as
// ParseLayout.
absl::StatusOr<Layout> ParseStaticLayout(absl::string_view text);

}  // namespace hlolayout::cute::atom_internal

#endif  // HLOLAYOUT_CUTE_ATOM_INTERNAL_TV_ALGEBRA_H_

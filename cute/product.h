// cute/product.h: repeating a layout according to another.
//
//   LogicalProduct((2,2):(4,1), 6:1)   == ((2,2),(2,3)):((4,1),(2,8))
//   LogicalProduct(4:2, 3:1)           -> error: the complement (2,2):(1,8)
//                                          cannot hold 3 repetitions
//   BlockedProduct((2,2):(1,2), 3:1)   == ((2,3),(2,1)):((1,4),(2,0))
//   RakedProduct((2,2):(1,2), 3:1)     == ((3,2),(1,2)):((4,1),(0,2))
//
// For A = (M,N,L,...) and a tiler <TM,TN>:
//   logical_product ((M,TM),(N,TN),L,...)
//   zipped_product  ((M,N),(TM,TN,L,...))
//   tiled_product   ((M,N),TM,TN,L,...)
//   flat_product    (M,N,TM,TN,L,...)
// For a Layout B, logical_product(A, B) is
// (A, composition(complement(A, size(A)*cosize(B)), B)).
#ifndef HLOLAYOUT_CUTE_PRODUCT_H_
#define HLOLAYOUT_CUTE_PRODUCT_H_

#include "absl/status/statusor.h"
#include "hlolayout/cute/layout.h"
#include "hlolayout/cute/tiler.h"

namespace hlolayout::cute {

// LogicalProduct
//
// @post rank(R) == 2 and mode 0 of R == A exactly, for a Layout B
// @post compatible(B, mode 1 of R), and mode 1 of R is
//       complement(A, size(A)*cosize(B)) o B as a function
// @post size(R) == size(A) * size(B)
// @post R is injective when A and B are (mode 1 only reaches offsets A
//       does not, shifted by multiples of A's span)
// A tuple tiler works mode by mode and keeps A's extra modes; `_` keeps a
// mode. Fails when A is not injective (complement) or when B cannot be
// composed with the complement.
absl::StatusOr<Layout> LogicalProduct(const Layout& a, const Tiler& b);

// ZippedProduct, TiledProduct, FlatProduct
//
// LogicalProduct regrouped as above; the same leaves in another nesting.
absl::StatusOr<Layout> ZippedProduct(const Layout& a, const Tiler& b);
absl::StatusOr<Layout> TiledProduct(const Layout& a, const Tiler& b);
absl::StatusOr<Layout> FlatProduct(const Layout& a, const Tiler& b);

// BlockedProduct, RakedProduct
//
// Rank-sensitive: with R = max(rank A, rank B), pad A and B with 1:0 modes
// to rank R, take (A', C) = LogicalProduct(A', B'), and pair mode i of A'
// with mode i of C: blocked gives ((A'0,C0),(A'1,C1),...), raked gives
// ((C0,A'0),(C1,A'1),...). No coalescing.
// @post rank(R) == max(rank A, rank B)
// @post size(R) == size(A) * size(B)
// @post R((a0,c0),(a1,c1),...) == A'(a) + C(c) (blocked), likewise raked
absl::StatusOr<Layout> BlockedProduct(const Layout& a, const Layout& b);
absl::StatusOr<Layout> RakedProduct(const Layout& a, const Layout& b);

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_PRODUCT_H_

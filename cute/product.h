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
#include "hlolayout/cute/int_tuple.h"
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

namespace internal {

// PadRank
//
// CuTe's append<rank>(l): l's modes followed by 1:0 modes up to `rank` (an
// integral l is its own first mode); l itself where its rank is `rank` or
// more.
absl::StatusOr<Layout> PadRank(const Layout& l, int rank);

// DslZipModes
//
// The pairing of blocked_product and raked_product (CuTe's zip) as the
// CuTe DSL does it: an integral `first` gives the one mode (first,
// second); a tuple `first` pairs its modes with those of a tuple `second`
// of its rank. Error otherwise (observed: the DSL refuses
// blocked_product((4):(1), 3:1), "unable to compute product", where C++
// CuTe pairs a tuple of one mode with an integral second).
absl::StatusOr<Layout> DslZipModes(const Layout& first, const Layout& second);

// The parts of a CuTe DSL logical_product: the block's complement it is
// built on (the twin's rules read it: a size of 0 or below is no layout),
// and the complement composed with the tiler (mode 1 of the product).
struct DslProductParts {
  Modes complement;
  IntTuple shape;
  IntTuple stride;
  // Whether coalesce_x(complement) has several modes (only then can the
  // composition be wrong).
  bool several_modes = false;
};

// DslLogicalProduct
//
// Mode 1 of logical_product(A, T) for a Layout tiler T as the CuTe DSL
// computes it on the integers of cute/integer.h, A given by its flat
// leaves: the complement of filter(A) up to `cotarget` (size(A) *
// cosize(T), the caller's; DslComplementModes, unchecked), composed with
// T (DslComposition). Errors: those of the two.
absl::StatusOr<DslProductParts> DslLogicalProduct(const Modes& a_leaves,
                                                  const IntTuple& t_shape,
                                                  const IntTuple& t_stride,
                                                  const IntTuple& cotarget);

}  // namespace internal

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_PRODUCT_H_

// cute/divide.h: splitting a layout into tiles and the layout of tiles.
//
//   LogicalDivide((4,2,3):(2,1,8), 4:2)  == ((2,2),(2,3)):((4,1),(2,8))
//   LogicalDivide((2,4,3):(4,1,8), 4:2)  == (4,(2,3)):(1,(4,8))
//   LogicalDivide(48:1, 32:1)            == (32,2):(1,32)   rest rounded up
//   LogicalDivide((9,(4,8)):(59,(13,1)), <3:3, (2,4):(1,8)>)
//       == ((3,3),((2,4),(2,2))):((177,59),((13,2),(26,1)))
//
// For A = (M,N,L,...) and a tiler <TM,TN>:
//   logical_divide  ((TM,RM),(TN,RN),L,...)
//   zipped_divide   ((TM,TN),(RM,RN,L,...))
//   tiled_divide    ((TM,TN),RM,RN,L,...)
//   flat_divide     (TM,TN,RM,RN,L,...)
// For a Layout tiler B, logical_divide(A, B) is
// composition(A, (B, complement(B, shape(coalesce(A))))) and zipped is the
// same. `_` in a tiler keeps that mode (logical_divide only). Modes of A
// past the tiler are kept. Composition and complement failures are
// reported with the divide's name in front.
#ifndef HLOLAYOUT_CUTE_DIVIDE_H_
#define HLOLAYOUT_CUTE_DIVIDE_H_

#include "absl/status/statusor.h"
#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/cute/layout.h"
#include "hlolayout/cute/tiler.h"

namespace hlolayout::cute {

// LogicalDivide
//
// @post rank(R) == 2 for a Layout tiler, rank(R) == rank(A) for a tuple
// @post compatible(B, mode 0 of R) for a Layout tiler B, mode by mode for
//       a tuple tiler
// @post mode 0 of R equals composition(A, B) as a function
// @post R(i) == A(i) for every i < size(A) when B's tiles cover A exactly
//       (R is A with its indices permuted: R(c) == A((B,B*)(c)))
// @post size(R) >= size(A) (the rest is rounded up)
absl::StatusOr<Layout> LogicalDivide(const Layout& a, const Tiler& b);

// ZippedDivide, TiledDivide, FlatDivide
//
// LogicalDivide regrouped as above.
// @post mode 0 of ZippedDivide(A, B) == composition(A, B) structurally for
//       a tuple tiler (the layout<0>(zipped_divide(a, b)) identity)
// @post the same multiset of (shape, stride) leaves as LogicalDivide
absl::StatusOr<Layout> ZippedDivide(const Layout& a, const Tiler& b);
absl::StatusOr<Layout> TiledDivide(const Layout& a, const Tiler& b);
absl::StatusOr<Layout> FlatDivide(const Layout& a, const Tiler& b);

namespace internal {

// A CuTe DSL logical_divide: the result, and the tiler's complement it is
// built on (the twin's rules read it: a size of 0 or below is no layout).
struct DslDivision {
  IntTuple shape;
  IntTuple stride;
  Modes rest;
  // Whether coalesce_x(A) has several modes (only then can the composition
  // be wrong: one mode s:d maps every x to x * d).
  bool several_modes = false;
};

// DslLogicalDivide
//
// logical_divide(A, T) of a Layout tiler T as the CuTe DSL computes it on
// the integers of cute/integer.h, A given by its flat leaves (integer
// strides): the complement of filter(T) up to the shape of coalesce(A)
// (DslComplementModes, unchecked), then DslComposition(A, (T, rest)).
// Errors: those of the two.
absl::StatusOr<DslDivision> DslLogicalDivide(const Modes& a_leaves,
                                             const IntTuple& t_shape,
                                             const IntTuple& t_stride);

}  // namespace internal

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_DIVIDE_H_

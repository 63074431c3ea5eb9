// cute/complement.h: the layout of "the rest" of a layout's codomain.
//
//   Complement(4:1, 24)          == 6:4
//   Complement(6:4, 24)          == 4:1
//   Complement((4,6):(1,4), 24)  == 1:0
//   Complement(4:2, 24)          == (2,3):(1,8)
//   Complement((2,4):(1,6), 24)  == 3:2
//   Complement((2,2):(1,6), 24)  == (3,2):(2,12)
//   Complement((4,2):(1,10), 14) == 2:4      strides floored, not rejected
//   Complement(4:2, 19)          == (2,3):(1,8)  the rest is rounded up
//   Complement((2,2):(2,3), 24)  -> error: the modes interleave
//
// Algorithm (docs/cute.md, "Complement"): F = filter(A); sort F's
// modes by stride; with current = 1, each mode s:d emits (d / current) :
// current (floor division; 0 is an error) and sets current = s*d; then the
// rest ceil_div(cotarget, current) with compact strides starting at
// current; coalesce the whole.
#ifndef HLOLAYOUT_CUTE_COMPLEMENT_H_
#define HLOLAYOUT_CUTE_COMPLEMENT_H_

#include "absl/status/statusor.h"
#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/cute/layout.h"

namespace hlolayout::cute {

// Complement
//
// `cotarget` is an integer or a shape; a shape's leaves divide the rest in
// turn (CuTe's ceil_div fold), so (3,5) and 15 can differ when current does
// not divide them.
// @post R is ordered: R(i-1) < R(i) for 1 <= i < size(R)
// @post R(i) is never A(j) for i >= 1, and (filter(A), R) is injective
// @post cosize((A, R)) >= size(cotarget) when no division was floored
// @post cosize(R) <= round_up(size(cotarget), P) for an integer cotarget,
//       where P = s*d of filter(A)'s largest-stride mode (1 if none); the
//       bound of CuTe's unit test, round_up(size(cotarget), cosize(A)), is the
//       same when that mode ends A, and fails when it leaves a gap:
//       (2,5,2):(15,1,60) with 150 gives cosize 161 > 160
// @post size(R) >= size(cotarget) / size(filter(A)) when no division was
//       floored (each sorted stride a multiple of the span below it)
// @post depth(R) <= 1
// Preconditions, checked: A's strides are non-negative; the cotarget's
// leaves are positive. Returns an error when A is not injective or its
// modes interleave ((2,2):(2,3)), naming the mode, or on overflow.
absl::StatusOr<Layout> Complement(const Layout& a, const IntTuple& cotarget);

// Complement (default cotarget)
//
// Complement(A, cosize(filter(A))).
absl::StatusOr<Layout> Complement(const Layout& a);

namespace internal {

// DslComplementModes
//
// CuTe's complement algorithm (include/cute/layout.hpp detail::complement)
// as the CuTe DSL runs it, on the flat modes of filter(A) (none stride 0)
// and the integers of cute/integer.h: sort the modes by stride, each gives
// (d / current) : current and current = s * d; the rest is the cotarget
// divided by current (the true ceiling, a shape's leaves in turn), its
// neighbouring leaves multiplied where both are static or both `?`
// (CuTe's coalesce of a shape), with compact strides from current; the
// whole coalesced. Unchecked, as the DSL is: where A is not injective, its
// modes interleave or a stride is negative the result has sizes of 0 or
// below, which is what the DSL prints; a result whose sizes are all static
// with product 1 is no modes (the DSL's 1:0, observed: (6):(-1) with 6).
// Returns the result's modes (none for 1:0). Errors: several modes with a
// `?` stride (CuTe's "Dynamic-stride complement only for rank-1
// layouts"), a division by a static 0 ("division by zero"), overflow.
absl::StatusOr<Modes> DslComplementModes(const Modes& filtered,
                                         const IntTuple& cotarget);

}  // namespace internal

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_COMPLEMENT_H_

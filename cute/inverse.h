// cute/inverse.h: right and left inverses of a layout.
//
//   RightInverse((2,4,6):(4,1,8)) == (4,2,6):(2,1,8)
//   RightInverse((4,2):(1,16))    == 4:1
//   RightInverse((3,4):(0,1))     == 4:3     (pycute gives 1:0)
//   LeftInverse(4:2)              == (2,4):(0,1)
//   LeftInverse((4,2):(1,5))      == (5,2):(1,4)
//   LeftInverse((3,4):(0,1))      == 4:3
//
// Algorithms: docs/cute.md, "Inverses". Left inverses are not
// unique; this is CuTe's.
#ifndef HLOLAYOUT_CUTE_INVERSE_H_
#define HLOLAYOUT_CUTE_INVERSE_H_

#include "absl/status/statusor.h"
#include "hlolayout/cute/layout.h"

namespace hlolayout::cute {

// RightInverse
//
// Coalesce L; visit its modes by increasing stride with current = 1; a mode
// s:d with d == current contributes s : (product of the coalesced shapes
// before it) and sets current = s*d; other modes (stride 0, negative,
// overlapping, gaps) are skipped and the scan goes on. 1:0 when no mode
// has stride 1.
// @post L(R(i)) == i for every 0 <= i < size(R)
// @post size(R) == size(L) when L is a permutation of 0..size(L)-1
// @post depth(R) <= 1
// Never fails.
Layout RightInverse(const Layout& layout);

// LeftInverse
//
// Coalesce L; let its non-zero strides, sorted, be d_1 < ... < d_k, of
// modes m_1..m_k with sizes s_j and P_j the product of the coalesced sizes
// before m_j. The result is coalesce of shapes (d_1, d_2/d_1, ...,
// d_k/d_{k-1}, s_k) and strides (0, P_1, ..., P_k); 1:0 when k == 0.
// @post L(R(L(i))) == L(i) for every 0 <= i < size(L)
// @post R(L(i)) == i for every i < size(L) when L has no stride-0 leaf of
//       size > 1 (L is then injective)
// Preconditions, checked: strides are non-negative; each d_{j+1} is a
// multiple of d_j (CuTe's "left inverse divisibility condition") and at
// least s_j * d_j (otherwise modes overlap and L is not injective).
absl::StatusOr<Layout> LeftInverse(const Layout& layout);

namespace internal {

// DslLeftInverse
//
// LeftInverse as the CuTe DSL computes it: the layout is
// not checked for injectivity (the DSL gives (2,2,2):(0,1,4) for
// (4,2):(2,4), a left inverse only where the layout is injective), and
// every stride 0 gives 1:0. The negative-stride and divisibility checks
// hold in both.
absl::StatusOr<Layout> DslLeftInverse(const Layout& layout);

}  // namespace internal

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_INVERSE_H_

// cute/common_layout.h: what two layouts share, a layout's kernel and its
// alignment, as the CuTe DSL computes them on the integers of
// cute/integer.h (a `?` is never a static 1, a static 0 or part of a merge).
//
//   DslMaxCommonVector((4,8):(1,4), (4,8):(1,4))  == 32
//   DslMaxCommonLayout((4,2):(2,1), (4,2):(2,1))  == (2,4):(4,1)
//   DslNullspace((4,2,3):(1,0,4))                 == 2:4
//   DslMaxAlignment((4,?{div=8}):(1,4))           == 32
//
// Written from CuTe's max_common_layout, max_common_vector, nullspace and
// max_alignment (CUTLASS include/cute/layout.hpp) and from what the DSL
// prints for them (docs/cute-dsl.md, "max_common_layout, nullspace and
// max_alignment on the C++ core").
#ifndef HLOLAYOUT_CUTE_COMMON_LAYOUT_H_
#define HLOLAYOUT_CUTE_COMMON_LAYOUT_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "hlolayout/cute/integer.h"
#include "hlolayout/cute/layout.h"

namespace hlolayout::cute::internal {

// DslMaxCommonLayout
//
// The longest run of indices 0, 1, ... that `a` and `b` both send to the
// same offsets, as a layout R into b's domain: a ∘ right_inverse(b),
// coalesced, keeps its first mode only where that mode is a static size of
// a static stride 1, and R is right_inverse(b) composed with that mode;
// 1:0 otherwise. Compositions as the DSL runs them (DslComposition:
// unchecked beyond CuTe's weak checks).
// @post a(R(i)) == b(R(i)) == i for i < size(R) when the compositions are
//       exact
// Errors: those of DslComposition.
absl::StatusOr<Layout> DslMaxCommonLayout(const Layout& a, const Layout& b);

// DslMaxCommonVector
//
// size(DslMaxCommonLayout(a, b)) as a static integer (1 when nothing is
// shared).
absl::StatusOr<Int> DslMaxCommonVector(const Layout& a, const Layout& b);

// DslNullspace
//
// The flat modes of a static stride 0, each with the stride it has in the
// compact column-major layout of the flat shape (the product of every leaf
// before it, static 1s included); 1:0 when there is none, one mode an
// integral layout. A `?` stride is never 0.
// @post layout(R(i)) == 0 for every i < size(R)
// Errors: a stride past int64.
absl::StatusOr<Layout> DslNullspace(const Layout& layout);

// DslMaxAlignment
//
// The largest N such that every run of N consecutive indices is N
// consecutive offsets from a multiple of N, judging by what is static:
// the layout coalesced, each `?` size taken as its divisibility (a plain
// `?` as 1) and each `?` stride as 0 (the DSL's departure from CuTe, which
// takes a dynamic size as 1), then the stride-1 run r = right_inverse, and
// the gcd of size(r) with every stride of what is left of the layout once
// r is divided out (mode 1 of logical_divide(layout, r)).
// Errors: those of DslLogicalDivide.
absl::StatusOr<int64_t> DslMaxAlignment(const Layout& layout);

}  // namespace hlolayout::cute::internal

#endif  // HLOLAYOUT_CUTE_COMMON_LAYOUT_H_

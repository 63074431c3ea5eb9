// cute/composition.h: functional composition R = A o B, R(c) = A(B(c)).
//
//   Composition((6,2):(8,2), (4,3):(3,1))   == ((2,2),3):((24,2),8)
//   Composition(20:2, (5,4):(4,1))          == (5,4):(8,2)
//   Composition((10,2):(16,4), (5,4):(1,5)) == (5,(2,2)):(16,(80,4))
//   Composition((4,3):(3,1), (24):(1))      == ((4,6)):((3,1))  past A's end
//   Composition((12,(4,8)):(59,(13,1)), <3:4, 8:2>)
//                                            == (3,(2,4)):(236,(26,1))
//   Composition((4,3):(1,5), 4:3)           -> error (see below)
//
// B is a Layout (A and B both seen as functions of a 1-D index) or a Tiler
// (mode i of A composed with element i; modes of A past the tiler are
// dropped; `_` keeps the mode). A 1-D index past size(A) runs on along A's
// last mode, as in CuTe, so B may read past A's end.
//
// Divisibility, checked at run time with the exact rule of
// docs/cute.md ("Composition"). For each integral leaf s:d of B and each
// mode n:a of coalesce_x(A) but the last, with d the stride still to
// divide out and r the elements of B still to place, the step is admissible
// when d % n == 0 (the mode is skipped whole), when n % d == 0 (the mode is
// split, and then r <= n/d or r % (n/d) == 0 must hold), or when B ends
// inside the mode, (r-1)*d < n. CuTe's own check admits wrong results
// (`(4,3):(1,5) o 4:3`) and pycute's rejects right ones (`(8,8):(8,1) o 3:3
// == 3:24`); this rule is exact for A with distinct non-zero strides (with
// stride-0 or aliasing modes it may reject a composition that happens to be
// expressible). When B has several leaves, their offsets must also add in
// A's mixed radix without carrying out of any mode but the last (and their
// strides must not mix signs); this is what makes composition distribute
// over B's modes.
//
// Errors name the operation, both layouts, the mode of coalesced A and the
// failed condition in one sentence, for example:
//   composition (4,3):(1,5) o 4:3 fails at mode 0 of coalesced A (4:1):
//   stride 3 and size 4 do not divide each other and the 4 elements of B
//   at stride 3 do not fit inside it
#ifndef HLOLAYOUT_CUTE_COMPOSITION_H_
#define HLOLAYOUT_CUTE_COMPOSITION_H_

#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/cute/integer.h"
#include "hlolayout/cute/layout.h"
#include "hlolayout/cute/tiler.h"

namespace hlolayout::cute {

// Composition (layout)
//
// @post compatible(B, R): R has B's profile, each leaf of B replaced by the
//       modes it selects (one mode comes back as an integer)
// @post size(R) == size(B)
// @post R(i) == A(B(i)) for every 0 <= i < size(B), A read past its end
//       along its last mode and A(-x) == -A(x) for negative B strides
// Returns an error when the rule above rejects a step or when a stride of
// R overflows int64.
absl::StatusOr<Layout> Composition(const Layout& a, const Layout& b);

// Composition (tiler)
//
// By mode: R_i = Composition(mode i of A, T_i), recursively; a Layout
// element composes functionally, `_` keeps mode i, modes of A beyond the
// tiler are dropped.
// @post rank(R) == rank(T) for a tuple tiler, and each mode as above
// Returns an error when the tiler has more modes than A.
absl::StatusOr<Layout> Composition(const Layout& a, const Tiler& b);

namespace internal {

// A mode of a CuTe DSL composition's result: its shape, and its stride as
// `factor` times the stride of mode `source` of coalesce_x(A) (-1: the
// stride is `factor` itself, B's stride 0).
struct SourcedMode {
  Int shape;
  Int factor;
  int source = -1;
};

// DslCompositionLeaf
//
// CuTe's composition_impl (include/cute/layout.hpp) for one leaf s:d of B,
// as the CuTe DSL runs it on the integers of cute/integer.h, over the
// shapes of coalesce_x(A) (`a_shapes`, at least one): A's strides only
// scale the result, so they are not needed (which lets the twin's basis
// strides use it). CuTe's weak checks, applied where both integers are
// static, as the DSL applies them: the stride to divide out, d', and a
// mode's size n pass when d' % n == 0 or d' < n ("Stride Divisibility
// Condition"), and the elements placed in a mode must divide those still
// to place ("Shape Divisibility Condition"). A `?` passes every check, and
// a wrong result the checks let through is returned, as the DSL returns
// it (the twin's WrongLayoutWarning finds it). A `?` divided by a static
// 1 stays itself (observed: (?{div=8},4):(1,?{div=8}) o 16:1 is
// (?{div=8},?):(1,?{div=8})).
// Errors: a failed check, a static 0 divisor ("division by zero").
absl::StatusOr<std::vector<SourcedMode>> DslCompositionLeaf(
    absl::Span<const Int> a_shapes, Int s, Int d);

// DslComposition
//
// A o B as the CuTe DSL computes it, A given by its leaves (integer
// strides, `?`s allowed; sizes of 0 or below are not refused): coalesce_x
// of A, then DslCompositionLeaf for each leaf of B, whose modes are
// coalesced (known integers only, cute/coalesce.h) and take B's leaf's
// place (one mode an integer, none 1:0). Returns (shape, stride).
// Errors: those of DslCompositionLeaf, a stride that overflows int64.
absl::StatusOr<std::pair<IntTuple, IntTuple>> DslComposition(
    const Modes& a_leaves, const IntTuple& b_shape, const IntTuple& b_stride);

}  // namespace internal

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_COMPOSITION_H_

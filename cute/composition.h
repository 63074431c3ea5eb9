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

#include "absl/status/statusor.h"
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

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_COMPOSITION_H_

// cute/recast.h: a layout in units of a wider or narrower element.
//
//   Upcast((_8,_8):(_1,_8), 2)      == (_4,_8):(_1,_4)    pairs of elements
//   Downcast((_8,_8):(_1,_8), 2)    == (_16,_8):(_1,_16)  halves
//   RecastLayout((_8,_8):(_1,_8), 8, 16) == Upcast(.., 2)  uint8_t -> half
//
// CuTe's upcast<N>: the stride-1 mode's size and every other stride are
// divided by N (static strides must divide N or be divided by it, CuTe's
// "Divisibility condition"); downcast<N> multiplies them (and needs a
// stride-1 mode, "Downcast requires adjacent elements"). recast_layout
// between element widths of `old_bits` and `new_bits` is upcast by the
// reduced ratio, downcast, or both. The swizzle and composed-layout forms
// are in cute/composed_ops.h.
#ifndef HLOLAYOUT_CUTE_RECAST_H_
#define HLOLAYOUT_CUTE_RECAST_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "hlolayout/cute/layout.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::cute {

// Upcast
//
// Per leaf s:d: d == 0 keeps the leaf; otherwise s becomes
// ceil(s / ceil(n / |d|)) and d becomes sign(d) * ceil(|d| / n). A dynamic
// stride that n divides keeps its shape (CuTe's dynamic branch).
// Precondition (error): n is a positive power of two... any n >= 1 whose
// division condition holds: |d| % n == 0 or n % |d| == 0 for every d != 0.
absl::StatusOr<Layout> Upcast(const Layout& layout, int64_t n);

// Downcast
//
// Per leaf: stride +-1 multiplies the shape by n, any other the stride.
// Errors: n < 1; no leaf has stride 1.
absl::StatusOr<Layout> Downcast(const Layout& layout, int64_t n);

// RecastRatio
//
// new_bits / old_bits reduced: {upcast factor, downcast factor}. Error for
// non-positive widths.
struct RecastRatio {
  int64_t up;
  int64_t down;
};
absl::StatusOr<RecastRatio> Ratio(int64_t old_bits, int64_t new_bits);

// RecastBy
//
// recast_layout's one shape for every kind of layout: the ratio above, then
// up(layout, up) unless up is 1, then down(.., down) unless down is 1; `up`
// and `down` are the caller's casts (plain, the DSL's, composed layouts').
template <typename L, typename Up, typename Down>
absl::StatusOr<L> RecastBy(L layout, int64_t old_bits, int64_t new_bits, Up up,
                           Down down) {
  HLOLAYOUT_ASSIGN_OR_RETURN(RecastRatio r, Ratio(old_bits, new_bits));
  if (r.up != 1) {
    HLOLAYOUT_ASSIGN_OR_RETURN(layout, up(layout, r.up));
  }
  if (r.down != 1) {
    HLOLAYOUT_ASSIGN_OR_RETURN(layout, down(layout, r.down));
  }
  return layout;
}

// RecastLayout
//
// downcast<down>(upcast<up>(L)) with the ratio above (either may be 1).
absl::StatusOr<Layout> RecastLayout(const Layout& layout, int64_t old_bits,
                                    int64_t new_bits);

namespace internal {

// DslUpcast, DslDowncast, DslRecastLayout
//
// upcast<n>, downcast<n> and recast_layout as the CuTe DSL computes them on
// the integers of cute/integer.h, deciding on known integers only and
// checking nothing (the twin names a stride the DSL's upcast breaks with a
// WrongLayoutWarning). Upcast per leaf s:d: a known 0 keeps the leaf; a
// known d gives ceil(s / ceil(n / |d|)) : sign(d) * ceil(|d| / n); a `?`
// stride is divided by n, its shape kept. Downcast per leaf: a known +-1
// multiplies the shape by n, any other stride (a `?` too) is multiplied;
// no stride-1 mode is needed. A `?` divided by a static 1 is itself, by
// anything else a `?` of divisibility 1 (observed: recast_layout(16, 8,
// (4,2):(1,?{div=32})) is (2,2):(1,?), (?{div=8},2):(1,64) gives
// (?,2):(1,32)). Errors: n < 1, widths that are not positive, a result past
// int64.
absl::StatusOr<Layout> DslUpcast(const Layout& layout, int64_t n);
absl::StatusOr<Layout> DslDowncast(const Layout& layout, int64_t n);
absl::StatusOr<Layout> DslRecastLayout(const Layout& layout, int64_t old_bits,
                                       int64_t new_bits);

}  // namespace internal

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_RECAST_H_

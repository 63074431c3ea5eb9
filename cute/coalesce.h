// cute/coalesce.h: simplifying a layout without changing its function.
//
//   Coalesce((2,(1,6)):(1,(6,2)))                 == 12:1
//   Coalesce((2,(1,6)):(1,(6,2)), (1,1))          == (2,6):(1,2)
//   Filter((2,3,4):(0,1,0))                       == 3:1
//
// Rules (docs/cute.md, "Coalesce and filter"): flatten, drop size-1 leaves
// whatever their stride, merge neighbours s0:d0, s1:d1 when d1 == s0*d0
// (stride 0 and negative strides included: (2,3):(0,0) is 6:0); an empty
// result is 1:0, a single mode comes back as an integral layout.
#ifndef HLOLAYOUT_CUTE_COALESCE_H_
#define HLOLAYOUT_CUTE_COALESCE_H_

#include <vector>

#include "absl/status/statusor.h"
#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/cute/layout.h"

namespace hlolayout::cute {

// Coalesce
//
// @post size(R) == size(L)
// @post depth(R) <= 1
// @post R(i) == L(i) for every 0 <= i < size(L)
// Never fails (merged modes stay within L's size and cosize).
Layout Coalesce(const Layout& layout);

// Coalesce (by mode)
//
// Where `profile` has a tuple, recurse mode by mode; where it has an
// integer (any value), coalesce that sub-layout fully. Modes of L beyond
// the profile's rank are kept unchanged:
// Coalesce(((2,2),(3,2)):((1,2),(4,12)), ((1,1),1)) == ((2,2),6):((1,2),4).
// @post size(R) == size(L), and R(i) == L(i) for every i < size(L)
// @post rank(R) == rank(L) when profile is a tuple
// Returns an error when the profile has more modes than L at some level.
absl::StatusOr<Layout> Coalesce(const Layout& layout, const IntTuple& profile);

// Filter
//
// coalesce after turning stride-0 modes into size 1: removes every stride-0
// and size-1 mode; an empty result is 1:0.
// @post size(R) == size(L) / (product of the sizes of L's stride-0 leaves)
// @post the set {R(i)} equals the set {L(i)}: R(i) == Z(i) for i < size(R),
//       where Z is L with every stride-0 leaf resized to 1
// @post depth(R) <= 1, and R has no stride-0 mode unless R is 1:0
Layout Filter(const Layout& layout);

// FilterZeros
//
// CuTe's filter_zeros: L with the shape of every leaf whose stride is a
// known 0 replaced by a static 1 (the strides unchanged); a CuTe DSL `?`
// stride is never taken for 0 (cute/integer.h IsConstant):
// FilterZeros((2,(4,?{div=8})):(0,(0,?{div=8}))) ==
// (1,(1,?{div=8})):(0,(0,?{div=8})).
// @post L's profile, and R(i') == L(i) wherever the coordinates agree on
//       the leaves that are not filtered
Layout FilterZeros(const Layout& layout);

// Filter (by mode)
//
// Filter applied where `profile` has integers, as Coalesce by mode.
absl::StatusOr<Layout> Filter(const Layout& layout, const IntTuple& profile);

namespace internal {

// CoalesceX
//
// Coalesce that also keeps the function correct past the end (CuTe's
// detail::coalesce_x, used by composition): the last leaf is never dropped,
// so indices >= size(L) keep running with its stride. Returns the modes as
// flat (shape, stride) pairs, at least one.
// @post for every i >= 0, value of the pairs at i == L(i) (with L's
//       past-the-end rule on both sides)
Modes CoalesceX(const Layout& layout);
// The same on a layout's flat leaves (the CuTe DSL's results with sizes of
// 0 or below, which are no Layout, included).
Modes CoalesceX(const Modes& leaves);

// CoalesceModes, FilterModes
//
// coalesce and filter on flat modes: the modes of the results, without
// building layouts (the algorithms build one at the end).
Modes CoalesceModes(const Modes& modes);
Modes FilterModes(const Layout& layout);

// AppendLeaves
//
// The leaves of `shape` and `stride` (congruent) appended to `out`.
void AppendLeaves(const IntTuple& shape, const IntTuple& stride, Modes& out);

}  // namespace internal

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_COALESCE_H_

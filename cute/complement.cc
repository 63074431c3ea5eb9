// cute/complement.cc: complement with run-time injectivity checks.
#include "hlolayout/cute/complement.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/cute/coalesce.h"
#include "hlolayout/cute/print.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::cute {

namespace {

// The compact column-major strides of `shape` starting at `current`
// (CuTe's compact_major<LayoutLeft>(shape, current)).
absl::StatusOr<IntTuple> ScaledCompact(const IntTuple& shape, Int& current) {
  if (shape.is_int()) {
    if (IsStaticOne(shape.integer())) return IntTuple::Static(0);
    const Int stride = current;
    if (!TryMul(current, shape.integer(), &current)) {
      return absl::OutOfRangeError("overflows int64");
    }
    return IntTuple(stride);
  }
  std::vector<IntTuple> out;
  out.reserve(shape.elements().size());
  for (const IntTuple& e : shape.elements()) {
    HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple s, ScaledCompact(e, current));
    out.push_back(std::move(s));
  }
  return IntTuple::Tuple(std::move(out));
}

}  // namespace

namespace {

// The complement of `a` given its filtered modes.
absl::StatusOr<Layout> ComplementOfFiltered(const Layout& a,
                                            const internal::Modes& filtered,
                                            const IntTuple& cotarget) {
  auto fail = [&](absl::string_view what) {
    return absl::InvalidArgumentError(
        absl::StrCat("complement of ", ToString(a), " with cotarget ",
                     ToString(cotarget), " ", what));
  };
  for (int64_t c : Flatten(cotarget)) {
    if (c <= 0)
      return fail(absl::StrCat("fails: cotarget leaf ", c, " is not positive"));
  }
  using internal::Mode;
  internal::Modes modes;
  for (const Mode& m : filtered) {
    if (m.stride.value < 0) {
      return fail(absl::StrCat("fails: stride ", m.stride.value,
                               " is negative, and complement needs "
                               "non-negative strides"));
    }
    if (m.stride.value != 0) modes.push_back(m);
  }
  std::stable_sort(modes.begin(), modes.end(),
                   [](const Mode& x, const Mode& y) {
                     return x.stride.value < y.stride.value;
                   });
  // The result's modes, in order: (d_k / current : current) for each mode,
  // then the rest; coalesced as a whole (as CuTe's coalesce of the result).
  internal::Modes out;
  Int current = Int::Static(1);
  for (const Mode& m : modes) {
    const Int shape = Div(m.stride, current);
    if (shape.value == 0) {
      return fail(absl::StrCat(
          "fails at mode ", m.shape.value, ":", m.stride.value,
          " of filtered A: its stride is below ", current.value,
          ", the end of the modes with smaller strides, so A is not "
          "injective or its modes interleave"));
    }
    out.push_back(Mode{shape, current});
    if (!TryMul(m.stride, m.shape, &current)) {
      return fail("fails: the codomain overflows int64");
    }
  }
  const IntTuple rest_shape = CeilDiv(cotarget, current);
  absl::StatusOr<IntTuple> rest_stride = ScaledCompact(rest_shape, current);
  if (!rest_stride.ok()) return fail("fails: the rest overflows int64");
  internal::AppendLeaves(rest_shape, *rest_stride, out);
  absl::StatusOr<Layout> r = Layout::FromModes(internal::CoalesceModes(out));
  if (!r.ok()) return fail("fails: the result overflows int64");
  return r;
}

}  // namespace

absl::StatusOr<Layout> Complement(const Layout& a, const IntTuple& cotarget) {
  return ComplementOfFiltered(a, internal::FilterModes(a), cotarget);
}

absl::StatusOr<Layout> Complement(const Layout& a) {
  const internal::Modes filtered = internal::FilterModes(a);
  // cosize(filter(A)), with its tag.
  Int cosize = Int::Static(1);
  for (const internal::Mode& m : filtered) {
    const Int m1{m.shape.value - 1, m.shape.is_static};
    cosize = Add(cosize, Mul(m1, Abs(m.stride)));  // Bounded by A's cosize.
  }
  if (filtered.empty()) cosize = Int::Static(1);
  return ComplementOfFiltered(a, filtered, IntTuple(cosize));
}

}  // namespace hlolayout::cute

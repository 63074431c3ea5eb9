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

namespace internal {

namespace {

absl::Status Overflow() {
  return absl::OutOfRangeError("complement: overflows int64");
}

absl::Status DivisionByZero() {
  return absl::InvalidArgumentError("complement: division by zero");
}

// a / b truncated, with the integers' tags; a static 0 divisor is an error.
absl::StatusOr<Int> DivChecked(Int a, Int b) {
  if (IsKnown(b) && b.value == 0) return DivisionByZero();
  return Div(a, b);
}

// The true ceiling of a / b (the DSL's for negative operands too); a `?`
// quotient's divisibility is 1, a `?` divided by a static 1 is itself.
absl::StatusOr<Int> TrueCeilDiv(Int a, Int b) {
  if (IsKnown(b) && b.value == 0) return DivisionByZero();
  if (IsStaticOne(b)) return a;
  int64_t q = b.value == 0 ? 0 : a.value / b.value;
  if (b.value != 0 && a.value % b.value != 0 &&
      ((a.value < 0) == (b.value < 0))) {
    ++q;
  }
  Int r = Int::Static(q);
  r.is_static = BothStatic(a, b);
  if (a.unknown || b.unknown) {
    // The value a `?` stands for: CuTe's (a + b - 1) / b.
    int64_t n;
    if (__builtin_add_overflow(a.value, b.value - 1, &n)) return Overflow();
    r = Int::Unknown(b.value == 0 ? 0 : n / b.value, 1, a.wide || b.wide);
  }
  return r;
}

// CuTe's ceil_div(cotarget, d) over a shape's leaves: each leaf divided in
// turn, the divisor divided by the leaf for the next one.
absl::Status CeilDivLeaves(const IntTuple& cotarget, Int& d,
                           std::vector<Int>& out) {
  if (cotarget.is_int()) {
    HLOLAYOUT_ASSIGN_OR_RETURN(Int q, TrueCeilDiv(cotarget.integer(), d));
    HLOLAYOUT_ASSIGN_OR_RETURN(d, TrueCeilDiv(d, cotarget.integer()));
    out.push_back(q);
    return absl::OkStatus();
  }
  for (const IntTuple& e : cotarget.elements()) {
    HLOLAYOUT_RETURN_IF_ERROR(CeilDivLeaves(e, d, out));
  }
  return absl::OkStatus();
}

}  // namespace

// Appends `shape` with compact column-major strides from `current` (a
// static 1 gets a static 0), CuTe's compact_major<LayoutLeft>.
absl::Status AppendCompact(const std::vector<Int>& shape, Int current,
                           Modes& out) {
  for (const Int& r : shape) {
    if (IsStaticOne(r)) {
      out.push_back(Mode{r, Int::Static(0)});
      continue;
    }
    out.push_back(Mode{r, current});
    if (!TryMul(current, r, &current)) return Overflow();
  }
  return absl::OkStatus();
}

absl::StatusOr<Modes> DslComplementModes(const Modes& filtered,
                                         const IntTuple& cotarget) {
  Modes out;
  if (filtered.empty()) {
    // filter(A) is 1:0: the compact layout of the cotarget, coalesced
    // (observed; CuTe's C++ coalesces the cotarget's shape first).
    HLOLAYOUT_RETURN_IF_ERROR(
        AppendCompact(FlattenInts(cotarget), Int::Static(1), out));
    return CoalesceModes(out);
  }
  std::vector<Mode> modes(filtered.begin(), filtered.end());
  for (const Mode& m : modes) {
    if (modes.size() > 1 && !IsKnown(m.stride)) {
      return absl::InvalidArgumentError(
          "complement: a dynamic stride in a mode of several modes (CuTe's "
          "static_assert; the DSL aborts: std::bad_variant_access)");
    }
  }
  // Sorted by stride, the first of equal ones first (CuTe's min and find).
  std::stable_sort(modes.begin(), modes.end(),
                   [](const Mode& x, const Mode& y) {
                     return x.stride.value < y.stride.value;
                   });
  Int current = Int::Static(1);
  for (const Mode& m : modes) {
    HLOLAYOUT_ASSIGN_OR_RETURN(Int shape, DivChecked(m.stride, current));
    out.push_back(Mode{shape, current});
    if (!TryMul(m.stride, m.shape, &current)) return Overflow();
  }
  std::vector<Int> rest;
  Int divisor = current;
  HLOLAYOUT_RETURN_IF_ERROR(CeilDivLeaves(cotarget, divisor, rest));
  // CuTe's coalesce of a shape: neighbours both static or both `?` multiply.
  std::vector<Int> merged;
  for (const Int& r : rest) {
    if (!merged.empty() && merged.back().is_static == r.is_static) {
      if (!TryMul(merged.back(), r, &merged.back())) return Overflow();
    } else {
      merged.push_back(r);
    }
  }
  HLOLAYOUT_RETURN_IF_ERROR(AppendCompact(merged, current, out));
  bool all_static = true;
  int64_t size = 1;
  for (const Mode& m : out) {
    all_static = all_static && m.shape.is_static;
    if (__builtin_mul_overflow(size, m.shape.value, &size)) return Overflow();
  }
  if (all_static && size == 1) return Modes();
  return CoalesceModes(out);
}

}  // namespace internal

}  // namespace hlolayout::cute

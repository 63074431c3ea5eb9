// cute/complement.cc: complement with run-time injectivity checks.
#include "hlolayout/cute/complement.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/cute/coalesce.h"
#include "hlolayout/cute/internal/status_macros.h"
#include "hlolayout/cute/print.h"

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
  for (const IntTuple& e : shape.elements()) {
    CUTE_ASSIGN_OR_RETURN(IntTuple s, ScaledCompact(e, current));
    out.push_back(std::move(s));
  }
  return IntTuple::Tuple(std::move(out));
}

}  // namespace

absl::StatusOr<Layout> Complement(const Layout& a, const IntTuple& cotarget) {
  auto fail = [&](absl::string_view what) {
    return absl::InvalidArgumentError(
        absl::StrCat("complement of ", ToString(a), " with cotarget ",
                     ToString(cotarget), " ", what));
  };
  for (int64_t c : Flatten(cotarget)) {
    if (c <= 0)
      return fail(absl::StrCat("fails: cotarget leaf ", c, " is not positive"));
  }
  const Layout f = Filter(a);
  const std::vector<Int> fs = FlattenInts(f.shape());
  const std::vector<Int> fd = FlattenInts(f.stride());
  struct M {
    Int shape, stride;
  };
  std::vector<M> modes;
  for (size_t k = 0; k < fs.size(); ++k) {
    if (fd[k].value < 0) {
      return fail(absl::StrCat("fails: stride ", fd[k].value,
                               " is negative, and complement needs "
                               "non-negative strides"));
    }
    if (fd[k].value != 0) modes.push_back(M{fs[k], fd[k]});
  }
  std::stable_sort(modes.begin(), modes.end(), [](const M& x, const M& y) {
    return x.stride.value < y.stride.value;
  });
  std::vector<Layout> parts;
  Int current = Int::Static(1);
  for (size_t k = 0; k < modes.size(); ++k) {
    const Int shape = Div(modes[k].stride, current);
    if (shape.value == 0) {
      return fail(absl::StrCat(
          "fails at mode ", modes[k].shape.value, ":", modes[k].stride.value,
          " of filtered A: its stride is below ", current.value,
          ", the end of the modes with smaller strides, so A is not "
          "injective or its modes interleave"));
    }
    parts.push_back(Layout::Make(shape, current));
    if (!TryMul(modes[k].stride, modes[k].shape, &current)) {
      return fail("fails: the codomain overflows int64");
    }
  }
  const IntTuple rest_shape = CeilDiv(cotarget, current);
  absl::StatusOr<IntTuple> rest_stride = ScaledCompact(rest_shape, current);
  if (!rest_stride.ok()) return fail("fails: the rest overflows int64");
  absl::StatusOr<Layout> rest = Layout::Create(rest_shape, *rest_stride);
  if (!rest.ok()) return fail("fails: the rest overflows int64");
  parts.push_back(*std::move(rest));
  absl::StatusOr<Layout> all = MakeLayout(parts);
  if (!all.ok()) return fail("fails: the result overflows int64");
  return Coalesce(*all);
}

absl::StatusOr<Layout> Complement(const Layout& a) {
  return Complement(a, IntTuple(Filter(a).cosize_int()));
}

}  // namespace hlolayout::cute

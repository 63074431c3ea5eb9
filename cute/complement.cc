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

// Multiplies the compact strides of `shape` by `base`, into `stride`.
absl::StatusOr<IntTuple> ScaledCompact(const IntTuple& shape,
                                       int64_t& current) {
  if (shape.is_int()) {
    const int64_t stride = shape.value() == 1 ? 0 : current;
    if (__builtin_mul_overflow(current, shape.value(), &current)) {
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
  const std::vector<int64_t> fs = Flatten(f.shape());
  const std::vector<int64_t> fd = Flatten(f.stride());
  struct M {
    int64_t shape, stride;
  };
  std::vector<M> modes;
  for (size_t k = 0; k < fs.size(); ++k) {
    if (fd[k] < 0) {
      return fail(absl::StrCat("fails: stride ", fd[k],
                               " is negative, and complement needs "
                               "non-negative strides"));
    }
    if (fd[k] != 0) modes.push_back(M{fs[k], fd[k]});
  }
  std::stable_sort(modes.begin(), modes.end(),
                   [](const M& x, const M& y) { return x.stride < y.stride; });
  std::vector<Layout> parts;
  int64_t current = 1;
  for (size_t k = 0; k < modes.size(); ++k) {
    const int64_t shape = modes[k].stride / current;
    if (shape == 0) {
      return fail(absl::StrCat(
          "fails at mode ", modes[k].shape, ":", modes[k].stride,
          " of filtered A: its stride is below ", current,
          ", the end of the modes with smaller strides, so A is not "
          "injective or its modes interleave"));
    }
    parts.push_back(Layout::Make(shape, current));
    if (__builtin_mul_overflow(modes[k].shape, modes[k].stride, &current)) {
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
  return Complement(a, IntTuple(Filter(a).cosize()));
}

}  // namespace hlolayout::cute

// cute/inverse.cc: right_inverse and left_inverse.
#include "hlolayout/cute/inverse.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/cute/coalesce.h"
#include "hlolayout/cute/print.h"

namespace hlolayout::cute {

namespace {

struct Mode {
  int64_t shape;
  int64_t stride;
  int64_t prefix;  // Product of the coalesced shapes before this mode.
};

std::vector<Mode> SortedModes(const Layout& layout) {
  const Layout c = Coalesce(layout);
  const std::vector<int64_t> s = Flatten(c.shape());
  const std::vector<int64_t> d = Flatten(c.stride());
  std::vector<Mode> modes;
  int64_t prefix = 1;
  for (size_t k = 0; k < s.size(); ++k) {
    modes.push_back(Mode{s[k], d[k], prefix});
    prefix *= s[k];  // Bounded by the layout's size.
  }
  std::stable_sort(
      modes.begin(), modes.end(),
      [](const Mode& x, const Mode& y) { return x.stride < y.stride; });
  return modes;
}

Layout Build(const std::vector<int64_t>& shapes,
             const std::vector<int64_t>& strides) {
  std::vector<IntTuple> sh(shapes.begin(), shapes.end());
  std::vector<IntTuple> st(strides.begin(), strides.end());
  return Coalesce(Layout::Make(IntTuple::Tuple(std::move(sh)),
                               IntTuple::Tuple(std::move(st))));
}

}  // namespace

Layout RightInverse(const Layout& layout) {
  std::vector<int64_t> shapes, strides;
  int64_t current = 1;
  for (const Mode& m : SortedModes(layout)) {
    if (m.stride != current || m.shape == 1) continue;
    shapes.push_back(m.shape);
    strides.push_back(m.prefix);
    current = m.shape * m.stride;  // An image point + 1: within cosize.
  }
  return Build(shapes, strides);
}

absl::StatusOr<Layout> LeftInverse(const Layout& layout) {
  std::vector<Mode> modes;
  for (const Mode& m : SortedModes(layout)) {
    if (m.stride < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "left_inverse of ", ToString(layout), " fails: stride ", m.stride,
          " is negative, and left_inverse needs non-negative strides"));
    }
    if (m.stride != 0 && m.shape != 1) modes.push_back(m);
  }
  if (modes.empty()) return Layout();
  std::vector<int64_t> shapes = {modes[0].stride};
  std::vector<int64_t> strides = {0};
  for (size_t j = 0; j < modes.size(); ++j) {
    strides.push_back(modes[j].prefix);
    if (j + 1 == modes.size()) {
      shapes.push_back(modes[j].shape);
      break;
    }
    const Mode& lo = modes[j];
    const Mode& hi = modes[j + 1];
    if (hi.stride % lo.stride != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "left_inverse of ", ToString(layout), " fails at coalesced mode ",
          hi.shape, ":", hi.stride, ": its stride is not a multiple of ",
          lo.stride, ", the next smaller stride"));
    }
    const int64_t ratio = hi.stride / lo.stride;
    if (ratio < lo.shape) {
      return absl::InvalidArgumentError(absl::StrCat(
          "left_inverse of ", ToString(layout), " fails at coalesced mode ",
          hi.shape, ":", hi.stride, ": it starts inside mode ", lo.shape, ":",
          lo.stride, ", so the layout is not injective"));
    }
    shapes.push_back(ratio);
  }
  return Build(shapes, strides);
}

}  // namespace hlolayout::cute

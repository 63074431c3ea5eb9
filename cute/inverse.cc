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
  Int shape;
  Int stride;
  Int prefix;  // Product of the coalesced shapes before this mode.
};

std::vector<Mode> SortedModes(const Layout& layout) {
  const Layout c = Coalesce(layout);
  const std::vector<Int> s = FlattenInts(c.shape());
  const std::vector<Int> d = FlattenInts(c.stride());
  std::vector<Mode> modes;
  Int prefix = Int::Static(1);
  for (size_t k = 0; k < s.size(); ++k) {
    modes.push_back(Mode{s[k], d[k], prefix});
    prefix = Mul(prefix, s[k]);  // Bounded by the layout's size.
  }
  std::stable_sort(modes.begin(), modes.end(),
                   [](const Mode& x, const Mode& y) {
                     return x.stride.value < y.stride.value;
                   });
  return modes;
}

Layout Build(const std::vector<Int>& shapes, const std::vector<Int>& strides) {
  std::vector<IntTuple> sh(shapes.begin(), shapes.end());
  std::vector<IntTuple> st(strides.begin(), strides.end());
  return Coalesce(Layout::Make(IntTuple::Tuple(std::move(sh)),
                               IntTuple::Tuple(std::move(st))));
}

}  // namespace

Layout RightInverse(const Layout& layout) {
  std::vector<Int> shapes, strides;
  int64_t current = 1;
  for (const Mode& m : SortedModes(layout)) {
    if (m.stride.value != current || m.shape.value == 1) continue;
    shapes.push_back(m.shape);
    strides.push_back(m.prefix);
    current = m.shape.value * m.stride.value;  // An image point + 1.
  }
  return Build(shapes, strides);
}

absl::StatusOr<Layout> LeftInverse(const Layout& layout) {
  std::vector<Mode> modes;
  const std::vector<Mode> sorted = SortedModes(layout);
  for (const Mode& m : sorted) {
    if (m.stride.value < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "left_inverse of ", ToString(layout), " fails: stride ",
          m.stride.value,
          " is negative, and left_inverse needs non-negative strides"));
    }
    if (m.stride.value != 0 && m.shape.value != 1) modes.push_back(m);
  }
  if (modes.empty()) {
    // Every stride is 0: CuTe's fold places nothing and keeps the shape of
    // the last mode, at stride 0.
    return Build({sorted.back().shape}, {Int::Static(0)});
  }
  // Shapes d_1/1, d_2/d_1, ..., then s_k; strides 0, P_1, ..., P_k (CuTe's
  // fold, whose divisor is the product of the shapes so far).
  std::vector<Int> shapes;
  std::vector<Int> strides = {Int::Static(0)};
  Int placed = Int::Static(1);
  for (size_t j = 0; j < modes.size(); ++j) {
    const Mode& m = modes[j];
    if (j > 0) {
      const Mode& lo = modes[j - 1];
      if (m.stride.value % lo.stride.value != 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("left_inverse of ", ToString(layout),
                         " fails at coalesced mode ", m.shape.value, ":",
                         m.stride.value, ": its stride is not a multiple of ",
                         lo.stride.value, ", the next smaller stride"));
      }
      if (m.stride.value / lo.stride.value < lo.shape.value) {
        return absl::InvalidArgumentError(absl::StrCat(
            "left_inverse of ", ToString(layout), " fails at coalesced mode ",
            m.shape.value, ":", m.stride.value, ": it starts inside mode ",
            lo.shape.value, ":", lo.stride.value,
            ", so the layout is not injective"));
      }
    }
    const Int shape = Div(m.stride, placed);
    shapes.push_back(shape);
    placed = Mul(placed, shape);  // == m.stride, in value.
    strides.push_back(m.prefix);
  }
  shapes.push_back(modes.back().shape);
  return Build(shapes, strides);
}

}  // namespace hlolayout::cute

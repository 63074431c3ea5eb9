// cute/inverse.cc: right_inverse and left_inverse.
#include "hlolayout/cute/inverse.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/cute/coalesce.h"
#include "hlolayout/cute/print.h"

namespace hlolayout::cute {

namespace {

struct SortedMode {
  Int shape;
  Int stride;
  Int prefix;  // Product of the coalesced shapes before this mode.
};

absl::InlinedVector<SortedMode, 8> SortedModes(const Layout& layout) {
  absl::InlinedVector<SortedMode, 8> modes;
  Int prefix = Int::Static(1);
  for (const internal::Mode& m : Coalesce(layout).leaf_modes()) {
    modes.push_back(SortedMode{m.shape, m.stride, prefix});
    prefix = Mul(prefix, m.shape);  // Bounded by the layout's size.
  }
  std::stable_sort(modes.begin(), modes.end(),
                   [](const SortedMode& x, const SortedMode& y) {
                     return x.stride.value < y.stride.value;
                   });
  return modes;
}

Layout Build(const std::vector<Int>& shapes, const std::vector<Int>& strides) {
  internal::Modes modes;
  for (size_t k = 0; k < shapes.size(); ++k) {
    modes.push_back(internal::Mode{shapes[k], strides[k]});
  }
  // Within the source layout's size and cosize.
  return Coalesce(*Layout::FromModes(modes));
}

}  // namespace

Layout RightInverse(const Layout& layout) {
  std::vector<Int> shapes, strides;
  int64_t current = 1;
  for (const SortedMode& m : SortedModes(layout)) {
    // A CuTe DSL `?` stride is never the one that comes next (the DSL
    // skips it: right_inverse((4,2):(?,1)) is 2:4).
    if (!IsKnown(m.stride) || m.stride.value != current || m.shape.value == 1) {
      continue;
    }
    shapes.push_back(m.shape);
    strides.push_back(m.prefix);
    current = m.shape.value * m.stride.value;  // An image point + 1.
  }
  return Build(shapes, strides);
}

namespace {

// LeftInverse, or with `dsl` internal::DslLeftInverse.
absl::StatusOr<Layout> LeftInverseFold(const Layout& layout, bool dsl) {
  std::vector<SortedMode> modes;
  const absl::InlinedVector<SortedMode, 8> sorted = SortedModes(layout);
  for (const SortedMode& m : sorted) {
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
    // the last mode, at stride 0; the DSL gives 1:0 (observed: 4:0 and
    // (4,2):(0,0)).
    if (dsl) return Layout();
    return Build({sorted.back().shape}, {Int::Static(0)});
  }
  // Shapes d_1/1, d_2/d_1, ..., then s_k; strides 0, P_1, ..., P_k (CuTe's
  // fold, whose divisor is the product of the shapes so far).
  std::vector<Int> shapes;
  std::vector<Int> strides = {Int::Static(0)};
  Int placed = Int::Static(1);
  for (size_t j = 0; j < modes.size(); ++j) {
    const SortedMode& m = modes[j];
    if (j > 0) {
      const SortedMode& lo = modes[j - 1];
      if (m.stride.value % lo.stride.value != 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("left_inverse of ", ToString(layout),
                         " fails at coalesced mode ", m.shape.value, ":",
                         m.stride.value, ": its stride is not a multiple of ",
                         lo.stride.value, ", the next smaller stride"));
      }
      if (!dsl && m.stride.value / lo.stride.value < lo.shape.value) {
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

}  // namespace

absl::StatusOr<Layout> LeftInverse(const Layout& layout) {
  return LeftInverseFold(layout, /*dsl=*/false);
}

namespace internal {

absl::StatusOr<Layout> DslLeftInverse(const Layout& layout) {
  return LeftInverseFold(layout, /*dsl=*/true);
}

}  // namespace internal

}  // namespace hlolayout::cute

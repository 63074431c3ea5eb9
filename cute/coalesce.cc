// cute/coalesce.cc: coalesce, filter and coalesce_x.
#include "hlolayout/cute/coalesce.h"

#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "hlolayout/cute/internal/status_macros.h"

namespace hlolayout::cute {

namespace {

using internal::Mode;

// Appends leaf (s, d) to `modes`, merging with the previous mode when
// d == s_prev * d_prev (the merged shape is static when both shapes are).
// Size-1 leaves must be filtered by the caller.
void Push(std::vector<Mode>& modes, Int s, Int d) {
  if (!modes.empty()) {
    Mode& prev = modes.back();
    int64_t next;
    if (!__builtin_mul_overflow(prev.shape.value, prev.stride.value, &next) &&
        next == d.value) {
      // Cannot overflow: bounded by the layout's size.
      prev.shape = Mul(prev.shape, s);
      return;
    }
  }
  modes.push_back(Mode{s, d});
}

Layout FromModes(const std::vector<Mode>& modes) {
  if (modes.empty()) return Layout();
  if (modes.size() == 1) return Layout::Make(modes[0].shape, modes[0].stride);
  std::vector<IntTuple> shape, stride;
  for (const Mode& m : modes) {
    shape.emplace_back(m.shape);
    stride.emplace_back(m.stride);
  }
  return Layout::Make(IntTuple::Tuple(std::move(shape)),
                      IntTuple::Tuple(std::move(stride)));
}

Layout FilterZeros(const Layout& layout) {
  std::vector<Int> s = FlattenInts(layout.shape());
  std::vector<Int> d = FlattenInts(layout.stride());
  std::vector<IntTuple> shape, stride;
  for (size_t k = 0; k < s.size(); ++k) {
    shape.emplace_back(d[k].value == 0 ? Int::Static(1) : s[k]);
    stride.emplace_back(d[k]);
  }
  return Layout::Make(IntTuple::Tuple(std::move(shape)),
                      IntTuple::Tuple(std::move(stride)));
}

template <typename Fn>
absl::StatusOr<Layout> ByMode(const Layout& layout, const IntTuple& profile,
                              Fn fn) {
  if (profile.is_int()) return fn(layout);
  if (Rank(profile) > layout.rank() ||
      (layout.shape().is_int() && Rank(profile) != 1)) {
    return absl::InvalidArgumentError("profile has more modes than the layout");
  }
  if (layout.shape().is_int()) return fn(layout);
  std::vector<Layout> modes;
  for (int i = 0; i < layout.rank(); ++i) {
    if (i < Rank(profile)) {
      CUTE_ASSIGN_OR_RETURN(Layout m, ByMode(layout.mode(i), profile[i], fn));
      modes.push_back(std::move(m));
    } else {
      modes.push_back(layout.mode(i));
    }
  }
  return MakeLayout(modes);
}

}  // namespace

Layout Coalesce(const Layout& layout) {
  const std::vector<Int> s = FlattenInts(layout.shape());
  const std::vector<Int> d = FlattenInts(layout.stride());
  std::vector<Mode> modes;
  for (size_t k = 0; k < s.size(); ++k) {
    if (s[k].value != 1) Push(modes, s[k], d[k]);
  }
  return FromModes(modes);
}

absl::StatusOr<Layout> Coalesce(const Layout& layout, const IntTuple& profile) {
  return ByMode(layout, profile,
                [](const Layout& l) -> Layout { return Coalesce(l); });
}

Layout Filter(const Layout& layout) { return Coalesce(FilterZeros(layout)); }

absl::StatusOr<Layout> Filter(const Layout& layout, const IntTuple& profile) {
  return ByMode(layout, profile,
                [](const Layout& l) -> Layout { return Filter(l); });
}

namespace internal {

std::vector<Mode> CoalesceX(const Layout& layout) {
  const std::vector<Int> s = FlattenInts(layout.shape());
  const std::vector<Int> d = FlattenInts(layout.stride());
  std::vector<Mode> modes;
  for (size_t k = 0; k < s.size(); ++k) {
    const bool last = k + 1 == s.size();
    // A trailing size-1 leaf is kept as `_2:d` (CuTe's coalesce_x), so that
    // indices past the end run on with its stride.
    if (s[k].value != 1) {
      Push(modes, s[k], d[k]);
    } else if (last) {
      Push(modes, Int::Static(2), d[k]);
    }
  }
  // The shape `()`.
  if (modes.empty()) modes.push_back(Mode{Int::Static(1), Int::Static(0)});
  return modes;
}

}  // namespace internal

}  // namespace hlolayout::cute

// cute/coalesce.cc: coalesce, filter and coalesce_x.
#include "hlolayout/cute/coalesce.h"

#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::cute {

namespace {

using internal::Mode;
using internal::Modes;

// Appends leaf (s, d) to `modes`, merging with the previous mode when
// d == s_prev * d_prev (the merged shape is static when both shapes are).
// The merge is decided on known integers only: a CuTe DSL `?` (cute/
// integer.h) in either mode's shape or stride keeps the two apart, as the
// DSL does (observed: (2,?{div=8},1,4):(1,2,?{div=8},?{div=16}) coalesces
// to (2,?{div=8},4):(1,2,?{div=16}), and (?{div=8},4):(1,?{div=8}) stays).
// Size-1 leaves must be filtered by the caller.
void Push(Modes& modes, Int s, Int d) {
  if (!modes.empty()) {
    Mode& prev = modes.back();
    int64_t next;
    if (IsKnown(prev.shape) && IsKnown(prev.stride) && IsKnown(s) &&
        IsKnown(d) &&
        !__builtin_mul_overflow(prev.shape.value, prev.stride.value, &next) &&
        next == d.value) {
      // Cannot overflow: bounded by the layout's size.
      prev.shape = Mul(prev.shape, s);
      return;
    }
  }
  modes.push_back(Mode{s, d});
}

// Cannot fail: merged modes stay within the source layout's size and
// cosize.
Layout FromModes(const Modes& modes) { return *Layout::FromModes(modes); }

template <typename Fn>
absl::StatusOr<Layout> ByMode(const Layout& layout, const IntTuple& profile,
                              Fn fn) {
  if (profile.is_int()) return fn(layout);
  if (Rank(profile) > layout.rank() ||
      (layout.shape().is_int() && Rank(profile) != 1)) {
    return absl::InvalidArgumentError("profile has more modes than the layout");
  }
  std::vector<Layout> modes;
  if (layout.shape().is_int()) {
    // An integral layout is its own mode 0, and the result a layout of
    // modes (CuTe's transform_layout; the CuTe DSL prints (8):(1) for
    // coalesce(8:1, target_profile=(1,))).
    HLOLAYOUT_ASSIGN_OR_RETURN(Layout m, ByMode(layout, profile[0], fn));
    modes.push_back(std::move(m));
    return MakeLayout(modes);
  }
  for (int i = 0; i < layout.rank(); ++i) {
    if (i < Rank(profile)) {
      HLOLAYOUT_ASSIGN_OR_RETURN(Layout m,
                                 ByMode(layout.mode(i), profile[i], fn));
      modes.push_back(std::move(m));
    } else {
      modes.push_back(layout.mode(i));
    }
  }
  return MakeLayout(modes);
}

// The shape `shape` with a static 1 at every leaf whose stride is a known 0.
IntTuple ZerosToOne(const IntTuple& shape, const IntTuple& stride) {
  if (shape.is_int()) {
    return IsConstant(stride.integer(), 0) ? IntTuple::Static(1) : shape;
  }
  std::vector<IntTuple> out;
  out.reserve(shape.elements().size());
  for (size_t i = 0; i < shape.elements().size(); ++i) {
    out.push_back(ZerosToOne(shape.elements()[i], stride.elements()[i]));
  }
  return IntTuple::Tuple(std::move(out));
}

}  // namespace

Layout FilterZeros(const Layout& layout) {
  // Cannot fail: the sizes only shrink.
  return Layout::Make(ZerosToOne(layout.shape(), layout.stride()),
                      layout.stride());
}

Layout Coalesce(const Layout& layout) {
  return FromModes(internal::CoalesceModes(layout.leaf_modes()));
}

absl::StatusOr<Layout> Coalesce(const Layout& layout, const IntTuple& profile) {
  return ByMode(layout, profile,
                [](const Layout& l) -> Layout { return Coalesce(l); });
}

Layout Filter(const Layout& layout) {
  return FromModes(internal::FilterModes(layout));
}

absl::StatusOr<Layout> Filter(const Layout& layout, const IntTuple& profile) {
  return ByMode(layout, profile,
                [](const Layout& l) -> Layout { return Filter(l); });
}

namespace internal {

// A `?` is never dropped as a size 1 nor filtered as a stride 0, whatever
// it stands for: the DSL keeps (1,?{div=8},3):(0,1,?{div=8}) of a `?`
// size and of a stride 0 only where they are static.
Modes CoalesceModes(const Modes& in) {
  Modes modes;
  for (const Mode& m : in) {
    if (!IsConstant(m.shape, 1)) Push(modes, m.shape, m.stride);
  }
  return modes;
}

Modes FilterModes(const Layout& layout) {
  // coalesce(filter_zeros(L)): stride-0 leaves become size 1, and size-1
  // leaves are dropped.
  Modes modes;
  for (const Mode& m : layout.leaf_modes()) {
    if (!IsConstant(m.shape, 1) && !IsConstant(m.stride, 0)) {
      Push(modes, m.shape, m.stride);
    }
  }
  return modes;
}

void AppendLeaves(const IntTuple& shape, const IntTuple& stride, Modes& out) {
  if (shape.is_int()) {
    out.push_back(Mode{shape.integer(), stride.integer()});
    return;
  }
  for (size_t i = 0; i < shape.elements().size(); ++i) {
    AppendLeaves(shape.elements()[i], stride.elements()[i], out);
  }
}

Modes CoalesceX(const Layout& layout) { return CoalesceX(layout.leaf_modes()); }

Modes CoalesceX(const Modes& leaves) {
  Modes modes;
  for (size_t k = 0; k < leaves.size(); ++k) {
    const bool last = k + 1 == leaves.size();
    // A trailing size-1 leaf is kept as `_2:d` (CuTe's coalesce_x), so that
    // indices past the end run on with its stride.
    if (!IsConstant(leaves[k].shape, 1)) {
      Push(modes, leaves[k].shape, leaves[k].stride);
    } else if (last) {
      Push(modes, Int::Static(2), leaves[k].stride);
    }
  }
  // The shape `()`.
  if (modes.empty()) modes.push_back(Mode{Int::Static(1), Int::Static(0)});
  return modes;
}

}  // namespace internal

}  // namespace hlolayout::cute

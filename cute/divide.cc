// cute/divide.cc: logical_divide and its regroupings.
#include "hlolayout/cute/divide.h"

#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/cute/coalesce.h"
#include "hlolayout/cute/complement.h"
#include "hlolayout/cute/composition.h"
#include "hlolayout/cute/internal/regroup.h"
#include "hlolayout/cute/print.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::cute {

namespace {

absl::Status Wrap(absl::string_view op, const Layout& a, const Tiler& b,
                  const absl::Status& inner) {
  return absl::Status(
      inner.code(), absl::StrCat(op, " ", ToString(a), " / ", ToString(b), ": ",
                                 inner.message()));
}

absl::StatusOr<Layout> Divide(const Layout& a, const Tiler& b) {
  switch (b.kind()) {
    case Tiler::Kind::kUnderscore:
      return a;
    case Tiler::Kind::kLayout: {
      HLOLAYOUT_ASSIGN_OR_RETURN(Layout rest,
                                 Complement(b.layout(), Coalesce(a).shape()));
      HLOLAYOUT_ASSIGN_OR_RETURN(Layout both, MakeLayout({b.layout(), rest}));
      return Composition(a, both);
    }
    case Tiler::Kind::kTuple:
      break;
  }
  return internal::ApplyByMode(a, b, Divide);
}

absl::StatusOr<Layout> Regrouped(absl::string_view op, const Layout& a,
                                 const Tiler& b, internal::Grouping g) {
  absl::StatusOr<Layout> logical = Divide(a, b);
  if (!logical.ok()) return Wrap(op, a, b, logical.status());
  absl::StatusOr<Layout> r = internal::Regroup(*logical, b, g);
  if (!r.ok()) return Wrap(op, a, b, r.status());
  return r;
}

}  // namespace

absl::StatusOr<Layout> LogicalDivide(const Layout& a, const Tiler& b) {
  absl::StatusOr<Layout> r = Divide(a, b);
  if (!r.ok()) return Wrap("logical_divide", a, b, r.status());
  return r;
}

absl::StatusOr<Layout> ZippedDivide(const Layout& a, const Tiler& b) {
  return Regrouped("zipped_divide", a, b, internal::Grouping::kZipped);
}

absl::StatusOr<Layout> TiledDivide(const Layout& a, const Tiler& b) {
  return Regrouped("tiled_divide", a, b, internal::Grouping::kTiled);
}

absl::StatusOr<Layout> FlatDivide(const Layout& a, const Tiler& b) {
  return Regrouped("flat_divide", a, b, internal::Grouping::kFlat);
}

namespace internal {

namespace {

// Flat modes as a layout's shape or stride: none 1 (or 0), one an integer.
IntTuple ModesTuple(const Modes& modes, bool stride) {
  if (modes.empty()) return IntTuple::Static(stride ? 0 : 1);
  if (modes.size() == 1) {
    return IntTuple(stride ? modes[0].stride : modes[0].shape);
  }
  std::vector<IntTuple> out;
  out.reserve(modes.size());
  for (const Mode& m : modes) out.emplace_back(stride ? m.stride : m.shape);
  return IntTuple::Tuple(std::move(out));
}

}  // namespace

absl::StatusOr<DslDivision> DslLogicalDivide(const Modes& a_leaves,
                                             const IntTuple& t_shape,
                                             const IntTuple& t_stride) {
  Modes tiler, kept;
  AppendLeaves(t_shape, t_stride, tiler);
  for (const Mode& m : tiler) {
    if (!IsConstant(m.stride, 0)) kept.push_back(m);
  }
  const IntTuple cotarget = ModesTuple(CoalesceModes(a_leaves), false);
  DslDivision r;
  HLOLAYOUT_ASSIGN_OR_RETURN(r.rest,
                             DslComplementModes(CoalesceModes(kept), cotarget));
  const IntTuple b_shape =
      IntTuple::Tuple({t_shape, ModesTuple(r.rest, false)});
  const IntTuple b_stride =
      IntTuple::Tuple({t_stride, ModesTuple(r.rest, true)});
  HLOLAYOUT_ASSIGN_OR_RETURN(auto composed,
                             DslComposition(a_leaves, b_shape, b_stride));
  r.shape = std::move(composed.first);
  r.stride = std::move(composed.second);
  r.several_modes = CoalesceX(a_leaves).size() > 1;
  return r;
}

}  // namespace internal

}  // namespace hlolayout::cute

// cute/product.cc: logical_product, its regroupings, blocked and raked.
#include "hlolayout/cute/product.h"

#include <algorithm>
#include <string>
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

absl::Status Wrap(absl::string_view op, const Layout& a, absl::string_view b,
                  const absl::Status& inner) {
  return absl::Status(inner.code(), absl::StrCat(op, " ", ToString(a), " x ", b,
                                                 ": ", inner.message()));
}

// The second mode of the 1-D logical product.
absl::StatusOr<Layout> Repetitions(const Layout& a, const Layout& b) {
  Int span;
  if (!TryMul(a.size_int(), b.cosize_int(), &span)) {
    return absl::OutOfRangeError("size(A) * cosize(B) overflows int64");
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(Layout rest, Complement(a, IntTuple(span)));
  return Composition(rest, b);
}

absl::StatusOr<Layout> Product(const Layout& a, const Tiler& b) {
  switch (b.kind()) {
    case Tiler::Kind::kUnderscore:
      return a;
    case Tiler::Kind::kLayout: {
      HLOLAYOUT_ASSIGN_OR_RETURN(Layout c, Repetitions(a, b.layout()));
      return MakeLayout({a, c});
    }
    case Tiler::Kind::kTuple:
      break;
  }
  return internal::ApplyByMode(a, b, Product);
}

absl::StatusOr<Layout> Regrouped(absl::string_view op, const Layout& a,
                                 const Tiler& b, internal::Grouping g) {
  absl::StatusOr<Layout> logical = Product(a, b);
  if (!logical.ok()) return Wrap(op, a, ToString(b), logical.status());
  absl::StatusOr<Layout> r = internal::Regroup(*logical, b, g);
  if (!r.ok()) return Wrap(op, a, ToString(b), r.status());
  return r;
}

absl::StatusOr<Layout> Interleave(absl::string_view op, const Layout& a,
                                  const Layout& b, bool raked) {
  auto wrap = [&](const absl::Status& s) {
    return Wrap(op, a, ToString(b), s);
  };
  const int rank = std::max(a.rank(), b.rank());
  absl::StatusOr<Layout> pa = internal::PadRank(a, rank);
  absl::StatusOr<Layout> pb = internal::PadRank(b, rank);
  if (!pa.ok()) return wrap(pa.status());
  if (!pb.ok()) return wrap(pb.status());
  absl::StatusOr<Layout> c = Repetitions(*pa, *pb);
  if (!c.ok()) return wrap(c.status());
  // CuTe's zip(first, second): a tuple first pairs its modes with the
  // second's (an integral second pairs whole); an integral first gives the
  // single pair (first, second). Blocked zips (A', C), raked (C, A').
  const Layout& first = raked ? *c : *pa;
  const Layout& second = raked ? *pa : *c;
  std::vector<Layout> modes;
  if (first.shape().is_int()) {
    absl::StatusOr<Layout> m = MakeLayout({first, second});
    if (!m.ok()) return wrap(m.status());
    modes.push_back(*std::move(m));
  } else {
    if ((second.shape().is_int() && first.rank() != 1) ||
        (!second.shape().is_int() && second.rank() != first.rank())) {
      return wrap(absl::InvalidArgumentError(absl::StrCat(
          "the block has rank ", pa->rank(), " and the repetitions ", c->rank(),
          ", which CuTe's zip cannot pair (CuTe: Mismatched "
          "Ranks)")));
    }
    for (int i = 0; i < first.rank(); ++i) {
      const Layout fi = first.mode(i);
      const Layout si = second.shape().is_int() ? second : second.mode(i);
      absl::StatusOr<Layout> m = MakeLayout({fi, si});
      if (!m.ok()) return wrap(m.status());
      modes.push_back(*std::move(m));
    }
  }
  absl::StatusOr<Layout> r = MakeLayout(modes);
  if (!r.ok()) return wrap(r.status());
  return r;
}

}  // namespace

absl::StatusOr<Layout> LogicalProduct(const Layout& a, const Tiler& b) {
  absl::StatusOr<Layout> r = Product(a, b);
  if (!r.ok()) return Wrap("logical_product", a, ToString(b), r.status());
  return r;
}

absl::StatusOr<Layout> ZippedProduct(const Layout& a, const Tiler& b) {
  return Regrouped("zipped_product", a, b, internal::Grouping::kZipped);
}

absl::StatusOr<Layout> TiledProduct(const Layout& a, const Tiler& b) {
  return Regrouped("tiled_product", a, b, internal::Grouping::kTiled);
}

absl::StatusOr<Layout> FlatProduct(const Layout& a, const Tiler& b) {
  return Regrouped("flat_product", a, b, internal::Grouping::kFlat);
}

absl::StatusOr<Layout> BlockedProduct(const Layout& a, const Layout& b) {
  return Interleave("blocked_product", a, b, /*raked=*/false);
}

absl::StatusOr<Layout> RakedProduct(const Layout& a, const Layout& b) {
  return Interleave("raked_product", a, b, /*raked=*/true);
}

namespace internal {

absl::StatusOr<Layout> PadRank(const Layout& l, int rank) {
  if (l.rank() >= rank) return l;
  std::vector<Layout> modes = l.modes();
  while (static_cast<int>(modes.size()) < rank) modes.push_back(Layout());
  return MakeLayout(modes);
}

absl::StatusOr<Layout> DslZipModes(const Layout& first, const Layout& second) {
  if (first.shape().is_int()) {
    HLOLAYOUT_ASSIGN_OR_RETURN(Layout pair, MakeLayout({first, second}));
    return MakeLayout({pair});
  }
  if (second.shape().is_int() || second.rank() != first.rank()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "zip: a tuple of rank ", first.rank(), " does not pair with ",
        second.shape().is_int()
            ? std::string("an integral layout")
            : absl::StrCat("a tuple of rank ", second.rank()),
        " (the DSL: unable to compute product)"));
  }
  std::vector<Layout> modes;
  for (int i = 0; i < first.rank(); ++i) {
    HLOLAYOUT_ASSIGN_OR_RETURN(Layout pair,
                               MakeLayout({first.mode(i), second.mode(i)}));
    modes.push_back(std::move(pair));
  }
  return MakeLayout(modes);
}

absl::StatusOr<DslProductParts> DslLogicalProduct(const Modes& a_leaves,
                                                  const IntTuple& t_shape,
                                                  const IntTuple& t_stride,
                                                  const IntTuple& cotarget) {
  Modes kept;
  for (const Mode& m : a_leaves) {
    if (!IsConstant(m.stride, 0)) kept.push_back(m);
  }
  DslProductParts r;
  HLOLAYOUT_ASSIGN_OR_RETURN(r.complement,
                             DslComplementModes(CoalesceModes(kept), cotarget));
  // The complement as a layout's leaves: none is 1:0.
  Modes comp = r.complement;
  if (comp.empty()) comp.push_back(Mode{Int::Static(1), Int::Static(0)});
  HLOLAYOUT_ASSIGN_OR_RETURN(auto composed,
                             DslComposition(comp, t_shape, t_stride));
  r.shape = std::move(composed.first);
  r.stride = std::move(composed.second);
  r.several_modes = CoalesceX(comp).size() > 1;
  return r;
}

}  // namespace internal

}  // namespace hlolayout::cute

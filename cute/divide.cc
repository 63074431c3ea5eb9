// cute/divide.cc: logical_divide and its regroupings.
#include "cute/divide.h"

#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "cute/coalesce.h"
#include "cute/complement.h"
#include "cute/composition.h"
#include "cute/internal/regroup.h"
#include "cute/internal/status_macros.h"
#include "cute/print.h"

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
      CUTE_ASSIGN_OR_RETURN(Layout rest,
                            Complement(b.layout(), Coalesce(a).shape()));
      CUTE_ASSIGN_OR_RETURN(Layout both, MakeLayout({b.layout(), rest}));
      return Composition(a, both);
    }
    case Tiler::Kind::kTuple:
      break;
  }
  const int rank = static_cast<int>(b.elements().size());
  if (rank > a.rank()) {
    return absl::InvalidArgumentError(
        absl::StrCat("the tiler has ", rank, " modes and A only ", a.rank()));
  }
  if (a.shape().is_int()) {
    // An integral A is its own single mode; keep the tuple profile.
    CUTE_ASSIGN_OR_RETURN(Layout m, Divide(a, b.elements()[0]));
    return MakeLayout({m});
  }
  std::vector<Layout> modes;
  for (int i = 0; i < a.rank(); ++i) {
    if (i < rank) {
      CUTE_ASSIGN_OR_RETURN(Layout m, Divide(a.mode(i), b.elements()[i]));
      modes.push_back(std::move(m));
    } else {
      modes.push_back(a.mode(i));
    }
  }
  return MakeLayout(modes);
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

}  // namespace hlolayout::cute

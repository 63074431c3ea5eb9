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

}  // namespace hlolayout::cute

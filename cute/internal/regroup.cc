// cute/internal/regroup.cc: zip2_by and the unpacking of its two modes.
#include "hlolayout/cute/internal/regroup.h"

#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::cute::internal {

namespace {

struct Split {
  Layout tile;
  Layout rest;
};

// CuTe's zip2_by: `l` split by the tiler's profile into its tile modes and
// its rest modes (the rest keeps the modes past the tiler). With
// `underscore_splits`, `_` splits its mode as a Layout does (the DSL).
absl::StatusOr<Split> Zip2By(const Layout& l, const Tiler& guide,
                             bool underscore_splits) {
  if (guide.kind() == Tiler::Kind::kUnderscore && !underscore_splits) {
    return absl::InvalidArgumentError(
        "'_' in the tiler is only supported by composition, "
        "logical_divide and logical_product");
  }
  if (guide.kind() != Tiler::Kind::kTuple) {
    if (l.shape().is_int() || l.rank() != 2) {
      return absl::InvalidArgumentError(
          absl::StrCat("zip2_by: a mode split by a layout is of rank ",
                       l.rank(), ", not 2 (CuTe: mismatched ranks)"));
    }
    return Split{l.mode(0), l.mode(1)};
  }
  absl::InlinedVector<Layout, 4> tiles, rests;
  const int rank = static_cast<int>(guide.elements().size());
  if (l.shape().is_int() || l.rank() < rank) {
    return absl::InvalidArgumentError(absl::StrCat(
        "zip2_by: the tiler has ", rank, " modes, its mode only ",
        l.shape().is_int() ? 0 : l.rank(), " (CuTe: mismatched ranks)"));
  }
  for (int i = 0; i < rank; ++i) {
    HLOLAYOUT_ASSIGN_OR_RETURN(
        Split s, Zip2By(l.mode(i), guide.elements()[i], underscore_splits));
    tiles.push_back(std::move(s.tile));
    rests.push_back(std::move(s.rest));
  }
  for (int i = rank; i < l.rank(); ++i) rests.push_back(l.mode(i));
  HLOLAYOUT_ASSIGN_OR_RETURN(Layout tile, MakeLayout(tiles));
  HLOLAYOUT_ASSIGN_OR_RETURN(Layout rest, MakeLayout(rests));
  return Split{std::move(tile), std::move(rest)};
}

// The two halves as the grouping places them. A half is unpacked into its
// modes where the grouping asks; an integral half is one mode, a tuple of
// one mode is kept whole unless `unpack_single` (the DSL).
absl::StatusOr<Layout> Place(const Split& s, Grouping grouping,
                             bool unpack_single) {
  absl::InlinedVector<Layout, 4> modes;
  auto unpack = [&](const Layout& l) {
    if (l.shape().is_int() || (l.rank() == 1 && !unpack_single)) {
      modes.push_back(l);
      return;
    }
    for (Layout& m : l.modes()) modes.push_back(std::move(m));
  };
  if (grouping == Grouping::kFlat) {
    unpack(s.tile);
  } else {
    modes.push_back(s.tile);
  }
  if (grouping == Grouping::kZipped) {
    modes.push_back(s.rest);
  } else {
    unpack(s.rest);
  }
  return MakeLayout(modes);
}

}  // namespace

absl::StatusOr<Layout> Regroup(const Layout& logical, const Tiler& tiler,
                               Grouping grouping) {
  HLOLAYOUT_ASSIGN_OR_RETURN(Split s, Zip2By(logical, tiler, false));
  // CuTe unpacks with result(_, repeat<R>(_)): for R == 1 that is `_`,
  // which keeps the mode whole (a rank-1 tuple stays one).
  return Place(s, grouping, /*unpack_single=*/false);
}

absl::StatusOr<Layout> DslRegroup(const Layout& logical, const Tiler& tiler,
                                  Grouping grouping) {
  HLOLAYOUT_ASSIGN_OR_RETURN(Split s, Zip2By(logical, tiler, true));
  return Place(s, grouping, /*unpack_single=*/true);
}

absl::StatusOr<Layout> ApplyByMode(
    const Layout& a, const Tiler& tiler,
    absl::FunctionRef<absl::StatusOr<Layout>(const Layout&, const Tiler&)> op) {
  const int rank = static_cast<int>(tiler.elements().size());
  if (rank > a.rank()) {
    return absl::InvalidArgumentError(
        absl::StrCat("the tiler has ", rank, " modes and A only ", a.rank()));
  }
  if (a.shape().is_int()) {
    // An integral A is its own single mode; keep the tuple profile. An empty
    // tiler leaves that mode as it is, as it leaves the modes of a tuple A.
    if (rank == 0) return MakeLayout({a});
    HLOLAYOUT_ASSIGN_OR_RETURN(Layout m, op(a, tiler.elements()[0]));
    return MakeLayout({m});
  }
  absl::InlinedVector<Layout, 4> modes;
  for (int i = 0; i < a.rank(); ++i) {
    if (i < rank) {
      HLOLAYOUT_ASSIGN_OR_RETURN(Layout m, op(a.mode(i), tiler.elements()[i]));
      modes.push_back(std::move(m));
    } else {
      modes.push_back(a.mode(i));
    }
  }
  return MakeLayout(modes);
}

}  // namespace hlolayout::cute::internal

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

absl::StatusOr<Split> Zip2By(const Layout& l, const Tiler& guide) {
  switch (guide.kind()) {
    case Tiler::Kind::kUnderscore:
      return absl::InvalidArgumentError(
          "'_' in the tiler is only supported by composition, "
          "logical_divide and logical_product");
    case Tiler::Kind::kLayout:
      // CHECK-level invariant: logical results have rank 2 here.
      return Split{l.mode(0), l.mode(1)};
    case Tiler::Kind::kTuple:
      break;
  }
  absl::InlinedVector<Layout, 4> tiles, rests;
  const int rank = static_cast<int>(guide.elements().size());
  for (int i = 0; i < rank; ++i) {
    HLOLAYOUT_ASSIGN_OR_RETURN(Split s, Zip2By(l.mode(i), guide.elements()[i]));
    tiles.push_back(std::move(s.tile));
    rests.push_back(std::move(s.rest));
  }
  for (int i = rank; i < l.rank(); ++i) rests.push_back(l.mode(i));
  HLOLAYOUT_ASSIGN_OR_RETURN(Layout tile, MakeLayout(tiles));
  HLOLAYOUT_ASSIGN_OR_RETURN(Layout rest, MakeLayout(rests));
  return Split{std::move(tile), std::move(rest)};
}

}  // namespace

absl::StatusOr<Layout> Regroup(const Layout& logical, const Tiler& tiler,
                               Grouping grouping) {
  HLOLAYOUT_ASSIGN_OR_RETURN(Split s, Zip2By(logical, tiler));
  // CuTe unpacks with result(_, repeat<R>(_)): for R == 1 that is `_`,
  // which keeps the mode whole (a rank-1 tuple stays one).
  absl::InlinedVector<Layout, 4> modes;
  auto unpack = [&](const Layout& l) {
    if (l.rank() == 1) {
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

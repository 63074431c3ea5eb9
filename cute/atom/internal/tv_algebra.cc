// cute/atom/internal/tv_algebra.cc
#include "hlolayout/cute/atom/internal/tv_algebra.h"

#include <cstdint>
#include <cstdlib>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/cute/atom/static_text.h"
#include "hlolayout/cute/composition.h"
#include "hlolayout/cute/divide.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::cute::atom_internal {

namespace {

struct Pair {
  Layout first;
  Layout second;
};

absl::StatusOr<Pair> Split(const Layout& layout, const Tiler& guide) {
  if (guide.is_tuple()) {
    const int gr = static_cast<int>(guide.elements().size());
    if (!layout.shape().is_tuple() || layout.rank() < gr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "zip2_by: ", StaticText(layout), " has fewer than ", gr, " modes"));
    }
    std::vector<Layout> firsts;
    std::vector<Layout> seconds;
    for (int i = 0; i < gr; ++i) {
      HLOLAYOUT_ASSIGN_OR_RETURN(Pair p,
                                 Split(layout.mode(i), guide.elements()[i]));
      firsts.push_back(std::move(p.first));
      seconds.push_back(std::move(p.second));
    }
    for (int i = gr; i < layout.rank(); ++i) seconds.push_back(layout.mode(i));
    HLOLAYOUT_ASSIGN_OR_RETURN(Layout first, MakeLayout(firsts));
    HLOLAYOUT_ASSIGN_OR_RETURN(Layout second, MakeLayout(seconds));
    return Pair{std::move(first), std::move(second)};
  }
  if (!layout.shape().is_tuple() || layout.rank() != 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "zip2_by: ", StaticText(layout), " is not a (tile,rest) pair"));
  }
  return Pair{layout.mode(0), layout.mode(1)};
}

int64_t CeilDivPositive(int64_t a, int64_t b) { return (a + b - 1) / b; }

absl::Status UpcastLeaves(const IntTuple& shape, const IntTuple& stride,
                          int64_t n, IntTuple& new_shape,
                          IntTuple& new_stride) {
  if (shape.is_tuple()) {
    std::vector<IntTuple> s;
    std::vector<IntTuple> d;
    for (size_t i = 0; i < shape.elements().size(); ++i) {
      IntTuple si;
      IntTuple di;
      HLOLAYOUT_RETURN_IF_ERROR(
          UpcastLeaves(shape.elements()[i], stride.elements()[i], n, si, di));
      s.push_back(std::move(si));
      d.push_back(std::move(di));
    }
    new_shape = IntTuple::Tuple(std::move(s));
    new_stride = IntTuple::Tuple(std::move(d));
    return absl::OkStatus();
  }
  const int64_t d = stride.value();
  if (d == 0) {
    new_shape = shape;
    new_stride = stride;
    return absl::OkStatus();
  }
  // |d| fits: Layout::Create rejects INT64_MIN strides.
  const int64_t ad = d < 0 ? -d : d;
  if (ad % n != 0 && n % ad != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("upcast by ", n, ": stride ", d, " and ", n,
                     " do not divide each other"));
  }
  new_shape =
      IntTuple::Static(CeilDivPositive(shape.value(), CeilDivPositive(n, ad)));
  new_stride = IntTuple::Static((d < 0 ? -1 : 1) * CeilDivPositive(ad, n));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Layout> ZipTwoBy(const Layout& layout, const Tiler& guide) {
  HLOLAYOUT_ASSIGN_OR_RETURN(Pair p, Split(layout, guide));
  return MakeLayout({p.first, p.second});
}

absl::StatusOr<Layout> ZippedDivideGuided(const Layout& layout,
                                          const Tiler& tiler) {
  HLOLAYOUT_ASSIGN_OR_RETURN(Layout logical, LogicalDivide(layout, tiler));
  return ZipTwoBy(logical, tiler);
}

absl::StatusOr<Layout> Zip(const Layout& layout) {
  if (!layout.shape().is_tuple() || layout.rank() == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("zip: ", StaticText(layout), " is not a tuple of tuples"));
  }
  const int outer = layout.rank();
  int inner = -1;
  for (int i = 0; i < outer; ++i) {
    const Layout m = layout.mode(i);
    if (!m.shape().is_tuple() || (inner >= 0 && m.rank() != inner)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "zip: the modes of ", StaticText(layout), " differ in rank"));
    }
    inner = m.rank();
  }
  std::vector<Layout> zipped;
  for (int j = 0; j < inner; ++j) {
    std::vector<Layout> column;
    for (int i = 0; i < outer; ++i) column.push_back(layout.mode(i).mode(j));
    HLOLAYOUT_ASSIGN_OR_RETURN(Layout c, MakeLayout(column));
    zipped.push_back(std::move(c));
  }
  return MakeLayout(zipped);
}

absl::StatusOr<Layout> Upcast(const Layout& layout, int64_t n) {
  if (n == 1) return layout;
  IntTuple shape;
  IntTuple stride;
  HLOLAYOUT_RETURN_IF_ERROR(
      UpcastLeaves(layout.shape(), layout.stride(), n, shape, stride));
  return Layout::Create(std::move(shape), std::move(stride));
}

absl::StatusOr<Layout> WithShape(const Layout& layout, const IntTuple& shape) {
  HLOLAYOUT_ASSIGN_OR_RETURN(Layout compact, StaticCompact(shape));
  return Composition(layout, compact);
}

IntTuple ProductEach(const IntTuple& shape) {
  if (shape.is_int()) return shape;
  std::vector<IntTuple> out;
  for (const IntTuple& e : shape.elements())
    out.push_back(IntTuple::Static(*Size(e)));
  return IntTuple::Tuple(std::move(out));
}

absl::StatusOr<Layout> Tuple(std::vector<Layout> modes) {
  return MakeLayout(modes);
}

IntTuple AllStatic(const IntTuple& t) { return WithTags(t, true); }

Layout AllStatic(const Layout& layout) {
  return Layout::Make(WithTags(layout.shape(), true),
                      WithTags(layout.stride(), true));
}

absl::StatusOr<Layout> StaticCompact(const IntTuple& shape) {
  return Layout::Compact(WithTags(shape, true));
}

Layout StaticMake(const IntTuple& shape, const IntTuple& stride) {
  return Layout::Make(WithTags(shape, true), WithTags(stride, true));
}

absl::StatusOr<Layout> ParseStaticLayout(absl::string_view text) {
  HLOLAYOUT_ASSIGN_OR_RETURN(Layout parsed, ParseLayout(text));
  if (text.find(':') == absl::string_view::npos) {
    return StaticCompact(parsed.shape());
  }
  return AllStatic(parsed);
}

}  // namespace hlolayout::cute::atom_internal

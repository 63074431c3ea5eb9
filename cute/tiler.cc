// cute/tiler.cc: Tiler construction.
#include "hlolayout/cute/tiler.h"

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::cute {

Tiler Tiler::Of(Layout layout) {
  Tiler t;
  t.kind_ = Kind::kLayout;
  t.layout_ = std::move(layout);
  return t;
}

Tiler Tiler::Tuple(std::vector<Tiler> elements) {
  Tiler t;
  t.kind_ = Kind::kTuple;
  t.elements_ = std::move(elements);
  return t;
}

absl::StatusOr<Tiler> Tiler::FromShape(const IntTuple& shape) {
  if (shape.is_int()) {
    HLOLAYOUT_ASSIGN_OR_RETURN(
        Layout l, Layout::Create(shape.integer(), IntTuple::Static(1)));
    return Of(std::move(l));
  }
  std::vector<Tiler> out;
  for (const IntTuple& e : shape.elements()) {
    HLOLAYOUT_ASSIGN_OR_RETURN(Tiler t, FromShape(e));
    out.push_back(std::move(t));
  }
  return Tuple(std::move(out));
}

const Layout& Tiler::layout() const {
  if (kind_ != Kind::kLayout) {
    std::fprintf(stderr, "Tiler::layout() on a tiler that is not a layout\n");
    std::abort();
  }
  return layout_;
}

const std::vector<Tiler>& Tiler::elements() const {
  if (kind_ != Kind::kTuple) {
    std::fprintf(stderr, "Tiler::elements() on a tiler that is not a tuple\n");
    std::abort();
  }
  return elements_;
}

}  // namespace hlolayout::cute

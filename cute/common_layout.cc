#include "hlolayout/cute/common_layout.h"

#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "hlolayout/cute/coalesce.h"
#include "hlolayout/cute/composition.h"
#include "hlolayout/cute/divide.h"
#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/cute/integer.h"
#include "hlolayout/cute/inverse.h"
#include "hlolayout/cute/layout.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::cute::internal {

namespace {

Modes LeavesOf(const Layout& l) {
  Modes leaves;
  AppendLeaves(l.shape(), l.stride(), leaves);
  return leaves;
}

// a ∘ b as the DSL computes it, as a layout.
absl::StatusOr<Layout> Composed(const Layout& a, const IntTuple& b_shape,
                                const IntTuple& b_stride) {
  HLOLAYOUT_ASSIGN_OR_RETURN(auto r,
                             DslComposition(LeavesOf(a), b_shape, b_stride));
  return Layout::Create(std::move(r.first), std::move(r.second));
}

// The leading run both layouts share: right_inverse(b), and the first mode
// of coalesce(a ∘ right_inverse(b)) when it is a static size at a static
// stride 1 (else none).
struct SharedRun {
  Layout inverse;
  bool found = false;
  Int size;
  Int stride;
};

absl::StatusOr<SharedRun> Shared(const Layout& a, const Layout& b) {
  SharedRun run{RightInverse(b)};
  HLOLAYOUT_ASSIGN_OR_RETURN(
      Layout common, Composed(a, run.inverse.shape(), run.inverse.stride()));
  common = Coalesce(common);
  const IntTuple& sh =
      common.shape().is_int() ? common.shape() : common.shape()[0];
  const IntTuple& st =
      common.stride().is_int() ? common.stride() : common.stride()[0];
  if (sh.is_int() && sh.integer().is_static && IsConstant(st.integer(), 1)) {
    run.found = true;
    run.size = sh.integer();
    run.stride = st.integer();
  }
  return run;
}

// A static layout that keeps what the DSL can tell of `l`: a `?` size as
// its divisibility (at least 1), a `?` stride as 0.
Layout StaticPart(const Layout& l) {
  std::vector<IntTuple> shapes, strides;
  for (const Mode& m : LeavesOf(l)) {
    const int64_t div = Divisibility(m.shape);
    shapes.push_back(IntTuple::Static(IsKnown(m.shape) ? m.shape.value
                                      : div > 0        ? div
                                                       : 1));
    strides.push_back(IntTuple::Static(IsKnown(m.stride) ? m.stride.value : 0));
  }
  if (shapes.size() == 1) return Layout::Make(shapes[0], strides[0]);
  return Layout::Make(IntTuple::Tuple(std::move(shapes)),
                      IntTuple::Tuple(std::move(strides)));
}

}  // namespace

absl::StatusOr<Layout> DslMaxCommonLayout(const Layout& a, const Layout& b) {
  HLOLAYOUT_ASSIGN_OR_RETURN(SharedRun run, Shared(a, b));
  if (!run.found) return Layout();
  return Composed(run.inverse, IntTuple(run.size), IntTuple(run.stride));
}

absl::StatusOr<Int> DslMaxCommonVector(const Layout& a, const Layout& b) {
  HLOLAYOUT_ASSIGN_OR_RETURN(SharedRun run, Shared(a, b));
  return run.found ? run.size : Int::Static(1);
}

absl::StatusOr<Layout> DslNullspace(const Layout& layout) {
  const IntTuple flat_shape = FlattenToTuple(layout.shape());
  HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple compact, PrefixProduct(flat_shape));
  const std::vector<Int> strides = FlattenInts(layout.stride());
  std::vector<IntTuple> shape_out, stride_out;
  for (size_t i = 0; i < strides.size(); ++i) {
    if (!IsConstant(strides[i], 0)) continue;
    shape_out.push_back(flat_shape.is_int() ? flat_shape : flat_shape[i]);
    stride_out.push_back(compact.is_int() ? compact : compact[i]);
  }
  if (shape_out.empty()) return Layout();
  if (shape_out.size() == 1) return Layout::Create(shape_out[0], stride_out[0]);
  return Layout::Create(IntTuple::Tuple(std::move(shape_out)),
                        IntTuple::Tuple(std::move(stride_out)));
}

absl::StatusOr<int64_t> DslMaxAlignment(const Layout& layout) {
  const Layout known = StaticPart(Coalesce(layout));
  const Layout run = RightInverse(known);
  HLOLAYOUT_ASSIGN_OR_RETURN(
      DslDivision divided,
      DslLogicalDivide(LeavesOf(known), run.shape(), run.stride()));
  HLOLAYOUT_ASSIGN_OR_RETURN(Int vector, Product(divided.shape[0]));
  int64_t n = integer_internal::SafeGcd(vector.value, 0);
  for (const Int& d : FlattenInts(divided.stride[1])) {
    n = integer_internal::SafeGcd(n, d.value);
  }
  return n;
}

}  // namespace hlolayout::cute::internal

// cute/tile_to_shape.cc: compact_order and tile_to_shape.
#include "hlolayout/cute/tile_to_shape.h"

#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/cute/print.h"
#include "hlolayout/cute/product.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::cute {

namespace {

// Compact column-major strides of `shape` from `current` (static size-1
// leaves get `_0`).
absl::StatusOr<IntTuple> CompactFrom(const IntTuple& shape, Int& current) {
  if (shape.is_int()) {
    if (IsStaticOne(shape.integer())) return IntTuple::Static(0);
    const Int stride = current;
    if (!TryMul(current, shape.integer(), &current)) {
      return absl::OutOfRangeError("strides overflow int64");
    }
    return IntTuple(stride);
  }
  std::vector<IntTuple> out;
  for (const IntTuple& e : shape.elements()) {
    HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple s, CompactFrom(e, current));
    out.push_back(std::move(s));
  }
  return IntTuple::Tuple(std::move(out));
}

// The product of `shape` at each leaf of `order` (CuTe's product_like),
// flattened, with the order's leaves beside them.
absl::Status RefShapes(const IntTuple& shape, const IntTuple& order,
                       std::vector<Int>& shapes, std::vector<int64_t>& orders) {
  if (order.is_int()) {
    HLOLAYOUT_ASSIGN_OR_RETURN(Int p, Product(shape));
    shapes.push_back(p);
    orders.push_back(order.value());
    return absl::OkStatus();
  }
  if (shape.is_int() || Rank(shape) != Rank(order)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "order ", ToString(order), " does not fit shape ", ToString(shape)));
  }
  for (int i = 0; i < Rank(order); ++i) {
    HLOLAYOUT_RETURN_IF_ERROR(RefShapes(shape[i], order[i], shapes, orders));
  }
  return absl::OkStatus();
}

absl::StatusOr<IntTuple> OrderedStrides(
    const IntTuple& shape, const IntTuple& order,
    const std::vector<Int>& ref_shapes,
    const std::vector<int64_t>& ref_orders) {
  if (order.is_tuple()) {
    std::vector<IntTuple> out;
    for (int i = 0; i < Rank(order); ++i) {
      HLOLAYOUT_ASSIGN_OR_RETURN(
          IntTuple s,
          OrderedStrides(shape[i], order[i], ref_shapes, ref_orders));
      out.push_back(std::move(s));
    }
    return IntTuple::Tuple(std::move(out));
  }
  Int start = Int::Static(1);
  for (size_t j = 0; j < ref_shapes.size(); ++j) {
    if (ref_orders[j] < order.value() &&
        !TryMul(start, ref_shapes[j], &start)) {
      return absl::OutOfRangeError("strides overflow int64");
    }
  }
  return CompactFrom(shape, start);
}

}  // namespace

absl::StatusOr<Layout> MakeOrderedLayout(
    const IntTuple& shape, const absl::optional<IntTuple>& order) {
  if (!order) return Layout::Compact(shape);
  std::vector<Int> ref_shapes;
  std::vector<int64_t> ref_orders;
  HLOLAYOUT_RETURN_IF_ERROR(RefShapes(shape, *order, ref_shapes, ref_orders));
  HLOLAYOUT_ASSIGN_OR_RETURN(
      IntTuple stride, OrderedStrides(shape, *order, ref_shapes, ref_orders));
  return Layout::Create(shape, std::move(stride));
}

namespace internal {

absl::StatusOr<DslRepetitions> DslTileRepetitions(
    const IntTuple& block_shape, const IntTuple& target_shape,
    const absl::optional<IntTuple>& order) {
  const int rank = Rank(target_shape);
  if (Rank(block_shape) != rank) {
    return absl::InvalidArgumentError(
        absl::StrCat("tile_to_shape: the padded block has rank ",
                     Rank(block_shape), ", the target shape ", rank));
  }
  DslRepetitions r;
  bool known = true;
  std::vector<IntTuple> counts;
  for (int i = 0; i < rank; ++i) {
    HLOLAYOUT_ASSIGN_OR_RETURN(
        Int b, Product(block_shape.is_int() ? block_shape : block_shape[i]));
    HLOLAYOUT_ASSIGN_OR_RETURN(
        Int t, Product(target_shape.is_int() ? target_shape : target_shape[i]));
    if (IsKnown(b) && b.value < 1) {
      return absl::InvalidArgumentError(
          "tile_to_shape: a block mode's size is below 1");
    }
    known = known && IsKnown(b) && IsKnown(t);
    if (IsKnown(b) && IsKnown(t) && t.value % b.value != 0) r.divides = false;
    Int c = CeilDiv(t, b);
    if (!IsKnown(t) && IsStaticOne(b)) {
      c = t;
    } else if (c.unknown) {
      c = Int::Unknown(c.value, 1, c.wide);
    }
    counts.push_back(IntTuple(c));
  }
  r.divides = r.divides || !known;
  HLOLAYOUT_ASSIGN_OR_RETURN(
      r.layout, MakeOrderedLayout(IntTuple::Tuple(std::move(counts)), order));
  return r;
}

}  // namespace internal

absl::StatusOr<Layout> TileToShape(const Layout& block,
                                   const IntTuple& target_shape,
                                   const absl::optional<IntTuple>& order) {
  auto fail = [&](absl::string_view what) {
    return absl::InvalidArgumentError(
        absl::StrCat("tile_to_shape ", ToString(block), " to ",
                     ToString(target_shape), order ? " in order " : "",
                     order ? ToString(*order) : "", " fails: ", what));
  };
  const int rank = Rank(target_shape);
  if (block.rank() > rank) {
    return fail(absl::StrCat("the layout has rank ", block.rank(),
                             ", more than the target shape's ", rank,
                             " (CuTe: Rank of layout must be <= rank of target "
                             "shape)"));
  }
  for (int64_t v : Flatten(target_shape)) {
    if (v <= 0) return fail("the target shape has a non-positive size");
  }
  // append<R>(block): pad with _1:_0 modes.
  std::vector<Layout> modes = block.modes();
  while (static_cast<int>(modes.size()) < rank) modes.push_back(Layout());
  HLOLAYOUT_ASSIGN_OR_RETURN(Layout padded, rank == 1 && block.rank() == 1
                                                ? absl::StatusOr<Layout>(block)
                                                : MakeLayout(modes));
  std::vector<IntTuple> counts;
  for (int i = 0; i < rank; ++i) {
    const Int b = modes[i].size_int();
    HLOLAYOUT_ASSIGN_OR_RETURN(Int t, Product(target_shape[i]));
    if (t.value % b.value != 0) {
      return fail(absl::StrCat(
          "mode ", i, " of the block has size ", b.value,
          ", which does not divide the target's ", t.value,
          " (CuTe: block shape does not divide the target shape)"));
    }
    counts.push_back(IntTuple(CeilDiv(t, b)));
  }
  // product_each wraps: the counts are a tuple even for an integer target.
  const IntTuple count_shape = IntTuple::Tuple(std::move(counts));
  absl::StatusOr<Layout> ordered = MakeOrderedLayout(count_shape, order);
  if (!ordered.ok()) return fail(ordered.status().message());
  absl::StatusOr<Layout> r = BlockedProduct(padded, *ordered);
  if (!r.ok()) return fail(r.status().message());
  return r;
}

}  // namespace hlolayout::cute

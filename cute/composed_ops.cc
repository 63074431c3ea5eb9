// cute/composed_ops.cc: CuTe's operations on swizzles and composed layouts.
#include "hlolayout/cute/composed_ops.h"

#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/cute/coalesce.h"
#include "hlolayout/cute/complement.h"
#include "hlolayout/cute/composition.h"
#include "hlolayout/cute/divide.h"
#include "hlolayout/cute/internal/regroup.h"
#include "hlolayout/cute/inverse.h"
#include "hlolayout/cute/print.h"
#include "hlolayout/cute/product.h"
#include "hlolayout/cute/recast.h"
#include "hlolayout/cute/swizzle.h"
#include "hlolayout/cute/tile_to_shape.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::cute {

namespace {

absl::Status Refuse(absl::string_view op, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(op, " ", what));
}

absl::Status Prefixed(absl::string_view prefix, const absl::Status& s) {
  return absl::Status(s.code(), absl::StrCat(prefix, ": ", s.message()));
}

// A o O o B with B replaced: CuTe's composition(A, O, B').
absl::StatusOr<AnyLayout> Under(const ComposedLayout& c, AnyLayout inner) {
  return MakeComposed(c.outer(), c.offset(), std::move(inner));
}

// The offset counts as CuTe's static zero (an unset smem pointer is a
// static 0 too: smem_ptr_flag_bits derives from Int<0>).
bool IsZeroOffset(const ComposedOffset& o) {
  return o.is_smem_ptr() || (o.value().is_static && o.value().value == 0);
}

Layout StaticLayout(std::vector<int64_t> shape, std::vector<int64_t> stride) {
  std::vector<IntTuple> sh, st;
  for (int64_t v : shape) sh.push_back(IntTuple::Static(v));
  for (int64_t v : stride) st.push_back(IntTuple::Static(v));
  return Layout::Make(IntTuple::Tuple(std::move(sh)),
                      IntTuple::Tuple(std::move(st)));
}

int AbsShift(const Swizzle& sw) {
  return sw.shift() < 0 ? -sw.shift() : sw.shift();
}

// CuTe's projection of a swizzle onto its Y and Z fields, as written in
// logical_product and transfer_swizzle: (2^M, 2^B, 2^(|S|-B), 2^B, 1) :
// (0, 2^M, 0, 2^(M+|S|), 0).
Layout OnlyZy(const Swizzle& sw) {
  const int b = sw.bits(), m = sw.base(), s = AbsShift(sw);
  return StaticLayout({int64_t{1} << m, int64_t{1} << b, int64_t{1} << (s - b),
                       int64_t{1} << b, 1},
                      {0, int64_t{1} << m, 0, int64_t{1} << (m + s), 0});
}

// The same projections as slice_and_offset builds them, from the compact
// layout sw of that shape: anti_zy keeps the fields the swizzle does not
// touch, only_zy the two it does.
struct Projections {
  Layout anti_zy;
  Layout only_zy;
};

Projections SliceProjections(const Swizzle& sw) {
  const int b = sw.bits(), m = sw.base(), s = AbsShift(sw);
  const std::vector<int64_t> shape = {int64_t{1} << m, int64_t{1} << b,
                                      int64_t{1} << (s - b), int64_t{1} << b,
                                      1};
  std::vector<int64_t> compact;
  int64_t current = 1;
  for (int64_t e : shape) {
    compact.push_back(e == 1 ? 0 : current);
    current *= e;
  }
  return Projections{
      StaticLayout(shape, {compact[0], 0, compact[2], 0, current}),
      StaticLayout(shape, {0, compact[1], 0, compact[3], 0})};
}

// CuTe's to_mixed_bits(layout, coord) for static values: the XOR over the
// leaves of (c_k * d_k) & ((s_k - 1) * d_k), c the natural coordinate.
absl::StatusOr<int64_t> MixedBits(const Layout& layout, const IntTuple& coord) {
  HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple natural, IdxToCrd(coord, layout.shape()));
  const std::vector<int64_t> c = Flatten(natural);
  const std::vector<int64_t> s = Flatten(layout.shape());
  const std::vector<int64_t> d = Flatten(layout.stride());
  int64_t bits = 0;
  for (size_t k = 0; k < s.size(); ++k) {
    bits ^= (c[k] * d[k]) & ((s[k] - 1) * d[k]);
  }
  return bits;
}

// The coordinate of the sliced-away modes, CuTe's dice(coord, coord): the
// integer leaves, flattened into one tuple (an integer stays itself).
void IntLeaves(const SliceCoord& c, std::vector<IntTuple>& out) {
  if (c.is_int()) out.push_back(IntTuple(c.value()));
  if (!c.is_tuple()) return;
  for (const SliceCoord& e : c.elements()) IntLeaves(e, out);
}

IntTuple DicedCoord(const SliceCoord& c) {
  if (c.is_int()) return IntTuple(c.value());
  std::vector<IntTuple> out;
  IntLeaves(c, out);
  return IntTuple::Tuple(std::move(out));
}

absl::StatusOr<SlicedAnyLayout> SliceSwizzled(const SliceCoord& c,
                                              const ComposedLayout& l) {
  const Swizzle sw = l.outer().swizzle();
  const Layout& b = l.inner().layout();
  const Int offset = l.offset().value();
  if (c.all_underscore()) {
    HLOLAYOUT_ASSIGN_OR_RETURN(Layout sliced, Slice(c, b));
    HLOLAYOUT_ASSIGN_OR_RETURN(AnyLayout r,
                               MakeComposed(sw, l.offset(), std::move(sliced)));
    return SlicedAnyLayout{std::move(r), Int::Static(0)};
  }
  const Projections p = SliceProjections(sw);
  HLOLAYOUT_ASSIGN_OR_RETURN(Layout sliced, Slice(c, b));
  HLOLAYOUT_ASSIGN_OR_RETURN(Layout diced, Dice(c, b));
  const IntTuple diced_coord = DicedCoord(c);
  HLOLAYOUT_ASSIGN_OR_RETURN(Layout diced_anti, Composition(p.anti_zy, diced));
  HLOLAYOUT_ASSIGN_OR_RETURN(Layout diced_only, Composition(p.only_zy, diced));
  HLOLAYOUT_ASSIGN_OR_RETURN(int64_t mixed, MixedBits(diced_only, diced_coord));
  const bool coord_static = diced_coord.is_static();
  const Int only_zy{offset.value ^ mixed, offset.is_static && coord_static};
  HLOLAYOUT_ASSIGN_OR_RETURN(int64_t anti_value,
                             diced_anti.Evaluate(diced_coord));
  const Int anti_zy{anti_value,
                    coord_static && diced_anti.stride().is_static()};
  HLOLAYOUT_ASSIGN_OR_RETURN(Layout sliced_only,
                             Composition(p.only_zy, sliced));
  HLOLAYOUT_ASSIGN_OR_RETURN(int64_t active,
                             sliced_only.TryEvaluate(sliced_only.size() - 1));
  if ((active & ~sw(active)) != 0) {
    // The kept modes reach both bits of a swizzled pair: not reducible.
    HLOLAYOUT_ASSIGN_OR_RETURN(
        AnyLayout r,
        MakeComposed(sw, ComposedOffset::Of(only_zy), std::move(sliced)));
    return SlicedAnyLayout{std::move(r), anti_zy};
  }
  // Decay: the swizzle, restricted to what the kept modes reach, is linear.
  const int64_t z = sw.zzz_mask() & -sw.zzz_mask();
  const int64_t y = sw.yyy_mask() & -sw.yyy_mask();
  auto strides = [&](bool z_field) {
    std::vector<int64_t> out;
    for (int i = 0; i < sw.bits(); ++i) {
      if (z_field) {  // Z bits: -Z when the paired Y bit is set.
        out.push_back((only_zy.value & (y << i)) == 0 ? (z << i) : -(z << i));
      } else {  // Y bits: Y+Z, or Y-Z when the paired Z bit is set.
        // (y - z) is negative when Z lies above Y: scale by a product, not
        // a shift (a left shift of a negative value is undefined in C++17).
        const int64_t step = int64_t{1} << i;
        out.push_back((only_zy.value & (z << i)) == 0 ? (y + z) * step
                                                      : (y - z) * step);
      }
    }
    return out;
  };
  const std::vector<int64_t> lo = strides(z < y);
  const std::vector<int64_t> hi = strides(z > y);
  const int m = sw.base(), s = AbsShift(sw), bits = sw.bits();
  std::vector<IntTuple> shape = {IntTuple::Static(int64_t{1} << m)};
  std::vector<IntTuple> stride = {IntTuple::Static(1)};
  const bool tag = only_zy.is_static;
  for (int64_t v : lo) {
    shape.push_back(IntTuple::Static(2));
    stride.push_back(IntTuple(Int{v, tag}));
  }
  shape.push_back(IntTuple::Static(int64_t{1} << (s - bits)));
  stride.push_back(IntTuple::Static(int64_t{1} << (m + bits)));
  for (int64_t v : hi) {
    shape.push_back(IntTuple::Static(2));
    stride.push_back(IntTuple(Int{v, tag}));
  }
  shape.push_back(IntTuple::Static(1));
  stride.push_back(IntTuple::Static(int64_t{1} << (m + bits + s)));
  const Layout swizzle_layout = Layout::Make(
      IntTuple::Tuple(std::move(shape)), IntTuple::Tuple(std::move(stride)));
  HLOLAYOUT_ASSIGN_OR_RETURN(Layout r, Composition(swizzle_layout, sliced));
  Int base;
  if (!TryAdd(Int{sw(only_zy.value), only_zy.is_static}, anti_zy, &base)) {
    return absl::OutOfRangeError("the offset overflows int64");
  }
  return SlicedAnyLayout{AnyLayout(std::move(r)), base};
}

absl::StatusOr<AnyLayout> ComposeLayoutSwizzle(const Layout& a,
                                               const Swizzle& b) {
  auto fail = [&](const absl::Status& s) {
    return Refuse(absl::StrCat("composition ", ToString(a), " o ", ToString(b)),
                  absl::StrCat("fails: ", s.message()));
  };
  absl::StatusOr<int64_t> y = a.TryEvaluate(b.yyy_mask());
  absl::StatusOr<int64_t> z = a.TryEvaluate(b.zzz_mask());
  if (!y.ok()) return fail(y.status());
  if (!z.ok()) return fail(z.status());
  absl::StatusOr<Swizzle> sw = Swizzle::FromMasks(*y, *z);
  if (!sw.ok()) return fail(sw.status());
  return MakeComposed(*sw, ComposedOffset(), a);
}

// logical_product(Layout, Sw o _0 o T).
absl::StatusOr<AnyLayout> ProductWithSwizzled(const Layout& a,
                                              const ComposedLayout& b) {
  const std::string op =
      absl::StrCat("logical_product ", ToString(a), " x ", ToString(b));
  if (!b.outer().is_swizzle() || !b.inner().is_layout()) {
    return Refuse(op,
                  "fails: a composed tiler must be Sw<B,M,S> o _0 o a "
                  "layout");
  }
  if (!IsZeroOffset(b.offset())) {
    return Refuse(op,
                  "fails: the tiler's offset must be 0 (CuTe: Require "
                  "Swizzle offset == 0)");
  }
  const Swizzle sw = b.outer().swizzle();
  const Layout& t = b.inner().layout();
  HLOLAYOUT_ASSIGN_OR_RETURN(Layout product, LogicalProduct(a, Tiler::Of(t)));
  absl::StatusOr<Layout> only = Composition(OnlyZy(sw), t);
  if (!only.ok()) return Prefixed(op, only.status());
  HLOLAYOUT_ASSIGN_OR_RETURN(int64_t active,
                             only->TryEvaluate(only->size() - 1));
  HLOLAYOUT_ASSIGN_OR_RETURN(int64_t tz, t.TryEvaluate(active & sw.zzz_mask()));
  HLOLAYOUT_ASSIGN_OR_RETURN(int64_t ty, t.TryEvaluate(active & sw.yyy_mask()));
  HLOLAYOUT_ASSIGN_OR_RETURN(int64_t new_z,
                             product.Evaluate(IntTuple::Tuple({0, tz})));
  HLOLAYOUT_ASSIGN_OR_RETURN(int64_t new_y,
                             product.Evaluate(IntTuple::Tuple({0, ty})));
  absl::StatusOr<Swizzle> derived = Swizzle::FromMasks(new_y, new_z);
  if (!derived.ok()) return Prefixed(op, derived.status());
  return MakeComposed(*derived, ComposedOffset(), std::move(product));
}

absl::StatusOr<Layout> LayoutDivide(DivideKind kind, const Layout& a,
                                    const Tiler& b) {
  switch (kind) {
    case DivideKind::kLogical:
      return LogicalDivide(a, b);
    case DivideKind::kZipped:
      return ZippedDivide(a, b);
    case DivideKind::kTiled:
      return TiledDivide(a, b);
    case DivideKind::kFlat:
      return FlatDivide(a, b);
  }
  return absl::InternalError("divide kind");
}

absl::StatusOr<Layout> LayoutProduct(ProductKind kind, const Layout& a,
                                     const Tiler& b) {
  switch (kind) {
    case ProductKind::kLogical:
      return LogicalProduct(a, b);
    case ProductKind::kZipped:
      return ZippedProduct(a, b);
    case ProductKind::kTiled:
      return TiledProduct(a, b);
    case ProductKind::kFlat:
      return FlatProduct(a, b);
  }
  return absl::InternalError("product kind");
}

absl::Status SwizzleAlone(absl::string_view op, const Swizzle& sw) {
  return Refuse(op, absl::StrCat("of the swizzle ", ToString(sw),
                                 " alone is not defined (compose it with a "
                                 "layout first)"));
}

}  // namespace

absl::StatusOr<AnyLayout> Compose(const AnyLayout& a, const AnyLayout& b) {
  switch (a.kind()) {
    case AnyLayout::Kind::kComposed: {
      HLOLAYOUT_ASSIGN_OR_RETURN(AnyLayout inner,
                                 Compose(a.composed().inner(), b));
      return Under(a.composed(), std::move(inner));
    }
    case AnyLayout::Kind::kSwizzle:
      if (b.is_swizzle()) {
        HLOLAYOUT_ASSIGN_OR_RETURN(Swizzle s,
                                   Compose(a.swizzle(), b.swizzle()));
        return AnyLayout(s);
      }
      return MakeComposed(a.swizzle(), ComposedOffset(), b);
    case AnyLayout::Kind::kLayout:
      break;
  }
  const Layout& l = a.layout();
  switch (b.kind()) {
    case AnyLayout::Kind::kLayout: {
      HLOLAYOUT_ASSIGN_OR_RETURN(Layout r, Composition(l, b.layout()));
      return AnyLayout(std::move(r));
    }
    case AnyLayout::Kind::kSwizzle:
      return ComposeLayoutSwizzle(l, b.swizzle());
    case AnyLayout::Kind::kComposed:
      break;
  }
  const ComposedLayout& c = b.composed();
  if (!IsZeroOffset(c.offset())) {
    return Refuse(absl::StrCat("composition ", ToString(l), " o ", ToString(c)),
                  "fails: the composed layout's offset must be 0 (CuTe: "
                  "Require offset == 0)");
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(AnyLayout left, Compose(a, c.outer()));
  return Compose(left, c.inner());
}

absl::StatusOr<AnyLayout> Compose(const AnyLayout& a, const Tiler& b) {
  switch (a.kind()) {
    case AnyLayout::Kind::kLayout: {
      HLOLAYOUT_ASSIGN_OR_RETURN(Layout r, Composition(a.layout(), b));
      return AnyLayout(std::move(r));
    }
    case AnyLayout::Kind::kComposed: {
      HLOLAYOUT_ASSIGN_OR_RETURN(AnyLayout inner,
                                 Compose(a.composed().inner(), b));
      return Under(a.composed(), std::move(inner));
    }
    case AnyLayout::Kind::kSwizzle:
      break;
  }
  if (b.is_layout()) return Compose(a, AnyLayout(b.layout()));
  return Refuse(absl::StrCat("composition ", ToString(a), " o ", ToString(b)),
                "fails: a swizzle composes with a layout, not with a tiler");
}

namespace {

absl::StatusOr<AnyLayout> Inverse(const AnyLayout& l, bool right) {
  switch (l.kind()) {
    case AnyLayout::Kind::kSwizzle:
      return l;
    case AnyLayout::Kind::kLayout:
      if (right) return AnyLayout(RightInverse(l.layout()));
      {
        HLOLAYOUT_ASSIGN_OR_RETURN(Layout r, LeftInverse(l.layout()));
        return AnyLayout(std::move(r));
      }
    case AnyLayout::Kind::kComposed:
      break;
  }
  const ComposedLayout& c = l.composed();
  HLOLAYOUT_ASSIGN_OR_RETURN(AnyLayout inv_b, Inverse(c.inner(), right));
  if (c.outer().is_swizzle() && IsZeroOffset(c.offset())) {
    absl::StatusOr<AnyLayout> r = Compose(inv_b, c.outer());
    if (!r.ok()) {
      return Prefixed(
          absl::StrCat(right ? "right_inverse " : "left_inverse ", ToString(l)),
          r.status());
    }
    return r;
  }
  if (c.offset().is_smem_ptr()) {
    return Refuse(right ? "right_inverse" : "left_inverse",
                  absl::StrCat("of ", ToString(l),
                               " is not defined: the smem pointer offset "
                               "has no inverse"));
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(AnyLayout inv_a, Inverse(c.outer(), right));
  if (inv_a.is_swizzle()) {
    return Refuse(right ? "right_inverse" : "left_inverse",
                  absl::StrCat("of ", ToString(l),
                               " is not defined: with a non-zero offset the "
                               "inverse would compose a swizzle as its inner "
                               "part"));
  }
  return MakeComposed(std::move(inv_b),
                      ComposedOffset::Of(Neg(c.offset().value())),
                      std::move(inv_a));
}

}  // namespace

absl::StatusOr<AnyLayout> RightInverseOf(const AnyLayout& l) {
  return Inverse(l, /*right=*/true);
}

absl::StatusOr<AnyLayout> LeftInverseOf(const AnyLayout& l) {
  return Inverse(l, /*right=*/false);
}

absl::StatusOr<Layout> ComplementOf(const AnyLayout& l,
                                    const absl::optional<IntTuple>& cotarget) {
  switch (l.kind()) {
    case AnyLayout::Kind::kLayout:
      return cotarget ? Complement(l.layout(), *cotarget)
                      : Complement(l.layout());
    case AnyLayout::Kind::kSwizzle:
      return SwizzleAlone("complement", l.swizzle());
    case AnyLayout::Kind::kComposed:
      break;
  }
  const ComposedLayout& c = l.composed();
  const IntTuple cot =
      cotarget ? *cotarget : IntTuple(c.innermost().cosize_int());
  return ComplementOf(c.inner(), cot);
}

namespace {

// op(B) under A o O, for the ops that act on the domain alone.
template <typename Fn>
absl::StatusOr<AnyLayout> OnDomain(absl::string_view op, const AnyLayout& l,
                                   Fn fn) {
  switch (l.kind()) {
    case AnyLayout::Kind::kLayout: {
      HLOLAYOUT_ASSIGN_OR_RETURN(Layout r, fn(l.layout()));
      return AnyLayout(std::move(r));
    }
    case AnyLayout::Kind::kSwizzle:
      return SwizzleAlone(op, l.swizzle());
    case AnyLayout::Kind::kComposed:
      break;
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(AnyLayout inner,
                             OnDomain(op, l.composed().inner(), fn));
  return Under(l.composed(), std::move(inner));
}

}  // namespace

absl::StatusOr<AnyLayout> CoalesceOf(const AnyLayout& l,
                                     const absl::optional<IntTuple>& profile) {
  return OnDomain("coalesce", l,
                  [&](const Layout& b) -> absl::StatusOr<Layout> {
                    if (profile) return Coalesce(b, *profile);
                    return Coalesce(b);
                  });
}

absl::StatusOr<AnyLayout> FilterOf(const AnyLayout& l,
                                   const absl::optional<IntTuple>& profile) {
  return OnDomain("filter", l, [&](const Layout& b) -> absl::StatusOr<Layout> {
    if (profile) return Filter(b, *profile);
    return Filter(b);
  });
}

absl::StatusOr<AnyLayout> GetMode(const AnyLayout& l, int i) {
  return OnDomain("get", l, [&](const Layout& b) -> absl::StatusOr<Layout> {
    if (i < 0 || i >= b.rank()) {
      return absl::InvalidArgumentError(
          absl::StrCat("get: mode ", i, " is not in 0..", b.rank() - 1));
    }
    return b.mode(i);
  });
}

absl::StatusOr<AnyLayout> FlattenOf(const AnyLayout& l) {
  return OnDomain("flatten", l, [](const Layout& b) -> absl::StatusOr<Layout> {
    return FlattenLayout(b);
  });
}

absl::StatusOr<AnyLayout> Divide(DivideKind kind, const AnyLayout& a,
                                 const Tiler& b) {
  return OnDomain("divide", a,
                  [&](const Layout& l) { return LayoutDivide(kind, l, b); });
}

absl::StatusOr<AnyLayout> Product(ProductKind kind, const AnyLayout& a,
                                  const Tiler& b) {
  return OnDomain("product", a,
                  [&](const Layout& l) { return LayoutProduct(kind, l, b); });
}

absl::StatusOr<AnyLayout> Product(ProductKind kind, const AnyLayout& a,
                                  const AnyLayout& b) {
  if (b.is_layout()) return Product(kind, a, Tiler::Of(b.layout()));
  if (b.is_swizzle()) return SwizzleAlone("a product", b.swizzle());
  switch (a.kind()) {
    case AnyLayout::Kind::kSwizzle:
      return SwizzleAlone("a product", a.swizzle());
    case AnyLayout::Kind::kComposed: {
      HLOLAYOUT_ASSIGN_OR_RETURN(AnyLayout inner,
                                 Product(kind, a.composed().inner(), b));
      return Under(a.composed(), std::move(inner));
    }
    case AnyLayout::Kind::kLayout:
      break;
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(AnyLayout r,
                             ProductWithSwizzled(a.layout(), b.composed()));
  if (kind == ProductKind::kLogical || kind == ProductKind::kZipped) return r;
  // tiled/flat: regroup the product as for a layout tiler (CuTe slices the
  // composed result with `_`, which acts on its inner layout).
  const internal::Grouping g = kind == ProductKind::kTiled
                                   ? internal::Grouping::kTiled
                                   : internal::Grouping::kFlat;
  const Tiler guide = Tiler::Of(b.composed().innermost());
  return OnDomain("product", r, [&](const Layout& l) {
    return internal::Regroup(l, guide, g);
  });
}

namespace {

absl::StatusOr<AnyLayout> Interleaved(const AnyLayout& a, const AnyLayout& b,
                                      bool raked) {
  const char* op = raked ? "raked_product" : "blocked_product";
  if (!b.is_layout()) {
    return Refuse(op, absl::StrCat("of ", ToString(a), " and ", ToString(b),
                                   " fails: the second operand must be a "
                                   "layout"));
  }
  return OnDomain(op, a, [&](const Layout& l) {
    return raked ? RakedProduct(l, b.layout()) : BlockedProduct(l, b.layout());
  });
}

}  // namespace

absl::StatusOr<AnyLayout> BlockedProductOf(const AnyLayout& a,
                                           const AnyLayout& b) {
  return Interleaved(a, b, /*raked=*/false);
}

absl::StatusOr<AnyLayout> RakedProductOf(const AnyLayout& a,
                                         const AnyLayout& b) {
  return Interleaved(a, b, /*raked=*/true);
}

absl::StatusOr<AnyLayout> TileToShapeOf(const AnyLayout& a,
                                        const IntTuple& target_shape,
                                        const absl::optional<IntTuple>& order) {
  return OnDomain("tile_to_shape", a, [&](const Layout& l) {
    return TileToShape(l, target_shape, order);
  });
}

absl::StatusOr<SlicedAnyLayout> SliceAndOffsetOf(const SliceCoord& c,
                                                 const AnyLayout& l) {
  switch (l.kind()) {
    case AnyLayout::Kind::kLayout: {
      HLOLAYOUT_ASSIGN_OR_RETURN(SlicedLayout s, SliceAndOffset(c, l.layout()));
      return SlicedAnyLayout{AnyLayout(std::move(s.layout)), s.offset};
    }
    case AnyLayout::Kind::kSwizzle:
      return SwizzleAlone("slice", l.swizzle());
    case AnyLayout::Kind::kComposed:
      break;
  }
  const ComposedLayout& cl = l.composed();
  const std::string op =
      absl::StrCat("slice_and_offset ", ToString(c), " of ", ToString(l));
  if (cl.outer().is_swizzle() && cl.inner().is_layout() &&
      !cl.offset().is_smem_ptr()) {
    absl::StatusOr<SlicedAnyLayout> r = SliceSwizzled(c, cl);
    if (!r.ok()) return Prefixed(op, r.status());
    return r;
  }
  // Slice B; the offset moves into the composed layout (an unset smem
  // pointer stays when the inner offset is a static 0).
  HLOLAYOUT_ASSIGN_OR_RETURN(SlicedAnyLayout inner,
                             SliceAndOffsetOf(c, cl.inner()));
  ComposedOffset offset = cl.offset();
  if (cl.offset().is_smem_ptr()) {
    if (!(inner.offset.is_static && inner.offset.value == 0)) {
      offset = ComposedOffset::Of(inner.offset);
    }
  } else {
    Int sum;
    if (!TryAdd(cl.offset().value(), inner.offset, &sum)) {
      return Refuse(op, "fails: the offset overflows int64");
    }
    offset = ComposedOffset::Of(sum);
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(
      ComposedLayout r,
      ComposedLayout::Create(cl.outer(), offset, std::move(inner.layout)));
  return SlicedAnyLayout{AnyLayout(std::move(r)), Int::Static(0)};
}

absl::StatusOr<AnyLayout> SliceOf(const SliceCoord& c, const AnyLayout& l) {
  HLOLAYOUT_ASSIGN_OR_RETURN(SlicedAnyLayout s, SliceAndOffsetOf(c, l));
  return std::move(s.layout);
}

namespace {

absl::StatusOr<AnyLayout> Recast(const AnyLayout& l, int64_t n, bool up) {
  const std::string op = absl::StrCat(up ? "upcast<" : "downcast<", n, ">");
  switch (l.kind()) {
    case AnyLayout::Kind::kLayout: {
      HLOLAYOUT_ASSIGN_OR_RETURN(
          Layout r, up ? Upcast(l.layout(), n) : Downcast(l.layout(), n));
      return AnyLayout(std::move(r));
    }
    case AnyLayout::Kind::kSwizzle: {
      HLOLAYOUT_ASSIGN_OR_RETURN(
          Swizzle s, up ? Upcast(l.swizzle(), n) : Downcast(l.swizzle(), n));
      return AnyLayout(s);
    }
    case AnyLayout::Kind::kComposed:
      break;
  }
  const ComposedLayout& c = l.composed();
  HLOLAYOUT_ASSIGN_OR_RETURN(AnyLayout inner, Recast(c.inner(), n, up));
  if (c.offset().is_smem_ptr()) {
    // The swizzle acts on byte addresses: it stays; the width scales.
    const int bits = c.offset().smem_bits();
    if (!up && (n <= 0 || bits % n != 0)) {
      return Refuse(
          op, absl::StrCat("of ", ToString(l), " fails: ", n,
                           " does not divide the pointer's ", bits, " bits"));
    }
    const int64_t new_bits = up ? int64_t{bits} * n : bits / n;
    if (new_bits <= 0 || new_bits > 1024) {
      return Refuse(op, absl::StrCat("of ", ToString(l),
                                     " fails: the pointer width leaves 1 to "
                                     "1024 bits"));
    }
    return MakeComposed(c.outer(),
                        ComposedOffset::SmemPtr(static_cast<int>(new_bits)),
                        std::move(inner));
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(AnyLayout outer, Recast(c.outer(), n, up));
  const Int o = c.offset().value();
  Int new_offset;
  if (up) {
    if (o.is_static && o.value % n != 0) {
      return Refuse(op, absl::StrCat("of ", ToString(l), " fails: ", n,
                                     " does not divide the offset ", o.value,
                                     " (CuTe: Static safe_div requires t % u "
                                     "== 0)"));
    }
    new_offset = Div(o, Int::Static(n));
  } else if (!TryMul(o, Int::Static(n), &new_offset)) {
    return Refuse(op, "fails: the offset overflows int64");
  }
  // CuTe's upcast/downcast of an offset gives a static 0 of another type
  // (C<0u>), so an identity swizzle is kept here, not dropped.
  HLOLAYOUT_ASSIGN_OR_RETURN(
      ComposedLayout r,
      ComposedLayout::Create(std::move(outer), ComposedOffset::Of(new_offset),
                             std::move(inner)));
  return AnyLayout(std::move(r));
}

}  // namespace

absl::StatusOr<AnyLayout> UpcastOf(const AnyLayout& l, int64_t n) {
  return Recast(l, n, /*up=*/true);
}

absl::StatusOr<AnyLayout> DowncastOf(const AnyLayout& l, int64_t n) {
  return Recast(l, n, /*up=*/false);
}

absl::StatusOr<AnyLayout> RecastLayoutOf(const AnyLayout& l, int64_t old_bits,
                                         int64_t new_bits) {
  return RecastBy(l, old_bits, new_bits, UpcastOf, DowncastOf);
}

}  // namespace hlolayout::cute

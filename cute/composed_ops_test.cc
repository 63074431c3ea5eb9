#include "hlolayout/cute/composed_ops.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "hlolayout/cute/inverse.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/cute/print.h"
#include "hlolayout/testing/cute_random_layout.h"

namespace hlolayout::cute {
namespace {

AnyLayout A(absl::string_view text) {
  absl::StatusOr<AnyLayout> l = ParseAnyLayout(text);
  EXPECT_TRUE(l.ok()) << text << ": " << l.status().message();
  return l.ok() ? *l : AnyLayout();
}

std::string S(const absl::StatusOr<AnyLayout>& l) {
  if (!l.ok()) return "error: " + std::string(l.status().message());
  return ToString(*l);
}

int64_t Eval(const AnyLayout& l, int64_t i) {
  absl::StatusOr<int64_t> v = l.TryEvaluate(i);
  EXPECT_TRUE(v.ok()) << ToString(l) << " at " << i;
  return v.ok() ? *v : -1;
}

// Small swizzles: B <= 2, M <= 2, B <= |S| <= 3.
std::vector<Swizzle> SmallSwizzles() {
  std::vector<Swizzle> out;
  for (int b = 1; b <= 2; ++b) {
    for (int m = 0; m <= 2; ++m) {
      for (int s = -3; s <= 3; ++s) {
        if ((s < 0 ? -s : s) < b) continue;
        out.push_back(*Swizzle::Create(b, m, s));
      }
    }
  }
  return out;
}

// A random bijection of 0..2^bits-1 as a layout of power-of-two modes with
// the strides of a compact layout in a random order.
Layout PowerOfTwoPermutation(internal::LayoutGenerator& gen, int bits) {
  std::vector<int> sizes;
  int left = bits;
  while (left > 0) {
    const int k = static_cast<int>(gen.Uniform(1, std::min(left, 3)));
    sizes.push_back(k);
    left -= k;
  }
  std::vector<int> order(sizes.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  for (size_t i = order.size(); i > 1; --i) {
    std::swap(order[i - 1], order[gen.Uniform(0, static_cast<int64_t>(i) - 1)]);
  }
  std::vector<int64_t> strides(sizes.size());
  int64_t current = 1;
  for (int i : order) {
    strides[i] = current;
    current <<= sizes[i];
  }
  std::vector<IntTuple> sh, st;
  for (size_t i = 0; i < sizes.size(); ++i) {
    sh.push_back(IntTuple::Static(int64_t{1} << sizes[i]));
    st.push_back(IntTuple::Static(strides[i]));
  }
  return Layout::Make(IntTuple::Tuple(std::move(sh)),
                      IntTuple::Tuple(std::move(st)));
}

// Whether the bits of the swizzle's two fields land on single bits of L's
// codomain in increasing order: then make_swizzle<L(yyy), L(zzz)> pairs the
// same bits as Sw does and L o Sw == Sw' o L (CuTe's construction covers
// only these "simple cases", its comment says).
bool MapsFieldsInOrder(const AnyLayout& l, const Swizzle& sw) {
  const int y0 = sw.base() + (sw.shift() > 0 ? sw.shift() : 0);
  const int z0 = sw.base() - (sw.shift() < 0 ? sw.shift() : 0);
  int64_t last_y = 0, last_z = 0;
  for (int i = 0; i < sw.bits(); ++i) {
    const int64_t y = *l.TryEvaluate(int64_t{1} << (y0 + i));
    const int64_t z = *l.TryEvaluate(int64_t{1} << (z0 + i));
    if (y <= 0 || z <= 0 || (y & (y - 1)) != 0 || (z & (z - 1)) != 0) {
      return false;
    }
    if (y <= last_y || z <= last_z) return false;
    last_y = y;
    last_z = z;
  }
  return true;
}

TEST(Compose, SwizzleOfLayoutEvaluatesAsBothFunctions) {
  internal::LayoutGenerator gen(11);
  for (const Swizzle& sw : SmallSwizzles()) {
    for (int trial = 0; trial < 4; ++trial) {
      const Layout l = gen.Any(/*negative=*/true, 24, 64);
      absl::StatusOr<AnyLayout> r = Compose(AnyLayout(sw), AnyLayout(l));
      ASSERT_TRUE(r.ok()) << r.status().message();
      for (int64_t i = 0; i < l.size(); ++i) {
        ASSERT_EQ(Eval(*r, i), sw(l(i))) << ToString(*r);
      }
    }
  }
}

TEST(Compose, LayoutOfSwizzleMovesTheSwizzleThroughTheLayout) {
  // For a bijective power-of-two layout L, L o Sw == Sw' o L as functions
  // whenever CuTe's make_swizzle accepts the derived masks.
  internal::LayoutGenerator gen(12);
  int accepted = 0, refused = 0, in_order = 0;
  for (const Swizzle& sw : SmallSwizzles()) {
    for (int trial = 0; trial < 6; ++trial) {
      const int bits =
          sw.bits() + sw.base() + (sw.shift() < 0 ? -sw.shift() : sw.shift());
      const Layout l = PowerOfTwoPermutation(gen, bits);
      absl::StatusOr<AnyLayout> r = Compose(AnyLayout(l), AnyLayout(sw));
      if (!r.ok()) {
        ++refused;
        EXPECT_NE(std::string(r.status().message()).find("make_swizzle<"),
                  std::string::npos)
            << r.status().message();
        continue;
      }
      ++accepted;
      if (!MapsFieldsInOrder(l, sw)) continue;
      ++in_order;
      for (int64_t i = 0; i < l.size(); ++i) {
        ASSERT_EQ(Eval(*r, i), l(sw(i)))
            << ToString(l) << " o " << ToString(sw) << " = " << ToString(*r);
      }
    }
  }
  EXPECT_GT(accepted, 50);
  EXPECT_GT(in_order, 20);
  EXPECT_GT(refused, 5);
}

TEST(Inverse, RightInverseOfSwizzledBijections) {
  // Sw o L for a bijective power-of-two L: the inverse inv(L) o Sw is a true
  // inverse when inv(L) carries the swizzle's fields in order (CuTe derives
  // the swizzle from the masks alone).
  internal::LayoutGenerator gen(13);
  int checked = 0;
  for (const Swizzle& sw : SmallSwizzles()) {
    for (int trial = 0; trial < 4; ++trial) {
      const int bits =
          sw.bits() + sw.base() + (sw.shift() < 0 ? -sw.shift() : sw.shift());
      const AnyLayout a =
          *MakeComposed(sw, ComposedOffset(), PowerOfTwoPermutation(gen, bits));
      for (bool right : {true, false}) {
        absl::StatusOr<AnyLayout> r =
            right ? RightInverseOf(a) : LeftInverseOf(a);
        if (!r.ok()) continue;  // a derived swizzle CuTe refuses too
        const Layout& b = a.composed().inner().layout();
        const AnyLayout inv_b(right ? RightInverse(b) : *LeftInverse(b));
        if (!MapsFieldsInOrder(inv_b, sw)) continue;
        ASSERT_EQ(r->size(), a.size()) << ToString(a) << " -> " << ToString(*r);
        for (int64_t i = 0; i < a.size(); ++i) {
          ASSERT_EQ(Eval(a, Eval(*r, i)), i)
              << ToString(a) << " -> " << ToString(*r) << " at " << i;
          ASSERT_EQ(Eval(*r, Eval(a, i)), i);
        }
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 40);
}

// Whether the natural coordinate `full` agrees with `c` where c has
// integers (a 1-D index into that mode); the free parts go to `picked`.
bool Match(const SliceCoord& c, const IntTuple& full, const IntTuple& shape,
           std::vector<IntTuple>& picked) {
  if (c.is_underscore()) {
    picked.push_back(full);
    return true;
  }
  if (c.is_int()) return *CrdToIdx(full, shape) == c.value().value;
  for (size_t i = 0; i < c.elements().size(); ++i) {
    if (!Match(c.elements()[i], full[i], shape[i], picked)) return false;
  }
  return true;
}

// Every coordinate of `c` (with `_` positions free) against the full layout.
void CheckSlice(const AnyLayout& a, const std::string& coord) {
  const SliceCoord c = *ParseSliceCoord(coord);
  absl::StatusOr<SlicedAnyLayout> s = SliceAndOffsetOf(c, a);
  ASSERT_TRUE(s.ok()) << s.status().message();
  const Layout& b = a.composed().innermost();
  int64_t checked = 0;
  for (int64_t idx = 0; idx < b.size(); ++idx) {
    const IntTuple full = *IdxToCrd(idx, b.shape());
    std::vector<IntTuple> picked;
    if (!Match(c, full, b.shape(), picked)) continue;
    absl::StatusOr<int64_t> sub =
        s->layout.Evaluate(IntTuple::Tuple(std::move(picked)));
    ASSERT_TRUE(sub.ok()) << ToString(s->layout) << ": "
                          << sub.status().message();
    ASSERT_EQ(*sub + s->offset.value, Eval(a, idx))
        << ToString(a) << " at " << coord << " -> " << ToString(s->layout)
        << " + " << s->offset.value;
    ++checked;
  }
  EXPECT_EQ(checked, s->layout.size()) << ToString(a) << " " << coord;
}

TEST(SliceAndOffset, EverySliceIsTheLayoutAtThatCoordinate) {
  const char* layouts[] = {
      "Sw<3,0,3> o _0 o (_8,_8):(_8,_1)",
      "Sw<2,1,3> o _0 o ((_2,_2,_2),(_2,_2,_2)):((_32,_2,_8),(_4,_1,_16))",
      "Sw<3,0,3> o _0 o ((_2,_4),_8):((_8,_16),_1)",
      "Sw<2,2,3> o _0 o ((_4,_4),(_4,_4)):((_1,_16),(_4,_64))",
      "Sw<1,2,-3> o _0 o (_8,_8):(_1,_8)",
      // An offset above the bits B reaches (CuTe combines the offset and
      // B's bits with XOR, so an offset that could carry into them is
      // outside what its slice supports).
      "Sw<2,0,2> o 16 o (_4,_4):(_4,_1)",
      "Sw<2,0,2> o _32 o (_4,_4):(_4,_1)",
  };
  for (const char* text : layouts) {
    const AnyLayout a = A(text);
    const IntTuple shape = a.shape();
    // `_` in one mode and each value of the other; and the reverse.
    for (int keep = 0; keep < 2; ++keep) {
      const int64_t other = *Size(shape[1 - keep]);
      for (int64_t v = 0; v < other; ++v) {
        const std::string coord = keep == 0 ? absl::StrCat("(_,", v, ")")
                                            : absl::StrCat("(", v, ",_)");
        CheckSlice(a, coord);
      }
    }
  }
  CheckSlice(A("Sw<3,0,3> o _0 o ((_2,_4),_8):((_8,_16),_1)"), "((_,1),_)");
  CheckSlice(A("Sw<3,0,3> o _0 o ((_2,_4),_8):((_8,_16),_1)"), "((1,_),_)");
  CheckSlice(A("Sw<2,2,3> o _0 o ((_4,_4),(_4,_4)):((_1,_16),(_4,_64))"),
             "((_,2),(1,_))");
}

TEST(SliceAndOffset, CutesAnswers) {
  const AnyLayout a = A("Sw<3,0,3> o _0 o (_8,_8):(_8,_1)");
  absl::StatusOr<SlicedAnyLayout> s =
      SliceAndOffsetOf(*ParseSliceCoord("(_,5)"), a);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(ToString(s->layout), "((_2,_2,_2)):((_7,_18,_28))");
  EXPECT_EQ(ToString(IntTuple(s->offset)), "_5");
  // Not reducible: the kept modes reach both bits of a swizzled pair.
  s = SliceAndOffsetOf(*ParseSliceCoord("((_,1),_)"),
                       A("Sw<3,0,3> o _0 o ((_2,_4),_8):((_8,_16),_1)"));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(ToString(s->layout), "Sw<3,0,3> o _16 o (_2,_8):(_8,_1)");
  EXPECT_EQ(ToString(IntTuple(s->offset)), "_0");
}

TEST(Product, LogicalProductDerivesASwizzle) {
  EXPECT_EQ(S(Product(ProductKind::kLogical, A("(_2,_2):(_1,_2)"),
                      A("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)"))),
            "Sw<3,2,-6> o _0 o ((_2,_2),(_8,_64)):((_1,_2),(_256,_4))");
  EXPECT_EQ(S(Product(ProductKind::kLogical, A("(_2,_2):(_1,_2)"),
                      A("Sw<3,3,3> o 5 o (_8,_64):(_64,_1)"))),
            "error: logical_product (_2,_2):(_1,_2) x Sw<3,3,3> o 5 o "
            "(_8,_64):(_64,_1) fails: the tiler's offset must be 0 (CuTe: "
            "Require Swizzle offset == 0)");
}

TEST(Recast, KeepsTheSmemPointerSwizzle) {
  const AnyLayout bits =
      A("Sw<3,4,3> o smem_ptr[1b](unset) o (_8,_1024):(_1024,_1)");
  EXPECT_EQ(S(UpcastOf(bits, 16)),
            "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)");
  EXPECT_EQ(S(DowncastOf(*UpcastOf(bits, 16), 2)),
            "Sw<3,4,3> o smem_ptr[8b](unset) o (_8,_128):(_128,_1)");
  EXPECT_EQ(S(UpcastOf(A("Sw<3,0,3> o _0 o (_8,_8):(_8,_1)"), 8)),
            "Sw<0,0,3> o _0 o (_8,_1):(_1,_1)");
  EXPECT_EQ(S(UpcastOf(A("Sw<3,0,3> o 4 o (_8,_8):(_8,_1)"), 8)),
            "Sw<0,0,3> o 0 o (_8,_1):(_1,_1)");
  EXPECT_EQ(
      S(UpcastOf(A("Sw<3,0,3> o _4 o (_8,_8):(_8,_1)"), 8)),
      "error: upcast<8> of Sw<3,0,3> o _4 o (_8,_8):(_8,_1) fails: 8 does "
      "not divide the offset 4 (CuTe: Static safe_div requires t % u == "
      "0)");
}

TEST(Refusals, NameTheOperationAndTheCondition) {
  EXPECT_EQ(S(Compose(A("(_16,_4):(_4,_1)"), A("Sw<3,0,3>"))),
            "error: composition (_16,_4):(_4,_1) o Sw<3,0,3> fails: "
            "make_swizzle<35,28> (yyy and zzz masks) gives no valid swizzle: "
            "swizzle Sw<3,0,-2> is invalid: |S| = 2 is less than B = 3 (CuTe: "
            "abs(SShift) must be more than BBits), so the two masks would "
            "overlap");
  EXPECT_EQ(
      S(TileToShapeOf(A("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)"),
                      *ParseIntTuple("(_100,_64)"), absl::nullopt)),
      "error: tile_to_shape (_8,_64):(_64,_1) to (_100,_64) fails: mode 0 "
      "of the block has size 8, which does not divide the target's 100 "
      "(CuTe: block shape does not divide the target shape)");
  EXPECT_EQ(
      S(Divide(DivideKind::kLogical, A("Sw<3,4,3>"), *ParseTiler("(_8,_8)"))),
      "error: divide of the swizzle Sw<3,4,3> alone is not defined "
      "(compose it with a layout first)");
}

}  // namespace
}  // namespace hlolayout::cute

// Static and dynamic integers: the tag rules of cute/integer.h, and that
// every operation keeps all-static operands all static (CuTe computes those
// at compile time, so every integer it prints is `_N`).
#include <string>

#include "gtest/gtest.h"
#include "hlolayout/cute/coalesce.h"
#include "hlolayout/cute/complement.h"
#include "hlolayout/cute/composition.h"
#include "hlolayout/cute/divide.h"
#include "hlolayout/cute/integer.h"
#include "hlolayout/cute/inverse.h"
#include "hlolayout/cute/product.h"
#include "hlolayout/testing/cute_random_layout.h"
#include "hlolayout/testing/cute_test_util.h"

namespace hlolayout::cute {
namespace {

using internal::L;
using internal::S;

TEST(Int, TagRules) {
  const Int s8 = Int::Static(8), d4 = Int::Dynamic(4);
  EXPECT_TRUE(Mul(s8, s8).is_static);
  EXPECT_FALSE(Mul(s8, d4).is_static);
  EXPECT_TRUE(Mul(Int::Static(0), d4).is_static);  // _0 * x is _0
  EXPECT_TRUE(Mul(d4, Int::Static(0)).is_static);
  EXPECT_FALSE(Mul(Int::Dynamic(0), s8).is_static);
  EXPECT_TRUE(Div(Int::Static(0), d4).is_static);  // _0 / x is _0
  EXPECT_FALSE(Add(s8, d4).is_static);
  EXPECT_TRUE(CeilDiv(s8, Int::Static(3)).is_static);
  EXPECT_EQ(CeilDiv(s8, Int::Static(3)).value, 3);
  EXPECT_FALSE(Min(s8, d4).is_static);
  EXPECT_EQ(Min(s8, d4).value, 4);
  EXPECT_TRUE(Abs(Int::Static(-3)).is_static);
  EXPECT_EQ(Signum(Int::Static(-3)).value, -1);
  Int r;
  EXPECT_FALSE(TryMul(Int::Static(INT64_MAX), Int::Static(2), &r));
  EXPECT_TRUE(s8 == Int::Dynamic(8));  // values compare, tags do not
}

TEST(IntTuple, TagsPrintAndCompare) {
  const IntTuple t = IntTuple::Tuple({IntTuple::Static(8), 4});
  EXPECT_EQ(ToString(t), "(_8,4)");
  EXPECT_FALSE(t.is_static());
  EXPECT_TRUE(IntTuple::Tuple({IntTuple::Static(8)}).is_static());
  EXPECT_TRUE(IntTuple::Tuple({}).is_static());
  EXPECT_EQ(t, IntTuple::Tuple({8, 4}));
  EXPECT_FALSE(Identical(t, IntTuple::Tuple({8, 4})));
  EXPECT_TRUE(Identical(t, *ParseIntTuple("(_8,4)")));
  EXPECT_EQ(ToString(WithTags(t, true)), "(_8,_4)");
  EXPECT_EQ(ToString(IntTuple::Static(-1)), "_-1");
  EXPECT_TRUE(Product(*ParseIntTuple("(_2,(_3,_4))"))->is_static);
  EXPECT_FALSE(Product(*ParseIntTuple("(_2,(3,_4))"))->is_static);
  EXPECT_EQ(Product(*ParseIntTuple("(_2,(3,_4))"))->value, 24);
}

TEST(Layout, CompactFollowsCutesTags) {
  EXPECT_EQ(ToString(L("(2,3)")), "(2,3):(_1,2)");
  EXPECT_EQ(ToString(L("(_2,_3)")), "(_2,_3):(_1,_2)");
  EXPECT_EQ(ToString(L("(_2,3,_4)")), "(_2,3,_4):(_1,_2,6)");
  EXPECT_EQ(ToString(L("(_2,_1,3)")), "(_2,_1,3):(_1,_0,_2)");
  EXPECT_EQ(ToString(L("(2,1,3)")), "(2,1,3):(_1,2,2)");
  // CuTe's make_layout of these shapes (compiled).
  EXPECT_EQ(ToString(L("(2,_3)")), "(2,_3):(_1,2)");
  EXPECT_EQ(ToString(L("(_2,_1,4)")), "(_2,_1,4):(_1,_0,_2)");
  EXPECT_EQ(ToString(L("((2,_2),3)")), "((2,_2),3):((_1,2),4)");
  EXPECT_EQ(ToString(L("(_1,5)")), "(_1,5):(_0,_1)");
  EXPECT_EQ(L("(_4,_2):(_1,5)").size_int().is_static, true);
  EXPECT_EQ(L("(_4,_2):(_1,5)").cosize_int().is_static, false);
  EXPECT_EQ(L("(_4,_1):(_1,5)").cosize_int().is_static, true);  // _0 * 5
}

// Examples whose answers CuTe gives with every operand static (its tests
// and documentation), and mixed ones.
TEST(StaticOperands, CuteExamples) {
  EXPECT_EQ(S(Composition(L("(_6,_2):(_8,_2)"), L("(_4,_3):(_3,_1)"))),
            "((_2,_2),_3):((_24,_2),_8)");
  EXPECT_EQ(S(Composition(L("(_10,_2):(_16,_4)"), L("(_5,_4):(_1,_5)"))),
            "(_5,(_2,_2)):(_16,(_80,_4))");
  EXPECT_EQ(S(Complement(L("_4:_2"), IntTuple::Static(24))), "(_2,_3):(_1,_8)");
  EXPECT_EQ(S(LogicalDivide(L("(_4,_2,_3):(_2,_1,_8)"), internal::T("_4:_2"))),
            "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
  EXPECT_EQ(S(LogicalProduct(L("(_2,_2):(_4,_1)"), internal::T("_6:_1"))),
            "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
  EXPECT_EQ(S(BlockedProduct(L("(_2,_2):(_1,_2)"), L("_3:_1"))),
            "((_2,_3),(_2,_1)):((_1,_4),(_2,_0))");
  EXPECT_EQ(S(RightInverse(L("(_2,_4,_6):(_4,_1,_8)"))),
            "(_4,_2,_6):(_2,_1,_8)");
  EXPECT_EQ(S(LeftInverse(L("_4:_2"))), "(_2,_4):(_0,_1)");
  // Mixed: a dynamic stride makes what it touches dynamic.
  EXPECT_EQ(S(Composition(L("(_8,_8):(_8,1)"), L("(_4,_2):(_1,_8)"))),
            "(_4,_2):(_8,1)");
  EXPECT_EQ(S(Composition(L("(8,64):(64,1)"), L("(_4,(_8,_4)):(_1,(_4,_32))"))),
            "(4,((2,4),_4)):(64,((256,1),4))");
}

bool AllStatic(const absl::StatusOr<Layout>& l) {
  return !l.ok() || (l->shape().is_static() && l->stride().is_static());
}

TEST(StaticOperands, EveryOperationKeepsThemStatic) {
  internal::LayoutGenerator gen(2718);
  int ok = 0;
  for (int trial = 0; trial < 1500; ++trial) {
    const Layout a0 = trial % 2 ? gen.Injective() : gen.Any();
    const Layout b0 = gen.Injective(16);
    const Layout a =
        Layout::Make(WithTags(a0.shape(), true), WithTags(a0.stride(), true));
    const Layout b =
        Layout::Make(WithTags(b0.shape(), true), WithTags(b0.stride(), true));
    const Tiler tb = Tiler::Of(b);
    const absl::StatusOr<Layout> results[] = {
        Coalesce(a),          Filter(a),
        Composition(a, b),    Complement(b, IntTuple::Static(128)),
        Complement(b),        RightInverse(a),
        LeftInverse(b),       LogicalDivide(a, tb),
        ZippedDivide(a, tb),  LogicalProduct(b, tb),
        BlockedProduct(b, a), RakedProduct(b, a),
    };
    for (const absl::StatusOr<Layout>& r : results) {
      ASSERT_TRUE(AllStatic(r))
          << ToString(a) << " " << ToString(b) << " -> " << ToString(*r);
      ok += r.ok();
    }
  }
  EXPECT_GT(ok, 6000);
}

}  // namespace
}  // namespace hlolayout::cute

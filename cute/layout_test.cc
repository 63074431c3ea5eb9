#include "hlolayout/cute/layout.h"

#include <cstdint>
#include <limits>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/testing/cute_random_layout.h"
#include "hlolayout/testing/cute_test_util.h"

namespace hlolayout::cute {
namespace {

using internal::I;
using internal::L;

TEST(Layout, SizeCosizeRankDepth) {
  const Layout l = L("((2,2),3):((24,2),8)");
  EXPECT_EQ(l.size(), 12);
  EXPECT_EQ(l.cosize(), 1 + 24 + 2 + 16);
  EXPECT_EQ(l.rank(), 2);
  EXPECT_EQ(l.depth(), 2);
  EXPECT_EQ(L("12:1").rank(), 1);
  EXPECT_EQ(L("12:1").depth(), 0);
  EXPECT_EQ(L("(12):(1)").depth(), 1);
  // Absolute strides: pycute says 1 + (4-1)*(-1) + 1 = -2 for (4):(-1).
  EXPECT_EQ(L("(4):(-1)").cosize(), 4);
  EXPECT_EQ(L("()").size(), 1);
}

TEST(Layout, CompactStrides) {
  EXPECT_EQ(ToString(*Layout::Compact(I("(2,1,3)"))), "(2,1,3):(_1,2,2)");
  EXPECT_EQ(ToString(*Layout::Compact(I("((2,2),3)"))), "((2,2),3):((_1,2),4)");
  EXPECT_EQ(ToString(*Layout::Compact(I("7"))), "7:_1");
}

TEST(Layout, CreateRejectsBadLayouts) {
  EXPECT_EQ(Layout::Create(I("(2,3)"), I("(1,(2,3))")).status().message(),
            "shape and stride are not congruent");
  EXPECT_EQ(Layout::Create(I("(2,0)"), I("(1,2)")).status().message(),
            "shape must be positive, found 0");
  EXPECT_EQ(Layout::Create(I("(4294967296,4294967296)"), I("(1,1)"))
                .status()
                .message(),
            "layout size or cosize overflows int64");
  EXPECT_EQ(Layout::Create(I("3"), I("9223372036854775807")).status().message(),
            "layout size or cosize overflows int64");
  EXPECT_TRUE(Layout::Create(I("2"), I("9223372036854775806")).ok());
}

TEST(Layout, EvaluateIndexAndCoordinates) {
  const Layout l = L("(3,(2,3)):(3,(12,1))");
  EXPECT_EQ(l(0), 0);
  EXPECT_EQ(l(4), 3 + 12);
  // Past the end: the last mode takes the quotient (docs/cute.md).
  EXPECT_EQ(l(20), 9);
  EXPECT_EQ(*l.TryEvaluate(20), 9);
  EXPECT_EQ(*l.Evaluate(I("20")), 9);
  EXPECT_EQ(*l.Evaluate(I("(1,5)")), 3 + 12 + 2);
  EXPECT_EQ(*l.Evaluate(I("(1,(1,2))")), 3 + 12 + 2);
  EXPECT_EQ(l.Evaluate(I("(3,0)")).status().message(),
            "coordinate 3 out of range for mode of size 3");
  EXPECT_EQ(l.Evaluate(I("(1,2,3)")).status().message(),
            "coordinate does not fit the profile of the layout");
  EXPECT_EQ(l.Evaluate(I("-1")).status().message(), "negative coordinate -1");
  // Negative 1-D indices: L(-i) == -L(i).
  EXPECT_EQ(l(-4), -15);
  EXPECT_FALSE(L("2:4611686018427387904").TryEvaluate(4).ok());
}

TEST(Layout, ModesFlattenConcatenate) {
  const Layout l = L("((2,2),3):((24,2),8)");
  EXPECT_EQ(ToString(l.mode(0)), "(2,2):(24,2)");
  EXPECT_EQ(ToString(l.mode(1)), "3:8");
  EXPECT_EQ(ToString(L("12:1").mode(0)), "12:1");
  EXPECT_EQ(ToString(FlattenLayout(l)), "(2,2,3):(24,2,8)");
  EXPECT_EQ(ToString(*MakeLayout({L("4:1"), L("(2,3):(4,8)")})),
            "(4,(2,3)):(1,(4,8))");
  EXPECT_EQ(ToString(*MakeLayout({})), "():()");
  EXPECT_TRUE(Congruent(l, L("((1,1),1):((0,0),0)")));
  EXPECT_TRUE(Compatible(L("12:1"), l));
}

TEST(LayoutDeathTest, ModeOutOfRange) {
  EXPECT_DEATH(L("(2,3):(1,2)").mode(2), "index 2 out of rank 2");
}

// The fast path (multiply-shift division) agrees with plain div/mod, and
// natural coordinates round-trip, over many random layouts.
TEST(Layout, PropertyEvaluationAgreesWithDivMod) {
  internal::LayoutGenerator gen(51);
  for (int trial = 0; trial < 4000; ++trial) {
    const Layout l = gen.Any(true, 1000);
    const std::vector<int64_t> s = Flatten(l.shape()), d = Flatten(l.stride());
    for (int64_t i = 0; i < l.size() + 5; ++i) {
      int64_t idx = i, expected = 0;
      for (size_t k = 0; k < s.size(); ++k) {
        const int64_t c = k + 1 == s.size() ? idx : idx % s[k];
        expected += c * d[k];
        idx /= s[k];
      }
      ASSERT_EQ(l(i), expected) << ToString(l) << " at " << i;
      if (i < l.size()) {
        const IntTuple c = *IdxToCrd(IntTuple(i), l.shape());
        ASSERT_EQ(*l.Evaluate(c), expected);
      }
    }
  }
}

TEST(Layout, EvaluateManyAgreesWithOneAtATime) {
  internal::LayoutGenerator gen(52);
  for (int trial = 0; trial < 2000; ++trial) {
    const Layout l = gen.Any(true, 1000);
    // Every index, in an order that is not the identity, in a count that
    // ends inside a block.
    std::vector<int64_t> idx;
    for (int64_t i = 0; i < l.size(); ++i) idx.push_back((i * 7) % l.size());
    std::vector<int64_t> out(idx.size(), -1);
    l.EvaluateMany(idx.data(), out.data(), static_cast<int64_t>(idx.size()));
    for (size_t i = 0; i < idx.size(); ++i) {
      ASSERT_EQ(out[i], l(idx[i])) << ToString(l) << " at " << idx[i];
    }
  }
}

TEST(Layout, FastDivisorAtTheEdges) {
  const int64_t max = std::numeric_limits<int64_t>::max();
  for (int64_t d : {int64_t{1}, int64_t{2}, int64_t{3}, int64_t{7},
                    int64_t{1} << 31, (int64_t{1} << 31) + 1, int64_t{1} << 62,
                    (int64_t{1} << 62) + 1, max - 1, max}) {
    const internal::FastDivisor f(d);
    for (int64_t n : {int64_t{0}, int64_t{1}, d - 1, d, d == max ? max : d + 1,
                      max / 2, max - 1, max}) {
      if (n < 0) continue;
      ASSERT_EQ(f.Divide(n), n / d) << n << " / " << d;
    }
  }
  internal::LayoutGenerator gen(52);
  for (int i = 0; i < 100000; ++i) {
    const int64_t d = gen.Uniform(1, int64_t{1} << gen.Uniform(1, 62));
    const int64_t n = gen.Uniform(0, max);
    ASSERT_EQ(internal::FastDivisor(d).Divide(n), n / d) << n << " / " << d;
  }
}

}  // namespace
}  // namespace hlolayout::cute

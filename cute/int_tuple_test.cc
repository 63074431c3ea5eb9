#include "hlolayout/cute/int_tuple.h"

#include "gtest/gtest.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/cute/print.h"

namespace hlolayout::cute {
namespace {

IntTuple I(absl::string_view text) { return *ParseIntTuple(text); }

TEST(IntTuple, RankDepthSize) {
  EXPECT_EQ(Rank(I("4")), 1);
  EXPECT_EQ(Rank(I("(4)")), 1);
  EXPECT_EQ(Rank(I("()")), 0);
  EXPECT_EQ(Rank(I("(2,(3,4))")), 2);
  EXPECT_EQ(Depth(I("4")), 0);
  EXPECT_EQ(Depth(I("(4)")), 1);
  EXPECT_EQ(Depth(I("((2,2),(3,(1,2)))")), 3);
  EXPECT_EQ(*Size(I("()")), 1);
  EXPECT_EQ(*Size(I("(2,(3,4))")), 24);
  EXPECT_FALSE(Size(I("(4294967296,4294967296)")).ok());
}

TEST(IntTuple, IntegerDiffersFromRankOneTuple) {
  EXPECT_NE(I("4"), I("(4)"));
  EXPECT_EQ(ToString(I("(4)")), "(4)");
  EXPECT_EQ(I("4")[0], I("4"));
}

TEST(IntTuple, Congruence) {
  EXPECT_TRUE(Congruent(I("(2,(3,4))"), I("(1,(5,6))")));
  EXPECT_FALSE(Congruent(I("(2,(3,4))"), I("(1,5)")));
  EXPECT_FALSE(Congruent(I("4"), I("(4)")));
  EXPECT_TRUE(WeaklyCongruent(I("(2,4)"), I("(2,(3,4))")));
  EXPECT_FALSE(WeaklyCongruent(I("(2,(3,4))"), I("(2,4)")));
  EXPECT_FALSE(WeaklyCongruent(I("(2,4)"), I("(2,4,5)")));
}

TEST(IntTuple, CompatibleIsThePartialOrderOfTheSpec) {
  EXPECT_TRUE(Compatible(I("24"), I("(4,6)")));
  EXPECT_TRUE(Compatible(I("(4,6)"), I("((2,2),6)")));
  EXPECT_TRUE(Compatible(I("((2,2),6)"), I("((2,2),(3,2))")));
  EXPECT_FALSE(Compatible(I("(24)"), I("24")));
  EXPECT_FALSE(Compatible(I("(4,6)"), I("24")));
  EXPECT_FALSE(Compatible(I("25"), I("(4,6)")));
}

TEST(IntTuple, CeilDivFold) {
  EXPECT_EQ(ToString(CeilDiv(I("(3,6,2,8)"), 72)), "(1,1,1,4)");
  EXPECT_EQ(ToString(CeilDiv(I("(6,2)"), 12)), "(1,1)");
  EXPECT_EQ(ToString(CeilDiv(I("(3,5)"), 2)), "(2,5)");
  EXPECT_EQ(ToString(CeilDiv(I("7"), 2)), "4");
}

TEST(IntTuple, IdxToCrdRestartsInsideSubModes) {
  // pycute gives (1,(1,0)).
  EXPECT_EQ(ToString(*IdxToCrd(I("(1,5)"), I("(3,(2,3))"))), "(1,(1,2))");
  EXPECT_EQ(ToString(*IdxToCrd(I("17"), I("(3,(2,3))"))), "(2,(1,2))");
  EXPECT_EQ(ToString(*IdxToCrd(I("7"), I("4"))), "3");
  EXPECT_FALSE(IdxToCrd(I("(1,2)"), I("6")).ok());
  EXPECT_FALSE(IdxToCrd(I("-1"), I("6")).ok());
}

TEST(IntTuple, CrdToIdxRoundTrip) {
  const IntTuple shape = I("((2,3),(1,4),5)");
  for (int64_t i = 0; i < *Size(shape); ++i) {
    const IntTuple c = *IdxToCrd(IntTuple(i), shape);
    EXPECT_TRUE(Congruent(c, shape));
    EXPECT_EQ(*CrdToIdx(c, shape), i);
  }
  EXPECT_EQ(*CrdToIdx(I("(1,5)"), I("(3,(2,3))")), 16);
  EXPECT_FALSE(CrdToIdx(I("(3,0)"), I("(3,(2,3))")).ok());
  EXPECT_FALSE(CrdToIdx(I("(1,(1,2),3)"), I("(3,(2,3))")).ok());
}

}  // namespace
}  // namespace hlolayout::cute

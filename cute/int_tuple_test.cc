#include "hlolayout/cute/int_tuple.h"

#include <vector>

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

// A leaf of 0 was a division by zero (SIGFPE), a negative one a meaningless
// coordinate: both are errors, whether the shape is an int or a tuple.
TEST(IntTuple, IdxToCrdRefusesShapesThatAreNotPositive) {
  const auto shape = [](int64_t a, int64_t b) {
    return IntTuple::Tuple(
        {IntTuple(a), IntTuple::Tuple({IntTuple(3), IntTuple(b)})});
  };
  for (const IntTuple& s :
       {IntTuple(0), IntTuple(-4), shape(2, 0), shape(0, 2), shape(2, -3)}) {
    const absl::StatusOr<IntTuple> c = IdxToCrd(IntTuple(5), s);
    ASSERT_FALSE(c.ok()) << ToString(s);
    EXPECT_NE(c.status().message().find("not positive"),
              absl::string_view::npos);
    EXPECT_FALSE(CrdToCrd(IntTuple(5), s, nullptr).ok()) << ToString(s);
  }
  EXPECT_FALSE(IdxToCrd(I("(1,5)"), shape(2, 0)).ok());
  EXPECT_EQ(ToString(*IdxToCrd(IntTuple(5), shape(2, 3))), "(1,(2,0))");
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

// Every shape of rank 1..3 with leaves in 1..4, nested one level or flat.
std::vector<IntTuple> SmallShapes() {
  std::vector<IntTuple> out;
  for (int a = 1; a <= 4; ++a) {
    out.push_back(a);
    for (int b = 1; b <= 4; ++b) {
      out.push_back(IntTuple::Tuple({a, b}));
      for (int c = 1; c <= 4; ++c) {
        out.push_back(IntTuple::Tuple({a, b, c}));
        out.push_back(IntTuple::Tuple({IntTuple::Tuple({a, b}), c}));
        out.push_back(IntTuple::Tuple({a, IntTuple::Tuple({b, c})}));
      }
    }
  }
  return out;
}

TEST(IntTuple, PrefixProductIsTheCompactStride) {
  EXPECT_EQ(ToString(*PrefixProduct(I("(2,(3,4))"))), "(_1,(2,6))");
  EXPECT_EQ(ToString(*PrefixProduct(I("(_2,(_3,_4))"))), "(_1,(_2,_6))");
  EXPECT_EQ(ToString(*PrefixProduct(I("(2,3)"), I("5"))), "(5,10)");
  EXPECT_EQ(ToString(*PrefixProduct(I("((2,3),4)"), I("(7,9)"))), "((7,14),9)");
  EXPECT_FALSE(PrefixProduct(I("((2,3),4)"), I("(7,(9))")).ok());
  EXPECT_EQ(ToString(*PrefixProduct(I("7"))), "_1");
  EXPECT_FALSE(PrefixProduct(I("4"), I("(1,2)")).ok());
  EXPECT_FALSE(PrefixProduct(I("(4,5)"), I("(1,2,3)")).ok());
  EXPECT_FALSE(
      PrefixProduct(I("(4294967296,4294967296,2)")).ok());  // 2^64 overflows
  // Against the definition on every small shape: leaf k is the product of
  // the leaves before it, so idx2crd with those strides is the natural one.
  for (const IntTuple& shape : SmallShapes()) {
    const IntTuple stride = *PrefixProduct(shape);
    ASSERT_TRUE(Congruent(shape, stride)) << ToString(shape);
    const std::vector<int64_t> leaves = Flatten(shape);
    const std::vector<int64_t> strides = Flatten(stride);
    int64_t running = 1;
    for (size_t k = 0; k < leaves.size(); ++k) {
      EXPECT_EQ(strides[k], running) << ToString(shape);
      running *= leaves[k];
    }
    for (int64_t i = 0; i < *Size(shape); ++i) {
      EXPECT_TRUE(
          Identical(WithTags(*IdxToCrd(IntTuple(i), shape, stride), false),
                    WithTags(*IdxToCrd(IntTuple(i), shape), false)))
          << ToString(shape) << " " << i;
    }
  }
}

TEST(IntTuple, IdxToCrdWithStrides) {
  EXPECT_EQ(ToString(*IdxToCrd(I("7"), I("(2,(3,4))"), I("(1,(2,6))"))),
            "(1,(0,1))");
  // Any strides: (idx / stride) % shape leaf by leaf.
  EXPECT_EQ(ToString(*IdxToCrd(I("13"), I("(4,3)"), I("(3,1)"))), "(0,1)");
  EXPECT_EQ(ToString(*IdxToCrd(I("(1,5)"), I("(3,(2,3))"), I("(1,(3,6))"))),
            "(1,(1,0))");
  EXPECT_FALSE(IdxToCrd(I("3"), I("(2,2)"), I("(1,0)")).ok());  // zero stride
  EXPECT_FALSE(IdxToCrd(I("3"), I("(2,2)"), I("(1,2,4)")).ok());
  EXPECT_FALSE(IdxToCrd(I("-3"), I("(2,2)"), I("(1,2)")).ok());
}

TEST(IntTuple, ShapeDivFoldsLeftToRight) {
  EXPECT_EQ(ToString(*ShapeDiv(I("(3,6,2,8)"), I("72"))), "(1,1,1,4)");
  EXPECT_EQ(ToString(*ShapeDiv(I("(3,6,2,8)"), I("3"))), "(1,6,2,8)");
  EXPECT_EQ(ToString(*ShapeDiv(I("(_4,_8)"), I("_2"))), "(_2,_8)");
  EXPECT_EQ(ToString(*ShapeDiv(I("(4,8)"), I("(2,4)"))), "(2,2)");
  EXPECT_EQ(ToString(*ShapeDiv(I("12"), I("(2,3)"))), "2");
  EXPECT_EQ(ToString(*ShapeDiv(I("2"), I("8"))), "1");  // sign, not 0
  EXPECT_EQ(ToString(*ShapeDiv(I("-8"), I("2"))), "-4");
  EXPECT_EQ(ToString(*ShapeDiv(I("0"), I("2"))), "0");
  EXPECT_FALSE(ShapeDiv(I("6"), I("4")).ok());
  EXPECT_FALSE(ShapeDiv(I("6"), I("0")).ok());
  EXPECT_FALSE(ShapeDiv(I("(6,2)"), I("(2,2,2)")).ok());
  // Dividing by a divisor of the size leaves size / divisor elements, for
  // every small shape and every divisor that the fold accepts.
  for (const IntTuple& shape : SmallShapes()) {
    const int64_t size = *Size(shape);
    for (int64_t d = 1; d <= size; ++d) {
      if (size % d != 0) continue;
      absl::StatusOr<IntTuple> q = ShapeDiv(shape, IntTuple(d));
      if (!q.ok()) continue;  // an element and the rest do not divide
      EXPECT_EQ(*Size(*q), size / d) << ToString(shape) << " / " << d;
    }
  }
}

TEST(IntTuple, InnerProductAndElemScale) {
  EXPECT_EQ(InnerProduct(I("(2,(3,4))"), I("(5,(6,7))"))->value, 56);
  EXPECT_TRUE(InnerProduct(I("(_2,_3)"), I("(_5,_6)"))->is_static);
  EXPECT_FALSE(InnerProduct(I("(2,3)"), I("(5,(6,7))")).ok());
  EXPECT_FALSE(InnerProduct(I("(2,3)"), I("5")).ok());
  EXPECT_EQ(ToString(*ElemScale(I("(2,3)"), I("(4,(2,5))"))), "(8,30)");
  EXPECT_EQ(ToString(*ElemScale(I("3"), I("(4,5)"))), "60");
  EXPECT_FALSE(ElemScale(I("(2,3)"), I("4")).ok());
  EXPECT_FALSE(ElemScale(I("(2,3)"), I("(4,5,6)")).ok());
  // A layout's offset is the inner product of its coordinate and strides.
  for (const IntTuple& shape : SmallShapes()) {
    const IntTuple stride = *PrefixProduct(shape);
    for (int64_t i = 0; i < *Size(shape); ++i) {
      EXPECT_EQ(InnerProduct(*IdxToCrd(IntTuple(i), shape), stride)->value, i)
          << ToString(shape);
    }
  }
}

}  // namespace
}  // namespace hlolayout::cute

namespace hlolayout::cute {
namespace {

TEST(IntTuple, CrdToCrdWorkedExamples) {
  const IntTuple src = I("(2,3)");
  EXPECT_EQ(ToString(*CrdToCrd(I("(1,2)"), I("6"), &src)), "5");
  EXPECT_EQ(ToString(*CrdToCrd(I("5"), I("(2,3)"), nullptr)), "(1,2)");
  const IntTuple nested = I("(3,(2,3))");
  EXPECT_EQ(ToString(*CrdToCrd(I("(1,(1,2))"), I("(3,6)"), &nested)), "(1,5)");
  EXPECT_EQ(ToString(*CrdToCrd(I("4"), I("6"), nullptr)), "4");
  EXPECT_FALSE(CrdToCrd(I("6"), I("6"), nullptr).ok());
  EXPECT_FALSE(CrdToCrd(I("(1,2)"), I("6"), nullptr).ok());
  EXPECT_FALSE(CrdToCrd(I("(1,2)"), I("(2,3,1)"), nullptr).ok());
}

// Every coordinate of a shape, taken to another shape of the same size
// through its index and back, is itself (shapes up to size 12).
TEST(IntTuple, CrdToCrdRoundTripsThroughAnotherShape) {
  const char* kShapes[] = {"12",        "(3,4)",     "(4,3)",
                           "(2,(2,3))", "((2,2),3)", "(2,3,2)"};
  for (const char* a : kShapes) {
    for (const char* b : kShapes) {
      const IntTuple sa = I(a), sb = I(b);
      for (int64_t i = 0; i < 12; ++i) {
        absl::StatusOr<IntTuple> ca = IdxToCrd(IntTuple(i), sa);
        ASSERT_TRUE(ca.ok());
        absl::StatusOr<IntTuple> flat = CrdToCrd(*ca, I("12"), &sa);
        ASSERT_TRUE(flat.ok()) << a;
        ASSERT_EQ(flat->value(), i) << a << " " << i;
        absl::StatusOr<IntTuple> cb = CrdToCrd(*flat, sb, nullptr);
        ASSERT_TRUE(cb.ok());
        absl::StatusOr<IntTuple> back = CrdToCrd(*cb, I("12"), &sb);
        ASSERT_TRUE(back.ok());
        EXPECT_EQ(back->value(), i) << a << " -> " << b;
      }
    }
  }
}

}  // namespace
}  // namespace hlolayout::cute

#include "hlolayout/cute/coord_layout.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/cute/ops.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/cute/print.h"

namespace hlolayout::cute {
namespace {

using ::testing::HasSubstr;

CoordLayout Coord(absl::string_view text) {
  absl::StatusOr<CoordLayout> l = ParseCoordLayout(text);
  EXPECT_TRUE(l.ok()) << text << ": " << l.status();
  return l.ok() ? *l : *IdentityCoordLayout(1);
}

std::string Eval(absl::string_view layout, absl::string_view coord) {
  absl::StatusOr<IntTuple> c =
      EvaluateCoord(Coord(layout), *ParseIntTuple(coord));
  return c.ok() ? ToString(*c) : std::string(c.status().message());
}

// Before: "(2,3):(1@0,1@1)" was a parse error.
TEST(CoordLayout, ScaledBasisStridesParseAndPrint) {
  for (const char* text :
       {"(2,3):(1@0,1@1)", "(4,4):(1@1,1@0)", "(2,(3,4)):(1@1@0,(3@0,1@1@1))",
        "8:2@0", "(2,3):(0,1@0)", "(2,2):(-1@0,1@2@1@0)"}) {
    EXPECT_EQ(ToString(Coord(text)), text);
  }
  EXPECT_EQ(ToString(Coord(" ( 2 , 3 ) : ( 1 @ 0 , 1@1 ) ")),
            "(2,3):(1@0,1@1)");
}

TEST(CoordLayout, EvaluatesToACoordinate) {
  EXPECT_EQ(Eval("(2,3):(1@0,1@1)", "5"), "(1,2)");
  EXPECT_EQ(Eval("(2,3):(1@0,1@1)", "(1,2)"), "(1,2)");
  EXPECT_EQ(Eval("(4,4):(1@1,1@0)", "6"), "(1,2)");
  EXPECT_EQ(Eval("(4,4):(3@1,1@0)", "(2,1)"), "(1,6)");
  // Nested: 1@1@0 is component 0 inside component 1.
  EXPECT_EQ(Eval("(2,3):(1@1@0,1@0)", "(1,2)"), "(2,(1))");
  EXPECT_EQ(Eval("(2,(3,4)):(1@0,(1@1@0,1@1@1))", "(1,(2,3))"), "(1,(2,3))");
  // Two strides on one component add up; a 0 stride broadcasts.
  EXPECT_EQ(Eval("(2,4):(4@0,1@0)", "(1,3)"), "(7)");
  EXPECT_EQ(Eval("(2,4):(0,1@1)", "(1,3)"), "(0,3)");
}

TEST(CoordLayout, IdentityLayoutGivesBackTheCoordinate) {
  absl::StatusOr<CoordLayout> id =
      IdentityCoordLayout(*ParseIntTuple("(4,(2,3))"));
  ASSERT_TRUE(id.ok());
  EXPECT_EQ(ToString(*id), "(4,(2,3)):(1@0,(1@1@0,1@1@1))");
  for (int64_t i = 0; i < id->size(); ++i) {
    EXPECT_EQ(*EvaluateCoord(*id, i),
              *IdxToCrd(i, *ParseIntTuple("(4,(2,3))")));
  }
}

// The example: (4,4):(4,1) o (4,4):(1@1,1@0) == (4,4):(1,4).
TEST(CoordLayout, ComposeIntegralWithScaledBasisLayout) {
  const Layout a = *ParseLayout("(4,4):(4,1)");
  absl::StatusOr<Layout> r =
      ComposeWithCoordLayout(a, Coord("(4,4):(1@1,1@0)"));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(ToString(*r), "(4,4):(1,4)");
  EXPECT_EQ(*RunCuteOp("composition", {"(4,4):(4,1)", "(4,4):(1@1,1@0)"}),
            "(4,4):(1,4)");
}

// `crd` with 0 for the modes of `shape` it does not reach.
IntTuple Pad(const IntTuple& crd, const IntTuple& shape) {
  if (crd.is_int() || shape.is_int()) return crd;
  std::vector<IntTuple> e = crd.elements();
  for (size_t i = 0; i < shape.elements().size(); ++i) {
    if (i < e.size()) {
      e[i] = Pad(e[i], shape.elements()[i]);
    } else {
      e.push_back(0);
    }
  }
  return IntTuple::Tuple(std::move(e));
}

// R(i) == A(B(i)) for every i, A evaluated at the coordinate B(i).
TEST(CoordLayout, CompositionMapsThroughTheCoordinate) {
  struct Case {
    const char* a;
    const char* b;
    const char* r;
  };
  const Case cases[] = {
      {"(4,4):(4,1)", "(4,4):(1@1,1@0)", "(4,4):(1,4)"},
      {"(4,4):(4,1)", "(4,4):(1@0,1@1)", "(4,4):(4,1)"},
      {"(3,5):(5,1)", "(5,3):(1@1,1@0)", "(5,3):(1,5)"},
      {"(8,6):(1,8)", "(2,3):(2@0,2@1)", "(2,3):(2,16)"},
      {"(4,4):(4,1)", "(2,2,4):(1@0,2@0,1@1)", "(2,2,4):(4,8,1)"},
      {"(4,4):(4,1)", "(4,2):(1@1,0)", "(4,2):(1,0)"},
      // A hierarchical mode of A, reached by one stride: composed.
      {"((2,3),4):((1,8),2)", "(6,4):(1@0,1@1)", "((2,3),4):((1,8),2)"},
      {"((2,3),4):((1,8),2)", "(4,3):(1@1,2@0)", "(4,3):(2,8)"},
      // Nested bases into a hierarchical A.
      {"((2,3),4):((1,8),2)", "(3,2):(1@0@1,1@0@0)", "(3,2):(8,1)"},
  };
  for (const Case& c : cases) {
    const Layout a = *ParseLayout(c.a);
    const CoordLayout b = Coord(c.b);
    absl::StatusOr<Layout> r = ComposeWithCoordLayout(a, b);
    ASSERT_TRUE(r.ok()) << c.a << " o " << c.b << ": " << r.status();
    EXPECT_EQ(ToString(*r), c.r) << c.a << " o " << c.b;
    ASSERT_EQ(r->size(), b.size());
    for (int64_t i = 0; i < b.size(); ++i) {
      absl::StatusOr<IntTuple> crd = EvaluateCoord(b, i);
      ASSERT_TRUE(crd.ok());
      absl::StatusOr<int64_t> want = a.Evaluate(Pad(*crd, a.shape()));
      ASSERT_TRUE(want.ok()) << ToString(*crd) << ": " << want.status();
      EXPECT_EQ(r->TryEvaluate(i).value(), *want)
          << c.a << " o " << c.b << " at " << i;
    }
  }
}

TEST(CoordLayout, BadInputsAreErrors) {
  EXPECT_THAT(
      std::string(ParseCoordLayout("(2,3):(1@0,1@)").status().message()),
      HasSubstr("1:14: expected a mode index after '@', found ')'"));
  EXPECT_THAT(std::string(ParseCoordLayout("(2,3):(1@0)").status().message()),
              HasSubstr("stride is not congruent with the shape"));
  EXPECT_THAT(std::string(ParseCoordLayout("(2,3):(1@0,2)").status().message()),
              HasSubstr("another stride"));
  EXPECT_THAT(
      std::string(ParseCoordLayout("(2,3):(1@1,1@1@0)").status().message()),
      HasSubstr("another stride"));
  EXPECT_THAT(std::string(ParseCoordLayout("2:1@-1").status().message()),
              HasSubstr("basis index must be in 0..1023"));
  EXPECT_THAT(std::string(ParseCoordLayout("2:1@5000").status().message()),
              HasSubstr("basis index must be in 0..1023"));
  EXPECT_THAT(
      std::string(
          ParseCoordLayout("3:4611686018427387904@0").status().message()),
      HasSubstr("overflows int64"));
  EXPECT_EQ(Eval("(2,3):(1@0,1@1)", "6"), "index 6 is outside 0..5");
  EXPECT_THAT(Eval("(2,3):(1@0,1@1)", "(2,0)"),
              HasSubstr("is not in range of shape (2,3)"));
  EXPECT_EQ(ToString(*IdentityCoordLayout(4)), "4:1");
  EXPECT_EQ(Eval("(2,3):(3,1)", "(1,2)"), "5");
  // Paths past A's modes; two strides into one hierarchical mode.
  EXPECT_THAT(std::string(ComposeWithCoordLayout(*ParseLayout("(4,4):(4,1)"),
                                                 Coord("(4,4):(1@2,1@0)"))
                              .status()
                              .message()),
              HasSubstr("names mode 2 of (4,4):(4,1), which has rank 2"));
  EXPECT_THAT(
      std::string(ComposeWithCoordLayout(*ParseLayout("((2,3),4):((1,8),2)"),
                                         Coord("(2,3):(1@0,2@0)"))
                      .status()
                      .message()),
      HasSubstr("several strides of B reach the hierarchical mode"));
}

TEST(CoordLayout, CuteOpsTakeScaledBasisOperands) {
  EXPECT_EQ(*RunCuteOp("identity", {"(4,(2,3))"}),
            "(4,(2,3)):(1@0,(1@1@0,1@1@1))");
  EXPECT_EQ(*RunCuteOp("crd2idx", {"(4,4):(1@1,1@0)", "6"}), "(1,2)");
  EXPECT_EQ(*RunCuteOp("size", {"(4,4):(1@1,1@0)"}), "16");
  EXPECT_EQ(*RunCuteOp("rank", {"(4,(2,2)):(1@0,(1@1,2@1))"}), "2");
  EXPECT_THAT(
      std::string(
          RunCuteOp("coalesce", {"(4,4):(1@1,1@0)"}).status().message()),
      HasSubstr("scaled-basis strides (@) are supported only by"));
  EXPECT_THAT(
      std::string(RunCuteOp("composition", {"(4,4):(1@1,1@0)", "(4,4):(4,1)"})
                      .status()
                      .message()),
      HasSubstr("A with scaled-basis strides is not supported"));
}

}  // namespace
}  // namespace hlolayout::cute

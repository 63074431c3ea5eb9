// Shapes as they appear in XLA dumps and tests go through every
// representation: text -> Shape -> text (byte-identical), Shape -> proto
// bytes -> Shape (equal), and the parsed shape validates.
#include <string>

#include "absl/hash/hash.h"
#include "gtest/gtest.h"
#include "hlolayout/layout/layout_validation.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/shape/printer.h"
#include "hlolayout/shape/shape_proto.h"

namespace hlolayout {
namespace {

const char* const kCorpus[] = {
    // The seeds' examples (shapes and layout document, tiled layout).
    "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}",
    "bf16[32,32,4096]{2,1,0:T(8,128)(2,1)S(1)}",
    "bf16[32,32,8192]{2,1,0:T(8,128)(2,1)S(1)}",
    "f32[3,5]{1,0:T(2,2)}",
    "f32[4,8]{1,0:T(2,4)(2,1)}",
    "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}",
    "f32[8,8]{1,0:T(2,4)(2,1,1,1)}",
    // Shapes seen in TPU and GPU dumps.
    "f32[]{:T(256)}",
    "s32[]{:T(128)}",
    "pred[]{:T(512)}",
    "u32[]{:S(2)}",
    "f32[128]{0:T(256)}",
    "bf16[1024]{0:T(1024)(128)(2,1)}",
    "s4[64,64]{1,0:E(4)}",
    "s2[1001]{0:E(2)}",
    "s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}",
    "pred[16,128]{1,0:T(8,128)(4,1)}",
    "f8e4m3fn[4096,4096]{1,0:T(8,128)(4,1)}",
    "bf16[4,2048,128]{2,1,0:T(8,128)(2,1)S(5)}",
    "f32[150,200,100]{0,1,2:SC(0:30)(1:40,130)}",
    "f32[<=1024,16]{1,0}",
    "s32[?,?]{1,0}",
    "f32[16,<=8]{1,0:M(8)}",
    "pred[8,8,8]{0,2,1:E(32)}",
    "((f32[10]{0}), f32[20]{0}, u32[])",
    "(bf16[8,128]{1,0:T(8,128)(2,1)}, s32[], u32[]{:S(2)}, f32[], token[], "
    "/*index=5*/opaque[])",
    "(s32[], (f32[2,3]{1,0}, (pred[], ())), b(f32[4]{0:S(1)}))",
};

class XlaCorpus : public ::testing::TestWithParam<const char*> {};

TEST_P(XlaCorpus, TextModelProtoAgree) {
  absl::StatusOr<Shape> shape = ParseShape(GetParam());
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_TRUE(ValidateShape(*shape).ok());
  EXPECT_EQ(HumanStringWithLayout(*shape), GetParam());

  absl::StatusOr<Shape> from_bytes =
      ShapeFromProtoBytes(ShapeToProtoBytes(*shape));
  ASSERT_TRUE(from_bytes.ok()) << from_bytes.status();
  EXPECT_EQ(*from_bytes, *shape);
  EXPECT_EQ(absl::HashOf(*from_bytes), absl::HashOf(*shape));
  EXPECT_EQ(HumanStringWithLayout(*from_bytes), GetParam());
}

INSTANTIATE_TEST_SUITE_P(DumpsTestsAndSeeds, XlaCorpus,
                         ::testing::ValuesIn(kCorpus));

TEST(XlaCorpus, AngleBracketFormEqualsBraceForm) {
  absl::StatusOr<Shape> angle =
      ParseShape("bf16[8,1,1280,16384]<3,2,0,1:T(8,128)(2,1)S(1)>");
  absl::StatusOr<Shape> brace =
      ParseShape("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}");
  ASSERT_TRUE(angle.ok() && brace.ok());
  EXPECT_EQ(*angle, *brace);
}

TEST(XlaCorpus, LayoutsDistinguishShapesButIgnoreLayoutDoesNot) {
  absl::StatusOr<Shape> a = ParseShape("f32[3,5]{1,0:T(2,2)}");
  absl::StatusOr<Shape> b = ParseShape("f32[3,5]{0,1}");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(*a, *b);
  EXPECT_TRUE(Shape::Equal().IgnoreLayout()(*a, *b));
}

}  // namespace
}  // namespace hlolayout

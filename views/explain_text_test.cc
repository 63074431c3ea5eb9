#include "hlolayout/views/explain_text.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/layout/explain.h"
#include "hlolayout/parser/shape_parser.h"

namespace hlolayout {
namespace {

using ::testing::HasSubstr;

ShapeExplanation Explain(const std::string& text) {
  absl::StatusOr<Shape> shape = ParseShape(text);
  EXPECT_TRUE(shape.ok()) << shape.status();
  return ExplainShape(shape.ok() ? *shape : Shape());
}

// The worked example of layout/sizes.h: 15 elements, 60 bytes before the
// 2x2 tiles, 96 after; both dims pad.
TEST(Explain, TiledArray) {
  const ShapeExplanation e = Explain("f32[3,5]{1,0:T(2,2)}");
  EXPECT_EQ(e.kind, ShapeExplanation::Kind::kArray);
  EXPECT_EQ(e.shape, "f32[3,5]{1,0:T(2,2)}");
  EXPECT_EQ(e.elements, 15);
  EXPECT_EQ(e.bytes, 60);
  EXPECT_EQ(e.major_to_minor, (std::vector<int64_t>{0, 1}));
  ASSERT_TRUE(e.padding.ok());
  EXPECT_EQ(e.padding->physical_tiled, (std::vector<int64_t>{2, 3, 2, 2}));
  EXPECT_EQ(e.padding->tiles, "(2,2)");
  EXPECT_EQ(e.padding->sizes.padded_bytes, 96);
  EXPECT_EQ(e.padding->padded_dimensions.size(), 2u);
  EXPECT_TRUE(e.ok());
  const std::string text = ExplanationText(e);
  EXPECT_THAT(text, HasSubstr("  physical tiled: [2,3,2,2] (T(2,2))\n"));
  EXPECT_THAT(text, HasSubstr("  bytes:          60 logical, 96 padded, 36 "
                              "padding (1.6x expansion)\n"));
  const std::string json = ExplanationJson(e);
  EXPECT_THAT(json, HasSubstr("\"padded_bytes\": 96"));
  EXPECT_THAT(json, HasSubstr("\"expansion\": \"1.6x\""));
}

TEST(Explain, TuplesBuffersTokens) {
  const ShapeExplanation t = Explain("(f32[2]{0}, (s32[], token[]))");
  ASSERT_EQ(t.kind, ShapeExplanation::Kind::kTuple);
  ASSERT_EQ(t.parts.size(), 2u);
  EXPECT_EQ(t.parts[1].parts[1].kind, ShapeExplanation::Kind::kToken);
  EXPECT_THAT(ExplanationText(t),
              HasSubstr("  {1} tuple of 2 elements: (s32[], token[])\n"));
  EXPECT_THAT(ExplanationText(t), HasSubstr("    element {1,1}:\n"));
  const ShapeExplanation b = Explain("b(f32[4]{0})");
  ASSERT_EQ(b.kind, ShapeExplanation::Kind::kBuffer);
  EXPECT_EQ(b.parts[0].elements, 4);
  EXPECT_THAT(ExplanationText(b), HasSubstr("buffer holding:\n  shape:"));
}

// A shape too large to size: the section holds the error, ok() says so,
// and the rest is explained.
TEST(Explain, UnsizableShapeKeepsItsError) {
  const ShapeExplanation e =
      Explain("f32[3037000499,3037000499]{1,0:T(8,128)}");
  EXPECT_FALSE(e.padding.ok());
  EXPECT_FALSE(e.ok());
  EXPECT_EQ(e.elements, 9223372030926249001);
  EXPECT_THAT(ExplanationText(e),
              HasSubstr("padding and size: tiled element count overflows "
                        "int64\n"));
  EXPECT_THAT(ExplanationJson(e), HasSubstr("\"padding_and_size\": null"));
  EXPECT_THAT(ExplanationJson(e), HasSubstr("\"padding_and_size_error\": "));
  // In a tuple, the tuple is not ok either.
  EXPECT_FALSE(
      Explain("(f32[2]{0}, f32[3037000499,3037000499]{1,0:T(8,128)})").ok());
}

TEST(Explain, DynamicDimensions) {
  const ShapeExplanation e = Explain("f32[?,8]{1,0}");
  EXPECT_EQ(e.unbounded, (std::vector<bool>{true, false}));
  EXPECT_FALSE(e.is_static);
  EXPECT_THAT(ExplanationJson(e), HasSubstr("\"dimensions\": [\n"));
  EXPECT_THAT(ExplanationText(e), HasSubstr("(rank 2, dynamic)"));
}

}  // namespace
}  // namespace hlolayout

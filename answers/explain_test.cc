#include "hlolayout/answers/explain.h"

#include "gtest/gtest.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/views/explain_text.h"

namespace hlolayout::answers {
namespace {

// The text's answer is the parsed shape's, figures and views alike.
TEST(ExplainTest, TextAndShapeGiveOneAnswer) {
  absl::StatusOr<ShapeExplanation> e = AnswerExplain("f32[3,5]{1,0:T(2,2)}");
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_TRUE(e->ok());
  EXPECT_EQ(e->elements, 15);
  EXPECT_EQ(e->bytes, 60);
  ASSERT_TRUE(e->padding.ok());
  EXPECT_EQ(e->padding->sizes.padded_bytes, 96);
  const ShapeExplanation same =
      AnswerExplain(ParseShape("f32[3,5]{1,0:T(2,2)}").value());
  EXPECT_EQ(ExplanationText(*e), ExplanationText(same));
  EXPECT_EQ(ExplanationJson(*e), ExplanationJson(same));
}

// A shape that does not parse: the parser's located error.
TEST(ExplainTest, BadTextIsTheParsersError) {
  absl::StatusOr<ShapeExplanation> e = AnswerExplain("f32[3,");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().message(), ParseShape("f32[3,").status().message());
}

}  // namespace
}  // namespace hlolayout::answers

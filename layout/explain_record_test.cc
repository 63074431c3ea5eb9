#include "hlolayout/layout/explain_record.h"

#include <string>
#include <variant>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/layout/explain.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/util/fields.h"
#include "hlolayout/util/record.h"

namespace hlolayout {
namespace {

using ::testing::HasSubstr;

// The --json document (views/explain_text.h writes it so): the records to
// an indented RecordJsonWriter.
std::string ExplanationJson(const ShapeExplanation& e) {
  std::string out;
  RecordJsonWriter w(&out, RecordJsonWriter::Style::kIndented);
  EmitValue(ExplanationAnswerOf(e), w);
  return out;
}

ShapeExplanation Explain(const std::string& text) {
  absl::StatusOr<Shape> shape = ParseShape(text);
  EXPECT_TRUE(shape.ok()) << shape.status();
  return ExplainShape(shape.ok() ? *shape : Shape());
}

// The document `hlolayout explain --json` printed before it followed the
// field lists, byte for byte: a tuple of an array and a token.
TEST(ExplainRecord, TupleDocumentIsUnchanged) {
  EXPECT_EQ(
      ExplanationJson(Explain("(pred[], token[])")),
      std::string(
          "{\n"
          "  \"shape\": \"(pred[], token[])\",\n"
          "  \"kind\": \"tuple\",\n"
          "  \"elements_shapes\": [\n"
          "    {\n"
          "      \"shape\": \"pred[]\",\n"
          "      \"kind\": \"array\",\n"
          "      \"element_type\": \"pred\",\n"
          "      \"bit_width\": 1,\n"
          "      \"byte_width\": 1,\n"
          "      \"rank\": 0,\n"
          "      \"dimensions\": [],\n"
          "      \"dynamic_dimensions\": [],\n"
          "      \"minor_to_major\": [],\n"
          "      \"major_to_minor\": [],\n"
          "      \"layout\": \"{}\",\n"
          "      \"attributes\": [],\n"
          "      \"memory_space\": 0,\n"
          "      \"memory_space_name\": \"default device memory (HBM)\",\n"
          "      \"elements\": 1,\n"
          "      \"bytes\": 1,\n"
          "      \"padding_and_size\": {\n"
          "        \"physical_tiled\": [],\n"
          "        \"logical_elements\": 1,\n"
          "        \"tiled_elements\": 1,\n"
          "        \"padded_elements\": 1,\n"
          "        \"padding_elements\": 0,\n"
          "        \"logical_bytes\": 1,\n"
          "        \"padded_bytes\": 1,\n"
          "        \"padding_bytes\": 0,\n"
          "        \"expansion\": \"1.0x\",\n"
          "        \"aligned_to_tiles\": true,\n"
          "        \"padded_dimensions\": []\n"
          "      }\n"
          "    },\n"
          "    {\n"
          "      \"shape\": \"token[]\",\n"
          "      \"kind\": \"token\"\n"
          "    }\n"
          "  ]\n"
          "}"));
}

TEST(ExplainRecord, PaddingSectionAndItsReasons) {
  const std::string json = ExplanationJson(Explain("s8[3]{0:T(4)}"));
  EXPECT_THAT(json, HasSubstr("  \"padding_and_size\": {\n"
                              "    \"physical_tiled\": [\n      1,\n      4\n"
                              "    ],\n"));
  EXPECT_THAT(json, HasSubstr("    \"expansion\": \"1.3x\",\n"
                              "    \"aligned_to_tiles\": false,\n"
                              "    \"padded_dimensions\": [\n      {\n"
                              "        \"dimension\": 0,\n"));
  EXPECT_THAT(json, HasSubstr("\n      }\n    ]\n  }\n}"));
  EXPECT_THAT(json, ::testing::Not(HasSubstr("padding_and_size_error")));
}

TEST(ExplainRecord, UnboundedDimensionIsNullAndTheErrorIsKept) {
  const std::string json = ExplanationJson(Explain("f32[?]{0}"));
  EXPECT_THAT(json, HasSubstr("  \"dimensions\": [\n    null\n  ],\n"));
  EXPECT_THAT(json, HasSubstr("  \"elements\": null,\n  \"bytes\": null,\n"
                              "  \"padding_and_size\": null,\n"
                              "  \"padding_and_size_error\": \"dimension 0 is "
                              "unbounded (`?`): no size\"\n}"));
}

TEST(ExplainRecord, BufferHoldsItsArray) {
  const std::string json = ExplanationJson(Explain("b(s8[2]{0:T(4)})"));
  EXPECT_THAT(json, HasSubstr("{\n  \"shape\": \"b(s8[2]{0:T(4)})\",\n"
                              "  \"kind\": \"buffer\",\n  \"buffer_shape\": {\n"
                              "    \"shape\": \"s8[2]{0:T(4)}\",\n"
                              "    \"kind\": \"array\",\n"));
}

// The answer is a value: a tuple holds its elements' explanations, each of
// its kind's type, and names its elements' type as one Union (a record
// that holds itself: its spec is made without recursing).
TEST(ExplainRecord, TheAnswerIsAValue) {
  const explain_answer::Explanation e = ExplanationAnswerOf(
      Explain("(s8[3]{0:T(4)}, b(f32[2]{0}), token[], opaque[])"));
  const auto* tuple = std::get_if<explain_answer::TupleExplanation>(&e);
  ASSERT_NE(tuple, nullptr);
  ASSERT_EQ(tuple->elements_shapes.size(), 4u);
  EXPECT_TRUE(std::holds_alternative<explain_answer::ArrayExplanation>(
      tuple->elements_shapes[0]));
  EXPECT_TRUE(std::holds_alternative<explain_answer::BufferExplanation>(
      tuple->elements_shapes[1]));
  EXPECT_EQ(
      std::get<explain_answer::OpaqueExplanation>(tuple->elements_shapes[2])
          .kind,
      "token");
  EXPECT_EQ(
      std::string(SpecOf<explain_answer::TupleExplanation>().fields[2].type),
      "Tuple[Union[ArrayExplanation, TupleExplanation, "
      "BufferExplanation, OpaqueExplanation], ...]");
}

}  // namespace
}  // namespace hlolayout

#include "hlolayout/answers/shape_proto.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/parser/shape_parser.h"

namespace hlolayout::answers {
namespace {

using ::testing::HasSubstr;

TEST(ShapeProtoAnswer, RoundTrip) {
  const Shape shape = *ParseShape("bf16[8,128]{1,0:T(8,128)(2,1)}");
  const std::string bytes = ShapeProtoBytesOf(shape);
  EXPECT_FALSE(bytes.empty());
  absl::StatusOr<Shape> back = AnswerShapeFromProto(bytes);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->ToString(true), shape.ToString(true));
}

TEST(ShapeProtoAnswer, BadBytes) {
  absl::StatusOr<Shape> s = AnswerShapeFromProto("\xff\xff\xff");
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.status().message(), HasSubstr("shape proto"));
}

}  // namespace
}  // namespace hlolayout::answers

#include "hlolayout/answers/verify.h"

#include "gtest/gtest.h"

namespace hlolayout::answers {
namespace {

// Two instructions whose shapes are not their ops' (abs keeps the shape,
// sqrt the element type).
constexpr char kTwoWrong[] = R"(HloModule v
ENTRY %e (a: f32[4]) -> (f32[5], s32[4]) {
  %a = f32[4]{0} parameter(0)
  %b = f32[5]{0} abs(%a)
  %c = s32[4]{0} sqrt(%a)
  ROOT %r = (f32[5]{0}, s32[4]{0}) tuple(%b, %c)
}
)";

// The first error only, or all of them; each located in the named file.
TEST(VerifyTest, FirstOrAllErrors) {
  VerifyRequest request;
  request.file_name = "m.txt";
  absl::StatusOr<VerifyAnswer> a = AnswerVerify(kTwoWrong, request);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->modules, 1);
  ASSERT_EQ(a->errors.size(), 1u);
  EXPECT_EQ(a->errors[0].message(),
            "m.txt:4:8: shape f32[5]{0} of 'b' is not abs's of its "
            "operands: f32[4]\n"
            "  %b = f32[5]{0} abs(%a)\n"
            "       ^");
  request.all = true;
  a = AnswerVerify(kTwoWrong, request);
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_EQ(a->errors.size(), 2u);
  EXPECT_EQ(a->errors[1].message().substr(0, 35),
            "m.txt:5:8: shape s32[4]{0} of 'c' i");
}

// A right module has no error; a text that does not read is the reader's
// error, not an answer.
TEST(VerifyTest, RightModuleAndBadText) {
  absl::StatusOr<VerifyAnswer> a = AnswerVerify(
      "HloModule m\nENTRY %e (p: f32[2]) -> f32[2] {\n"
      "  ROOT %p = f32[2]{0} parameter(0)\n}\n",
      VerifyRequest());
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->modules, 1);
  EXPECT_TRUE(a->errors.empty());
  EXPECT_FALSE(AnswerVerify("HloModule m\nENTRY %e {\n", VerifyRequest()).ok());
}

}  // namespace
}  // namespace hlolayout::answers

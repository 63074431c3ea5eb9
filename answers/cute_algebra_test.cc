#include "hlolayout/answers/cute_algebra.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/cute/print.h"

namespace hlolayout::answers {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

absl::StatusOr<std::string> Op(absl::string_view op,
                               std::vector<absl::string_view> operands) {
  return AnswerCuteOp({op, operands});
}

TEST(CuteAlgebra, OpAnswersAsCutePrints) {
  EXPECT_EQ(*Op("composition", {"(6,2):(8,2)", "(4,3):(3,1)"}),
            "((2,2),3):((24,2),8)");
  EXPECT_EQ(*Op("complement", {"4:2", "24"}), "(2,3):(_1,8)");
  EXPECT_EQ(*Op("size", {"((2,2),3):((24,2),8)"}), "12");
}

TEST(CuteAlgebra, OpErrorsNameTheOp) {
  absl::StatusOr<std::string> r = Op("nosuchop", {"4:1"});
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("unknown cute op 'nosuchop'"));
  EXPECT_FALSE(Op("composition", {"4:1"}).ok());
}

TEST(CuteAlgebra, CatalogueFindsEveryOp) {
  ASSERT_FALSE(CuteOps().empty());
  for (const CuteOpInfo& op : CuteOps()) {
    EXPECT_EQ(FindCuteOp(op.name), &op);
  }
  EXPECT_EQ(FindCuteOp("nosuchop"), nullptr);
}

TEST(CuteAlgebra, Offsets) {
  absl::StatusOr<std::vector<int64_t>> o = AnswerCuteOffsets("(2,2):(1,4)");
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_THAT(*o, ElementsAre(0, 1, 4, 5));
}

TEST(CuteAlgebra, DslIndexKeepsTheTags) {
  using cute::Int;
  using cute::IntTuple;
  const auto s = [](int64_t v) { return IntTuple::Static(v); };
  const auto q = [](int64_t v, int64_t div) {
    return IntTuple(Int::Unknown(v, div));
  };
  absl::StatusOr<Int> i = AnswerDslCrdToIdx(
      q(12, 4), IntTuple::Tuple({s(4), s(8)}), IntTuple::Tuple({s(3), s(16)}));
  ASSERT_TRUE(i.ok()) << i.status();
  EXPECT_EQ(cute::DslText(IntTuple(*i)), "?{div=16}");
  absl::StatusOr<IntTuple> c =
      AnswerDslIdxToCrd(q(8, 8), IntTuple::Tuple({s(4), s(2)}));
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(cute::DslText(*c), "(0,?{div=2})");
  EXPECT_FALSE(AnswerDslIdxToCrd(IntTuple::Tuple({s(1), s(2)}), s(4)).ok());
}

}  // namespace
}  // namespace hlolayout::answers

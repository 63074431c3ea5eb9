#include "hlolayout/answers/relayout.h"

#include <cstdint>
#include <numeric>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/parser/shape_parser.h"

namespace hlolayout::answers {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Shape S(absl::string_view text) { return *ParseShape(text); }

TEST(RelayoutAnswer, TransposesAndFills) {
  RelayoutOptions options;
  options.fill = 0xff;
  absl::StatusOr<RelayoutPlan> plan =
      AnswerRelayout({S("u8[2,3]{1,0}"), S("u8[2,3]{0,1:T(4)}"), options});
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->src_bytes(), 6);
  EXPECT_EQ(plan->dst_bytes(), 12);  // three columns of 2, each tiled to 4
  std::vector<uint8_t> src(6);
  std::iota(src.begin(), src.end(), 0);
  std::vector<uint8_t> dst(12);
  ASSERT_TRUE(plan->Run(src, absl::MakeSpan(dst)).ok());
  EXPECT_THAT(
      dst, ElementsAre(0, 3, 0xff, 0xff, 1, 4, 0xff, 0xff, 2, 5, 0xff, 0xff));
}

TEST(RelayoutAnswer, SaysWhatDiffers) {
  absl::StatusOr<RelayoutPlan> plan =
      AnswerRelayout({S("f32[4]{0}"), S("bf16[4]{0}"), RelayoutOptions()});
  ASSERT_FALSE(plan.ok());
  EXPECT_THAT(plan.status().message(), HasSubstr("element types differ"));
}

}  // namespace
}  // namespace hlolayout::answers

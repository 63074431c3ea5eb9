#include "hlolayout/answers/triton.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/triton_given_layouts.h"
#include "hlolayout/triton/cvt_target.h"
#include "hlolayout/triton/layout_check.h"
#include "hlolayout/triton/layout_explain.h"
#include "hlolayout/util/fields.h"

namespace hlolayout::triton {
namespace {

using ::testing::HasSubstr;

TEST(TritonCvt, OneRowPerTargetInOrder) {
  absl::StatusOr<TritonCvtAnswer> a =
      AnswerCvt(GivenLayout64x64(kTestMmaLayout),
                GivenLayout64x64(kTestColumnsLayout), 16, kNewestTriton,
                /*version_given=*/false, {"cuda:90", "cuda:80"});
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_EQ(a->targets.size(), 2u);
  EXPECT_EQ(a->targets[0].target, "cuda:90");
  EXPECT_EQ(a->targets[1].target, "cuda:80");
  EXPECT_EQ(a->kind, "shared_memory");
  EXPECT_EQ(a->targets[0].scratch_bytes, 2048);
  EXPECT_EQ(a->shape, (std::vector<int64_t>{64, 64}));
  const std::string json = AnswerJson(*a, RecordJsonWriter::Style::kIndented);
  EXPECT_THAT(json, HasSubstr("\"scratch_bytes\": 2048"));
  EXPECT_THAT(json, HasSubstr("\"triton\": \"3.9.0\""));
  // The text-only fields stay out of the JSON.
  EXPECT_THAT(json, ::testing::Not(HasSubstr("version_given")));
  EXPECT_THAT(json, HasSubstr("\"store_ways\": 1"));
}

TEST(TritonCvt, SameLayoutMovesNothing) {
  absl::StatusOr<TritonCvtAnswer> a =
      AnswerCvt(GivenLayout64x64(kTestColumnsLayout),
                GivenLayout64x64(kTestColumnsLayout), 16, TritonVersion::k3_6_0,
                /*version_given=*/true, {"cuda:90"});
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->kind, "registers");
  EXPECT_TRUE(a->nothing_moves);
  ASSERT_TRUE(a->targets[0].stores.has_value());
  EXPECT_TRUE(a->targets[0].stores->empty());
  EXPECT_FALSE(a->targets[0].reps.has_value());
  EXPECT_THAT(AnswerJson(*a), HasSubstr("\"stores\": [], \"loads\": []"));
}

TEST(TritonCvt, RefusalOfDifferentShapes) {
  absl::StatusOr<GivenLayout> small = ReadGivenLayout(
      kTestColumnsLayout, std::vector<int64_t>{32, 32}, nullptr);
  ASSERT_TRUE(small.ok()) << small.status();
  EXPECT_FALSE(AnswerCvt(GivenLayout64x64(kTestMmaLayout), *small, 16,
                         kNewestTriton, false, {"cuda:90"})
                   .ok());
}

TEST(TritonCvt, BasesByInDimAsAnObject) {
  const GivenLayout l = GivenLayout64x64(kTestColumnsLayout);
  const BasesByInDim bases = BasesOf(l.layout);
  ASSERT_FALSE(bases.empty());
  EXPECT_EQ(bases[0].first, "register");
  EXPECT_EQ(bases[0].second[0], (std::vector<int64_t>{1, 0}));
}

TEST(TritonExplain, BasesMasksAndFormsAsTheJsonSaysThem) {
  const TritonExplainAnswer a =
      AnswerExplain(GivenLayout64x64(kTestColumnsLayout), 16);
  EXPECT_EQ(a.kind, "blocked");
  EXPECT_EQ(a.out_dims, (OutDimSizes{{"dim0", 64}, {"dim1", 64}}));
  EXPECT_FALSE(a.xla.has_value());  // a register layout has no XLA form
  EXPECT_FALSE(a.xla_none.empty());
  EXPECT_FALSE(a.view.has_value());  // 4,096 elements: no view
  EXPECT_THAT(a.views_none, HasSubstr("more than 1,024 elements"));
  const std::string json = AnswerJson(a, RecordJsonWriter::Style::kIndented);
  EXPECT_THAT(json, HasSubstr("\"bases\": {\n    \"register\": [\n      [\n"));
  EXPECT_THAT(json,
              HasSubstr("\"free_variable_masks\": {\n    \"register\": 0,"));
  EXPECT_THAT(json, HasSubstr("\"xla\": null"));
  EXPECT_THAT(json, ::testing::Not(HasSubstr("views_none")));
}

TEST(TritonCheck, RefusalHasNoBasesAndNotesAreAbsentWhenNone) {
  LayoutCheckRequest r;
  r.layout =
      "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, "
      "32, 8], isTransposed = true}>";
  r.shape = {64, 64};
  r.threads_per_warp = 32;
  const TritonCheckAnswer refused = AnswerCheck(r);
  EXPECT_FALSE(refused.ok);
  EXPECT_FALSE(refused.bases.has_value());
  ASSERT_TRUE(refused.error.has_value());
  EXPECT_THAT(AnswerJson(refused),
              HasSubstr("\"bases\": null, \"out_dims\": null, \"error\": "));
  r.threads_per_warp = 64;
  const TritonCheckAnswer ok = AnswerCheck(r);
  EXPECT_TRUE(ok.ok);
  const std::string json = AnswerJson(ok);
  EXPECT_THAT(json,
              HasSubstr("\"out_dims\": [[\"dim0\", 64], [\"dim1\", 64]]"));
  EXPECT_THAT(json, HasSubstr("\"error\": null}"));  // no notes key
}

}  // namespace
}  // namespace hlolayout::triton

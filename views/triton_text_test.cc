// The texts of the Triton commands, views of their answers
// (answers/triton.h, answers/triton_apply.h).
#include "hlolayout/views/triton_text.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/answers/triton.h"
#include "hlolayout/answers/triton_apply.h"
#include "hlolayout/testing/triton_given_layouts.h"
#include "hlolayout/triton/cvt_target.h"
#include "hlolayout/triton/layout_check.h"
#include "hlolayout/triton/layout_explain.h"
#include "hlolayout/views/triton_report_text.h"

namespace hlolayout::triton {
namespace {

using ::testing::HasSubstr;

TEST(TritonTextTest, Cvt) {
  absl::StatusOr<TritonCvtAnswer> a =
      AnswerCvt(GivenLayout64x64(kTestMmaLayout),
                GivenLayout64x64(kTestColumnsLayout), 16, kNewestTriton,
                /*version_given=*/false, {"cuda:90", "cuda:80"});
  ASSERT_TRUE(a.ok()) << a.status();
  std::string text = CvtText(*a);
  EXPECT_THAT(text, HasSubstr("convert_layout of 64x64 (16-bit elements)\n"));
  EXPECT_THAT(text, HasSubstr("kind: shared_memory (warps exchange values"));
  EXPECT_THAT(text, HasSubstr("(the newest modelled; --triton 3.6.0"));
  EXPECT_THAT(text, HasSubstr("stmatrix"));  // cuda:90 stores

  a = AnswerCvt(GivenLayout64x64(kTestColumnsLayout),
                GivenLayout64x64(kTestColumnsLayout), 16, TritonVersion::k3_6_0,
                /*version_given=*/true, {"cuda:90"});
  ASSERT_TRUE(a.ok()) << a.status();
  text = CvtText(*a);
  EXPECT_THAT(text, HasSubstr("(the same layout: nothing moves)"));
  EXPECT_THAT(text, HasSubstr("figures: Triton 3.6.0's rules (--triton)"));
}

TEST(TritonTextTest, ExplainAndCheck) {
  const TritonExplainAnswer a =
      AnswerExplain(GivenLayout64x64(kTestColumnsLayout), 16);
  EXPECT_THAT(ExplainText(a), HasSubstr("views: more than 1,024 elements"));

  LayoutCheckRequest r;
  r.layout =
      "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, "
      "32, 8], isTransposed = true}>";
  r.shape = {64, 64};
  r.threads_per_warp = 64;
  const TritonCheckAnswer ok = AnswerCheck(r);
  ASSERT_TRUE(ok.ok);
  EXPECT_THAT(CheckText(ok), HasSubstr("\non tensor<64x64xf32> in a module of "
                                       "64 threads per warp\n"));
}

// register -> dim1 (2 bits), lane -> dim1 then dim0; warp broadcast.
LinearLayout Small() {
  NamedBases bases = {{"register", {{0, 1}, {0, 2}}},
                      {"lane", {{0, 4}, {1, 0}}},
                      {"warp", {{0, 0}}}};
  return *LinearLayout::Create(bases, {{"dim0", 2}, {"dim1", 8}}, false);
}

TEST(TritonTextTest, AppliedAndFreeMasks) {
  const LinearLayout l = Small();
  absl::StatusOr<ApplyInputs> in =
      ParseApplyInputs(l, "register=3,lane=3,warp=1");
  ASSERT_TRUE(in.ok()) << in.status();
  absl::StatusOr<AppliedTable> t = ApplyOverInputs(l, *in);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(AppliedText(l, *t), "dim0=1,dim1=7\n");

  in = ParseApplyInputs(l, "lane=2..3,register=*,warp=0");
  ASSERT_TRUE(in.ok()) << in.status();
  t = ApplyOverInputs(l, *in);
  ASSERT_TRUE(t.ok()) << t.status();
  const std::string text = AppliedText(l, *t);
  EXPECT_THAT(text, ::testing::StartsWith(
                        "lane=2,register=0,warp=0 -> dim0=1,dim1=0\n"
                        "lane=3,register=0,warp=0 -> dim0=1,dim1=4\n"
                        "lane=2,register=1,warp=0 -> dim0=1,dim1=1\n"));
  EXPECT_THAT(
      text, ::testing::EndsWith("lane=3,register=3,warp=0 -> dim0=1,dim1=7\n"));

  EXPECT_EQ(FreeMasksText(l), "register=0x0,lane=0x0,warp=0x1\n");
}

// The report's pieces (views/triton_report_text.h).
TEST(TritonTextTest, NoInstructionsIsADash) {
  EXPECT_EQ(SmemInstrsText({}), "-");
  SmemRoundTrip r;
  r.store_ways = 1;
  r.load_ways = 1;
  EXPECT_EQ(BankConflictsText(r), "none");
  r.store_ways = 2;
  EXPECT_EQ(BankConflictsText(r), "stores 2-way, loads 1-way");
}

}  // namespace
}  // namespace hlolayout::triton

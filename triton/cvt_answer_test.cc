#include "hlolayout/triton/cvt_answer.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/triton/layout_explain.h"

namespace hlolayout::triton {
namespace {

using ::testing::HasSubstr;

constexpr char kMma[] =
    "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, "
    "1], instrShape = [16, 64, 16]}>";
constexpr char kCols[] =
    "#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], "
    "warpsPerCTA = [1, 4], order = [0, 1]}>";

GivenLayout Given(const char* text) {
  absl::StatusOr<GivenLayout> g =
      ReadGivenLayout(text, std::vector<int64_t>{64, 64}, nullptr);
  EXPECT_TRUE(g.ok()) << g.status();
  return *std::move(g);
}

TEST(CvtAnswer, OneRowPerTargetInOrder) {
  absl::StatusOr<CvtAnswer> a =
      MakeCvtAnswer(Given(kMma), Given(kCols), 16, kNewestTriton,
                    /*version_given=*/false, {"cuda:90", "cuda:80"});
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_EQ(a->rows.size(), 2u);
  EXPECT_EQ(a->rows[0].target, "cuda:90");
  EXPECT_EQ(a->rows[1].target, "cuda:80");
  EXPECT_EQ(a->rows[0].cost.kind, CvtKind::kSharedMemory);
  EXPECT_EQ(a->rows[0].cost.scratch_bytes, 2048);
  const std::string text = CvtAnswerText(*a);
  EXPECT_THAT(text, HasSubstr("convert_layout of 64x64 (16-bit elements)\n"));
  EXPECT_THAT(text, HasSubstr("kind: shared_memory (warps exchange values"));
  EXPECT_THAT(text, HasSubstr("(the newest modelled; --triton 3.6.0"));
  EXPECT_THAT(text, HasSubstr("stmatrix"));  // cuda:90 stores
  const std::string json = CvtAnswerJson(*a);
  EXPECT_THAT(json, HasSubstr("\"scratch_bytes\": 2048"));
  EXPECT_THAT(json, HasSubstr("\"triton\": \"3.9.0\""));
}

TEST(CvtAnswer, SameLayoutMovesNothing) {
  absl::StatusOr<CvtAnswer> a =
      MakeCvtAnswer(Given(kCols), Given(kCols), 16, TritonVersion::k3_6_0,
                    /*version_given=*/true, {"cuda:90"});
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->rows[0].cost.kind, CvtKind::kRegisters);
  const std::string text = CvtAnswerText(*a);
  EXPECT_THAT(text, HasSubstr("(the same layout: nothing moves)"));
  EXPECT_THAT(text, HasSubstr("figures: Triton 3.6.0's rules (--triton)"));
}

TEST(CvtAnswer, RefusalOfDifferentShapes) {
  absl::StatusOr<GivenLayout> small =
      ReadGivenLayout(kCols, std::vector<int64_t>{32, 32}, nullptr);
  ASSERT_TRUE(small.ok()) << small.status();
  EXPECT_FALSE(MakeCvtAnswer(Given(kMma), *std::move(small), 16, kNewestTriton,
                             false, {"cuda:90"})
                   .ok());
}

}  // namespace
}  // namespace hlolayout::triton

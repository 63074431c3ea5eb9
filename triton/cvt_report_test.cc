// How a convert's cost per target is named and printed (the --target
// lists of `triton cvt` and `triton report`, moved here from the CLI).
#include "hlolayout/triton/cvt_report.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/triton/cvt_target.h"

namespace hlolayout::triton {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(CvtReportTest, TargetsFlagNamesOneListOrAll) {
  EXPECT_THAT(*CvtTargetsFlag("", 32), ElementsAre(kDefaultCvtTarget));
  EXPECT_THAT(*CvtTargetsFlag("", 64), ElementsAre("hip:gfx942"));
  EXPECT_THAT(*CvtTargetsFlag("cuda:80,hip:gfx942", 32),
              ElementsAre("cuda:80", "hip:gfx942"));
  const std::vector<std::string> all = *CvtTargetsFlag("all", 64);
  EXPECT_THAT(all, ElementsAre("hip:gfx90a", "hip:gfx942", "hip:gfx950"));
}

TEST(CvtReportTest, TargetsFlagRefusesUnknownNamesAndLaneCounts) {
  absl::StatusOr<std::vector<std::string>> bad = CvtTargetsFlag("nope", 32);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()),
              HasSubstr("not modelled for target 'nope'"));
  absl::StatusOr<std::vector<std::string>> none = CvtTargetsFlag("all", 16);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().message(),
            "no modelled target has 16-lane warps (the layouts have)");
}

}  // namespace
}  // namespace hlolayout::triton

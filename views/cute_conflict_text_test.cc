#include "hlolayout/views/cute_conflict_text.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/cute/atom/bank_conflicts.h"

namespace hlolayout::cute {
namespace {

using ::testing::HasSubstr;

// Warp `warp`'s one instruction: 8 threads reading 32-bit values at
// offsets thread * stride.
InstructionAccess Strided(int64_t warp, int64_t stride) {
  InstructionAccess a;
  a.warp = warp;
  for (int64_t t = 0; t < 8; ++t) a.threads.push_back({t, {t * stride}});
  return a;
}

ConflictReport Report(int64_t stride) {
  absl::StatusOr<ConflictReport> r =
      CountConflicts({Strided(0, stride), Strided(1, stride)}, 32);
  EXPECT_TRUE(r.ok()) << r.status();
  return *r;
}

TEST(ConflictReportText, NoConflicts) {
  const ConflictReport r = Report(1);
  const std::string text = ConflictReportText(r, false, "eight words");
  EXPECT_THAT(text, HasSubstr("eight words\n32-bit values, "));
  EXPECT_THAT(text, HasSubstr("warp 0 instruction 0: 1 wavefronts (ideal 1, "
                              "1.00x)\n"));
  EXPECT_EQ(text.find("warp 1 "), std::string::npos);  // warp 0 only
  EXPECT_THAT(text, HasSubstr("total: 2 wavefronts for an ideal of 2 (1.00x) "
                              "over 2 instruction(s) of 2 warp(s)\n"));
  EXPECT_THAT(ConflictReportText(r, true, "x"), HasSubstr("warp 1 "));
}

TEST(ConflictReportText, EightWayConflictGroupsTheThreads) {
  const ConflictReport r = Report(32);  // every thread in bank 0
  EXPECT_EQ(r.wavefronts, 16);
  const std::string text = ConflictReportText(r, false, "stride 32");
  EXPECT_THAT(text, HasSubstr("    threads 0,1,2,3,4,5,6,7 in bank 0\n"));
}

}  // namespace
}  // namespace hlolayout::cute

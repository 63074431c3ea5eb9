#include "hlolayout/util/check.h"

#include "gtest/gtest.h"

namespace {

TEST(CheckDeathTest, PassingCheckDoesNothing) {
  int evaluated = 0;
  HLOLAYOUT_CHECK(++evaluated == 1) << "never printed";
  EXPECT_EQ(evaluated, 1);
}

TEST(CheckDeathTest, FailingCheckAbortsWithMessage) {
  EXPECT_DEATH(HLOLAYOUT_CHECK(1 + 1 == 3) << "rank " << 7,
               "check failed: 1 \\+ 1 == 3 rank 7");
}

}  // namespace

#include "hlolayout/util/cores.h"

#include "gtest/gtest.h"

namespace hlolayout {
namespace {

TEST(Cores, IdleCoresLeaveTheBusyOnesOut) {
  // Alone on 2 cores: both; one other program running: one.
  EXPECT_EQ(IdleCoresOf(2, 1, 8), 2);
  EXPECT_EQ(IdleCoresOf(2, 2, 8), 1);
  EXPECT_EQ(IdleCoresOf(2, 11, 8), 1);  // never fewer than one
  EXPECT_EQ(IdleCoresOf(16, 3, 8), 8);  // at most at_most
  EXPECT_EQ(IdleCoresOf(16, 3, 64), 14);
  EXPECT_EQ(IdleCoresOf(4, 0, 8), 4);  // a count that misses the caller
  EXPECT_EQ(IdleCoresOf(1, 1, 8), 1);
}

TEST(Cores, IdleCoresIsAPlausibleCount) {
  const int64_t n = IdleCores(8);
  EXPECT_GE(n, 1);
  EXPECT_LE(n, 8);
  EXPECT_EQ(IdleCores(1), 1);
}

}  // namespace
}  // namespace hlolayout

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
TEST(Smoke, Works) { absl::StatusOr<int> x = 3; EXPECT_EQ(*x, 3); }

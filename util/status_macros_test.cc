#include "hlolayout/util/status_macros.h"

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gtest/gtest.h"

namespace hlolayout {
namespace {

absl::StatusOr<int64_t> Half(int64_t n) {
  if (n % 2 != 0) return absl::InvalidArgumentError("odd");
  return n / 2;
}

absl::Status Check(int64_t n) {
  return n < 0 ? absl::OutOfRangeError("negative") : absl::OkStatus();
}

absl::StatusOr<int64_t> Quarter(int64_t n) {
  HLOLAYOUT_RETURN_IF_ERROR(Check(n));
  HLOLAYOUT_ASSIGN_OR_RETURN(int64_t half, Half(n));
  HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED(int64_t quarter, Half(half), "quarter",
                                      "the second half");
  return quarter;
}

TEST(StatusMacros, ReturnAssignAndPrefix) {
  EXPECT_EQ(*Quarter(8), 2);
  EXPECT_EQ(Quarter(-4).status(), absl::OutOfRangeError("negative"));
  EXPECT_EQ(Quarter(3).status(), absl::InvalidArgumentError("odd"));
  // The second step's error, prefixed, its code kept.
  EXPECT_EQ(Quarter(6).status(),
            absl::InvalidArgumentError("quarter: the second half: odd"));
}

}  // namespace
}  // namespace hlolayout

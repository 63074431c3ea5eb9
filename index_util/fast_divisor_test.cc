#include "hlolayout/index_util/fast_divisor.h"

#include <cstdint>
#include <limits>

#include "gtest/gtest.h"

namespace hlolayout {
namespace {

TEST(FastDivisor, ExhaustiveSmall) {
  for (int64_t d = 1; d <= 300; ++d) {
    FastDivisor f(d);
    for (int64_t n = 0; n <= 5000; ++n) {
      ASSERT_EQ(f.Divide(n), n / d) << n << " / " << d;
      ASSERT_EQ(f.Remainder(n), n % d) << n << " % " << d;
    }
  }
}

TEST(FastDivisor, BoundariesNearInt64Max) {
  const int64_t max = std::numeric_limits<int64_t>::max();
  const int64_t divisors[] = {1,         2,
                              3,         5,
                              7,         128,
                              1000003,   (1LL << 31) - 1,
                              1LL << 32, (1LL << 32) + 1,
                              max / 3,   max - 1,
                              max};
  for (int64_t d : divisors) {
    FastDivisor f(d);
    for (int64_t n : {int64_t{0}, d - 1, d, d == max ? max : d + 1, max - d,
                      max - 1, max, max / 2, max / 2 + 1}) {
      if (n < 0) continue;
      ASSERT_EQ(f.Divide(n), n / d) << n << " / " << d;
      ASSERT_EQ(f.Remainder(n), n % d) << n << " % " << d;
    }
    // Multiples and their neighbours up to the top of the range.
    for (int64_t k = max / d; k > 0 && k > max / d - 1000; --k) {
      const int64_t n = k * d;
      ASSERT_EQ(f.Divide(n), k);
      ASSERT_EQ(f.Divide(n - 1), (n - 1) / d);
    }
  }
}

}  // namespace
}  // namespace hlolayout

// index_util/fast_divisor.h: exact division of a non-negative int64 by a
// divisor fixed in advance, with one 64x64->128 multiply and one shift.
//
//   FastDivisor by5(5);   // tile size of f32[3,5]{1,0:T(5,5)}, say
//   by5.Divide(17) == 3;  by5.Remainder(17) == 2
//
// Granlund and Montgomery, "Division by invariant integers using
// multiplication" (PLDI 1994), theorem 4.2 with N = 63: for d >= 1,
// l = ceil(log2 d) and m = ceil(2^(63+l) / d) (which fits in 64 bits),
//   floor(n / d) == floor(n * m / 2^(63+l))   for every 0 <= n < 2^63.
// So the result is exact over the whole non-negative int64 range; the
// exhaustive and boundary tests in fast_divisor_test.cc check it.
#ifndef HLOLAYOUT_INDEX_UTIL_FAST_DIVISOR_H_
#define HLOLAYOUT_INDEX_UTIL_FAST_DIVISOR_H_

#include <cstdint>

#include "hlolayout/util/check.h"

namespace hlolayout {

class FastDivisor {
 public:
  FastDivisor() : FastDivisor(1) {}
  // Precondition: divisor >= 1 (CHECKed: divisors come from validated
  // shapes).
  explicit FastDivisor(int64_t divisor) : divisor_(divisor) {
    HLOLAYOUT_CHECK(divisor >= 1) << "divisor " << divisor;
    const uint64_t d = static_cast<uint64_t>(divisor);
    if (d == 1) {
      // 2^63 does not reduce to a high-half multiply; pass n through.
      multiplier_ = 0;
      shift_ = 0;
      pass_ = ~uint64_t{0};
      return;
    }
    int l = 0;
    while (l < 63 && (uint64_t{1} << l) < d) ++l;
    // floor(n * m / 2^(63+l)) == (high 64 bits of n * m) >> (l - 1).
    shift_ = l - 1;
    pass_ = 0;
    const unsigned __int128 num = static_cast<unsigned __int128>(1) << (63 + l);
    multiplier_ = static_cast<uint64_t>((num + d - 1) / d);
  }

  int64_t divisor() const { return divisor_; }

  // floor(n / divisor).  @pre n >= 0.
  int64_t Divide(int64_t n) const {
    const uint64_t u = static_cast<uint64_t>(n);
    const uint64_t hi = static_cast<uint64_t>(
        (static_cast<unsigned __int128>(u) * multiplier_) >> 64);
    return static_cast<int64_t>((hi >> shift_) | (u & pass_));
  }
  // n mod divisor.  @pre n >= 0.
  int64_t Remainder(int64_t n) const { return n - Divide(n) * divisor_; }

 private:
  int64_t divisor_;
  uint64_t multiplier_;
  int shift_;
  uint64_t pass_;  // all ones for divisor 1, else 0
};

}  // namespace hlolayout

#endif  // HLOLAYOUT_INDEX_UTIL_FAST_DIVISOR_H_

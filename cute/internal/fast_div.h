// cute/internal/fast_div.h: division of non-negative int64 values by a fixed
// positive divisor with one multiply and one shift.
//
//   FastDivisor by3(3);
//   by3.Divide(10) == 3
//
// Granlund and Montgomery, "Division by invariant integers using
// multiplication" (PLDI 1994), theorem 4.2 with N = 63: for a divisor d with
// l = ceil(log2 d) and m = ceil(2^(63+l) / d), which fits in 64 bits,
// floor(n / d) == floor(n * m / 2^(63+l)) for every 0 <= n < 2^63.
// Layout evaluation uses it to replace one hardware division per mode.
#ifndef HLOLAYOUT_CUTE_INTERNAL_FAST_DIV_H_
#define HLOLAYOUT_CUTE_INTERNAL_FAST_DIV_H_

#include <cstdint>

namespace hlolayout::cute::internal {

class FastDivisor {
 public:
  FastDivisor() : FastDivisor(1) {}
  // Precondition: divisor >= 1 (callers CHECK it; shapes are positive).
  explicit FastDivisor(int64_t divisor) {
    const uint64_t d = static_cast<uint64_t>(divisor);
    // l = ceil(log2(d)), the smallest l with 2^l >= d.
    const int l = d <= 1 ? 0 : 64 - __builtin_clzll(d - 1);
    shift_ = 63 + l;
    if ((d & (d - 1)) == 0) {  // a power of two: m = 2^63 exactly
      multiplier_ = uint64_t{1} << 63;
      return;
    }
    // m = ceil(2^(63+l) / d) computed in 128 bits.
    const unsigned __int128 num = static_cast<unsigned __int128>(1) << shift_;
    multiplier_ = static_cast<uint64_t>((num + d - 1) / d);
  }

  // Divide
  //
  // Returns floor(n / divisor). Precondition: n >= 0.
  int64_t Divide(int64_t n) const {
    const unsigned __int128 p =
        static_cast<unsigned __int128>(static_cast<uint64_t>(n)) * multiplier_;
    return static_cast<int64_t>(p >> shift_);
  }

 private:
  uint64_t multiplier_;
  int shift_;
};

}  // namespace hlolayout::cute::internal

#endif  // HLOLAYOUT_CUTE_INTERNAL_FAST_DIV_H_

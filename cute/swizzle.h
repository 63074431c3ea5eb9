// cute/swizzle.h: CuTe's Swizzle<B,M,S>, an XOR permutation of offsets.
//
// Swizzle<B,M,S> keeps the low M bits of an offset and XORs the B-bit field
// starting at bit M + max(0,S) (the "YYY" mask) into the B-bit field starting
// at bit M - min(0,S) (the "ZZZ" mask): f(x) = x ^ ((x & yyy) >> S), with a
// negative S shifting left. It is an involution (f(f(x)) == x).
//
//   Swizzle sw = *Swizzle::Create(3, 4, 3);       // Sw<3,4,3>
//   sw.yyy_mask() == 0b1110000000, sw.zzz_mask() == 0b1110000
//   sw(128) == 128 ^ 16 == 144
//   ToString(sw) == "Sw<3,4,3>"                    (cute/print.h)
//   *Swizzle::FromMasks(0b1000, 0b0100) == Sw<1,2,1>   (make_swizzle<Y,Z>)
//
// CuTe's compile-time conditions become run-time errors: B >= 0, M >= 0 and
// |S| >= B (CuTe's static_asserts), and B + M + |S| <= 31 so that the masks
// fit CuTe's `int`.
#ifndef HLOLAYOUT_CUTE_SWIZZLE_H_
#define HLOLAYOUT_CUTE_SWIZZLE_H_

#include <cstdint>

#include "absl/status/statusor.h"

namespace hlolayout::cute {

class Swizzle {
 public:
  // The identity Sw<0,0,0>.
  Swizzle() = default;

  // Create
  //
  // Sw<bits,base,shift>. Returns an error naming the condition when
  // bits < 0, base < 0, |shift| < bits ("abs(SShift) must be more than
  // BBits") or bits + base + |shift| > 31.
  static absl::StatusOr<Swizzle> Create(int bits, int base, int shift);

  // FromMasks
  //
  // CuTe's make_swizzle<Y,Z>(): the swizzle whose yyy mask is `yyy` and zzz
  // mask is `zzz`. Returns an error when the two masks have different bit
  // counts, are not contiguous runs that a Swizzle can represent, overlap,
  // or are negative or wider than 31 bits (what CuTe reports as a derived
  // swizzle that fails its static_asserts). Both 0 gives Sw<0,0,0>.
  static absl::StatusOr<Swizzle> FromMasks(int64_t yyy, int64_t zzz);

  int bits() const { return bits_; }
  int base() const { return base_; }
  int shift() const { return shift_; }

  // yyy_mask, zzz_mask
  //
  // The source and destination fields of the XOR.
  int64_t yyy_mask() const {
    return ((int64_t{1} << bits_) - 1) << (base_ + (shift_ > 0 ? shift_ : 0));
  }
  int64_t zzz_mask() const {
    return ((int64_t{1} << bits_) - 1) << (base_ - (shift_ < 0 ? shift_ : 0));
  }

  // is_identity
  //
  // B == 0: the swizzle changes nothing (CuTe drops it from compositions).
  bool is_identity() const { return bits_ == 0; }

  // domain_size
  //
  // 2^(B+M+|S|): the offsets one period of the swizzle spans (pycute's
  // size()); f(x + k * domain_size) == f(x) + k * domain_size for x >= 0.
  int64_t domain_size() const {
    return int64_t{1} << (bits_ + base_ + (shift_ < 0 ? -shift_ : shift_));
  }

  // operator()
  //
  // The swizzled offset, for any int64 offset (negative ones as two's
  // complement, as CuTe's `int`).
  int64_t operator()(int64_t offset) const {
    const int64_t y = offset & yyy_mask();
    return offset ^ (shift_ >= 0 ? y >> shift_ : y << -shift_);
  }

  friend bool operator==(const Swizzle& a, const Swizzle& b) {
    return a.bits_ == b.bits_ && a.base_ == b.base_ && a.shift_ == b.shift_;
  }
  friend bool operator!=(const Swizzle& a, const Swizzle& b) {
    return !(a == b);
  }

 private:
  Swizzle(int bits, int base, int shift)
      : bits_(bits), base_(base), shift_(shift) {}

  int bits_ = 0;
  int base_ = 0;
  int shift_ = 0;
};

// Compose (swizzle o swizzle)
//
// CuTe's composition(Sw0, Sw1): both shifts must be equal; the result is
// make_swizzle of the XORed masks: Sw<2,0,3> o Sw<1,2,3> == Sw<3,0,3>.
// Returns an error when the shifts differ or the masks do not form a
// swizzle.
absl::StatusOr<Swizzle> Compose(const Swizzle& a, const Swizzle& b);

// Upcast, Downcast
//
// The swizzle on offsets counted in units n times larger (upcast) or
// smaller (downcast): CuTe's upcast<N>/downcast<N>. Upcast lowers M by
// log2(n), and when M would go negative shrinks B instead
// (Sw<max(B+M',0),0,S>); downcast raises M. Returns an error when n is not
// a power of two (CuTe's "N must be a power of two") or the result breaks
// the conditions of Create.
absl::StatusOr<Swizzle> Upcast(const Swizzle& sw, int64_t n);
absl::StatusOr<Swizzle> Downcast(const Swizzle& sw, int64_t n);

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_SWIZZLE_H_

// cute/swizzle.cc: Swizzle construction, make_swizzle, composition and
// recasting.
#include "hlolayout/cute/swizzle.h"

#include <algorithm>
#include <cstdlib>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace hlolayout::cute {

namespace {

std::string Name(int b, int m, int s) {
  return absl::StrCat("Sw<", b, ",", m, ",", s, ">");
}

int CountTrailingZeros32(uint32_t v) { return v == 0 ? 32 : __builtin_ctz(v); }

// log2(n) for a power of two n > 0, else -1.
int Log2(int64_t n) {
  if (n <= 0 || (n & (n - 1)) != 0) return -1;
  return 63 - __builtin_clzll(static_cast<uint64_t>(n));
}

}  // namespace

absl::StatusOr<Swizzle> Swizzle::Create(int bits, int base, int shift) {
  if (bits < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("swizzle ", Name(bits, base, shift),
                     " is invalid: BBits must be non-negative"));
  }
  if (base < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("swizzle ", Name(bits, base, shift),
                     " is invalid: MBase must be non-negative"));
  }
  const int abs_shift = shift < 0 ? -shift : shift;
  if (abs_shift < bits) {
    return absl::InvalidArgumentError(absl::StrCat(
        "swizzle ", Name(bits, base, shift), " is invalid: |S| = ", abs_shift,
        " is less than B = ", bits,
        " (CuTe: abs(SShift) must be more than "
        "BBits), so the two masks would overlap"));
  }
  if (shift > 31 || shift < -31 || bits + base + abs_shift > 31) {
    return absl::InvalidArgumentError(absl::StrCat(
        "swizzle ", Name(bits, base, shift),
        " is invalid: B + M + |S| must be at most 31, so that its masks fit "
        "CuTe's 32-bit int"));
  }
  return Swizzle(bits, base, shift);
}

absl::StatusOr<Swizzle> Swizzle::FromMasks(int64_t yyy, int64_t zzz) {
  auto fail = [&](absl::string_view why) {
    return absl::InvalidArgumentError(
        absl::StrCat("make_swizzle<", yyy, ",", zzz, "> (yyy and zzz masks) ",
                     "gives no valid swizzle: ", why));
  };
  if (yyy < 0 || zzz < 0 || yyy > INT32_MAX || zzz > INT32_MAX) {
    return fail("a mask is negative or wider than 31 bits");
  }
  const uint32_t y = static_cast<uint32_t>(yyy);
  const uint32_t z = static_cast<uint32_t>(zzz);
  const int by = __builtin_popcount(y);
  const int bz = __builtin_popcount(z);
  if (by != bz) {
    return fail(absl::StrCat("the masks have ", by, " and ", bz,
                             " bits (CuTe: number of bits in Y and Z don't "
                             "match)"));
  }
  const int tz_y = CountTrailingZeros32(y);
  const int tz_z = CountTrailingZeros32(z);
  const int m = std::min(tz_y, tz_z) % 32;
  const int s = tz_y - tz_z;
  absl::StatusOr<Swizzle> sw = Create(by, m, s);
  if (!sw.ok()) return fail(sw.status().message());
  if ((sw->yyy_mask() | sw->zzz_mask()) != static_cast<int64_t>(y | z)) {
    return fail(absl::StrCat("the masks are not two contiguous runs of ", by,
                             " bits that ", Name(by, m, s), " would use"));
  }
  return sw;
}

absl::StatusOr<Swizzle> Compose(const Swizzle& a, const Swizzle& b) {
  if (a.shift() != b.shift()) {
    return absl::InvalidArgumentError(
        absl::StrCat("composition ", Name(a.bits(), a.base(), a.shift()), " o ",
                     Name(b.bits(), b.base(), b.shift()),
                     " fails: only swizzles of the same shift merge"));
  }
  return Swizzle::FromMasks(a.yyy_mask() ^ b.yyy_mask(),
                            a.zzz_mask() ^ b.zzz_mask());
}

absl::StatusOr<Swizzle> Upcast(const Swizzle& sw, int64_t n) {
  const int log2_n = Log2(n);
  if (log2_n < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "upcast<", n, "> of ", Name(sw.bits(), sw.base(), sw.shift()),
        " fails: N must be a power of two"));
  }
  const int new_m = sw.base() - log2_n;
  if (new_m >= 0) return Swizzle::Create(sw.bits(), new_m, sw.shift());
  return Swizzle::Create(std::max(sw.bits() + new_m, 0), 0, sw.shift());
}

absl::StatusOr<Swizzle> Downcast(const Swizzle& sw, int64_t n) {
  const int log2_n = Log2(n);
  if (log2_n < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "downcast<", n, "> of ", Name(sw.bits(), sw.base(), sw.shift()),
        " fails: N must be a power of two"));
  }
  absl::StatusOr<Swizzle> r =
      Swizzle::Create(sw.bits(), sw.base() + log2_n, sw.shift());
  if (!r.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "downcast<", n, "> of ", Name(sw.bits(), sw.base(), sw.shift()),
        " fails: ", r.status().message()));
  }
  return r;
}

}  // namespace hlolayout::cute

// util/same_bytes.h: equality of short byte runs, inlined.
//
//   SameBytes(a.data(), b.data(), n)   // for shape texts and names of
//                                      // 8 to 64 bytes, on hot paths
//
// 8-byte words, the last one overlapping; under 8 bytes two overlapping
// words of 4 or 2 bytes. A
// libc memcmp call per lookup cost more than the compare on the reader's and
// the report's per-instruction paths (docs/report-speed-history.md).
#ifndef HLOLAYOUT_UTIL_SAME_BYTES_H_
#define HLOLAYOUT_UTIL_SAME_BYTES_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace hlolayout {

// Precondition: `n` bytes readable at `a` and at `b`.
inline bool SameBytes(const char* a, const char* b, size_t n) {
  if (n >= 8) {
    for (size_t i = 0; i + 8 < n; i += 8) {
      uint64_t x, y;
      std::memcpy(&x, a + i, 8);
      std::memcpy(&y, b + i, 8);
      if (x != y) return false;
    }
    uint64_t x, y;
    std::memcpy(&x, a + n - 8, 8);
    std::memcpy(&y, b + n - 8, 8);
    return x == y;
  }
  // Under 8 bytes: two overlapping 4-byte words, two 2-byte ones, or one
  // byte.
  if (n >= 4) {
    uint32_t x0, y0, x1, y1;
    std::memcpy(&x0, a, 4);
    std::memcpy(&y0, b, 4);
    std::memcpy(&x1, a + n - 4, 4);
    std::memcpy(&y1, b + n - 4, 4);
    return ((x0 ^ y0) | (x1 ^ y1)) == 0;
  }
  if (n >= 2) {
    uint16_t x0, y0, x1, y1;
    std::memcpy(&x0, a, 2);
    std::memcpy(&y0, b, 2);
    std::memcpy(&x1, a + n - 2, 2);
    std::memcpy(&y1, b + n - 2, 2);
    return ((x0 ^ y0) | (x1 ^ y1)) == 0;
  }
  return n == 0 || a[0] == b[0];
}

}  // namespace hlolayout

#endif  // HLOLAYOUT_UTIL_SAME_BYTES_H_

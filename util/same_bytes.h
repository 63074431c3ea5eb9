// util/same_bytes.h: equality of short byte runs, inlined.
//
//   SameBytes(a.data(), b.data(), n)   // for shape texts and names of
//                                      // 8 to 64 bytes, on hot paths
//
// 8-byte words, the last one overlapping; byte by byte under 8 bytes. A
// libc memcmp call per lookup cost more than the compare on the reader's and
// the report's per-instruction paths (docs/report-speed.md).
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
  for (size_t i = 0; i < n; ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

}  // namespace hlolayout

#endif  // HLOLAYOUT_UTIL_SAME_BYTES_H_

// util/int_math.h: integer helpers with the overflow checked, shared by the
// TTNN model (ttnn/) and tt-mlir's TTNN layouts (ttmlir/), which stand side
// by side (was ttnn/int_math.h).
//
// Shapes are int64; tt-metal keeps dims as uint32_t, so inputs are limited
// to dims below 2^32 and every product is checked: an overflow is an error
// ("... does not fit in 64 bits"), never a wrap.
//
//   CeilDiv(7, 2) == 4;  RoundUp(7, 4) == 8;  DimFromEnd({5, 6}, 3) == 1
#ifndef HLOLAYOUT_UTIL_INT_MATH_H_
#define HLOLAYOUT_UTIL_INT_MATH_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace hlolayout {

// ceil(a / b) for a >= 0, b > 0.
inline int64_t CeilDiv(int64_t a, int64_t b) { return a / b + (a % b != 0); }

// a rounded up to a multiple of m (m > 0), or a when m is 0. Precondition:
// no overflow (a and m below 2^32).
inline int64_t RoundUp(int64_t a, int64_t m) {
  return m == 0 ? a : CeilDiv(a, m) * m;
}

// a * b, or an error naming `what`.
inline absl::StatusOr<int64_t> CheckedMul(int64_t a, int64_t b,
                                          absl::string_view what) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) {
    return absl::InvalidArgumentError(
        absl::StrCat("the ", what, " does not fit in 64 bits"));
  }
  return r;
}

// The product of `dims`, or an error naming `what` when the product of the
// dims other than 0 does not fit in 64 bits: then the product of any of
// them fits too, which callers rely on (a dim of 0 makes the volume 0, not
// the others' products small).
inline absl::StatusOr<int64_t> CheckedVolume(absl::Span<const int64_t> dims,
                                             absl::string_view what) {
  int64_t nonzero = 1;
  bool zero = false;
  for (int64_t d : dims) {
    if (d == 0) {
      zero = true;
    } else if (__builtin_mul_overflow(nonzero, d, &nonzero)) {
      return absl::InvalidArgumentError(
          absl::StrCat("the ", what, " does not fit in 64 bits"));
    }
  }
  return zero ? 0 : nonzero;
}

// tt-metal's Shape[-k] (k >= 1): the k-th dim from the end, and 1 for the
// dims a short shape does not have (ShapeBase keeps at least four).
inline int64_t DimFromEnd(absl::Span<const int64_t> shape, int k) {
  return k <= static_cast<int>(shape.size()) ? shape[shape.size() - k] : 1;
}

}  // namespace hlolayout

#endif  // HLOLAYOUT_UTIL_INT_MATH_H_

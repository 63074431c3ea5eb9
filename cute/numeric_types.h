// cute/numeric_types.h: the element types of CuTe by name, and their width
// in bits (CuTe's sizeof_bits<T>).
//
//   SizeofBits("half_t")       == 16
//   SizeofBits("float_e4m3_t") == 8
//   SizeofBits("uint4_t")      == 4
//   SizeofBits("24")           == 24     a plain number of bits is accepted
//   SizeofBits("float4")       -> error listing the known names
#ifndef HLOLAYOUT_CUTE_NUMERIC_TYPES_H_
#define HLOLAYOUT_CUTE_NUMERIC_TYPES_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace hlolayout::cute {

// SizeofBits
//
// The width of a CuTe/CUTLASS element type (`half_t`, `bfloat16_t`,
// `tfloat32_t`, `float`, `double`, `int8_t`, `uint4_t`, `float_e4m3_t`,
// `float_e2m1_t`, `complex<float>`, `uint_bit_t<N>`, ...), or a positive
// number of bits written as a decimal integer. Returns an error naming the
// known types for anything else.
absl::StatusOr<int> SizeofBits(absl::string_view type);

// KnownNumericTypes
//
// Every name SizeofBits knows, in a stable order.
std::vector<std::string> KnownNumericTypes();

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_NUMERIC_TYPES_H_

// hlo/literal.h: checks the literal of an HLO `constant(...)` against
// the constant's shape, as XLA's parser does, without building the values:
// the nesting of braces against the dimensions, each value against its
// element type's range, and NaN payloads against the mantissa.
//
//   size_t at = 0;
//   CheckHloLiteral("{1, 2, 3}", Shape f32[3], &at)          // OK
//   CheckHloLiteral("{1,{2}}", f32[2], &at)
//       // "expects nested array in rank 1, but sees larger", at = 3
//   CheckHloLiteral("-65520", f16[], &at)
//       // "-65520 is out of range for literal's primitive type f16"
//
// Accepted, as XLA accepts them: `{...}` (an elided literal) anywhere, one
// value for a whole array (`f32[8,8] constant(1)`, as XLA's tests write),
// empty groups under a zero dimension, `/*comments*/`, pred as
// true/false/0/1, `nan`, `-nan`, `nan(0xPAYLOAD)`, `inf`, `-inf`, complex
// values as `(re, im)`, tuples as `(literal, literal, ...)`, u64 values from
// -2^63 (XLA reads them as int64) to 2^64-1. Integers are checked exactly,
// floating point values through their nearest double: a value whose
// magnitude passes the type's largest finite value is out of range.
//
// Cost: linear in the literal; nothing is allocated for arrays.
#ifndef HLOLAYOUT_HLO_LITERAL_H_
#define HLOLAYOUT_HLO_LITERAL_H_

#include <cstddef>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout {

// CheckHloLiteral
//
// OK, or InvalidArgument with a short message and `*error_offset` set to
// the offset in `literal` the message is about. `max_depth` bounds tuple
// nesting.
absl::Status CheckHloLiteral(absl::string_view literal, const Shape& shape,
                             size_t* error_offset, int max_depth = 256);

}  // namespace hlolayout

#endif  // HLOLAYOUT_HLO_LITERAL_H_

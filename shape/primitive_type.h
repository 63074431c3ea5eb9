// shape/primitive_type.h: XLA's element types, their names, numbers and widths.
//
// The enum values are the numbers of `PrimitiveType` in XLA's xla_data.proto,
// so a value read from an XLA proto can be cast directly (after
// IsKnownPrimitiveType). Text names are XLA's: the enum name in lower case,
// except OPAQUE_TYPE, which is written `opaque`.
//
//   PrimitiveTypeName(BF16) == "bf16"      BitWidth(S4) == 4
//   PrimitiveTypeFromName("f8e4m3fn") == F8E4M3FN
//
// Traps kept from XLA on purpose:
//   - BitWidth(PRED) is 1, yet a pred occupies a whole byte (ByteWidth 1) and
//     is never packed: IsSubByteType(PRED) is false.
//   - Sub-byte types (s1, s2, s4, u1, u2, u4, f4e2m1fn) are stored one per
//     byte unless the layout says `E(n)`; the width functions here describe
//     the type, not the storage chosen by a layout.
//   - f6e3m2fn and f6e2m3fn report 8 bits, as in the XLA version the
//     reference notes were read from.
#ifndef HLOLAYOUT_SHAPE_PRIMITIVE_TYPE_H_
#define HLOLAYOUT_SHAPE_PRIMITIVE_TYPE_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "absl/types/optional.h"
#include "absl/types/span.h"

namespace hlolayout {

// Numbers match xla_data.proto's PrimitiveType.
enum PrimitiveType : int32_t {
  PRIMITIVE_TYPE_INVALID = 0,
  PRED = 1,
  S1 = 30,
  S2 = 26,
  S4 = 21,
  S8 = 2,
  S16 = 3,
  S32 = 4,
  S64 = 5,
  U1 = 31,
  U2 = 27,
  U4 = 22,
  U8 = 6,
  U16 = 7,
  U32 = 8,
  U64 = 9,
  F16 = 10,
  F32 = 11,
  BF16 = 16,
  F64 = 12,
  F8E5M2 = 19,
  F8E4M3 = 28,
  F8E4M3FN = 20,
  F8E4M3B11FNUZ = 23,
  F8E3M4 = 29,
  F8E5M2FNUZ = 24,
  F8E4M3FNUZ = 25,
  F4E2M1FN = 32,
  F8E8M0FNU = 33,
  F6E3M2FN = 35,
  F6E2M3FN = 36,
  C64 = 15,
  C128 = 18,
  TUPLE = 13,
  OPAQUE_TYPE = 14,
  TOKEN = 17,
  BUFFER = 34,
};

// Every valid PrimitiveType (not PRIMITIVE_TYPE_INVALID), in enum order.
absl::Span<const PrimitiveType> AllPrimitiveTypes();

// True if `value` is the number of a PrimitiveType this library knows,
// including PRIMITIVE_TYPE_INVALID (0). Use it before casting proto values.
bool IsKnownPrimitiveType(int64_t value);

// Text name as XLA prints it: "f32", "pred", "opaque", "token". TUPLE and
// BUFFER have no text name of their own ("tuple" and "buffer" are returned
// for messages); PRIMITIVE_TYPE_INVALID gives "invalid".
absl::string_view PrimitiveTypeName(PrimitiveType type);

// The type whose text name is `name`, for types that appear as
// `name[...]` in HLO text: every array type, "token" and "opaque". Returns
// nullopt for anything else ("tuple", "buffer", "F32", "opaque_type").
absl::optional<PrimitiveType> PrimitiveTypeFromName(absl::string_view name);

// Element width in bits, as XLA's primitive_util::BitWidth: 1 for PRED,
// 4 for S4, 32 for F32, 64 for C64. 0 for TUPLE, OPAQUE_TYPE, TOKEN, BUFFER
// and PRIMITIVE_TYPE_INVALID.
int BitWidth(PrimitiveType type);

// Bytes one unpacked element occupies: ceil(BitWidth / 8). 1 for PRED and
// for sub-byte types. 0 for non-array types.
int ByteWidth(PrimitiveType type);

// Categories a compiler asks about.
bool IsArrayType(PrimitiveType type);     // every element type, pred included
bool IsIntegralType(PrimitiveType type);  // s* and u*, not pred
bool IsSignedIntegralType(PrimitiveType type);
bool IsUnsignedIntegralType(PrimitiveType type);
bool IsFloatingPointType(PrimitiveType type);  // f*, bf16; not complex
bool IsF8Type(PrimitiveType type);       // every f8* type, f8e8m0fnu included
bool IsComplexType(PrimitiveType type);  // c64, c128
// True for signed integers, floating point and complex types.
bool IsSignedType(PrimitiveType type);
// Types XLA packs with E(n) when packing is on: s1, s2, s4, u1, u2, u4,
// f4e2m1fn. Not pred.
bool IsSubByteType(PrimitiveType type);

// Component type of a complex type (F32 for C64, F64 for C128).
// Precondition: IsComplexType(type).
PrimitiveType ComplexComponentType(PrimitiveType type);

}  // namespace hlolayout

#endif  // HLOLAYOUT_SHAPE_PRIMITIVE_TYPE_H_

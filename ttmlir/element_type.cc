#include "hlolayout/ttmlir/element_type.h"

#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/util/check.h"

namespace hlolayout::grid {
namespace {

struct TileDataTypeInfo {
  TileDataType type;
  absl::string_view name;
  int bits;  // bits per value (mantissa bits for block floats)
};

constexpr TileDataTypeInfo kTileDataTypes[] = {
    {TileDataType::kF32, "f32", 32},       {TileDataType::kF16, "f16", 16},
    {TileDataType::kBF16, "bf16", 16},     {TileDataType::kBfpF8, "bfp_f8", 8},
    {TileDataType::kBfpBF8, "bfp_bf8", 8}, {TileDataType::kBfpF4, "bfp_f4", 4},
    {TileDataType::kBfpBF4, "bfp_bf4", 4}, {TileDataType::kBfpF2, "bfp_f2", 2},
    {TileDataType::kBfpBF2, "bfp_bf2", 2}, {TileDataType::kU32, "u32", 32},
    {TileDataType::kU16, "u16", 16},       {TileDataType::kU8, "u8", 8},
    {TileDataType::kSI32, "si32", 32},     {TileDataType::kI1, "i1", 8},
};

const TileDataTypeInfo& Info(TileDataType type) {
  for (const TileDataTypeInfo& info : kTileDataTypes) {
    if (info.type == type) return info;
  }
  HLOLAYOUT_CHECK(false) << "unknown tile data type " << static_cast<int>(type);
  return kTileDataTypes[0];
}

}  // namespace

absl::optional<ScalarType> ScalarTypeFromName(absl::string_view name) {
  if (name == "f16") return ScalarType{F16, false};
  if (name == "bf16") return ScalarType{BF16, false};
  if (name == "f32") return ScalarType{F32, false};
  if (name == "f64") return ScalarType{F64, false};
  if (name == "i1") return ScalarType{PRED, false};
  struct Int {
    absl::string_view prefix;
    bool is_unsigned;
    bool signless;
  };
  for (const Int& form : {Int{"si", false, false}, Int{"ui", true, false},
                          Int{"i", false, true}}) {
    if (!absl::StartsWith(name, form.prefix)) continue;
    absl::string_view bits = name.substr(form.prefix.size());
    if (bits == "8")
      return ScalarType{form.is_unsigned ? U8 : S8, form.signless};
    if (bits == "16") {
      return ScalarType{form.is_unsigned ? U16 : S16, form.signless};
    }
    if (bits == "32") {
      return ScalarType{form.is_unsigned ? U32 : S32, form.signless};
    }
    if (bits == "64") {
      return ScalarType{form.is_unsigned ? U64 : S64, form.signless};
    }
    return absl::nullopt;
  }
  return absl::nullopt;
}

std::string ScalarTypeName(ScalarType type) {
  if (type.type == PRED) return "i1";
  if (IsSignedIntegralType(type.type)) {
    return absl::StrCat(type.signless ? "i" : "si", BitWidth(type.type));
  }
  if (IsUnsignedIntegralType(type.type)) {
    return absl::StrCat("ui", BitWidth(type.type));
  }
  return std::string(PrimitiveTypeName(type.type));
}

int64_t ScalarTypeBytes(ScalarType type) { return ByteWidth(type.type); }

absl::optional<TileDataType> TileDataTypeFromName(absl::string_view name) {
  for (const TileDataTypeInfo& info : kTileDataTypes) {
    if (info.name == name) return info.type;
  }
  return absl::nullopt;
}

absl::string_view TileDataTypeName(TileDataType type) {
  return Info(type).name;
}

bool IsBlockFloat(TileDataType type) {
  switch (type) {
    case TileDataType::kBfpF8:
    case TileDataType::kBfpBF8:
    case TileDataType::kBfpF4:
    case TileDataType::kBfpBF4:
    case TileDataType::kBfpF2:
    case TileDataType::kBfpBF2:
      return true;
    default:
      return false;
  }
}

absl::optional<PrimitiveType> TileDataTypeToPrimitiveType(TileDataType type) {
  switch (type) {
    case TileDataType::kF32:
      return F32;
    case TileDataType::kF16:
      return F16;
    case TileDataType::kBF16:
      return BF16;
    case TileDataType::kU32:
      return U32;
    case TileDataType::kU16:
      return U16;
    case TileDataType::kU8:
      return U8;
    case TileDataType::kSI32:
      return S32;
    case TileDataType::kI1:
      return PRED;
    default:
      return absl::nullopt;
  }
}

absl::StatusOr<TileType> MakeTileType(int64_t height, int64_t width,
                                      TileDataType dtype) {
  if (height < 1 || width < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("tile shape ", height, "x", width, " is not positive"));
  }
  if (IsBlockFloat(dtype) && (height != 32 || width != 32)) {
    return absl::InvalidArgumentError(absl::StrCat(TileDataTypeName(dtype),
                                                   " tiles must be 32x32, got ",
                                                   height, "x", width));
  }
  int64_t bytes;
  if (__builtin_mul_overflow(height, width, &bytes) ||
      __builtin_mul_overflow(bytes, int64_t{8}, &bytes)) {
    return absl::InvalidArgumentError(
        absl::StrCat("tile ", height, "x", width, " is too large"));
  }
  return TileType{height, width, dtype};
}

int64_t TileBytes(const TileType& tile) {
  const TileDataTypeInfo& info = Info(tile.dtype);
  const int64_t values = tile.height * tile.width;
  if (IsBlockFloat(tile.dtype)) {
    // One shared exponent byte per 16 values: 64 bytes for 32x32.
    return values * info.bits / 8 + values / 16;
  }
  return values * (info.bits / 8);
}

std::string TileTypeToString(const TileType& tile) {
  return absl::StrCat("!tt.tile<", tile.height, " x ", tile.width, ", ",
                      TileDataTypeName(tile.dtype), ">");
}

}  // namespace hlolayout::grid

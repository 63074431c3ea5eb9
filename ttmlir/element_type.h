// ttmlir/element_type.h: element types of tt-mlir tensors, memrefs and tiles.
//
// A tensor and a scalar memref carry an MLIR scalar type (`f32`, `bf16`,
// `i32`, `si32`, `ui8`, `i1`), mapped here onto XLA's PrimitiveType. A
// tilized memref carries a tile type instead:
//
//   memref<1x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>
//
// Tile data types are tt-mlir's: f32, f16, bf16, the block-float types
// bfp_f8, bfp_bf8, bfp_f4, bfp_bf4, bfp_f2, bfp_bf2 (one shared exponent byte
// per 16 values, i.e. 64 exponent bytes per 32x32 tile), u32, u16, u8, si32
// and i1 (one byte per element).
//
//   TileBytes({32, 32, kBfpBF8}) == 1088   // 1024 mantissa + 64 exponent
//   TileBytes({32, 32, kF32}) == 4096
#ifndef HLOLAYOUT_TTMLIR_ELEMENT_TYPE_H_
#define HLOLAYOUT_TTMLIR_ELEMENT_TYPE_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/optional.h"
#include "hlolayout/shape/primitive_type.h"

namespace hlolayout::grid {

// ScalarType
//
// An MLIR scalar type: XLA's PrimitiveType plus MLIR's signless flag, so
// that `i32` (signless) and `si32` (signed) both read back as written.
// i1 is PRED; iN and siN are sN; uiN is uN.
struct ScalarType {
  PrimitiveType type = F32;
  bool signless = false;  // only meaningful for sN: `iN` rather than `siN`

  friend bool operator==(const ScalarType& a, const ScalarType& b) {
    return a.type == b.type && a.signless == b.signless;
  }
  friend bool operator!=(const ScalarType& a, const ScalarType& b) {
    return !(a == b);
  }
};

// Reads "f32", "f16", "bf16", "f64", "i1", "i8".."i64", "si8".."si64",
// "ui8".."ui64". Returns nullopt for anything else.
absl::optional<ScalarType> ScalarTypeFromName(absl::string_view name);

// The MLIR spelling: "f32", "i32", "si32", "ui8", "i1".
std::string ScalarTypeName(ScalarType type);

// Bytes one element occupies in memory (i1 takes a byte).
int64_t ScalarTypeBytes(ScalarType type);

enum class TileDataType {
  kF32,
  kF16,
  kBF16,
  kBfpF8,
  kBfpBF8,
  kBfpF4,
  kBfpBF4,
  kBfpF2,
  kBfpBF2,
  kU32,
  kU16,
  kU8,
  kSI32,
  kI1,
};

// "bfp_bf8" <-> kBfpBF8 and so on. nullopt for unknown names.
absl::optional<TileDataType> TileDataTypeFromName(absl::string_view name);
absl::string_view TileDataTypeName(TileDataType type);

// True for the bfp_* block-float types.
bool IsBlockFloat(TileDataType type);

// The XLA type with the same values, when there is one (f32 -> F32,
// si32 -> S32, i1 -> PRED); nullopt for the block-float types.
absl::optional<PrimitiveType> TileDataTypeToPrimitiveType(TileDataType type);

// TileType
//
// `!tt.tile<H x W, dtype>`. The seed's default is 32x32.
struct TileType {
  int64_t height = 32;
  int64_t width = 32;
  TileDataType dtype = TileDataType::kF32;

  friend bool operator==(const TileType& a, const TileType& b) {
    return a.height == b.height && a.width == b.width && a.dtype == b.dtype;
  }
  friend bool operator!=(const TileType& a, const TileType& b) {
    return !(a == b);
  }
};

// MakeTileType
//
// A validated tile: positive dims, and 32x32 for the block-float types
// ("bfp_bf8 tiles must be 32x32, got 16x32"). H*W*bytes must fit int64.
absl::StatusOr<TileType> MakeTileType(int64_t height, int64_t width,
                                      TileDataType dtype);

// TileBytes
//
// Bytes of one tile: H*W*element bytes for plain types; for block floats
// (32x32 only) the mantissas, 1024*bits/8, plus 64 exponent bytes:
// bfp8 1088, bfp4 576, bfp2 320.
// Precondition: `tile` came from MakeTileType.
int64_t TileBytes(const TileType& tile);

// "!tt.tile<32 x 32, bfp_bf8>", the seed's spelling.
std::string TileTypeToString(const TileType& tile);

}  // namespace hlolayout::grid

#endif  // HLOLAYOUT_TTMLIR_ELEMENT_TYPE_H_

#include "hlolayout/ttmlir/element_type.h"

#include "absl/strings/match.h"
#include "gtest/gtest.h"

namespace hlolayout::grid {
namespace {

TEST(ElementType, ScalarNamesRoundTrip) {
  for (absl::string_view name :
       {"f16", "bf16", "f32", "f64", "i1", "i8", "i16", "i32", "i64", "si8",
        "si16", "si32", "si64", "ui8", "ui16", "ui32", "ui64"}) {
    auto t = ScalarTypeFromName(name);
    ASSERT_TRUE(t.has_value()) << name;
    EXPECT_EQ(ScalarTypeName(*t), name);
  }
  EXPECT_EQ(ScalarTypeFromName("f32")->type, F32);
  EXPECT_EQ(ScalarTypeFromName("si32")->type, S32);
  EXPECT_EQ(ScalarTypeFromName("i32")->type, S32);
  EXPECT_EQ(ScalarTypeFromName("ui8")->type, U8);
  EXPECT_EQ(ScalarTypeFromName("i1")->type, PRED);
  EXPECT_NE(*ScalarTypeFromName("i32"), *ScalarTypeFromName("si32"));
  for (absl::string_view bad : {"", "f33", "i", "si", "ui7", "x", "F32"}) {
    EXPECT_FALSE(ScalarTypeFromName(bad).has_value()) << bad;
  }
  EXPECT_EQ(ScalarTypeBytes(*ScalarTypeFromName("i1")), 1);
  EXPECT_EQ(ScalarTypeBytes(*ScalarTypeFromName("bf16")), 2);
  EXPECT_EQ(ScalarTypeBytes(*ScalarTypeFromName("f64")), 8);
}

TEST(ElementType, TileBytesAsTtMlir) {
  auto bytes = [](TileDataType t) { return TileBytes({32, 32, t}); };
  EXPECT_EQ(bytes(TileDataType::kF32), 4096);
  EXPECT_EQ(bytes(TileDataType::kF16), 2048);
  EXPECT_EQ(bytes(TileDataType::kBF16), 2048);
  EXPECT_EQ(bytes(TileDataType::kBfpF8), 1088);
  EXPECT_EQ(bytes(TileDataType::kBfpBF8), 1088);
  EXPECT_EQ(bytes(TileDataType::kBfpF4), 576);
  EXPECT_EQ(bytes(TileDataType::kBfpBF4), 576);
  EXPECT_EQ(bytes(TileDataType::kBfpF2), 320);
  EXPECT_EQ(bytes(TileDataType::kBfpBF2), 320);
  EXPECT_EQ(bytes(TileDataType::kU32), 4096);
  EXPECT_EQ(bytes(TileDataType::kSI32), 4096);
  EXPECT_EQ(bytes(TileDataType::kU16), 2048);
  EXPECT_EQ(bytes(TileDataType::kU8), 1024);
  EXPECT_EQ(bytes(TileDataType::kI1), 1024);
  EXPECT_EQ(TileBytes({16, 32, TileDataType::kBF16}), 1024);
}

TEST(ElementType, TileDataTypeNames) {
  for (absl::string_view name :
       {"f32", "f16", "bf16", "bfp_f8", "bfp_bf8", "bfp_f4", "bfp_bf4",
        "bfp_f2", "bfp_bf2", "u32", "u16", "u8", "si32", "i1"}) {
    auto t = TileDataTypeFromName(name);
    ASSERT_TRUE(t.has_value()) << name;
    EXPECT_EQ(TileDataTypeName(*t), name);
    EXPECT_EQ(IsBlockFloat(*t), absl::StartsWith(name, "bfp_"));
    EXPECT_EQ(TileDataTypeToPrimitiveType(*t).has_value(), !IsBlockFloat(*t));
  }
  EXPECT_FALSE(TileDataTypeFromName("bfp_f16").has_value());
  EXPECT_EQ(*TileDataTypeToPrimitiveType(TileDataType::kSI32), S32);
}

TEST(ElementType, MakeTileTypeErrors) {
  EXPECT_TRUE(MakeTileType(16, 32, TileDataType::kF32).ok());
  EXPECT_TRUE(MakeTileType(1, 1, TileDataType::kU8).ok());
  EXPECT_EQ(MakeTileType(16, 32, TileDataType::kBfpBF8).status().message(),
            "bfp_bf8 tiles must be 32x32, got 16x32");
  EXPECT_EQ(MakeTileType(0, 32, TileDataType::kF32).status().message(),
            "tile shape 0x32 is not positive");
  EXPECT_EQ(
      MakeTileType(INT64_MAX / 2, 4, TileDataType::kF32).status().message(),
      "tile 4611686018427387903x4 is too large");
  EXPECT_EQ(TileTypeToString({32, 32, TileDataType::kBfpBF8}),
            "!tt.tile<32 x 32, bfp_bf8>");
}

}  // namespace
}  // namespace hlolayout::grid

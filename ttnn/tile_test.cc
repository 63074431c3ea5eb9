#include "hlolayout/ttnn/tile.h"

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "hlolayout/ttnn/refusal.h"

namespace hlolayout::ttnn {
namespace {

// Tile(shape).get_tile_size(dtype) of ttnn 0.81.1 (host-only, L1 alignment
// 16), for the twelve tiles it accepts, in tile.cpp's order; columns
// bfloat16, float32, bfloat8_b, bfloat4_b, uint8, int8, fp8_e4m3.
struct Row {
  int64_t h, w, face_h, faces;
  int64_t bytes[7];
};
constexpr Row kTtnn[] = {
    {32, 32, 16, 4, {2048, 4096, 1088, 576, 1024, 1024, 1024}},
    {16, 32, 16, 2, {1024, 2048, 544, 288, 512, 512, 512}},
    {32, 16, 16, 2, {1024, 2048, 544, 288, 512, 512, 512}},
    {16, 16, 16, 1, {512, 1024, 272, 144, 256, 256, 256}},
    {8, 32, 8, 2, {512, 1024, 272, 144, 256, 256, 256}},
    {4, 32, 4, 2, {256, 512, 144, 80, 128, 128, 128}},
    {2, 32, 2, 2, {128, 256, 80, 48, 64, 64, 64}},
    {1, 32, 1, 2, {64, 128, 48, 32, 32, 32, 32}},
    {8, 16, 8, 1, {256, 512, 144, 80, 128, 128, 128}},
    {4, 16, 4, 1, {128, 256, 80, 48, 64, 64, 64}},
    {2, 16, 2, 1, {64, 128, 48, 32, 32, 32, 32}},
    {1, 16, 1, 1, {32, 64, 32, 24, 16, 16, 16}},
};
constexpr DataType kColumns[] = {DataType::kBfloat16, DataType::kFloat32,
                                 DataType::kBfloat8B, DataType::kBfloat4B,
                                 DataType::kUint8,    DataType::kInt8,
                                 DataType::kFp8E4m3};

TEST(TileTest, BytesAreTtnnsForEveryTileAndType) {
  for (const Row& r : kTtnn) {
    absl::StatusOr<Tile> t = MakeTile(r.h, r.w);
    ASSERT_TRUE(t.ok()) << r.h << "x" << r.w;
    EXPECT_EQ(t->face_height, r.face_h);
    EXPECT_EQ(t->num_faces(), r.faces);
    for (int c = 0; c < 7; ++c) {
      EXPECT_EQ(TileBytes(*t, kColumns[c]), r.bytes[c])
          << TileName(*t) << " " << DataTypeName(kColumns[c]);
    }
  }
}

TEST(TileTest, ExponentSectionFollowsTheL1Alignment) {
  const Tile t = *MakeTile(32, 32);
  // 64 exponent bytes are already a multiple of 16 and of 32; with a 128
  // byte alignment the section grows to 128.
  EXPECT_EQ(TileBytes(t, DataType::kBfloat8B, 32), 1088);
  EXPECT_EQ(TileBytes(t, DataType::kBfloat8B, 128), 1024 + 128);
  EXPECT_EQ(TileBytes(*MakeTile(1, 16), DataType::kBfloat8B, 1), 16 + 1);
}

TEST(TileTest, OtherShapesAreRefusedWithTheRule) {
  for (auto [h, w] : {std::pair{8, 8}, {32, 64}, {64, 32}, {0, 32}, {16, 8}}) {
    absl::StatusOr<Tile> t = MakeTile(h, w);
    ASSERT_FALSE(t.ok()) << h << "x" << w;
    EXPECT_EQ(RefusalRule(t.status()), "tile-shape");
    EXPECT_TRUE(absl::StrContains(t.status().message(), "not a tile shape"));
  }
}

}  // namespace
}  // namespace hlolayout::ttnn

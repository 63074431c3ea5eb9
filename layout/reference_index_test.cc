#include "hlolayout/layout/reference_index.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/shape/layout.h"
#include "hlolayout/shape/shape.h"
#include "hlolayout/shape/tile.h"
#include "hlolayout/testing/test_shapes.h"

namespace hlolayout {
namespace {

constexpr int64_t kStar = Tile::kCombineDimension;

TEST(TiledIndex, SeedFigureOne) {
  Shape s = MakeTiled({3, 5}, {1, 0}, {{2, 2}});
  EXPECT_EQ(*ReferenceOffset(s, {2, 3}), 17);
  absl::StatusOr<ElementAtOffset> e = ReferenceElementAt(s, 17);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->kind, OffsetKind::kElement);
  EXPECT_EQ(e->index, (std::vector<int64_t>{2, 3}));
  // Offset 9 is row 0, column 5 of tile (0,2): column 5 does not exist.
  EXPECT_EQ(ReferenceElementAt(s, 9)->kind, OffsetKind::kTilePadding);
}

TEST(TiledIndex, SeedFigureTwoNumbering) {
  // 4x8 with (2,4)(2,1): inside each 2x4 tile, 2x1 column pairs.
  Shape s = MakeTiled({4, 8}, {1, 0}, {{2, 4}, {2, 1}});
  const int64_t expected[4][8] = {{0, 2, 4, 6, 8, 10, 12, 14},
                                  {1, 3, 5, 7, 9, 11, 13, 15},
                                  {16, 18, 20, 22, 24, 26, 28, 30},
                                  {17, 19, 21, 23, 25, 27, 29, 31}};
  for (int64_t i = 0; i < 4; ++i) {
    for (int64_t j = 0; j < 8; ++j) {
      EXPECT_EQ(*ReferenceOffset(s, {i, j}), expected[i][j]) << i << "," << j;
    }
  }
}

TEST(TiledIndex, SeedRepeatedFourDimTile) {
  Shape s = MakeTiled({8, 8}, {1, 0}, {{2, 4}, {2, 1, 1, 1}});
  EXPECT_EQ(*ReferenceOffset(s, {6, 5}), 51);
  EXPECT_EQ(ReferenceElementAt(s, 51)->index, (std::vector<int64_t>{6, 5}));
}

TEST(TiledIndex, SeedCombinedDims) {
  // F32[2,7,8,11,10] with (*,*,2,*,3) is [112,110] tiled by (2,3).
  Shape s = MakeTiled({2, 7, 8, 11, 10}, {4, 3, 2, 1, 0},
                      {{kStar, kStar, 2, kStar, 3}});
  Shape flat = MakeTiled({112, 110}, {1, 0}, {{2, 3}});
  const std::vector<int64_t> idx = {1, 4, 5, 9, 7};
  const int64_t row = (1 * 7 + 4) * 8 + 5, col = 9 * 10 + 7;
  EXPECT_EQ(*ReferenceOffset(s, idx), *ReferenceOffset(flat, {row, col}));
  EXPECT_EQ(ReferenceElementAt(s, *ReferenceOffset(s, idx))->index, idx);
}

TEST(TiledIndex, TailPaddingAndErrors) {
  Shape s = MakeTiled({2}, {0}, {{4}}, 8);
  EXPECT_EQ(ReferenceElementAt(s, 1)->kind, OffsetKind::kElement);
  EXPECT_EQ(ReferenceElementAt(s, 2)->kind, OffsetKind::kTilePadding);
  EXPECT_EQ(ReferenceElementAt(s, 4)->kind, OffsetKind::kTailPadding);
  EXPECT_EQ(ReferenceElementAt(s, 8).status().message(),
            "offset 8 is past the end of the buffer (8 elements)");
  EXPECT_EQ(ReferenceElementAt(s, -1).status().message(),
            "offset -1 is past the end of the buffer (8 elements)");
  EXPECT_EQ(ReferenceOffset(s, {2}).status().message(),
            "index 2 out of bounds for dimension 0 of size 2");
  EXPECT_EQ(ReferenceOffset(s, {-1}).status().message(),
            "index -1 out of bounds for dimension 0 of size 2");
  EXPECT_EQ(ReferenceOffset(s, {0, 0}).status().message(),
            "index has 2 coordinates, shape has rank 1");
  EXPECT_EQ(OffsetKindName(OffsetKind::kTailPadding), "tail padding");
}

TEST(TiledIndex, ColumnMajorUntiled) {
  // f32[10,20]{0,1}: {3,5} -> 3 + 5*10.
  EXPECT_EQ(*ReferenceOffset(MakeTiled({10, 20}, {0, 1}, {}), {3, 5}), 53);
}

TEST(TiledIndex, Scalar) {
  Shape s = Shape::MakeArray(F32, {});
  s.set_layout(Layout());
  EXPECT_EQ(*ReferenceOffset(s, {}), 0);
  Layout tiled;
  tiled.add_tile(Tile({256}));
  s.set_layout(tiled);  // f32[]{:T(256)}: 1 element, 255 padding
  EXPECT_EQ(ReferenceElementAt(s, 0)->kind, OffsetKind::kElement);
  EXPECT_EQ(ReferenceElementAt(s, 255)->kind, OffsetKind::kTilePadding);
}

}  // namespace
}  // namespace hlolayout

#include "hlolayout/layout/tiling.h"

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

TEST(Tiling, SeedPadReshapeTranspose) {
  absl::StatusOr<TilingModel> m =
      BuildTilingModel(MakeTiled(F32, {3, 5}, {1, 0}, {{2, 2}}));
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_EQ(m->levels.size(), 1u);
  const TileLevel& l = m->levels[0];
  EXPECT_EQ(l.padded, (std::vector<int64_t>{4, 6}));
  EXPECT_EQ(l.split, (std::vector<int64_t>{2, 2, 3, 2}));
  EXPECT_EQ(l.permutation, (std::vector<int64_t>{0, 2, 1, 3}));
  EXPECT_EQ(m->final_dims, (std::vector<int64_t>{2, 3, 2, 2}));
  EXPECT_EQ(m->tiled_elements, 24);
  EXPECT_EQ(DescribeTiling(*m),
            "physical [3,5] (dims 0,1, major to minor)\n"
            "T0 (2,2) on [3,5]: pad [4,6] reshape [2,2,3,2] transpose "
            "{0,2,1,3} -> [2,3,2,2]\n"
            "final [2,3,2,2]: 24 elements (15 logical, 9 padding)\n");
}

TEST(Tiling, SeedCombinedDims) {
  absl::StatusOr<TilingModel> m = BuildTilingModel(MakeTiled(
      F32, {2, 7, 8, 11, 10}, {4, 3, 2, 1, 0}, {{kStar, kStar, 2, kStar, 3}}));
  ASSERT_TRUE(m.ok()) << m.status();
  const TileLevel& l = m->levels[0];
  EXPECT_EQ(DimsToString(l.combined), "[112,110]");
  EXPECT_EQ(l.tile_sizes, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(CombinedDimLabel(*m, 0, 0), "dims 0*1*2");
  EXPECT_EQ(CombinedDimLabel(*m, 0, 1), "dims 3*4");
  EXPECT_EQ(OutputDimLabel(*m, 0, 3), "dims 3*4 in tile (T0)");
  EXPECT_EQ(OutputDimLabel(*m, -1, 1), "dim 1");
  EXPECT_EQ(m->final_dims, (std::vector<int64_t>{56, 37, 2, 3}));
}

TEST(Tiling, RepeatedTilesApplyToPreviousResult) {
  absl::StatusOr<TilingModel> m =
      BuildTilingModel(MakeTiled(F32, {4, 8}, {1, 0}, {{2, 4}, {2, 1}}));
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(DimsToString(m->levels[1].input), "[2,2,2,4]");
  EXPECT_EQ(m->final_dims, (std::vector<int64_t>{2, 2, 1, 4, 2, 1}));
  // (2,4)(2,1,1,1) on 8x8: the second tile covers all four dims.
  m = BuildTilingModel(MakeTiled(F32, {8, 8}, {1, 0}, {{2, 4}, {2, 1, 1, 1}}));
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->final_dims, (std::vector<int64_t>{2, 2, 2, 4, 2, 1, 1, 1}));
}

TEST(Tiling, LeadingOnesAndMinorToMajor) {
  absl::StatusOr<TilingModel> m =
      BuildTilingModel(MakeTiled(F32, {4}, {0}, {{8, 128}}));
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->levels[0].leading_ones, 1);
  EXPECT_EQ(m->final_dims, (std::vector<int64_t>{1, 1, 8, 128}));
  m = BuildTilingModel(MakeTiled(F32, {3, 5, 7}, {0, 2, 1}, {}));
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(DimsToString(m->physical), "[5,7,3]");
  EXPECT_FALSE(m->tiled());
}

TEST(Tiling, BytesForElements) {
  EXPECT_EQ(*BytesForElements(9, 4, true), 5);
  EXPECT_EQ(*BytesForElements(9, 32, false), 36);
  EXPECT_FALSE(BytesForElements(int64_t{1} << 62, 32, false).ok());
}

}  // namespace
}  // namespace hlolayout

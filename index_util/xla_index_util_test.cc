#include "hlolayout/index_util/xla_index_util.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/layout/reference_index.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/shape/layout.h"
#include "hlolayout/shape/shape.h"
#include "hlolayout/shape/tile.h"
#include "hlolayout/testing/test_shapes.h"

namespace hlolayout {
namespace {

TEST(XlaIndexUtil, MultidimensionalAndLinear) {
  // From xla.md section 3 (IndexUtil docs): f32[10,20]{0,1}, {3,5} -> 53.
  Shape s = MakeTiled(F32, {10, 20}, {0, 1}, {});
  EXPECT_EQ(*XlaMultidimensionalIndexToLinearIndex(s, {3, 5}), 53);
  EXPECT_EQ(*XlaLinearIndexToMultidimensionalIndex(s, 53),
            (std::vector<int64_t>{3, 5}));
  EXPECT_EQ(*XlaGetDimensionStride(s, 1), 10);
  EXPECT_EQ(*XlaGetDimensionStride(s, 0), 1);
  // index_util_test: F32[5,8,10,4]{3,2,1,0} style round trip.
  Shape r = MakeTiled(F32, {5, 8, 10, 4}, {3, 2, 1, 0}, {});
  EXPECT_EQ(*XlaMultidimensionalIndexToLinearIndex(r, {1, 2, 3, 1}),
            ((1 * 8 + 2) * 10 + 3) * 4 + 1);
  for (int64_t i = 0; i < 5 * 8 * 10 * 4; i += 37) {
    EXPECT_EQ(*XlaMultidimensionalIndexToLinearIndex(
                  r, *XlaLinearIndexToMultidimensionalIndex(r, i)),
              i);
  }
  EXPECT_EQ(
      XlaMultidimensionalIndexToLinearIndex(s, {10, 0}).status().message(),
      "index 10 out of bounds for dimension 0 of size 10");
  EXPECT_EQ(XlaLinearIndexToMultidimensionalIndex(s, 200).status().message(),
            "linear index 200 is outside [0, 200)");
  // Tiles are ignored by IndexUtil.
  EXPECT_EQ(*XlaMultidimensionalIndexToLinearIndex(
                MakeTiled(F32, {3, 5}, {1, 0}, {{2, 2}}), {2, 3}),
            13);
}

TEST(XlaIndexUtil, BumpIndicesIsRowMajorIgnoringLayout) {
  Shape s = MakeTiled(F32, {2, 2}, {0, 1}, {});
  std::vector<int64_t> idx = {0, 1};
  EXPECT_TRUE(XlaBumpIndices(s, absl::MakeSpan(idx)));
  EXPECT_EQ(idx, (std::vector<int64_t>{1, 0}));
  idx = {1, 1};
  EXPECT_FALSE(XlaBumpIndices(s, absl::MakeSpan(idx)));
  EXPECT_EQ(idx, (std::vector<int64_t>{0, 0}));
}

TEST(XlaIndexUtil, IndexInBoundsAcceptsNegatives) {
  Shape s = MakeTiled(F32, {2, 3}, {1, 0}, {});
  EXPECT_TRUE(XlaIndexInBounds(s, {1, 2}));
  EXPECT_FALSE(XlaIndexInBounds(s, {2, 0}));
  EXPECT_FALSE(XlaIndexInBounds(s, {1}));
  EXPECT_TRUE(XlaIndexInBounds(s, {-1, 0}));  // as XLA
}

TEST(XlaIndexUtil, CompareIndices) {
  EXPECT_EQ(XlaCompareIndices({0, 1}, {0, 2}), -1);
  EXPECT_EQ(XlaCompareIndices({1, 0}, {0, 9}), 1);
  EXPECT_EQ(XlaCompareIndices({4, 4}, {4, 4}), 0);
}

TEST(XlaIndexUtil, LinearIndexFirstTileOnlyDiffersFromExact) {
  // Agrees with the exact index for one tile level.
  Shape one = MakeTiled(F32, {3, 5}, {1, 0}, {{2, 2}});
  EXPECT_EQ(*XlaLinearIndexFirstTileOnly(one, {2, 3}), 17);
  // Second tile ignored: (1,0) of f32[4,8]{1,0:T(2,4)(2,1)}.
  Shape two = MakeTiled(F32, {4, 8}, {1, 0}, {{2, 4}, {2, 1}});
  EXPECT_EQ(*XlaMultidimensionalIndexToLinearIndex(two, {1, 0}), 8);
  EXPECT_EQ(*XlaLinearIndexFirstTileOnly(two, {1, 0}), 4);
  EXPECT_EQ(*ReferenceOffset(two, {1, 0}), 1);
  // Rank 1 ignores the tile.
  Shape r1 = MakeTiled(F32, {5}, {0}, {{2, 2}});
  EXPECT_EQ(*XlaLinearIndexFirstTileOnly(r1, {3}), 3);
  EXPECT_EQ(*ReferenceOffset(r1, {3}), 5);
  EXPECT_FALSE(
      XlaLinearIndexFirstTileOnly(
          MakeTiled(F32, {4, 4}, {1, 0}, {{Tile::kCombineDimension, 2}}),
          {0, 0})
          .ok());
}

TEST(XlaIndexUtil, ByteSizeOfIgnoresTiles) {
  EXPECT_EQ(*XlaByteSizeOf(MakeTiled(F32, {3, 5}, {1, 0}, {{2, 2}})), 60);
  EXPECT_EQ(*XlaByteSizeOf(MakeTiled(S4, {64, 128}, {1, 0}, {}, 1, 4)), 4096);
  EXPECT_EQ(*XlaByteSizeOf(Shape::MakeArray(S4, {64, 128})), 8192);
  EXPECT_EQ(*XlaByteSizeOf(Shape::MakeTuple({Shape::MakeArray(F32, {2}),
                                             Shape::MakeToken()}),
                           8),
            16);
  EXPECT_EQ(*XlaByteSizeOf(Shape::MakeToken()), 0);
  EXPECT_EQ(*XlaByteSizeOf(Shape::MakeOpaque(), 8), 8);
  EXPECT_EQ(XlaByteSizeOf(Shape::MakeTuple({})).status().message(),
            "byte size of a tuple needs a pointer size");
}

TEST(XlaIndexUtil, ArraySizeFirstTileOnly) {
  // XLA test values (xla.md section 4).
  EXPECT_EQ(*XlaArraySize(
                MakeTiled(S4, {9216, 6144}, {1, 0}, {{64, 128}, {8, 1}}, 1, 4)),
            28311552);
  EXPECT_EQ(*XlaArraySize(MakeTiled(F32, {2, 3}, {1, 0}, {{8, 128}})), 4096);
  EXPECT_EQ(*XlaArraySize(MakeTiled(F32, {3, 5}, {1, 0}, {{2, 2}})), 96);
  // Split configs: f32[150,200,100]{0,1,2:SC(0:30)(1:40,130)} has at most
  // 945,000 elements per split.
  Shape sc = MakeTiled(F32, {150, 200, 100}, {0, 1, 2}, {{1}});
  SplitConfig a;
  a.dimension = 0;
  a.split_indices = {30};
  SplitConfig b;
  b.dimension = 1;
  b.split_indices = {40, 130};
  sc.mutable_layout()->add_split_config(a);
  sc.mutable_layout()->add_split_config(b);
  EXPECT_EQ(*XlaArraySize(sc), 945000 * 4);
  // L is ignored without tiles, applied with them.
  EXPECT_EQ(*XlaArraySize(MakeTiled(F32, {3}, {0}, {}, 8)), 12);
  EXPECT_EQ(*XlaArraySize(MakeTiled(F32, {3}, {0}, {{1}}, 8)), 32);
  // A second tile that pads is not counted; the exact size is.
  Shape second = MakeTiled(F32, {4, 4}, {1, 0}, {{2, 2}, {3, 1}});
  EXPECT_EQ(*XlaArraySize(second), 64);
  EXPECT_EQ(ComputeArraySizes(second)->padded_bytes, 96);
}

TEST(XlaIndexUtil, ArrayDataSize) {
  EXPECT_EQ(*XlaArrayDataSize(MakeTiled(S4, {64, 128}, {1, 0}, {}, 1, 4)),
            4096);
  // f32[3,5]{1,0:T(2,2)}: last element (2,4) at 20 -> 21 elements.
  EXPECT_EQ(*XlaArrayDataSize(MakeTiled(F32, {3, 5}, {1, 0}, {{2, 2}})), 84);
  EXPECT_EQ(*XlaArrayDataSize(MakeTiled(F32, {0, 5}, {1, 0}, {{2, 2}})), 0);
}

}  // namespace
}  // namespace hlolayout

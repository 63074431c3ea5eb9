#include "hlolayout/ttmlir/ttnn_layout.h"

#include <array>
#include <cstdint>
#include <set>
#include <vector>

#include "gtest/gtest.h"

namespace hlolayout::grid {
namespace {

using Dims = std::vector<int64_t>;
using Pair = std::array<int64_t, 2>;

TEST(TtnnLayout, SeedDiagramTight) {
  auto l = MakeTtnnLayout({12, 12, 16}, {}, {72, 16});
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(l->stride, (Dims{2304, 192, 16, 1}));
  EXPECT_EQ(l->plane_shape, (Pair{144, 16}));
  EXPECT_EQ(l->grid_shape, (Pair{2, 1}));
  EXPECT_EQ(l->physical_shard_shape, (Pair{96, 32}));
}

TEST(TtnnLayout, SeedDiagramPadded) {
  // Dim 1 padded from 12 to 32 rows: stride of dim 0 is 32 * 16.
  auto l = MakeTtnnLayout({12, 12, 16}, {6144, 512, 16, 1}, {96, 16});
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(l->plane_shape, (Pair{384, 16}));
  EXPECT_EQ(l->grid_shape, (Pair{4, 1}));
  EXPECT_EQ(l->physical_shard_shape, (Pair{96, 32}));
  auto loc = LocateTtnn(*l, {1, 11, 5});
  ASSERT_TRUE(loc.ok());
  EXPECT_EQ(loc->plane, (Pair{43, 5}));
  EXPECT_EQ(loc->core, (Pair{0, 0}));
  EXPECT_EQ(LocateTtnn(*l, {3, 0, 0})->core, (Pair{1, 0}));
}

TEST(TtnnLayout, VisualizerDefaults) {
  // 4,7,2,6,433 with shard 120x109: the visualizer's strides and results.
  auto l = MakeTtnnLayout({4, 7, 2, 6, 433},
                          {146520, 36624, 5232, 2616, 436, 1}, {120, 109});
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(l->plane_shape, (Pair{336, 436}));
  EXPECT_EQ(l->physical_shape, (Pair{352, 448}));
  EXPECT_EQ(l->grid_shape, (Pair{3, 4}));
  EXPECT_EQ(l->physical_shard_shape, (Pair{128, 128}));
}

TEST(TtnnLayout, CorrectedGridFormulaDiffersFromSeedTypo) {
  auto l = MakeTtnnLayout({32, 64}, {}, {32, 16});
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(l->grid_shape, (Pair{1, 4}));  // 64 columns / 16 per shard
  EXPECT_EQ(LiteralSeedGridShape(*l), (Pair{1, 2}));  // 64 / 32: wrong
}

TEST(TtnnLayout, RowMajorTileAndRankOne) {
  auto l = MakeTtnnLayout({100}, {}, {1, 30}, {1, 32});
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(l->plane_shape, (Pair{1, 100}));
  EXPECT_EQ(l->grid_shape, (Pair{1, 4}));
  EXPECT_EQ(l->physical_shard_shape, (Pair{1, 32}));
  EXPECT_EQ(LocateTtnn(*l, {95})->core, (Pair{0, 3}));
}

TEST(TtnnLayout, Errors) {
  auto error = [](Dims shape, Dims stride, Pair shard, Pair tile = {32, 32}) {
    auto l = MakeTtnnLayout(shape, stride, shard, tile);
    return l.ok() ? std::string("ok") : std::string(l.status().message());
  };
  EXPECT_EQ(error({}, {}, {1, 1}), "a ttnn layout needs rank >= 1");
  EXPECT_EQ(error({4, 0}, {}, {1, 1}), "tensor dim 1 has size 0");
  EXPECT_EQ(error({4, 4}, {16, 4}, {1, 1}),
            "stride has 2 entries; a rank 2 tensor needs 3");
  EXPECT_EQ(error({4, 4}, {16, 4, 2}, {1, 1}),
            "the innermost stride is 2, not 1");
  EXPECT_EQ(error({4, 4}, {16, 3, 1}, {1, 1}),
            "row pitch 3 is smaller than the inner dim 4");
  EXPECT_EQ(error({4, 4, 4}, {120, 30, 4, 1}, {1, 1}),
            "stride 30 is not a multiple of the row pitch 4");
  EXPECT_EQ(error({4, 4, 4}, {60, 16, 4, 1}, {1, 1}),
            "stride 60 of the total is smaller than the 64 elements it spans");
  EXPECT_EQ(error({4, 4, 4}, {64, 12, 4, 1}, {1, 1}),
            "stride 12 of a dim is smaller than the 16 elements it spans");
  EXPECT_EQ(error({4, 4}, {}, {0, 1}), "shard dim 0 is 0");
  EXPECT_EQ(error({4, 4}, {}, {1, 1}, {1, 0}), "tile dim 1 is 0");
  EXPECT_EQ(error({int64_t{1} << 40, int64_t{1} << 40}, {}, {1, 1}),
            "tensor volume overflows int64");
  EXPECT_EQ(error({4, INT64_MAX - 3}, {}, {1, 1}, {1, 32}),
            "tensor volume overflows int64");
  EXPECT_EQ(error({1, INT64_MAX - 3}, {}, {1, 1}, {1, 32}),
            "padded size overflows int64");
  auto l = MakeTtnnLayout({4, 4}, {}, {2, 2});
  EXPECT_EQ(LocateTtnn(*l, {4, 0}).status().message(),
            "index 4 is out of bounds for dim 0 of size 4");
  EXPECT_EQ(LocateTtnn(*l, {0}).status().message(),
            "index has 1 values but the tensor has rank 2");
}

// Over small shapes, padded strides and shards: every element gets its own
// plane position inside the plane, inside a core of the grid.
TEST(TtnnLayout, PropertyElementsLandOnceInsideTheGrid) {
  int layouts = 0;
  for (const Dims& shape : std::vector<Dims>{{5}, {3, 4}, {2, 3, 5}}) {
    const size_t rank = shape.size();
    for (int64_t pad = 0; pad <= 2; ++pad) {
      // Pad every dim's extent by `pad` (the inner one too, as row pitch).
      Dims stride(rank + 1, 1);
      for (size_t k = rank; k-- > 0;)
        stride[k] = stride[k + 1] * (shape[k] + pad);
      for (int64_t s0 = 1; s0 <= 4; ++s0) {
        for (int64_t s1 = 1; s1 <= 4; ++s1) {
          auto l = MakeTtnnLayout(shape, stride, {s0, s1}, {2, 3});
          ASSERT_TRUE(l.ok()) << l.status();
          ++layouts;
          std::set<Pair> seen;
          Dims index(rank, 0);
          for (;;) {
            auto loc = LocateTtnn(*l, index);
            ASSERT_TRUE(loc.ok());
            ASSERT_LT(loc->plane[0], l->plane_shape[0]);
            ASSERT_LT(loc->plane[1], l->plane_shape[1]);
            ASSERT_LT(loc->core[0], l->grid_shape[0]);
            ASSERT_LT(loc->core[1], l->grid_shape[1]);
            ASSERT_EQ(loc->core[0] * s0 + loc->offset[0], loc->plane[0]);
            ASSERT_EQ(loc->core[1] * s1 + loc->offset[1], loc->plane[1]);
            ASSERT_TRUE(seen.insert(loc->plane).second);
            size_t d = rank;
            while (d > 0 && ++index[d - 1] == shape[d - 1]) index[--d] = 0;
            if (d == 0) break;
          }
          // The grid is the smallest that covers the plane.
          EXPECT_GE(l->grid_shape[0] * s0, l->plane_shape[0]);
          EXPECT_LT((l->grid_shape[0] - 1) * s0, l->plane_shape[0]);
          EXPECT_GE(l->grid_shape[1] * s1, l->plane_shape[1]);
          EXPECT_LT((l->grid_shape[1] - 1) * s1, l->plane_shape[1]);
          EXPECT_EQ(l->physical_shard_shape[0] % 2, 0);
          EXPECT_EQ(l->physical_shard_shape[1] % 3, 0);
        }
      }
    }
  }
  EXPECT_EQ(layouts, 144);
}

}  // namespace
}  // namespace hlolayout::grid

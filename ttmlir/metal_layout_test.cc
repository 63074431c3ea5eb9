#include "hlolayout/ttmlir/metal_layout.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/ttmlir/collapse.h"

namespace hlolayout::grid {
namespace {

using Dims = std::vector<int64_t>;
constexpr ScalarType kF32{F32, false};
const TileType kBfp8Tile{32, 32, TileDataType::kBfpBF8};

MetalLayout Make(Dims shape, AffineMap map, Dims grid,
                 absl::optional<TileType> tile = absl::nullopt) {
  auto layout = MetalLayout::Create(shape, kF32, map, OobVal::kUndef, grid,
                                    tile, MemorySpace::kDeviceL1);
  EXPECT_TRUE(layout.ok()) << layout.status();
  return *std::move(layout);
}

MetalLayout MakeCollapsed(Dims shape, Dims grid,
                          std::vector<CollapseInterval> intervals,
                          absl::optional<TileType> tile = absl::nullopt) {
  auto map = CollapsedLinearMap(shape, grid.size(), intervals);
  EXPECT_TRUE(map.ok()) << map.status();
  return Make(shape, *map, grid, tile);
}

TEST(MetalLayout, SeedWalkthroughOneByOne) {
  MetalLayout l = MakeCollapsed({2, 3, 64, 128}, {1, 1}, {{0, -1}});
  EXPECT_EQ(l.linear().ToString(),
            "(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3)");
  EXPECT_EQ(l.collapsed_extent(), (Dims{384, 128}));
  EXPECT_EQ(l.memref_shape(), (Dims{384, 128}));
  ElementLocation loc = l.Locate({1, 1, 6, 100});
  EXPECT_EQ(loc.collapsed, (Dims{262, 100}));
  EXPECT_EQ(loc.core, (Dims{0, 0}));
  EXPECT_EQ(loc.offset, (Dims{262, 100}));
  EXPECT_EQ(loc.byte_offset, (262 * 128 + 100) * 4);
  EXPECT_EQ(l.shard_bytes(), 384 * 128 * 4);
}

TEST(MetalLayout, SeedMultiCoreTwoByFour) {
  MetalLayout l = MakeCollapsed({2, 3, 64, 128}, {2, 4}, {{0, -1}});
  EXPECT_EQ(l.shard_shape(), (Dims{192, 32}));
  EXPECT_EQ(l.memref_shape(), (Dims{192, 32}));
  ElementLocation loc = l.Locate({1, 1, 6, 100});
  EXPECT_EQ(loc.core, (Dims{1, 3}));
  EXPECT_EQ(loc.offset, (Dims{70, 4}));
  EXPECT_EQ(l.num_cores(), 8);
  EXPECT_EQ(l.total_bytes(), 8 * 192 * 32 * 4);
}

TEST(MetalLayout, SeedMoreSnippets) {
  EXPECT_EQ(Make({8, 300}, AffineMap::Identity(2), {1, 2}).memref_shape(),
            (Dims{8, 150}));
  AffineMap m96(3, {{{{0, 96}, {1, 1}}, 0}, {{{2, 1}}, 0}});
  EXPECT_EQ(Make({8, 96, 32}, m96, {2, 1}).memref_shape(), (Dims{384, 32}));
  AffineMap dup(3, {{{{0, 96}, {1, 1}}, 0}, {{{1, 1}}, 0}, {{{2, 1}}, 0}});
  EXPECT_EQ(Make({8, 96, 32}, dup, {2, 1, 2}).memref_shape(),
            (Dims{384, 96, 16}));
  AffineMap seven(
      7, {{{{0, 2688}, {1, 896}, {2, 448}, {3, 224}, {4, 32}, {5, 1}}, 0},
          {{{4, 1}}, 0},
          {{{5, 1}}, 0},
          {{{6, 1}}, 0}});
  MetalLayout l7 = Make({5, 3, 2, 2, 7, 32, 32}, seven, {3, 2, 2, 2});
  EXPECT_EQ(l7.memref_shape(), (Dims{4480, 4, 16, 16}));
  EXPECT_EQ(l7.device_grid(), (Dims{3, 2}));
  EXPECT_EQ(l7.core_grid(), (Dims{2, 2}));
}

TEST(MetalLayout, SeedTilized) {
  AffineMap m(3, {{{{0, 64}, {1, 1}}, 0}, {{{2, 1}}, 0}});
  MetalLayout scalar = Make({3, 64, 128}, m, {3, 2});
  EXPECT_EQ(scalar.memref_shape(), (Dims{64, 64}));
  MetalLayout tiled = Make({3, 64, 128}, m, {3, 2}, kBfp8Tile);
  EXPECT_EQ(tiled.memref_shape(), (Dims{2, 2}));
  EXPECT_EQ(tiled.shard_shape(), (Dims{64, 64}));
  EXPECT_EQ(tiled.physical_shard_shape(), (Dims{64, 64}));
  EXPECT_EQ(tiled.tiles_per_shard(), 4);
  EXPECT_EQ(tiled.shard_bytes(), 4 * 1088);
  ElementLocation loc = tiled.Locate({2, 40, 100});
  EXPECT_EQ(loc.core, (Dims{2, 1}));
  EXPECT_EQ(loc.offset, (Dims{40, 36}));
  EXPECT_EQ(loc.tile, (Dims{1, 1}));
  EXPECT_EQ(loc.in_tile, (Dims{8, 4}));
  EXPECT_EQ(loc.byte_offset, 3 * 1088);
}

TEST(MetalLayout, SeedNonDivisibleGrid) {
  MetalLayout l = Make({53, 63}, AffineMap::Identity(2), {3, 2});
  EXPECT_EQ(l.shard_shape(), (Dims{18, 32}));
  EXPECT_EQ(l.memref_shape(), (Dims{18, 32}));
  // One row of padding on the last core row, one column on the last column.
  EXPECT_EQ(l.ValidExtent(0, 0), 18);
  EXPECT_EQ(l.ValidExtent(0, 2), 17);
  EXPECT_EQ(l.ValidExtent(1, 0), 32);
  EXPECT_EQ(l.ValidExtent(1, 1), 31);
  MetalLayout t = Make({53, 63}, AffineMap::Identity(2), {3, 2}, kBfp8Tile);
  EXPECT_EQ(t.memref_shape(), (Dims{1, 1}));
  EXPECT_EQ(t.physical_shard_shape(), (Dims{32, 32}));
  ElementLocation loc = t.Locate({20, 40});
  EXPECT_EQ(loc.core, (Dims{1, 1}));
  EXPECT_EQ(loc.offset, (Dims{2, 8}));
  EXPECT_EQ(loc.tile, (Dims{0, 0}));
  EXPECT_EQ(loc.in_tile, (Dims{2, 8}));
}

TEST(MetalLayout, SeedBumpedStride) {
  AffineMap tight(3, {{{{0, 8}, {1, 1}}, 0}, {{{2, 1}}, 0}});
  EXPECT_EQ(Make({2, 8, 32}, tight, {1, 2}).memref_shape(), (Dims{16, 16}));
  TileType f32_tile{32, 32, TileDataType::kF32};
  EXPECT_EQ(Make({2, 8, 32}, tight, {1, 2}, f32_tile).memref_shape(),
            (Dims{1, 1}));
  AffineMap bumped(3, {{{{0, 32}, {1, 1}}, 0}, {{{2, 1}}, 0}});
  MetalLayout b = Make({2, 8, 32}, bumped, {1, 2}, f32_tile);
  EXPECT_EQ(b.collapsed_extent(), (Dims{40, 32}));
  EXPECT_EQ(b.memref_shape(), (Dims{2, 1}));
  // Each batch starts on its own tile row.
  EXPECT_EQ(b.Locate({0, 7, 0}).tile, (Dims{0, 0}));
  EXPECT_EQ(b.Locate({1, 0, 0}).tile, (Dims{1, 0}));
  EXPECT_EQ(b.Locate({1, 0, 0}).in_tile, (Dims{0, 0}));
}

TEST(MetalLayout, SeedMultiDevice) {
  MetalLayout l =
      MakeCollapsed({2, 3, 64, 128}, {2, 2, 4}, {{1, -1}}, kBfp8Tile);
  EXPECT_EQ(l.linear().ToString(),
            "(d0, d1, d2, d3) -> (d0, d1 * 64 + d2, d3)");
  EXPECT_EQ(l.shard_shape(), (Dims{1, 96, 32}));
  EXPECT_EQ(l.memref_shape(), (Dims{1, 3, 1}));
  EXPECT_EQ(l.device_grid(), (Dims{2}));
  EXPECT_EQ(l.core_grid(), (Dims{2, 4}));
  ElementLocation loc = l.Locate({1, 2, 10, 127});
  EXPECT_EQ(loc.core, (Dims{1, 1, 3}));
  EXPECT_EQ(loc.offset, (Dims{0, 42, 31}));
  EXPECT_EQ(loc.tile, (Dims{0, 1, 0}));
  EXPECT_EQ(loc.in_tile, (Dims{10, 31}));
  EXPECT_EQ(loc.byte_offset, 1 * 1088);
}

TEST(MetalLayout, GridRankAboveTensorRank) {
  MetalLayout l = MakeCollapsed({128}, {1, 2, 4}, {{0, -1}});
  EXPECT_EQ(l.linear().ToString(), "(d0) -> (0, 0, d0)");
  EXPECT_EQ(l.shard_shape(), (Dims{1, 1, 32}));
  EXPECT_EQ(l.ValidExtent(1, 1), 0);  // cores (0, 1, *) hold only padding
  EXPECT_EQ(l.Locate({100}).core, (Dims{0, 0, 3}));
}

TEST(MetalLayout, EmptyTrailingCore) {
  MetalLayout l = Make({9}, AffineMap::Identity(1), {4});
  EXPECT_EQ(l.shard_shape(), (Dims{3}));
  EXPECT_EQ(l.ValidExtent(0, 3), 0);
}

TEST(MetalLayout, RankZeroTensor) {
  auto l = MetalLayout::Create({}, kF32, AffineMap(0, {{{}, 0}, {{}, 0}}),
                               OobVal::kZero, {1, 1}, absl::nullopt,
                               MemorySpace::kSystem);
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(l->memref_shape(), (Dims{1, 1}));
  EXPECT_EQ(l->logical_volume(), 1);
  EXPECT_EQ(l->Locate({}).core, (Dims{0, 0}));
}

TEST(MetalLayout, CreateErrors) {
  auto error = [](Dims shape, AffineMap map, Dims grid,
                  absl::optional<TileType> tile = absl::nullopt) {
    auto l = MetalLayout::Create(shape, kF32, map, OobVal::kUndef, grid, tile,
                                 MemorySpace::kDeviceL1);
    return l.ok() ? std::string("ok") : std::string(l.status().message());
  };
  EXPECT_EQ(error({4, 4}, AffineMap::Identity(3), {1, 1, 1}),
            "map has 3 dims but the tensor has rank 2");
  EXPECT_EQ(error({4, 4}, AffineMap::Identity(2), {1, 1, 1}),
            "map has 2 results but the grid has rank 3");
  EXPECT_EQ(error({4, 4}, AffineMap::Identity(2), {2, 0}), "grid dim 1 is 0");
  EXPECT_EQ(error({4, 4}, AffineMap::Identity(2), {2, -3}), "grid dim 1 is -3");
  EXPECT_EQ(error({4, 0}, AffineMap::Identity(2), {1, 1}),
            "tensor dim 1 has size 0");
  EXPECT_EQ(error({4}, AffineMap::Identity(1), {1}, kBfp8Tile),
            "a tiled memref needs rank >= 2, the grid has rank 1");
  EXPECT_EQ(error({4, 4}, AffineMap::Identity(2), {1, 1},
                  TileType{16, 16, TileDataType::kBfpF4}),
            "bfp_f4 tiles must be 32x32, got 16x16");
  EXPECT_EQ(error({int64_t{1} << 40, int64_t{1} << 40}, AffineMap::Identity(2),
                  {1, 1}),
            "tensor volume overflows int64");
  EXPECT_EQ(error({int64_t{1} << 31, int64_t{1} << 31}, AffineMap::Identity(2),
                  {1, 1}),
            "shard size in bytes overflows int64");
  EXPECT_EQ(error({4, 4}, AffineMap::Identity(2),
                  {int64_t{1} << 40, int64_t{1} << 40}),
            "core count overflows int64");
  EXPECT_EQ(error({4, 4}, AffineMap::Identity(2), {int64_t{1} << 32, 1}), "ok");
  EXPECT_EQ(error({1, INT64_MAX - 5}, AffineMap::Identity(2), {1, 1},
                  TileType{1, int64_t{1} << 59, TileDataType::kU8}),
            "physical shard overflows int64");
}

TEST(MetalLayout, TryLocateErrors) {
  MetalLayout l = Make({53, 63}, AffineMap::Identity(2), {3, 2});
  EXPECT_EQ(l.TryLocate({53, 0}).status().message(),
            "index 53 is out of bounds for dim 0 of size 53");
  EXPECT_EQ(l.TryLocate({0, -1}).status().message(),
            "index -1 is out of bounds for dim 1 of size 63");
  EXPECT_EQ(l.TryLocate({0}).status().message(),
            "index has 1 values but the tensor has rank 2");
  EXPECT_TRUE(l.TryLocate({52, 62}).ok());
}

TEST(MetalLayout, Names) {
  for (absl::string_view n : {"undef", "zero", "one", "inf", "neginf"}) {
    ASSERT_TRUE(OobValFromName(n).has_value());
    EXPECT_EQ(OobValName(*OobValFromName(n)), n);
  }
  EXPECT_FALSE(OobValFromName("nan").has_value());
  for (absl::string_view n : {"system", "mmio", "dram", "l1"}) {
    ASSERT_TRUE(MemorySpaceFromName(n).has_value());
    EXPECT_EQ(MemorySpaceName(*MemorySpaceFromName(n)), n);
  }
  EXPECT_EQ(MemorySpaceTitle(MemorySpace::kSystemMMIO), "SystemMMIO");
  EXPECT_EQ(MemorySpaceTitle(MemorySpace::kDeviceDRAM), "DeviceDRAM");
  EXPECT_FALSE(MemorySpaceFromName("L1").has_value());
  EXPECT_EQ(DimsToString({18, 32}), "18x32");
}

TEST(MetalLayoutDeathTest, LocateOutOfBoundsChecks) {
  MetalLayout l = Make({4, 4}, AffineMap::Identity(2), {2, 2});
  EXPECT_DEATH(l.Locate({4, 0}), "check failed");
  EXPECT_DEATH(l.ValidExtent(2, 0), "check failed");
}

}  // namespace
}  // namespace hlolayout::grid

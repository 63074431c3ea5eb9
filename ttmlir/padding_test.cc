#include "hlolayout/ttmlir/padding.h"

#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/testing/sanitizer_scale.h"
#include "hlolayout/ttmlir/collapse.h"

namespace hlolayout::grid {
namespace {

using Dims = std::vector<int64_t>;
constexpr ScalarType kF32{F32, false};

MetalLayout Make(Dims shape, AffineMap map, Dims grid,
                 absl::optional<TileType> tile = absl::nullopt) {
  auto layout = MetalLayout::Create(shape, kF32, map, OobVal::kUndef, grid,
                                    tile, MemorySpace::kDeviceL1);
  EXPECT_TRUE(layout.ok()) << layout.status();
  return *std::move(layout);
}

absl::optional<Dims> At(const MetalLayout& l, Dims core, Dims offset) {
  auto e = ElementAt(l, core, offset);
  EXPECT_TRUE(e.ok()) << e.status();
  return e.ok() ? *e : absl::nullopt;
}

const TileType kBfp8Tile{32, 32, TileDataType::kBfpBF8};

TEST(Padding, SeedNonDivisibleGridScalar) {
  MetalLayout l = Make({53, 63}, AffineMap::Identity(2), {3, 2});
  // 1 scalar row of padding on the last core row, 1 column on the last
  // core column.
  EXPECT_EQ(*PaddingPerDim(l), (std::vector<Dims>{{0, 0, 1}, {0, 1}}));
  EXPECT_EQ(*ValidElementsPerCore(l),
            (Dims{18 * 32, 18 * 31, 18 * 32, 18 * 31, 17 * 32, 17 * 31}));
  EXPECT_EQ(TotalPadding(l), 6 * 18 * 32 - 53 * 63);
  EXPECT_EQ(*At(l, {2, 1}, {16, 30}), (Dims{52, 62}));
  EXPECT_FALSE(At(l, {2, 1}, {17, 0}).has_value());
  EXPECT_FALSE(At(l, {0, 1}, {0, 31}).has_value());
}

TEST(Padding, SeedNonDivisibleGridTilized) {
  MetalLayout l = Make({53, 63}, AffineMap::Identity(2), {3, 2}, kBfp8Tile);
  // "every core now has 14 rows of padding except for the last row of cores
  // which has 15 rows of padding"; the last core column also pads 1 column.
  EXPECT_EQ(*PaddingPerDim(l), (std::vector<Dims>{{14, 14, 15}, {0, 1}}));
  EXPECT_EQ(*ValidElementsPerCore(l),
            (Dims{18 * 32, 18 * 31, 18 * 32, 18 * 31, 17 * 32, 17 * 31}));
  EXPECT_EQ(TotalPadding(l), 6 * 1024 - 53 * 63);
  EXPECT_EQ(TotalPadding(l), 2805);
  EXPECT_EQ(*At(l, {1, 1}, {2, 8}), (Dims{20, 40}));
  EXPECT_FALSE(At(l, {0, 0}, {20, 0}).has_value());  // tile padding
  EXPECT_FALSE(At(l, {2, 1}, {0, 31}).has_value());  // grid remainder
  EXPECT_TRUE(*IsPadding(l, {0, 0}, {18, 0}));
  EXPECT_FALSE(*IsPadding(l, {0, 0}, {17, 31}));
}

TEST(Padding, SeedBumpedStrideGaps) {
  AffineMap bumped(3, {{{{0, 32}, {1, 1}}, 0}, {{{2, 1}}, 0}});
  MetalLayout l =
      Make({2, 8, 32}, bumped, {1, 2}, TileType{32, 32, TileDataType::kF32});
  // Rows 8..31 are the gap between the batches, rows 40..63 tile padding.
  EXPECT_EQ(*PaddingPerDim(l), (std::vector<Dims>{{64 - 16}, {16, 16}}));
  EXPECT_FALSE(At(l, {0, 0}, {9, 0}).has_value());
  EXPECT_EQ(*At(l, {0, 1}, {33, 3}), (Dims{1, 1, 19}));
  EXPECT_EQ(*ValidElementsPerCore(l), (Dims{256, 256}));
  EXPECT_EQ(TotalPadding(l), 2 * 64 * 32 - 512);
}

TEST(Padding, SeedDuplicateDimMapCountsByEnumeration) {
  AffineMap dup(3, {{{{0, 96}, {1, 1}}, 0}, {{{1, 1}}, 0}, {{{2, 1}}, 0}});
  MetalLayout l = Make({8, 96, 32}, dup, {2, 1, 2});
  EXPECT_FALSE(PaddingPerDim(l).has_value());
  auto counts = ValidElementsPerCore(l);
  ASSERT_TRUE(counts.ok());
  EXPECT_EQ(*counts,
            (Dims{4 * 96 * 16, 4 * 96 * 16, 4 * 96 * 16, 4 * 96 * 16}));
  EXPECT_EQ(*At(l, {1, 0, 1}, {1, 1, 3}), (Dims{4, 1, 19}));
  EXPECT_FALSE(At(l, {1, 0, 1}, {1, 2, 3}).has_value());
  EXPECT_EQ(ValidElementsPerCore(l, 1 << 20, 1000).status().message(),
            "counting padding for this map needs 24576 elements; limit is "
            "1000");
}

TEST(Padding, SeedMultiDevice) {
  auto map = CollapsedLinearMap({2, 3, 64, 128}, 3, {{1, -1}});
  ASSERT_TRUE(map.ok());
  MetalLayout l = Make({2, 3, 64, 128}, *map, {2, 2, 4}, kBfp8Tile);
  EXPECT_EQ(*PaddingPerDim(l),
            (std::vector<Dims>{{0, 0}, {0, 0}, {0, 0, 0, 0}}));
  EXPECT_EQ(TotalPadding(l), 0);
}

TEST(Padding, OneDimOnLargerGridHasEmptyCores) {
  auto map = CollapsedLinearMap({128}, 3);
  ASSERT_TRUE(map.ok());
  MetalLayout l = Make({128}, *map, {1, 2, 4});
  EXPECT_EQ(*PaddingPerDim(l), (std::vector<Dims>{{0}, {0, 1}, {0, 0, 0, 0}}));
  EXPECT_EQ(*ValidElementsPerCore(l), (Dims{32, 32, 32, 32, 0, 0, 0, 0}));
  EXPECT_EQ(TotalPadding(l), 128);
}

TEST(Padding, Errors) {
  MetalLayout l = Make({53, 63}, AffineMap::Identity(2), {3, 2}, kBfp8Tile);
  EXPECT_EQ(ElementAt(l, {3, 0}, {0, 0}).status().message(),
            "core 3 is out of range for grid dim 0 of size 3");
  EXPECT_EQ(ElementAt(l, {0, 0}, {32, 0}).status().message(),
            "offset 32 is out of range for shard dim 0 of size 32");
  EXPECT_EQ(ElementAt(l, {0}, {0, 0}).status().message(),
            "core has 1 values but the grid has rank 2");
  EXPECT_EQ(ElementAt(l, {0, 0}, {0}).status().message(),
            "offset has 1 values but the shard has rank 2");
  EXPECT_EQ(ValidElementsPerCore(l, 4).status().message(),
            "grid has 6 cores; per-core counts are limited to 4");
}

// A family of maps over `shape`: collapse `groups` with strides bumped by
// `bump` at each join, an optional constant, and optionally a repeated last
// dim as an extra result (the seed's duplicate-dim artefact).
struct MapCase {
  AffineMap map;
  Dims shape;
};

std::vector<MapCase> SmallMaps() {
  std::vector<MapCase> out;
  const std::vector<Dims> shapes = {{1},       {7},       {5, 3},      {4, 4},
                                    {3, 1, 5}, {2, 3, 4}, {2, 2, 2, 3}};
  for (const Dims& shape : shapes) {
    const int64_t rank = shape.size();
    std::vector<std::vector<CollapseInterval>> interval_lists = {
        {}, {{0, -1}}, {{1, -1}}, {{0, rank}}};
    if (rank == 4) interval_lists.push_back({{0, 2}, {2, 4}});
    for (const auto& intervals : interval_lists) {
      auto groups = CollapseGroups(rank, intervals);
      if (!groups.ok()) continue;
      for (int64_t bump : {0, 1, 3}) {
        for (int64_t constant : {0, 2}) {
          for (bool duplicate : {false, true}) {
            if (duplicate && rank < 2) continue;
            std::vector<AffineResult> results;
            for (const CollapseInterval& g : *groups) {
              AffineResult r;
              int64_t stride = 1;
              for (int64_t d = g.end - 1; d >= g.begin; --d) {
                r.terms.push_back({d, stride});
                stride = stride * shape[d] + bump;
              }
              results.push_back(r);
            }
            results.front().constant = constant;
            if (duplicate) results.push_back({{{rank - 1, 1}}, 0});
            out.push_back({AffineMap(rank, results), shape});
          }
        }
      }
    }
  }
  return out;
}

// Over many small tensors, maps, grids and tiles:
//  - every logical element lands in one (core, offset) inside the grid and
//    the physical shard, and no two elements share one;
//  - ElementAt at that position gives the element back, and every other
//    position is padding;
//  - per-core valid counts match a brute-force count, padding adds up to
//    TotalPadding, PaddingPerDim agrees with the per-core counts;
//  - tile and in-tile coordinates recompose the offset.
TEST(Padding, PropertyEveryElementExactlyOnce) {
  const std::vector<absl::optional<TileType>> tiles = {
      absl::nullopt, TileType{2, 2, TileDataType::kF32},
      TileType{3, 2, TileDataType::kU8}, TileType{1, 4, TileDataType::kBF16}};
  int64_t layouts = 0, positions = 0;
  for (const MapCase& c : SmallMaps()) {
    const int64_t g = c.map.num_results();
    // Grids with dims in {1, 2, 3} (all of them up to rank 3, a sample
    // above).
    std::vector<Dims> grids;
    Dims grid(g, 1);
    for (;;) {
      grids.push_back(grid);
      int64_t i = g - 1;
      for (; i >= 0 && ++grid[i] == 4; --i) grid[i] = 1;
      if (i < 0) break;
    }
    // Under the sanitizers every 4th grid (testing/sanitizer_scale.h).
    const size_t step = (g > 3 ? 7 : 1) * (kSanitizerBuild ? 4 : 1);
    for (size_t gi = 0; gi < grids.size(); gi += step) {
      for (const auto& tile : tiles) {
        if (tile && g < 2) continue;
        auto made =
            MetalLayout::Create(c.shape, kF32, c.map, OobVal::kZero, grids[gi],
                                tile, MemorySpace::kDeviceL1);
        ASSERT_TRUE(made.ok()) << made.status() << " " << c.map.ToString();
        const MetalLayout& l = *made;
        ++layouts;
        // Forward: every element.
        std::map<std::pair<Dims, Dims>, Dims> stored;
        std::vector<int64_t> per_core(l.num_cores(), 0);
        Dims index(c.shape.size(), 0);
        for (int64_t n = 0; n < l.logical_volume(); ++n) {
          ElementLocation loc = l.Locate(index);
          int64_t core_linear = 0;
          for (int64_t i = 0; i < g; ++i) {
            ASSERT_GE(loc.core[i], 0);
            ASSERT_LT(loc.core[i], l.grid()[i]);
            ASSERT_LT(loc.offset[i], l.shard_shape()[i]);
            core_linear = core_linear * l.grid()[i] + loc.core[i];
          }
          if (tile) {
            EXPECT_EQ(loc.tile[g - 2] * tile->height + loc.in_tile[0],
                      loc.offset[g - 2]);
            EXPECT_EQ(loc.tile[g - 1] * tile->width + loc.in_tile[1],
                      loc.offset[g - 1]);
          }
          ASSERT_LT(loc.byte_offset, l.shard_bytes());
          ++per_core[core_linear];
          ASSERT_TRUE(
              stored.emplace(std::make_pair(loc.core, loc.offset), index)
                  .second)
              << "two elements share a position in " << c.map.ToString();
          for (int64_t d = c.shape.size() - 1;
               d >= 0 && ++index[d] == c.shape[d]; --d) {
            index[d] = 0;
          }
        }
        // Backward: every storage position.
        int64_t elements_seen = 0;
        Dims core(g, 0);
        for (int64_t k = 0; k < l.num_cores(); ++k) {
          Dims offset(g, 0);
          for (int64_t m = 0; m < l.shard_volume(); ++m) {
            ++positions;
            auto e = ElementAt(l, core, offset);
            ASSERT_TRUE(e.ok()) << e.status();
            auto it = stored.find({core, offset});
            if (it == stored.end()) {
              ASSERT_FALSE(e->has_value()) << c.map.ToString();
            } else {
              ASSERT_TRUE(e->has_value()) << c.map.ToString();
              ASSERT_EQ(**e, it->second);
              ++elements_seen;
            }
            for (int64_t i = g - 1;
                 i >= 0 && ++offset[i] == l.physical_shard_shape()[i]; --i) {
              offset[i] = 0;
            }
          }
          for (int64_t i = g - 1; i >= 0 && ++core[i] == l.grid()[i]; --i) {
            core[i] = 0;
          }
        }
        ASSERT_EQ(elements_seen, l.logical_volume());
        auto counts = ValidElementsPerCore(l);
        ASSERT_TRUE(counts.ok());
        ASSERT_EQ(*counts, per_core) << c.map.ToString();
        int64_t padding = 0;
        for (int64_t v : *counts) padding += l.shard_volume() - v;
        EXPECT_EQ(padding, TotalPadding(l));
        auto per_dim = PaddingPerDim(l);
        EXPECT_EQ(per_dim.has_value(), IsSeparable(l.linear(), c.shape));
        if (per_dim) {
          Dims cc(g, 0);
          for (int64_t k = 0; k < l.num_cores(); ++k) {
            int64_t product = 1;
            for (int64_t i = 0; i < g; ++i) {
              product *= l.physical_shard_shape()[i] - (*per_dim)[i][cc[i]];
            }
            EXPECT_EQ(product, per_core[k]);
            for (int64_t i = g - 1; i >= 0 && ++cc[i] == l.grid()[i]; --i) {
              cc[i] = 0;
            }
          }
        }
      }
    }
  }
  EXPECT_GT(layouts, 1000);
  EXPECT_GT(positions, 100000);
}

}  // namespace
}  // namespace hlolayout::grid

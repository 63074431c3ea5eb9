#include "hlolayout/ttnn/buffer_distribution.h"

#include <functional>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/ttnn/refusal.h"

namespace hlolayout::ttnn {
namespace {

// tt-metal's page mapping (buffer_distribution_spec.cpp) written as its
// loops, on shapes that are not squeezed: shards in row-major order of the
// grid of shards, shard i on core i mod n as its (i div n)-th slot, pages
// row-major over the full shard shape; positions past a partial shard's end
// stay padding (-1).
std::vector<std::vector<int64_t>> Reference(const std::vector<int64_t>& tensor,
                                            const std::vector<int64_t>& shard,
                                            int64_t cores) {
  const int rank = static_cast<int>(tensor.size());
  std::vector<int64_t> grid(rank);
  int64_t num_shards = 1, shard_volume = 1;
  for (int i = 0; i < rank; ++i) {
    grid[i] = (tensor[i] + shard[i] - 1) / shard[i];
    num_shards *= grid[i];
    shard_volume *= shard[i];
  }
  const int64_t slots = (num_shards + cores - 1) / cores;
  std::vector<std::vector<int64_t>> pages(
      cores, std::vector<int64_t>(slots * shard_volume, -1));
  std::vector<int64_t> s(rank, 0);
  for (int64_t id = 0; id < num_shards; ++id) {
    // `s` is shard `id`'s coordinates.
    std::vector<int64_t> w(rank, 0);
    for (int64_t k = 0; k < shard_volume; ++k) {
      int64_t host = 0;
      bool inside = true;
      for (int i = 0; i < rank; ++i) {
        const int64_t c = s[i] * shard[i] + w[i];
        inside = inside && c < tensor[i];
        host = host * tensor[i] + c;
      }
      if (inside) pages[id % cores][(id / cores) * shard_volume + k] = host;
      for (int i = rank - 1; i >= 0 && ++w[i] == shard[i]; --i) w[i] = 0;
    }
    for (int i = rank - 1; i >= 0 && ++s[i] == grid[i]; --i) s[i] = 0;
  }
  return pages;
}

CoreRangeSet Row(int64_t n) {
  return *CoreRangeSet::Make({{{0, 0}, {n - 1, 0}}});
}

// Calls f on every shape of rank 1..3 with dims 1..max (max 3 at rank 3).
void ForShapes(const std::function<void(const std::vector<int64_t>&)>& f) {
  for (int rank = 1; rank <= 3; ++rank) {
    const int64_t max = rank == 3 ? 3 : 4;
    std::vector<int64_t> s(rank, 1);
    while (true) {
      f(s);
      int i = rank - 1;
      for (; i >= 0 && ++s[i] > max; --i) s[i] = 1;
      if (i < 0) break;
    }
  }
}

TEST(BufferDistributionTest, ClosedFormIsTtMetalsMappingExhaustively) {
  int64_t checked = 0;
  ForShapes([&](const std::vector<int64_t>& tensor) {
    ForShapes([&](const std::vector<int64_t>& shard) {
      if (shard.size() != tensor.size()) return;
      for (int64_t cores = 1; cores <= 4; ++cores) {
        absl::StatusOr<BufferDistribution> d = BufferDistribution::Make(
            tensor, shard, {1, 1}, Row(cores), ShardOrientation::kRowMajor,
            ShardDistributionStrategy::kRoundRobin1D);
        ASSERT_TRUE(d.ok()) << d.status().message();
        const auto want = Reference(tensor, shard, cores);
        ASSERT_EQ(d->max_dev_pages_per_core(),
                  static_cast<int64_t>(want[0].size()));
        int64_t host_seen = 0;
        for (int64_t c = 0; c < cores; ++c) {
          for (int64_t p = 0; p < d->max_dev_pages_per_core(); ++p) {
            const int64_t h = d->HostPage(c, p);
            ASSERT_EQ(h, want[c][p]) << "core " << c << " page " << p;
            if (h < 0) continue;
            ++host_seen;
            // Place is the inverse of HostPage.
            const DevicePlace place = d->Place(h);
            ASSERT_EQ(place.core_index, c);
            ASSERT_EQ(place.device_page, p);
          }
        }
        // Squeezing keeps every page: each host page once.
        ASSERT_EQ(host_seen, d->host_pages());
        int64_t shards = 0;
        for (int64_t c = 0; c < cores; ++c) shards += d->ShardsOnCore(c);
        ASSERT_EQ(shards, d->num_shards());
        ++checked;
      }
    });
  });
  EXPECT_EQ(checked, 4004);  // 64 + 1024 + 2916 shape pairs, 4 grids each
}

TEST(BufferDistributionTest, SqueezeMergesWholeSpansAndKeepsVolumes) {
  std::vector<int64_t> t, s;
  SqueezeShapeRanks({9, 2}, {3, 2}, &t, &s);
  EXPECT_EQ(t, (std::vector<int64_t>{18}));
  EXPECT_EQ(s, (std::vector<int64_t>{6}));
  SqueezeShapeRanks({3, 47, 5}, {2, 13, 1}, &t, &s);
  EXPECT_EQ(t, (std::vector<int64_t>{3, 47, 5}));
  EXPECT_EQ(s, (std::vector<int64_t>{2, 13, 1}));
  SqueezeShapeRanks({1, 9}, {1, 2}, &t, &s);  // stops once both are whole
  EXPECT_EQ(t, (std::vector<int64_t>{9}));
  EXPECT_EQ(s, (std::vector<int64_t>{2}));
  SqueezeShapeRanks({4, 3, 8, 6}, {8, 2}, &t, &s);  // outer dims fold in
  EXPECT_EQ(t, (std::vector<int64_t>{96, 6}));
  EXPECT_EQ(s, (std::vector<int64_t>{8, 2}));
}

// Over every tensor of rank <= 3 (dims 1-4) and every shard of lower or
// equal rank (dims 1-4): the squeezed shapes keep the tensor's volume and
// the shard's, have one rank, and merge only where the rule allows (each
// squeezed dim past the innermost has a shard dim that is not whole).
TEST(BufferDistributionTest, SqueezeKeepsVolumesOnEveryShape) {
  int64_t cases = 0;
  std::vector<int64_t> t, s;
  for (int trank = 1; trank <= 3; ++trank) {
    for (int srank = 1; srank <= trank; ++srank) {
      const int total = trank + srank;
      std::vector<int64_t> digits(total, 0);
      for (bool more = true; more;) {
        std::vector<int64_t> tensor(digits.begin(), digits.begin() + trank);
        std::vector<int64_t> shard(digits.begin() + trank, digits.end());
        for (int64_t& d : tensor) ++d;
        for (int64_t& d : shard) ++d;
        SqueezeShapeRanks(tensor, shard, &t, &s);
        ASSERT_EQ(t.size(), s.size());
        ASSERT_GE(t.size(), 1u);
        int64_t tv = 1, sv = 1, want_t = 1, want_s = 1;
        for (size_t k = 0; k < t.size(); ++k) tv *= t[k], sv *= s[k];
        for (int64_t d : tensor) want_t *= d;
        for (int64_t d : shard) want_s *= d;
        EXPECT_EQ(tv, want_t);
        EXPECT_EQ(sv, want_s);
        ++cases;
        more = false;
        for (int k = 0; k < total && !more; ++k) {
          if (++digits[k] < 4)
            more = true;
          else
            digits[k] = 0;
        }
      }
    }
  }
  // 4^(tensor rank + shard rank) shape pairs for each pair of ranks.
  EXPECT_EQ(cases, 16 + (64 + 256) + (256 + 1024 + 4096));
}

// The row 120 of the TTNN test data: 288x64 in 32x32 tiles, shards 96x64
// on (0,0)-(2,0), COL_MAJOR.
TEST(BufferDistributionTest, HeightShardedExample) {
  absl::StatusOr<BufferDistribution> d = BufferDistribution::Make(
      {288, 64}, {96, 64}, {32, 32}, Row(3), ShardOrientation::kColMajor,
      ShardDistributionStrategy::kRoundRobin1D);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->tensor_shape_in_pages(), (std::vector<int64_t>{18}));
  EXPECT_EQ(d->shard_shape_in_pages(), (std::vector<int64_t>{6}));
  EXPECT_EQ(d->num_shards(), 3);
  EXPECT_EQ(d->HostPage(1, 0), 6);
  EXPECT_EQ(d->HostPage(2, 5), 17);
}

TEST(BufferDistributionTest, Grid2dTakesTheLeadingBlock) {
  // 3x11 pages in shards of 1x2: 3 down, 6 across on a 6x7 rectangle.
  const CoreRangeSet grid = *CoreRangeSet::Make({{{0, 0}, {5, 6}}});
  absl::StatusOr<BufferDistribution> d = BufferDistribution::Make(
      {48, 176}, {16, 32}, {16, 16}, grid, ShardOrientation::kRowMajor,
      ShardDistributionStrategy::kGrid2D);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->num_cores(), 18);
  EXPECT_EQ(d->cores()[6], (CoreCoord{0, 1}));
  EXPECT_EQ(d->HostPage(5, 1), -1);  // the last column's second page
  // COL_MAJOR swaps: 6 across become rows, and the shards go down first.
  absl::StatusOr<BufferDistribution> c = BufferDistribution::Make(
      {48, 176}, {16, 32}, {16, 16}, *CoreRangeSet::Make({{{0, 0}, {6, 5}}}),
      ShardOrientation::kColMajor, ShardDistributionStrategy::kGrid2D);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->num_cores(), 18);
  EXPECT_EQ(c->cores()[1], (CoreCoord{0, 1}));
  // Outer dims fold into the rows: [3, 2, 11, 216] in shards [22, 36] of
  // [1, 36] pages is 66 rows, 3 shards down.
  absl::StatusOr<BufferDistribution> f = BufferDistribution::Make(
      {3, 2, 11, 216}, {22, 36}, {1, 36},
      *CoreRangeSet::Make({{{0, 0}, {5, 2}}}), ShardOrientation::kRowMajor,
      ShardDistributionStrategy::kGrid2D);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->num_cores(), 18);
}

TEST(BufferDistributionTest, RefusalsCarryTheirRule) {
  const CoreRangeSet grid = *CoreRangeSet::Make({{{0, 0}, {3, 3}}});
  auto rule = [&](std::vector<int64_t> t, std::vector<int64_t> s,
                  const CoreRangeSet& g, ShardDistributionStrategy st) {
    absl::StatusOr<BufferDistribution> d = BufferDistribution::Make(
        t, s, {1, 1}, g, ShardOrientation::kRowMajor, st);
    return d.ok() ? std::string("ok") : *RefusalRule(d.status());
  };
  const auto rr = ShardDistributionStrategy::kRoundRobin1D;
  const auto g2 = ShardDistributionStrategy::kGrid2D;
  EXPECT_EQ(rule({4, 4, 4}, {2, 2, 2}, grid, g2), "grid2d-shard-rank");
  EXPECT_EQ(rule({4, 4}, {1, 1}, grid, g2), "ok");
  EXPECT_EQ(rule({4, 5}, {1, 1}, grid, g2), "grid2d-width");
  EXPECT_EQ(rule({5, 4}, {1, 1}, grid, g2), "grid2d-height");
  EXPECT_EQ(rule({4, 4}, {1, 1},
                 *CoreRangeSet::Make({{{0, 0}, {1, 0}}, {{0, 1}, {1, 1}}}), g2),
            "grid2d-one-range");
  EXPECT_EQ(rule({4}, {2, 2}, grid, rr), "shard-rank");
  EXPECT_EQ(rule({4, 4}, {0, 2}, grid, rr), "shard-volume");
  EXPECT_EQ(rule({4, 4}, {}, grid, rr), "shard-rank");
  EXPECT_EQ(rule({4, 4}, {2, 2}, CoreRangeSet(), rr), "empty-grid");
  EXPECT_EQ(rule({0, 4}, {2, 2}, CoreRangeSet(), rr), "ok");  // no pages
}

TEST(BufferDistributionTest, AShardPastInt64IsRefusedBeforeItIsSqueezed) {
  // The tensor's 2^51 pages fit; the shard's 2^71 do not. Its dims merge
  // (the inner one spans the tensor's whole), which multiplied them
  // unchecked.
  absl::StatusOr<BufferDistribution> d = BufferDistribution::Make(
      {int64_t{1} << 20, int64_t{1} << 31},
      {int64_t{1} << 40, int64_t{1} << 31}, {1, 1}, Row(4),
      ShardOrientation::kRowMajor, ShardDistributionStrategy::kRoundRobin1D);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().message(), "the shard size does not fit in 64 bits");
}

}  // namespace
}  // namespace hlolayout::ttnn

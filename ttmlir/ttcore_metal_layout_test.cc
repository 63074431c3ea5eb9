#include "hlolayout/ttmlir/ttcore_metal_layout.h"

#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "hlolayout/ttmlir/metal_layout.h"
#include "hlolayout/ttmlir/ttmlir_parse.h"

namespace hlolayout::grid {
namespace {

absl::StatusOr<TtcoreMetalLayout> Build(const std::string& text) {
  absl::StatusOr<GridTensorText> t = ParseGridTensor(text);
  if (!t.ok()) return t.status();
  return TtcoreMetalLayout::Build(t->shape, t->element, *t->metal);
}

std::string Text(absl::string_view tensor, absl::string_view logical,
                 absl::string_view alignments, absl::string_view intervals,
                 absl::string_view tail = "l1, sharded") {
  return absl::StrCat("tensor<", tensor,
                      ", #ttcore.metal_layout<logical_shape = ", logical,
                      ", dim_alignments = ", alignments,
                      ", collapsed_intervals = ", intervals, ", ", tail, ">>");
}

using Pairs = std::vector<std::array<int64_t, 2>>;

TEST(NormalizeIntervals, TtMlirsRules) {
  EXPECT_EQ(NormalizeIntervals({0, -1}, 2), (Pairs{{0, 1}, {1, 2}}));
  EXPECT_EQ(NormalizeIntervals({}, 3), (Pairs{{0, 1}, {1, 2}, {2, 3}}));
  EXPECT_EQ(NormalizeIntervals({}, 1), (Pairs{{0, 0}, {0, 1}}));
  EXPECT_EQ(NormalizeIntervals({0, 0, 0, 1}, 1), (Pairs{{0, 0}, {0, 1}}));
  EXPECT_EQ(NormalizeIntervals({2, 3, 0, 2}, 3), (Pairs{{0, 2}, {2, 3}}));
  EXPECT_EQ(NormalizeIntervals({0, 2}, 4), (Pairs{{0, 2}, {2, 3}, {3, 4}}));
  EXPECT_TRUE(NormalizeIntervals({}, 0).empty());
}

TEST(TtcoreMetalLayout, HeadExample) {
  // The attribute description's example: 3x43x7 collapsed [0,2),[2,3).
  absl::StatusOr<TtcoreMetalLayout> l =
      Build(Text("6x1x32x32xf32", "3x43x7", "1x32x32",
                 "dense<[[0, 2], [2, 3]]> : tensor<2x2xi64>"));
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(l->physical_shape(), (std::vector<int64_t>{192, 32}));
  EXPECT_EQ(l->device_shape(), (std::vector<int64_t>{6, 1, 32, 32}));
  EXPECT_EQ(l->host_strides(), (std::vector<int64_t>{2048, 32, 1}));
  EXPECT_EQ(l->host_volume(), 6144);
  EXPECT_EQ(l->LogicalToPhysicalText(), "(d0, d1, d2) -> (d0 * 64 + d1, d2)");
  EXPECT_EQ(l->PhysicalToLogicalText(),
            "(d0, d1) -> (d0 floordiv 64, d0 mod 64, d1)");
  EXPECT_TRUE(l->warnings().empty());
  EXPECT_EQ(l->padding().total, 6144 - 3 * 43 * 7);
}

TEST(TtcoreMetalLayout, CumulativeAlignment) {
  // [7, 41, 43] with alignments [256, 1, 64] in one interval: strides
  // [2624, 64, 1], extent 18432.
  absl::StatusOr<TtcoreMetalLayout> l =
      Build(Text("1x1x18432x1xf32", "7x41x43x1", "256x1x64x1",
                 "dense<[[0, 3], [3, 4]]> : tensor<2x2xi64>"));
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(l->interval_strides(), (std::vector<int64_t>{2624, 64, 1, 1}));
  EXPECT_EQ(l->physical_shape(), (std::vector<int64_t>{18432, 1}));
  // Default alignments: 2x8x32 gives 64 rows ((d0 * 32 + d1, d2)).
  l = Build(Text("1x1x64x32xf32", "2x8x32", "1x32x32",
                 "dense<[[0, 2], [2, 3]]> : tensor<2x2xi64>"));
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(l->LogicalToPhysicalText(), "(d0, d1, d2) -> (d0 * 32 + d1, d2)");
  EXPECT_EQ(l->default_tile_alignments(), (std::vector<int64_t>{1, 32, 32}));
}

TEST(TtcoreMetalLayout, RanksZeroAndOne) {
  absl::StatusOr<TtcoreMetalLayout> l =
      Build(Text("1x1x1x1x!ttcore.tile<32x32, f32>", "100", "32",
                 "dense<> : tensor<0x2xi64>"));
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(l->physical_shape(), (std::vector<int64_t>{32, 128}));
  EXPECT_EQ(l->device_shape(), (std::vector<int64_t>{1, 1, 1, 4}));
  EXPECT_EQ(l->LogicalToPhysicalText(), "(d0) -> (0, d0)");
  EXPECT_EQ(l->PhysicalToLogicalText(), "(d0, d1) -> (d1)");
  EXPECT_EQ(l->host_volume(), 32 * 128);
  absl::StatusOr<MetalLocation> loc = l->Locate({99});
  ASSERT_TRUE(loc.ok());
  EXPECT_EQ(loc->physical, (std::vector<int64_t>{0, 99}));
  EXPECT_EQ(loc->offset_tile, (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(loc->core, (tenstorrent::CoreCoord{0, 0}));
  l = Build(Text("1x1x1x1x!ttcore.tile<32x32, f32>", "", "",
                 "dense<> : tensor<0x2xi64>"));
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(l->physical_shape(), (std::vector<int64_t>{32, 32}));
  EXPECT_EQ(l->Locate({})->physical, (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(l->ShardElements({0, 0}), 1);
}

TEST(TtcoreMetalLayout, Refusals) {
  struct Case {
    std::string text;
    const char* message;
  };
  const Case cases[] = {
      {Text("1x1x32x32xf32", "32x32", "32", "dense<> : tensor<0x2xi64>"),
       "tt-mlir's verifier refuses this layout: dim_alignments size (1) must "
       "match logical_shape rank (2)"},
      {Text("1x1x32x32xf32", "32x32", "32x0", "dense<> : tensor<0x2xi64>"),
       "tt-mlir's verifier refuses this layout: dim_alignments[1] must be "
       "positive, got 0"},
      {Text("1x1x32x32xf32", "32x32", "32x32",
            "dense<[[2, 3]]> : tensor<1x2xi64>"),
       "tt-mlir's verifier refuses this layout: collapsed_intervals start "
       "index 2 (normalized: 2) is out of bounds for logical_shape rank 2"},
      {Text("1x1x32x32xf32", "32x32", "32x32",
            "dense<[[1, 0]]> : tensor<1x2xi64>"),
       "tt-mlir's verifier refuses this layout: collapsed_intervals start (1) "
       "must not exceed end (0)"},
      {Text("1x1x1x32x32xf32", "4x32x32", "1x32x32",
            "dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>"),
       "collapsed intervals leave dim 1 out (tt-mlir would drop it silently)"},
      {Text("1x1x32x32xf32", "4x32x32", "1x32x32",
            "dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>"),
       "collapsed intervals overlap at dim 1; each logical dim must belong to "
       "one interval"},
      {Text("2x4x2x4x!ttcore.tile<32x32, f32>", "4x8", "2x4",
            "dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>", "dram, sharded"),
       "tt-mlir asserts: tile 32x32 does not divide the physical shape 4x8 "
       "(physicalShape[-2] % tileShape[0] == 0, physicalShape[-1] % "
       "tileShape[1] == 0); dim_alignments must be tile multiples"},
      {Text("3x5x2x2x!ttcore.tile<32x32, f32>", "64x64", "32x32",
            "dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>"),
       "tt-mlir asserts: Collapsed dimension must be evenly divisible by grid "
       "dimension, got 2 % 3 != 0."},
      {Text("1x32x32xf32", "32x32", "32x32", "dense<> : tensor<0x2xi64>"),
       "the tensor has rank 3 but the layout has 2 physical dims: its shape "
       "must be grid ++ shard, rank 4"},
  };
  for (const Case& c : cases) {
    absl::StatusOr<TtcoreMetalLayout> l = Build(c.text);
    ASSERT_FALSE(l.ok()) << c.text;
    EXPECT_EQ(l.status().message(), c.message);
  }
}

TEST(TtcoreMetalLayout, AllocationWarnings) {
  absl::StatusOr<TtcoreMetalLayout> l =
      Build(Text("1x1x2x4xi32", "2x4", "32x32",
                 "dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>"));
  ASSERT_TRUE(l.ok()) << l.status();
  ASSERT_EQ(l->warnings().size(), 1u);
  EXPECT_EQ(l->warnings()[0],
            "the tensor type's shard is 2x4 but getDeviceShape gives 32x32 for "
            "grid 1x1: grid x shard does not cover the physical 32x32 (the "
            "dim_alignments padding is ignored)");
  EXPECT_EQ(l->padding().allocated, 8);
  l = Build(Text("2x4x2x2x!ttcore.tile<32x32, f32>", "64x128", "32x32",
                 "dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>",
                 "undef, l1, sharded"));
  ASSERT_TRUE(l.ok()) << l.status();
  ASSERT_EQ(l->warnings().size(), 2u);
  EXPECT_EQ(l->warnings()[0],
            "the tensor type's shard is 2x2 but getDeviceShape gives 1x1 tiles "
            "for grid 2x4: grid x shard covers more than the physical 2x4");
}

// Every element round-trips through physical coordinates, lands in one
// shard position, and the valid counts per dim and per shard add up.
TEST(TtcoreMetalLayout, LocateRoundTripsOverSmallLayouts) {
  struct Case {
    std::vector<int64_t> logical;
    std::vector<int64_t> alignments;
    std::string intervals;
  };
  const std::vector<Case> cases = {
      {{3, 5}, {1, 1}, "dense<> : tensor<0x2xi64>"},
      {{3, 5}, {4, 8}, "dense<[[0, -1]]> : tensor<1x2xi64>"},
      {{2, 3, 5}, {1, 4, 8}, "dense<[[0, 2], [2, 3]]> : tensor<2x2xi64>"},
      {{2, 3, 5}, {8, 1, 3}, "dense<[[0, 2], [2, 3]]> : tensor<2x2xi64>"},
      {{2, 3, 5, 3}, {1, 6, 2, 4}, "dense<[[0, 3], [3, 4]]> : tensor<2x2xi64>"},
      {{7}, {4}, "dense<> : tensor<0x2xi64>"},
      {{2, 3, 4}, {1, 1, 1}, "dense<> : tensor<0x2xi64>"},
  };
  for (const Case& c : cases) {
    const int64_t rank = static_cast<int64_t>(c.logical.size());
    const std::string logical = DimsToString(c.logical);
    const std::string al = DimsToString(c.alignments);
    // The physical shape, from a build whose grid and shard are all ones
    // (it only warns about the shard).
    std::vector<int64_t> phys;
    {
      absl::StatusOr<GridTensorText> t =
          ParseGridTensor(Text("1x1x1x1xf32", logical, al, c.intervals));
      ASSERT_TRUE(t.ok()) << t.status();
      const std::vector<int64_t> ones(
          2 * NormalizeIntervals(t->metal->intervals, rank).size(), 1);
      absl::StatusOr<TtcoreMetalLayout> probe =
          TtcoreMetalLayout::Build(ones, t->element, *t->metal);
      ASSERT_TRUE(probe.ok()) << probe.status();
      phys = probe->physical_shape();
    }
    // Then a grid splitting each even physical dim in two.
    std::vector<int64_t> shape;
    for (int64_t p : phys) shape.push_back(p % 2 == 0 ? 2 : 1);
    for (size_t i = 0; i < phys.size(); ++i)
      shape.push_back(phys[i] / shape[i]);
    absl::StatusOr<TtcoreMetalLayout> l =
        Build(Text(DimsToString(shape) + "xf32", logical, al, c.intervals));
    ASSERT_TRUE(l.ok()) << l.status();
    EXPECT_TRUE(l->warnings().empty()) << logical;
    int64_t volume = 1;
    for (int64_t d : c.logical) volume *= d;
    std::set<std::vector<int64_t>> seen;
    std::vector<int64_t> index(rank, 0);
    for (int64_t k = 0; k < volume; ++k) {
      int64_t rest = k;
      for (int64_t d = rank - 1; d >= 0; --d) {
        index[d] = rest % c.logical[d];
        rest /= c.logical[d];
      }
      absl::StatusOr<MetalLocation> loc = l->Locate(index);
      ASSERT_TRUE(loc.ok()) << loc.status();
      EXPECT_EQ(l->LogicalAt(loc->physical), index) << logical;
      std::vector<int64_t> key = loc->shard;
      key.insert(key.end(), loc->offset.begin(), loc->offset.end());
      seen.insert(key);
      for (size_t i = 0; i < phys.size(); ++i) {
        EXPECT_LT(loc->offset[i], l->shard_shape()[i]);
      }
    }
    EXPECT_EQ(static_cast<int64_t>(seen.size()), volume) << logical;
    // Valid counts per physical dim match a brute-force count.
    int64_t product = 1;
    for (size_t i = 0; i < phys.size(); ++i) {
      int64_t brute = 0;
      for (int64_t x = 0; x < phys[i]; ++x) {
        std::vector<int64_t> p(phys.size(), 0);
        p[i] = x;
        // Valid when some index maps to it: LogicalAt with other dims 0.
        brute += l->LogicalAt(p).has_value() ? 1 : 0;
        EXPECT_EQ(l->ValidBelow(i, x + 1) - l->ValidBelow(i, x),
                  l->LogicalAt(p).has_value() ? 1 : 0)
            << logical << " dim " << i << " at " << x;
      }
      EXPECT_EQ(l->ValidBelow(i, phys[i]), brute);
      product *= brute;
    }
    EXPECT_EQ(product, volume) << logical;
    int64_t sum = 0;
    std::vector<int64_t> g = l->grid();
    std::vector<int64_t> shard(g.size(), 0);
    for (;;) {
      sum += l->ShardElements(shard);
      size_t i = 0;
      while (i < g.size() && ++shard[i] == g[i]) shard[i++] = 0;
      if (i == g.size()) break;
    }
    EXPECT_EQ(sum, volume) << logical;
  }
}

TEST(TtcoreMetalLayout, TextsTtMlirPrints) {
  absl::StatusOr<TtcoreMetalLayout> l =
      Build(Text("2x6x2x2x!ttcore.tile<32x32, f32>", "128x384", "32x32",
                 "dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>"));
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(l->MemrefText(),
            "memref<2x2x!ttcore.tile<32x32, f32>, #ttcore.memory_space<l1>>");
  EXPECT_EQ(l->TensorText(),
            "tensor<2x6x2x2x!ttcore.tile<32x32, f32>, #ttcore.metal_layout<"
            "logical_shape = 128x384, dim_alignments = 32x32, "
            "collapsed_intervals = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, "
            "l1, sharded>>");
  absl::StatusOr<MetalLocation> loc = l->Locate({127, 383});
  ASSERT_TRUE(loc.ok());
  EXPECT_EQ(loc->shard, (std::vector<int64_t>{1, 5}));
  EXPECT_EQ(loc->offset, (std::vector<int64_t>{63, 63}));
  EXPECT_EQ(loc->offset_tile, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(loc->offset_in_tile, (std::vector<int64_t>{31, 31}));
  EXPECT_EQ(loc->core, (tenstorrent::CoreCoord{5, 1}));
  EXPECT_EQ(l->Locate({128, 0}).status().message(),
            "index 128 is out of bounds for dim 0 of size 128");
}

}  // namespace
}  // namespace hlolayout::grid

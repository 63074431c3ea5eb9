#include "hlolayout/ttnn/tensor_spec.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/ttnn/refusal.h"

namespace hlolayout::ttnn {
namespace {

using V = std::vector<int64_t>;

CoreRangeSet Grid(std::vector<CoreRange> r) {
  return *CoreRangeSet::Make(std::move(r));
}

TensorSpecInput In(V shape, DataType dtype, Layout layout, MemoryConfig m,
                   Tile tile = {}) {
  TensorSpecInput in;
  in.shape = std::move(shape);
  in.dtype = dtype;
  in.layout = layout;
  in.tile = tile;
  in.memory = std::move(m);
  return in;
}

std::string Rule(const TensorSpecInput& in) {
  absl::StatusOr<TensorSpec> s = TensorSpec::Make(in);
  return s.ok() ? "ok" : RefusalRule(s.status()).value_or("(no rule)");
}

TEST(TensorSpecTest, HeightShardedExampleOfTheHeader) {
  absl::StatusOr<TensorSpec> s = TensorSpec::Make(In(
      {272, 58}, DataType::kBfloat16, Layout::kTile,
      MemoryConfig::Sharded(
          TensorMemoryLayout::kHeightSharded, BufferType::kL1,
          {Grid({{{0, 0}, {2, 0}}}), {96, 64}, ShardOrientation::kColMajor})));
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->padded_shape(), (V{288, 64}));
  EXPECT_EQ(s->page_size_bytes(), 2048);
  EXPECT_EQ(s->num_pages(), 18);
  EXPECT_EQ(s->packed_buffer_size_bytes(), 36864);
  EXPECT_EQ(s->ConsumedBytesPerBank(), 12288);
  EXPECT_EQ(*s->ConsumedBytesPerBank(32, 12), 12288);
  EXPECT_EQ(s->memory_config().nd_shard_spec->shard_shape, (V{96, 64}));
  EXPECT_EQ(s->memory_config().nd_shard_spec->distribution,
            ShardDistributionStrategy::kRoundRobin1D);
  EXPECT_EQ(s->shard_spec_buffer()->shard_shape_in_pages,
            (std::array<int64_t, 2>{3, 2}));
  EXPECT_EQ(s->distribution()->HostPage(1, 0), 6);
}

TEST(TensorSpecTest, InterleavedBytesPerBank) {
  // Row 10: bfloat8_b [1,1,15,243], 16x16 tiles, L1: 16 pages of 272 bytes
  // over 64 banks, one page per bank at most.
  absl::StatusOr<TensorSpec> s = TensorSpec::Make(
      In({1, 1, 15, 243}, DataType::kBfloat8B, Layout::kTile,
         MemoryConfig::Interleaved(BufferType::kL1), *MakeTile(16, 16)));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->num_pages(), 16);
  EXPECT_EQ(s->page_size_bytes(), 272);
  EXPECT_EQ(s->ConsumedBytesPerBank(), 272);
  EXPECT_FALSE(s->distribution().has_value());
}

TEST(TensorSpecTest, NdSpecsResolveToTwoDimensionalOnesWhenTheyCan) {
  const CoreRangeSet four = Grid({{{0, 0}, {3, 0}}});
  auto layout = [&](V shape, V shard, ShardDistributionStrategy d,
                    CoreRangeSet g) {
    absl::StatusOr<TensorSpec> s = TensorSpec::Make(
        In(shape, DataType::kBfloat16, Layout::kTile,
           MemoryConfig::NdSharded(
               BufferType::kL1, {shard, g, ShardOrientation::kRowMajor, d})));
    EXPECT_TRUE(s.ok()) << s.status().message();
    return s.ok() ? std::string(MemoryLayoutName(s->memory_config().layout))
                  : "";
  };
  const auto rr = ShardDistributionStrategy::kRoundRobin1D;
  const auto g2 = ShardDistributionStrategy::kGrid2D;
  EXPECT_EQ(layout({4, 64, 64}, {1, 64, 64}, rr, four), "HEIGHT_SHARDED");
  EXPECT_EQ(layout({64, 128}, {64, 32}, rr, four), "WIDTH_SHARDED");
  EXPECT_EQ(layout({64, 128}, {32, 64}, g2, Grid({{{0, 0}, {1, 1}}})),
            "BLOCK_SHARDED");
  // ROUND_ROBIN_1D block sharding needs as many shards across as the
  // rectangle is wide.
  EXPECT_EQ(layout({64, 128}, {32, 64}, rr, Grid({{{0, 0}, {1, 1}}})),
            "BLOCK_SHARDED");
  EXPECT_EQ(layout({64, 128}, {32, 64}, rr, Grid({{{0, 0}, {3, 0}}})),
            "ND_SHARDED");
  // 13 of 47 rows neither divides nor is the top dim: stays ND.
  EXPECT_EQ(layout({3, 64, 96}, {2, 32, 32}, rr, four), "ND_SHARDED");
  // More shards than cores: stays ND (round robin deals several per core).
  EXPECT_EQ(layout({8, 64, 64}, {1, 64, 64}, rr, four), "ND_SHARDED");
}

TEST(TensorSpecTest, NdSpecOfAVolumePastInt64IsRefusedNotFolded) {
  // Each dim fits in 64 bits, their product does not: the fold to a 2-D
  // spec multiplied them unchecked (found by fuzz/ttnn_fuzzer.cc).
  absl::StatusOr<TensorSpec> s = TensorSpec::Make(
      In({1, 47, 3266666666, 366666662}, DataType::kFloat32, Layout::kRowMajor,
         MemoryConfig::NdSharded(BufferType::kL1,
                                 {{2, 31, 24},
                                  Grid({{{0, 0}, {3, 3}}}),
                                  ShardOrientation::kRowMajor,
                                  ShardDistributionStrategy::kRoundRobin1D})));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().message(), "the buffer does not fit in 64 bits");
  // A 0 among the dims makes the volume 0 while the others' product still
  // passes int64: not folded either, and refused before any part of that
  // product is taken (merging the distribution's dims took one).
  for (V shape : {V{4294967295, 0, 4294967295, 4294967295},
                  V{3, 0, 4294967295, 4294967295}}) {
    absl::StatusOr<TensorSpec> z = TensorSpec::Make(
        In(shape, DataType::kFloat32, Layout::kRowMajor,
           MemoryConfig::NdSharded(
               BufferType::kL1, {{1, 1, 1},
                                 Grid({{{0, 0}, {3, 3}}}),
                                 ShardOrientation::kRowMajor,
                                 ShardDistributionStrategy::kRoundRobin1D})));
    ASSERT_FALSE(z.ok());
    EXPECT_EQ(z.status().message(), "the page count does not fit in 64 bits");
  }
}

TEST(TensorSpecTest, EveryRefusalHasItsRule) {
  const MemoryConfig dram = MemoryConfig::Interleaved(BufferType::kDram);
  auto sharded = [](TensorMemoryLayout l, V shard, CoreRangeSet g,
                    ShardOrientation o = ShardOrientation::kRowMajor) {
    return MemoryConfig::Sharded(l, BufferType::kL1,
                                 {std::move(g), {shard[0], shard[1]}, o});
  };
  const CoreRangeSet row4 = Grid({{{0, 0}, {3, 0}}});
  const auto h = TensorMemoryLayout::kHeightSharded;
  const auto w = TensorMemoryLayout::kWidthSharded;
  const auto b = TensorMemoryLayout::kBlockSharded;
  EXPECT_EQ(Rule(In({64, 64}, DataType::kBfloat8B, Layout::kRowMajor, dram)),
            "dtype-layout");
  EXPECT_EQ(Rule(In({64, 64}, DataType::kFp8E4m3, Layout::kTile, dram)),
            "dtype-layout");
  EXPECT_EQ(Rule(In({64, 64}, DataType::kFloat32, Layout::kRowMajor, dram,
                    *MakeTile(16, 16))),
            "row-major-tile");
  EXPECT_EQ(Rule(In({64, 64}, DataType::kInt8, Layout::kRowMajor, dram)),
            "row-major-element-size");
  EXPECT_EQ(Rule(In({64, 64}, DataType::kInt8, Layout::kTile, dram)), "ok");
  EXPECT_EQ(Rule(In({64, 64}, DataType::kFloat32, Layout::kTile,
                    sharded(h, {16, 64}, row4))),
            "shard-tile-multiple");
  EXPECT_EQ(Rule(In({128, 64}, DataType::kFloat32, Layout::kTile,
                    sharded(h, {32, 32}, row4))),
            "height-shard-width");
  EXPECT_EQ(Rule(In({160, 64}, DataType::kFloat32, Layout::kTile,
                    sharded(h, {32, 64}, row4))),
            "height-shard-count");
  EXPECT_EQ(Rule(In({64, 128}, DataType::kFloat32, Layout::kTile,
                    sharded(w, {32, 32}, row4))),
            "width-shard-height");
  EXPECT_EQ(Rule(In({64, 160}, DataType::kFloat32, Layout::kTile,
                    sharded(w, {64, 32}, row4))),
            "width-shard-count");
  EXPECT_EQ(Rule(In({64, 64}, DataType::kFloat32, Layout::kTile,
                    sharded(b, {32, 32},
                            Grid({{{0, 0}, {1, 0}}, {{0, 1}, {1, 1}}})))),
            "block-shard-one-range");
  EXPECT_EQ(Rule(In({64, 64}, DataType::kFloat32, Layout::kTile,
                    sharded(b, {32, 32}, row4))),
            "block-shard-grid-fit");
  EXPECT_EQ(Rule(In({64, 64}, DataType::kFloat32, Layout::kTile,
                    sharded(b, {32, 32}, Grid({{{0, 0}, {0, 3}}}),
                            ShardOrientation::kColMajor))),
            "block-shard-grid-fit");
  EXPECT_EQ(Rule(In({64}, DataType::kFloat32, Layout::kRowMajor,
                    sharded(h, {2, 64}, row4))),
            "shard-1d-tensor");
  EXPECT_EQ(
      Rule(In({64, 64}, DataType::kFloat32, Layout::kTile,
              MemoryConfig::NdSharded(BufferType::kL1,
                                      {{1, 32, 32},
                                       row4,
                                       ShardOrientation::kRowMajor,
                                       ShardDistributionStrategy::kGrid2D}))),
      "grid2d-shard-rank");
  MemoryConfig bad = dram;
  bad.layout = h;
  EXPECT_EQ(Rule(In({64, 64}, DataType::kFloat32, Layout::kTile, bad)),
            "sharded-without-spec");
  EXPECT_EQ(
      Rule(In({int64_t{1} << 33}, DataType::kFloat32, Layout::kTile, dram)),
      "dim-range");
  EXPECT_EQ(Rule(In({64, 64}, DataType::kFloat32, Layout::kTile,
                    sharded(h, {0, 64}, row4))),
            "shard-volume");
}

TEST(TensorSpecTest, EmptyAndScalarTensors) {
  const MemoryConfig dram = MemoryConfig::Interleaved(BufferType::kDram);
  absl::StatusOr<TensorSpec> empty = TensorSpec::Make(
      In({0, 64}, DataType::kBfloat16, Layout::kRowMajor, dram));
  ASSERT_TRUE(empty.ok()) << empty.status().message();
  EXPECT_EQ(empty->num_pages(), 0);
  EXPECT_EQ(empty->page_shape(), (std::array<int64_t, 2>{1, 2}));
  absl::StatusOr<TensorSpec> scalar =
      TensorSpec::Make(In({}, DataType::kFloat32, Layout::kTile, dram));
  ASSERT_TRUE(scalar.ok()) << scalar.status().message();
  EXPECT_EQ(scalar->padded_shape(), (V{32, 32}));
  EXPECT_EQ(scalar->num_pages(), 1);
}

}  // namespace
}  // namespace hlolayout::ttnn

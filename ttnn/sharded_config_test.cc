// The shard shape ttnn.create_sharded_memory_config derives: worked examples
// (checked live against ttnn 0.81.1 by differential/ttnn), every small case
// against the rule's definition, and the refusals.
#include "hlolayout/ttnn/sharded_config.h"

#include <array>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/ttnn/refusal.h"
#include "hlolayout/ttnn/tensor_spec.h"

namespace hlolayout::ttnn {
namespace {

using A = std::array<int64_t, 2>;
using V = std::vector<int64_t>;
constexpr auto kHeight = TensorMemoryLayout::kHeightSharded;
constexpr auto kWidth = TensorMemoryLayout::kWidthSharded;
constexpr auto kBlock = TensorMemoryLayout::kBlockSharded;
constexpr auto kRow = ShardOrientation::kRowMajor;
constexpr auto kCol = ShardOrientation::kColMajor;

CoreRangeSet CoreGrid(int64_t x, int64_t y) {
  return *CoreRangeSet::Make({{{0, 0}, {x - 1, y - 1}}});
}

std::string RuleOf(const absl::Status& s) {
  return s.ok() ? "ok" : RefusalRule(s).value_or("(no rule)");
}

TEST(ShardedConfigTest, WorkedExamples) {
  // The tensor: [65536, 1024] on 8x8 cores.
  EXPECT_EQ(*DeriveShardShape({32, 2048, 1024}, CoreGrid(8, 8), kBlock, kRow),
            (A{8192, 128}));
  // Block on 8 columns and 4 rows: ROW_MAJOR cuts the height by the rows,
  // COL_MAJOR by the columns.
  EXPECT_EQ(*DeriveShardShape({32, 2048, 1024}, CoreGrid(8, 4), kBlock, kRow),
            (A{16384, 128}));
  EXPECT_EQ(*DeriveShardShape({32, 2048, 1024}, CoreGrid(8, 4), kBlock, kCol),
            (A{8192, 256}));
  EXPECT_EQ(*DeriveShardShape({1, 1, 1024, 64}, CoreGrid(8, 8), kHeight, kRow),
            (A{16, 64}));
  EXPECT_EQ(*DeriveShardShape({1, 1, 32, 4096}, CoreGrid(8, 1), kWidth, kCol),
            (A{32, 512}));
  // The logical shape, not the padded one: 100 rows on 4 cores is 25 each
  // (a tiled tensor then refuses the shard as not whole tiles).
  EXPECT_EQ(*DeriveShardShape({100, 64}, CoreGrid(2, 2), kHeight, kRow),
            (A{25, 64}));
}

// Every shape [a, b] (a, b < 13) on every CoreGrid up to 4x4: the derived
// shard tiles the plane exactly, as many shards as the strategy asks; and
// a refusal exactly where no exact cut exists.
TEST(ShardedConfigTest, ExhaustiveSmallCases) {
  int checked = 0;
  for (int64_t a = 0; a < 13; ++a) {
    for (int64_t b = 0; b < 13; ++b) {
      for (int64_t x = 1; x <= 4; ++x) {
        for (int64_t y = 1; y <= 4; ++y) {
          for (auto layout : {kHeight, kWidth, kBlock}) {
            for (auto o : {kRow, kCol}) {
              absl::StatusOr<A> s =
                  DeriveShardShape({a, b}, CoreGrid(x, y), layout, o);
              // The number of shards down and across the strategy asks for.
              int64_t down = 1, across = 1;
              if (layout == kHeight) down = x * y;
              if (layout == kWidth) across = x * y;
              if (layout == kBlock) {
                down = o == kRow ? y : x;
                across = o == kRow ? x : y;
              }
              const bool exact = a % down == 0 && b % across == 0;
              ASSERT_EQ(s.ok(), exact) << a << "x" << b << " on " << x << "x"
                                       << y << ": " << s.status().message();
              if (!exact) {
                EXPECT_EQ(RuleOf(s.status()), "shard-derive");
                continue;
              }
              EXPECT_EQ((*s)[0] * down, a);
              EXPECT_EQ((*s)[1] * across, b);
              ++checked;
            }
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 1000);
}

// Outer dims fold into the height: [2, 3, 8] is the plane [6, 8].
TEST(ShardedConfigTest, OuterDimsFoldIntoTheHeight) {
  for (int64_t x = 1; x <= 4; ++x) {
    EXPECT_EQ(DeriveShardShape({2, 3, 8}, CoreGrid(x, 1), kHeight, kRow).ok(),
              6 % x == 0);
  }
  EXPECT_EQ(*DeriveShardShape({2, 3, 8}, CoreGrid(2, 3), kHeight, kRow),
            (A{1, 8}));
}

TEST(ShardedConfigTest, Refusals) {
  const std::string not_exact =
      std::string(DeriveShardShape({100, 64}, CoreGrid(8, 1), kHeight, kRow)
                      .status()
                      .message());
  EXPECT_EQ(not_exact,
            "cannot derive the shard shape: the tensor's height 100 does not "
            "divide into 8 cores (ttnn: \"Invalid sharding core_grid\"); give "
            "the shard shape");
  // Not a CoreGrid: away from (0,0), or two ranges.
  EXPECT_EQ(
      RuleOf(DeriveShardShape({64, 64}, *CoreRangeSet::Make({{{1, 0}, {2, 0}}}),
                              kHeight, kRow)
                 .status()),
      "shard-derive");
  EXPECT_EQ(RuleOf(DeriveShardShape({64, 64},
                                    *CoreRangeSet::Make(
                                        {{{0, 0}, {1, 0}}, {{0, 1}, {0, 1}}}),
                                    kHeight, kRow)
                       .status()),
            "shard-derive");
  EXPECT_EQ(
      RuleOf(DeriveShardShape({64}, CoreGrid(1, 1), kHeight, kRow).status()),
      "shard-derive");
  EXPECT_EQ(RuleOf(DeriveShardShape({64, 64}, CoreGrid(1, 1),
                                    TensorMemoryLayout::kNdSharded, kRow)
                       .status()),
            "shard-derive");
  // A height over 64 bits is an error, not a wrap.
  EXPECT_FALSE(DeriveShardShape({int64_t{1} << 32, int64_t{1} << 32, 4, 4},
                                CoreGrid(1, 1), kHeight, kRow)
                   .ok());
}

// TensorSpec::Make derives the shard when asked, and says it did.
TEST(ShardedConfigTest, TensorSpecDerivesWhenAsked) {
  TensorSpecInput in;
  in.shape = {32, 2048, 1024};
  in.memory = MemoryConfig::Sharded(kBlock, BufferType::kL1,
                                    {CoreGrid(8, 8), {0, 0}, kRow});
  in.derive_shard_shape = true;
  absl::StatusOr<TensorSpec> s = TensorSpec::Make(in);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_TRUE(s->shard_shape_derived());
  EXPECT_EQ(s->memory_config().shard_spec->shape, (A{8192, 128}));
  EXPECT_EQ(s->ConsumedBytesPerBank(), 2097152);
  // Without the flag a {0, 0} shard is refused as before.
  in.derive_shard_shape = false;
  EXPECT_EQ(RuleOf(TensorSpec::Make(in).status()), "shard-volume");
  // An ND spec has nothing to derive.
  TensorSpecInput nd;
  nd.shape = {64, 64};
  nd.memory =
      MemoryConfig::NdSharded(BufferType::kL1, {{32, 32}, CoreGrid(2, 2)});
  nd.derive_shard_shape = true;
  EXPECT_EQ(RuleOf(TensorSpec::Make(nd).status()), "shard-derive");
}

}  // namespace
}  // namespace hlolayout::ttnn

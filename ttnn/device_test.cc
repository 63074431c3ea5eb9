// The devices and the fit check: the two specs that cannot fit
// (2 MiB per core, a 10x10 grid on an 8x8 device), the borderline warning,
// DRAM, and the device names.
#include "hlolayout/ttnn/device.h"

#include <string>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "hlolayout/ttnn/refusal.h"

namespace hlolayout::ttnn {
namespace {

TensorSpec Block(std::vector<int64_t> shape, int64_t x, int64_t y,
                 std::array<int64_t, 2> shard, const Device& d) {
  TensorSpecInput in;
  in.shape = std::move(shape);
  in.memory =
      MemoryConfig::Sharded(TensorMemoryLayout::kBlockSharded, BufferType::kL1,
                            {*CoreRangeSet::Make({{{0, 0}, {x - 1, y - 1}}}),
                             shard, ShardOrientation::kRowMajor});
  absl::StatusOr<TensorSpec> s = TensorSpec::Make(in, d.params());
  EXPECT_TRUE(s.ok()) << s.status().message();
  return *s;
}

std::string RuleOf(const absl::StatusOr<FitReport>& r) {
  return r.ok() ? "ok" : RefusalRule(r.status()).value_or("(no rule)");
}

TEST(DeviceTest, NamesAndDefaults) {
  EXPECT_EQ(DefaultDevice().name, "wormhole_n150");
  EXPECT_EQ((*FindDevice("n150"))->name, "wormhole_n150");
  EXPECT_EQ((*FindDevice("Blackhole-P150"))->name, "blackhole_p150");
  EXPECT_EQ((*FindDevice("p100"))->grid_x, 11);
  const absl::Status bad = FindDevice("p105").status();
  EXPECT_TRUE(absl::StartsWith(bad.message(),
                               "unknown device 'p105'; did you mean 'p100'?"))
      << bad.message();
  EXPECT_FALSE(FindDevice("n160x").ok());
  // The default device's numbers are the model's defaults (the test data
  // was computed on a mock n150).
  const DeviceParams p = DefaultDevice().params(), q;
  EXPECT_EQ(p.l1_alignment, q.l1_alignment);
  EXPECT_EQ(p.dram_alignment, q.dram_alignment);
  EXPECT_EQ(p.l1_banks, q.l1_banks);
  EXPECT_EQ(p.dram_banks, q.dram_banks);
  EXPECT_EQ((*FindDevice("p150"))->params().l1_banks, 130);
  EXPECT_EQ((*FindDevice("p150"))->params().dram_alignment, 64);
  EXPECT_EQ(DefaultDevice().Summary(),
            "wormhole_n150 (Wormhole B0, 1 chip): 8x8 worker cores, 1499136 "
            "bytes of L1 each (1463968 for buffers), 12 DRAM banks of 1 GiB "
            "on 6 channels (12 GiB)");
  EXPECT_TRUE(absl::StrContains((*FindDevice("p150"))->Summary(),
                                "8 DRAM banks of 3.98 GiB on 8 channels"));
}

// [32, 2048, 1024] bfloat16 block sharded on 8x8: shards [8192, 128], 2 MiB
// per core, more than any of the four devices' L1.
TEST(DeviceTest, TwoMebibytesPerCoreDoNotFit) {
  for (const Device& d : KnownDevices()) {
    if (d.grid_y < 8) continue;
    const TensorSpec s = Block({32, 2048, 1024}, 8, 8, {8192, 128}, d);
    EXPECT_EQ(s.ConsumedBytesPerBank(), 2097152);
    const absl::StatusOr<FitReport> r = CheckFit(s, d);
    EXPECT_EQ(RuleOf(r), "device-l1") << d.name;
  }
  const Device& n150 = DefaultDevice();
  EXPECT_EQ(CheckFit(Block({32, 2048, 1024}, 8, 8, {8192, 128}, n150), n150)
                .status()
                .message(),
            "each core holds up to 2097152 bytes (1024 pages of 2048), more "
            "than the 1463968 bytes of its 1499136 bytes of L1 a "
            "wormhole_n150 core has for buffers");
}

TEST(DeviceTest, GridBeyondTheDevice) {
  const Device& n150 = DefaultDevice();
  const TensorSpec s = Block({320, 320}, 10, 10, {32, 32}, n150);
  const absl::StatusOr<FitReport> r = CheckFit(s, n150);
  EXPECT_EQ(RuleOf(r), "device-grid");
  EXPECT_EQ(r.status().message(),
            "the grid [(0,0)-(9,9)] reaches core (9,9), outside "
            "wormhole_n150's 8x8 worker grid (0,0)-(7,7)");
  // A p150's grid is 13x10: it fits there.
  const Device& p150 = **FindDevice("p150");
  EXPECT_EQ(RuleOf(CheckFit(Block({320, 320}, 10, 10, {32, 32}, p150), p150)),
            "ok");
  // An n300 chip has 8x7 worker cores: 8x8 does not fit, 8x7 does.
  const Device& n300 = **FindDevice("n300");
  EXPECT_EQ(RuleOf(CheckFit(Block({256, 256}, 8, 8, {32, 32}, n300), n300)),
            "device-grid");
  EXPECT_EQ(RuleOf(CheckFit(Block({224, 256}, 8, 7, {32, 32}, n300), n300)),
            "ok");
}

// The edge of the usable L1: up to 3/4 quiet, above it a warning, above
// the whole a refusal. Shards of [h, 32] bfloat16 tiles: h/32 pages of 2048.
TEST(DeviceTest, BorderlineWarnsAndTheEdgeIsExact) {
  const Device& n150 = DefaultDevice();
  const int64_t usable = n150.l1_usable_per_core;  // 714.8 pages of 2048
  for (int64_t pages : {1, 536, 537, 714, 715}) {
    const TensorSpec s = Block({pages * 32, 32}, 1, 1, {pages * 32, 32}, n150);
    const int64_t bytes = pages * 2048;
    ASSERT_EQ(s.ConsumedBytesPerBank(), bytes);
    const absl::StatusOr<FitReport> r = CheckFit(s, n150);
    EXPECT_EQ(r.ok(), bytes <= usable) << pages;
    if (r.ok()) {
      EXPECT_EQ(r->warnings.size(), bytes > usable / 4 * 3 ? 1u : 0u) << pages;
    }
  }
}

TEST(DeviceTest, Dram) {
  const Device& n150 = DefaultDevice();
  // 16 GiB of bfloat16 interleaved over 12 banks: 1.33 GiB a bank.
  TensorSpecInput in;
  in.shape = {8, 1024, 1024, 1024};
  absl::StatusOr<TensorSpec> big = TensorSpec::Make(in, n150.params());
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(RuleOf(CheckFit(*big, n150)), "device-dram");
  in.shape = {1, 1024, 1024};
  absl::StatusOr<TensorSpec> small = TensorSpec::Make(in, n150.params());
  absl::StatusOr<FitReport> r = CheckFit(*small, n150);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->warnings.empty());
  // A DRAM-sharded grid beyond the 12 banks is warned about, not refused.
  in.memory = MemoryConfig::Sharded(TensorMemoryLayout::kHeightSharded,
                                    BufferType::kDram,
                                    {*CoreRangeSet::Make({{{0, 0}, {7, 1}}}),
                                     {64, 1024},
                                     ShardOrientation::kRowMajor});
  absl::StatusOr<TensorSpec> dram = TensorSpec::Make(in, n150.params());
  ASSERT_TRUE(dram.ok()) << dram.status().message();
  r = CheckFit(*dram, n150);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_TRUE(absl::StrContains(r->warnings[0], "names DRAM banks"));
}

}  // namespace
}  // namespace hlolayout::ttnn

// A spec checked against a device and its answer in words (what `hlolayout
// ttnn spec` prints, moved here from the CLI).
#include "hlolayout/ttnn/spec_text.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/ttnn/refusal.h"
#include "hlolayout/ttnn/tensor_spec.h"

namespace hlolayout::ttnn {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

// A square tensor of `dim` block-sharded over cores x cores.
TensorSpecInput BlockSharded(int64_t cores, int64_t dim) {
  TensorSpecInput in;
  in.shape = {dim, dim};
  ShardSpec shard;
  shard.grid = *CoreRangeSet::Make({{{0, 0}, {cores - 1, cores - 1}}});
  shard.shape = {dim / cores, dim / cores};
  in.memory = MemoryConfig::Sharded(TensorMemoryLayout::kBlockSharded,
                                    BufferType::kL1, shard);
  return in;
}

TEST(SpecTextTest, SummaryNamesTypeShapeLayoutAndMemory) {
  TensorSpecInput in;
  in.shape = {272, 58};
  EXPECT_EQ(SpecSummary(in), "bfloat16[272, 58] TILE 32x32, DRAM INTERLEAVED");
  in.layout = Layout::kRowMajor;
  EXPECT_EQ(SpecSummary(in), "bfloat16[272, 58] ROW_MAJOR, DRAM INTERLEAVED");
}

TEST(SpecTextTest, DeviceLineSaysWhetherTheDeviceWasNamed) {
  DeviceChoice d;
  EXPECT_THAT(DeviceLine(d), StartsWith("wormhole_n150 (Wormhole B0, 1 chip)"));
  EXPECT_THAT(DeviceLine(d), HasSubstr("; the default (--device)"));
  d.named = true;
  EXPECT_THAT(DeviceLine(d), Not(HasSubstr("the default")));
  d.check_fit = false;
  EXPECT_EQ(DeviceLine(d),
            "none (--device none: no device check; the numbers of a "
            "wormhole_n150)");
}

TEST(SpecTextTest, CheckSpecRefusesWhatTheDeviceCannotHold) {
  DeviceChoice d;
  absl::StatusOr<CheckedSpec> c = CheckSpec(BlockSharded(10, 320), d);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(RefusalRule(c.status()), "device-grid");
  EXPECT_EQ(c.status().message(),
            "the grid [(0,0)-(9,9)] reaches core (9,9), outside "
            "wormhole_n150's 8x8 worker grid (0,0)-(7,7)");
  d.check_fit = false;  // tt-metal's TensorSpec alone takes it
  EXPECT_TRUE(CheckSpec(BlockSharded(10, 320), d).ok());
}

TEST(SpecTextTest, InterleavedTextEndsWithTheBankRule) {
  TensorSpecInput in;
  in.shape = {64, 64};
  DeviceChoice d;
  d.check_fit = false;
  const std::string text = SpecText(in, *CheckSpec(in, d), d, false);
  EXPECT_THAT(text, StartsWith("bfloat16[64, 64] TILE 32x32, DRAM "
                               "INTERLEAVED\ndevice            none"));
  EXPECT_THAT(text, HasSubstr("\npage              32x32, 2048 bytes; 4 "
                              "pages, 8192 bytes packed\n"));
  EXPECT_THAT(text, HasSubstr("\nbanks             page p in bank p mod 12, "
                              "at (p div 12) * 2048 bytes\n"));
}

TEST(SpecTextTest, ShardedTextListsCoresUpToSixteenUnlessFull) {
  const TensorSpecInput in = BlockSharded(8, 512);  // 64 cores of 64x64
  DeviceChoice d;
  const CheckedSpec c = *CheckSpec(in, d);
  const std::string some = SpecText(in, c, d, false);
  EXPECT_THAT(some, HasSubstr("shard spec        [64, 64] on "));
  EXPECT_THAT(some, HasSubstr("  ... 48 more cores (--full lists them)\n"));
  const std::string all = SpecText(in, c, d, true);
  EXPECT_THAT(all, HasSubstr("  core (7,7)"));
  EXPECT_THAT(all, Not(HasSubstr("more cores")));
}

}  // namespace
}  // namespace hlolayout::ttnn

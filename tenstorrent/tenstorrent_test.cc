// The shared Tenstorrent vocabulary on its own (the two models' tests cover
// it through them: ttnn/core_range_test.cc, ttnn/device_test.cc,
// ttmlir/ttmlir_attrs_test.cc).
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/tenstorrent/buffer.h"
#include "hlolayout/tenstorrent/core.h"
#include "hlolayout/tenstorrent/device.h"

namespace hlolayout::tenstorrent {
namespace {

TEST(CoreTest, NthCoreWalksRangeByRange) {
  const std::vector<CoreRange> ranges = {{{0, 0}, {1, 1}}, {{0, 2}, {0, 2}}};
  EXPECT_EQ(NthCore(ranges, /*row_wise=*/true, 1), (CoreCoord{1, 0}));
  EXPECT_EQ(NthCore(ranges, /*row_wise=*/false, 1), (CoreCoord{0, 1}));
  EXPECT_EQ(NthCore(ranges, /*row_wise=*/true, 3), (CoreCoord{1, 1}));
  EXPECT_EQ(NthCore(ranges, /*row_wise=*/true, 4), (CoreCoord{0, 2}));
  EXPECT_FALSE(NthCore(ranges, true, 5).has_value());
  EXPECT_FALSE(NthCore(ranges, true, -1).has_value());
  // Overlapping ranges are walked as written (tt-mlir's text may say so).
  EXPECT_EQ(NthCore({{{0, 0}, {0, 0}}, {{0, 0}, {0, 0}}}, true, 1),
            (CoreCoord{0, 0}));
  EXPECT_EQ(CoreName({3, 1}), "(3,1)");
  EXPECT_TRUE((CoreRange{{0, 0}, {2, 2}}).Intersects({{2, 2}, {3, 3}}));
  EXPECT_FALSE((CoreRange{{0, 0}, {2, 2}}).Intersects({{3, 0}, {3, 3}}));
}

TEST(BufferTest, NamesAndInterleavedPages) {
  EXPECT_EQ(BufferTypeName(BufferType::kL1Small), "L1_SMALL");
  EXPECT_EQ(MemoryLayoutName(TensorMemoryLayout::kBlockSharded),
            "BLOCK_SHARDED");
  EXPECT_EQ(AllBufferTypes().size(), 5u);
  EXPECT_EQ(AllMemoryLayouts().size(), 5u);
  EXPECT_FALSE(IsSharded(TensorMemoryLayout::kInterleaved));
  EXPECT_TRUE(IsSharded(TensorMemoryLayout::kNdSharded));
  EXPECT_EQ(InterleavedPage(13, 12), (BankPage{1, 1}));
  EXPECT_EQ(InterleavedPage(11, 12), (BankPage{11, 0}));
}

TEST(DeviceTest, DefaultIsAWormholeN150) {
  const Device& d = DefaultDevice();
  EXPECT_EQ(d.name, "wormhole_n150");
  EXPECT_EQ(d.grid_x, 8);
  EXPECT_EQ(d.grid_y, 8);
  EXPECT_EQ(d.dram_banks, 12);
  EXPECT_EQ(d.params().l1_banks, 64);
  EXPECT_EQ(*FindDevice("Blackhole-P150"), &KnownDevices()[3]);
  EXPECT_FALSE(FindDevice("n151x").ok());
}

}  // namespace
}  // namespace hlolayout::tenstorrent

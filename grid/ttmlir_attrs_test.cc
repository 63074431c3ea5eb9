#include "hlolayout/grid/ttmlir_attrs.h"

#include <vector>

#include "gtest/gtest.h"

namespace hlolayout::grid {
namespace {

TEST(TtmlirAttrs, NamesRoundTrip) {
  for (BufferType t :
       {BufferType::kDram, BufferType::kL1, BufferType::kSystemMemory,
        BufferType::kL1Small, BufferType::kTrace}) {
    EXPECT_EQ(BufferTypeFromName(BufferTypeName(t)), t);
  }
  EXPECT_FALSE(BufferTypeFromName("sram").has_value());
  EXPECT_TRUE(IsL1(BufferType::kL1Small));
  EXPECT_FALSE(IsL1(BufferType::kTrace));
  EXPECT_FALSE(IsDram(BufferType::kTrace));
  for (TtnnMemoryLayout l :
       {TtnnMemoryLayout::kInterleaved, TtnnMemoryLayout::kHeightSharded,
        TtnnMemoryLayout::kWidthSharded, TtnnMemoryLayout::kBlockSharded,
        TtnnMemoryLayout::kNdSharded}) {
    EXPECT_EQ(TtnnMemoryLayoutFromName(TtnnMemoryLayoutName(l)), l);
  }
  EXPECT_FALSE(IsSharded(TtnnMemoryLayout::kNdSharded));
  EXPECT_TRUE(IsSharded(TtnnMemoryLayout::kBlockSharded));
  EXPECT_EQ(MetalMemoryLayoutFromName("sharded"), MetalMemoryLayout::kSharded);
  EXPECT_FALSE(MetalMemoryLayoutFromName("block").has_value());
}

TEST(TtmlirAttrs, CoreOfRangesIsRowMajorPerRange) {
  const std::vector<CoreRange> ranges = {{{0, 0}, {7, 0}}, {{0, 1}, {3, 1}}};
  EXPECT_EQ(CoreOfRanges(ranges, 0), (CoreCoord{0, 0}));
  EXPECT_EQ(CoreOfRanges(ranges, 7), (CoreCoord{7, 0}));
  EXPECT_EQ(CoreOfRanges(ranges, 9), (CoreCoord{1, 1}));
  EXPECT_EQ(CoreOfRanges(ranges, 11), (CoreCoord{3, 1}));
  EXPECT_FALSE(CoreOfRanges(ranges, 12).has_value());
  EXPECT_FALSE(CoreOfRanges(ranges, -1).has_value());
  // A 2-D range: y outer, x inner.
  const std::vector<CoreRange> block = {{{1, 2}, {3, 4}}};
  EXPECT_EQ(CoreOfRanges(block, 4), (CoreCoord{2, 3}));
  EXPECT_EQ(CoreRangesToString(ranges),
            "<[#ttnn.core_range<(0,0), (7,0)>, #ttnn.core_range<(0,1), "
            "(3,1)>]>");
  EXPECT_EQ(CoreRangesToString({}), "<>");
}

TEST(TtmlirAttrs, Elements) {
  MlirElement bf16{ScalarType{BF16, false}, absl::nullopt};
  EXPECT_EQ(MlirElementToString(bf16), "bf16");
  EXPECT_EQ(MlirElementBytes(bf16), 2);
  MlirElement tile{ScalarType{BF16, false},
                   TileType{32, 32, TileDataType::kBfpBF8}};
  EXPECT_EQ(MlirElementToString(tile), "!ttcore.tile<32x32, bfp_bf8>");
  EXPECT_EQ(MlirElementBytes(tile), 1088);
}

TEST(TtmlirAttrs, ParseTtnnDevice) {
  absl::StatusOr<TtnnDevice> d = ParseTtnnDevice("10x12,dram=8");
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->worker_rows, 10);
  EXPECT_EQ(d->worker_cols, 12);
  EXPECT_EQ(d->dram_banks, 8);
  d = ParseTtnnDevice("8x8");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->dram_banks, 12);
  for (const char* bad :
       {"8y8", "8x", "0x8", "8x8,banks=2", "8x8,dram=0", "2000x1", ""}) {
    EXPECT_FALSE(ParseTtnnDevice(bad).ok()) << bad;
  }
}

}  // namespace
}  // namespace hlolayout::grid

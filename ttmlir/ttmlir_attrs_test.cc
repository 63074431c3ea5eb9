#include "hlolayout/ttmlir/ttmlir_attrs.h"

#include <vector>

#include "gtest/gtest.h"

namespace hlolayout::grid {
namespace {

TEST(TtmlirAttrs, NamesRoundTrip) {
  for (tenstorrent::BufferType t :
       {tenstorrent::BufferType::kDram, tenstorrent::BufferType::kL1,
        tenstorrent::BufferType::kSystemMemory,
        tenstorrent::BufferType::kL1Small, tenstorrent::BufferType::kTrace}) {
    EXPECT_EQ(BufferTypeFromMlirName(BufferTypeMlirName(t)), t);
  }
  EXPECT_FALSE(BufferTypeFromMlirName("sram").has_value());
  // tt-mlir's names are tt-metal's (tenstorrent/buffer.h), in lower case,
  // and only those: the upper-case spelling and prefixes are not tt-mlir text.
  EXPECT_EQ(BufferTypeMlirName(tenstorrent::BufferType::kSystemMemory),
            "system_memory");
  EXPECT_EQ(tenstorrent::BufferTypeName(tenstorrent::BufferType::kL1Small),
            "L1_SMALL");
  EXPECT_FALSE(BufferTypeFromMlirName("DRAM").has_value());
  EXPECT_FALSE(MemoryLayoutFromMlirName("HEIGHT_SHARDED").has_value());
  EXPECT_FALSE(MemoryLayoutFromMlirName("TensorMemoryLayout.height_sharded")
                   .has_value());
  EXPECT_EQ(tenstorrent::AllBufferTypes().size(), 5u);
  EXPECT_TRUE(IsL1(tenstorrent::BufferType::kL1Small));
  EXPECT_FALSE(IsL1(tenstorrent::BufferType::kTrace));
  EXPECT_FALSE(IsDram(tenstorrent::BufferType::kTrace));
  for (tenstorrent::TensorMemoryLayout l :
       {tenstorrent::TensorMemoryLayout::kInterleaved,
        tenstorrent::TensorMemoryLayout::kHeightSharded,
        tenstorrent::TensorMemoryLayout::kWidthSharded,
        tenstorrent::TensorMemoryLayout::kBlockSharded,
        tenstorrent::TensorMemoryLayout::kNdSharded}) {
    EXPECT_EQ(MemoryLayoutFromMlirName(MemoryLayoutMlirName(l)), l);
  }
  EXPECT_FALSE(IsShardedIn2D(tenstorrent::TensorMemoryLayout::kNdSharded));
  EXPECT_TRUE(IsShardedIn2D(tenstorrent::TensorMemoryLayout::kBlockSharded));
  EXPECT_EQ(MetalMemoryLayoutFromName("sharded"), MetalMemoryLayout::kSharded);
  EXPECT_FALSE(MetalMemoryLayoutFromName("block").has_value());
}

TEST(TtmlirAttrs, CoreOfRangesIsRowMajorPerRange) {
  const std::vector<tenstorrent::CoreRange> ranges = {{{0, 0}, {7, 0}},
                                                      {{0, 1}, {3, 1}}};
  EXPECT_EQ(CoreOfRanges(ranges, 0), (tenstorrent::CoreCoord{0, 0}));
  EXPECT_EQ(CoreOfRanges(ranges, 7), (tenstorrent::CoreCoord{7, 0}));
  EXPECT_EQ(CoreOfRanges(ranges, 9), (tenstorrent::CoreCoord{1, 1}));
  EXPECT_EQ(CoreOfRanges(ranges, 11), (tenstorrent::CoreCoord{3, 1}));
  EXPECT_FALSE(CoreOfRanges(ranges, 12).has_value());
  EXPECT_FALSE(CoreOfRanges(ranges, -1).has_value());
  // A 2-D range: y outer, x inner.
  const std::vector<tenstorrent::CoreRange> block = {{{1, 2}, {3, 4}}};
  EXPECT_EQ(CoreOfRanges(block, 4), (tenstorrent::CoreCoord{2, 3}));
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
  // The default: the TTNN model's default device, a Wormhole n150.
  const TtnnDevice n150;
  EXPECT_EQ(n150.worker_rows, 8);
  EXPECT_EQ(n150.worker_cols, 8);
  EXPECT_EQ(n150.dram_banks, 12);
  for (const char* bad :
       {"8y8", "8x", "0x8", "8x8,banks=2", "8x8,dram=0", "2000x1", ""}) {
    EXPECT_FALSE(ParseTtnnDevice(bad).ok()) << bad;
  }
}

}  // namespace
}  // namespace hlolayout::grid

// The picture of a TTNN spec with its title and the device's warnings
// (what `hlolayout ttnn draw` prints, moved here from the CLI).
#include "hlolayout/views/ttnn_drawing.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/draw/cell_grid.h"

namespace hlolayout::draw {
namespace {

using ::testing::HasSubstr;

// bfloat16[rows, 8192] in shards of shard_rows on cores (0,0)-(x, y).
ttnn::TensorSpecInput HeightSharded(int64_t rows, int64_t shard_rows,
                                    int64_t x = 7, int64_t y = 7) {
  ttnn::TensorSpecInput in;
  in.shape = {rows, 8192};
  ttnn::ShardSpec shard;
  shard.grid = *ttnn::CoreRangeSet::Make({{{0, 0}, {x, y}}});
  shard.shape = {shard_rows, 8192};
  in.memory = ttnn::MemoryConfig::Sharded(
      ttnn::TensorMemoryLayout::kHeightSharded, ttnn::BufferType::kL1, shard);
  return in;
}

TEST(TtnnDrawingTest, TitleNamesTheSpecAndDevice) {
  ttnn::TensorSpecInput in;
  in.shape = {64, 64};
  ttnn::DeviceChoice device;
  const ttnn::TensorSpec spec = *ttnn::TensorSpec::Make(in, device.params);
  const TtnnDrawing d = *DrawTtnnSpec(in, spec, device, absl::nullopt);
  EXPECT_EQ(d.title,
            "bfloat16[64, 64] TILE 32x32, DRAM INTERLEAVED on wormhole_n150");
  EXPECT_TRUE(d.warnings.empty());
  EXPECT_THAT(GridsToSvg(d.grids, d.title), HasSubstr("ttnn-page"));
}

TEST(TtnnDrawingTest, ASpecThatDoesNotFitIsDrawnSayingSo) {
  const ttnn::TensorSpecInput in = HeightSharded(8192, 128);  // 2 MiB a core
  ttnn::DeviceChoice device;
  const ttnn::TensorSpec spec = *ttnn::TensorSpec::Make(in, device.params);
  const TtnnDrawing d = *DrawTtnnSpec(in, spec, device, absl::nullopt);
  ASSERT_EQ(d.warnings.size(), 1u);
  EXPECT_THAT(d.warnings[0], HasSubstr("does not fit wormhole_n150: each core "
                                       "holds up to 2097152 bytes"));
  EXPECT_EQ(d.grids[0].notes.back(), "warning: " + d.warnings[0]);
  device.check_fit = false;
  EXPECT_TRUE(DrawTtnnSpec(in, spec, device, absl::nullopt)->warnings.empty());
}

TEST(TtnnDrawingTest, ACoreAddsItsPagesOrIsNotFound) {
  const ttnn::TensorSpecInput in = HeightSharded(256, 128, 1, 0);  // 2 cores
  ttnn::DeviceChoice device;
  const ttnn::TensorSpec spec = *ttnn::TensorSpec::Make(in, device.params);
  const size_t grids =
      DrawTtnnSpec(in, spec, device, absl::nullopt)->grids.size();
  EXPECT_EQ(DrawTtnnSpec(in, spec, device, ttnn::CoreCoord{1, 0})->grids.size(),
            grids + 1);
  EXPECT_EQ(*TtnnCoreIndex(spec, {1, 0}), 1);
  absl::StatusOr<TtnnDrawing> none =
      DrawTtnnSpec(in, spec, device, ttnn::CoreCoord{5, 5});
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().message(),
            "core (5,5) holds no shard of this tensor");
  ttnn::TensorSpecInput flat;
  flat.shape = {64, 64};
  EXPECT_EQ(
      TtnnCoreIndex(*ttnn::TensorSpec::Make(flat), {0, 0}).status().message(),
      "core (0,0): an interleaved tensor lies in banks, not on cores");
}

TEST(TtnnDrawingTest, ADerivedShardShapeIsInTheTitle) {
  ttnn::TensorSpecInput in = HeightSharded(8192, 0);
  in.derive_shard_shape = true;
  ttnn::DeviceChoice device;
  device.check_fit = false;
  const ttnn::TensorSpec spec = *ttnn::TensorSpec::Make(in, device.params);
  EXPECT_THAT(DrawTtnnSpec(in, spec, device, absl::nullopt)->title,
              HasSubstr("; shard shape derived: 128x8192"));
}

}  // namespace
}  // namespace hlolayout::draw

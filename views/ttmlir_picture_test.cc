#include "hlolayout/views/ttmlir_picture.h"

#include <string>

#include "gtest/gtest.h"
#include "hlolayout/draw/cell_grid.h"
#include "hlolayout/ttmlir/ttmlir_explain.h"

namespace hlolayout::draw {
namespace {

grid::GridAnalysis Analyze(const char* text) {
  absl::StatusOr<grid::GridAnalysis> a = grid::AnalyzeGridText(text);
  EXPECT_TRUE(a.ok()) << a.status();
  return *a;
}

TEST(TtmlirPicture, TtnnShardsAtTileScale) {
  const grid::GridAnalysis a = Analyze(
      "tensor<40x50xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <2x1>, "
      "memref<1x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>, "
      "<height_sharded>, core_ranges = <[#ttnn.core_range<(0,0), (1,0)>]>>>");
  absl::StatusOr<CellGrid> g = TtnnLayoutGrid(*a.ttnn, /*for_text=*/true);
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(g->heading,
            "l1 height_sharded, grid 2x1: 2 shards of 32x64 (1x2 tiles)");
  ASSERT_EQ(g->rows, 2);
  ASSERT_EQ(g->cols, 2);
  // Shard 0 holds rows 0-31, shard 1 rows 32-39 of its 32; columns 32-49
  // of the second tile column.
  EXPECT_EQ(g->cells[0].label, "0");
  EXPECT_EQ(g->cells[1].label, "0~");
  EXPECT_EQ(g->cells[2].label, "1~");
  EXPECT_DOUBLE_EQ(g->cells[3].fill, 8.0 * 18 / 1024);
  EXPECT_EQ(g->cells[3].title,
            "shard (1,0) on core (1,0), rows 32-63, columns 32-63: 14% "
            "elements");
}

TEST(TtmlirPicture, InterleavedPagesByBank) {
  const grid::GridAnalysis a = Analyze(
      "tensor<64x64xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, "
      "memref<2x2x!ttcore.tile<32x32, f32>, #ttnn.buffer_type<dram>>, "
      "<interleaved>>>");
  absl::StatusOr<CellGrid> g = TtnnLayoutGrid(*a.ttnn, /*for_text=*/false);
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(g->heading, "dram interleaved: 4 pages (tiles)");
  EXPECT_EQ(g->cells.back().title,
            "page 3 in DRAM bank 3, position (63,63): elements");
}

TEST(TtmlirPicture, MetalPaddingFromAlignments) {
  const grid::GridAnalysis a = Analyze(
      "tensor<1x1x6x8xf32, #ttcore.metal_layout<logical_shape = 5x7, "
      "dim_alignments = 3x8, collapsed_intervals = dense<> : "
      "tensor<0x2xi64>, l1, sharded>>");
  absl::StatusOr<CellGrid> g = MetalHeadLayoutGrid(*a.metal, true);
  ASSERT_TRUE(g.ok()) << g.status();
  ASSERT_EQ(g->rows, 6);
  ASSERT_EQ(g->cols, 8);
  int padding = 0;
  for (const GridCell& c : g->cells) padding += c.label == ".";
  EXPECT_EQ(padding, 48 - 35);
  EXPECT_EQ(g->cells[7].label, ".");
  EXPECT_EQ(g->cells[0].title,
            "shard (0,0) on core (0,0), position (0,0): elements");
}

}  // namespace
}  // namespace hlolayout::draw

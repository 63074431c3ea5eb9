// One tensor, two views (issue 39): a TTNN TensorSpec (ttnn/, as tt-metal
// computes it) and the `#ttnn.ttnn_layout` tt-mlir writes for the same
// tensor (ttmlir/ttnn_attr.h, as tt-mlir's builder computes it) agree: the
// shard shape, the grid and the cores, the memref (the shard in tiles), the
// page and shard bytes, and, walking every element, the core that holds it
// and its place in the shard (or, interleaved in DRAM, its page and bank).
//
// The correspondence (docs/ttnn.md, "tt-mlir"): tt-mlir's <height_sharded>
// on grid [M, 1] is TTNN HEIGHT_SHARDED with the shard tt-mlir derives
// (memref x tile) on the same core ranges, ROW_MAJOR; <width_sharded> on
// [1, M] is WIDTH_SHARDED; <block_sharded> on [gy, gx] is BLOCK_SHARDED on
// the rectangle (0,0)-(gx-1, gy-1); DRAM <interleaved> is INTERLEAVED.
// TtnnSpecInputOf (answers/ttmlir_ttnn.h) makes that spec; each case also
// writes it out by hand.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "hlolayout/answers/ttmlir_ttnn.h"
#include "hlolayout/ttmlir/ttmlir_parse.h"
#include "hlolayout/ttmlir/ttnn_attr.h"
#include "hlolayout/ttnn/locate.h"
#include "hlolayout/ttnn/tensor_spec.h"

namespace hlolayout {
namespace {

using V = std::vector<int64_t>;

struct Case {
  std::string mlir;  // the tt-mlir tensor type
  V shape;
  ttnn::DataType dtype;
  ttnn::MemoryConfig memory;
};

ttnn::CoreRangeSet Grid(std::vector<ttnn::CoreRange> r) {
  return *ttnn::CoreRangeSet::Make(std::move(r));
}

ttnn::MemoryConfig Sharded(ttnn::TensorMemoryLayout l, V shard,
                           ttnn::CoreRangeSet g) {
  return ttnn::MemoryConfig::Sharded(
      l, ttnn::BufferType::kL1,
      {std::move(g), {shard[0], shard[1]}, ttnn::ShardOrientation::kRowMajor});
}

std::vector<Case> Cases() {
  using ttnn::TensorMemoryLayout;
  return {
      {"tensor<128x2048xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x8>, "
       "memref<4x8x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>, "
       "<width_sharded>, core_ranges = <[#ttnn.core_range<(0,0), (7,0)>]>>>",
       {128, 2048},
       ttnn::DataType::kBfloat16,
       Sharded(TensorMemoryLayout::kWidthSharded, {128, 256},
               Grid({{{0, 0}, {7, 0}}}))},
      {"tensor<384x32xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <12x1>, "
       "memref<1x1x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>, "
       "<height_sharded>, core_ranges = <[#ttnn.core_range<(0,0), (7,0)>, "
       "#ttnn.core_range<(0,1), (3,1)>]>>>",
       {384, 32},
       ttnn::DataType::kBfloat16,
       Sharded(TensorMemoryLayout::kHeightSharded, {32, 32},
               Grid({{{0, 0}, {7, 0}}, {{0, 1}, {3, 1}}}))},
      {"tensor<256x384xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <4x3>, "
       "memref<2x4x!ttcore.tile<32x32, f32>, #ttnn.buffer_type<l1>>, "
       "<block_sharded>, core_ranges = <[#ttnn.core_range<(0,0), (2,3)>]>>>",
       {256, 384},
       ttnn::DataType::kFloat32,
       Sharded(TensorMemoryLayout::kBlockSharded, {64, 128},
               Grid({{{0, 0}, {2, 3}}}))},
      {"tensor<2x50x64xbf16, #ttnn.ttnn_layout<(d0, d1, d2) -> (d0 * 64 + d1, "
       "d2), <4x1>, memref<1x2x!ttcore.tile<32x32, bf16>, "
       "#ttnn.buffer_type<l1>>, <height_sharded>, core_ranges = "
       "<[#ttnn.core_range<(0,0), (3,0)>]>>>",
       {2, 50, 64},
       ttnn::DataType::kBfloat16,
       Sharded(TensorMemoryLayout::kHeightSharded, {32, 64},
               Grid({{{0, 0}, {3, 0}}}))},
      {"tensor<96x200xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <3x1>, "
       "memref<1x7x!ttcore.tile<32x32, bfp_bf8>, #ttnn.buffer_type<l1>>, "
       "<height_sharded>, core_ranges = <[#ttnn.core_range<(0,0), (2,0)>]>>>",
       {96, 200},
       ttnn::DataType::kBfloat8B,
       Sharded(TensorMemoryLayout::kHeightSharded, {32, 224},
               Grid({{{0, 0}, {2, 0}}}))},
      {"tensor<3x70x50xf32, #ttnn.ttnn_layout<(d0, d1, d2) -> (d0 * 96 + d1, "
       "d2), <1x1>, memref<9x2x!ttcore.tile<32x32, f32>, "
       "#ttnn.buffer_type<dram>>, <interleaved>>>",
       {3, 70, 50},
       ttnn::DataType::kFloat32,
       ttnn::MemoryConfig::Interleaved(ttnn::BufferType::kDram)},
  };
}

TEST(TtnnTwoViewsTest, TtMlirsLayoutAndTtMetalsSpecAgree) {
  int64_t elements = 0;
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.mlir);
    absl::StatusOr<grid::GridTensorText> text = grid::ParseGridTensor(c.mlir);
    ASSERT_TRUE(text.ok()) << text.status();
    absl::StatusOr<grid::TtnnLayoutAttr> mlir =
        grid::TtnnLayoutAttr::Build(text->shape, *text->ttnn);
    ASSERT_TRUE(mlir.ok()) << mlir.status();
    EXPECT_TRUE(mlir->warnings().empty()) << mlir->warnings()[0];
    // tt-mlir's layout describes its tensor in the TTNN model's terms: the
    // spec is made from what the layout says.
    absl::StatusOr<ttnn::TensorSpecInput> in = TtnnSpecInputOf(*mlir);
    ASSERT_TRUE(in.ok()) << in.status();
    EXPECT_EQ(in->shape, c.shape);
    EXPECT_EQ(in->dtype, c.dtype);
    EXPECT_EQ(in->layout, ttnn::Layout::kTile);
    EXPECT_EQ(in->tile, ttnn::Tile());
    EXPECT_EQ(in->memory.layout, c.memory.layout);
    EXPECT_EQ(in->memory.buffer_type, c.memory.buffer_type);
    EXPECT_EQ(in->memory.shard_spec, c.memory.shard_spec);
    absl::StatusOr<ttnn::TensorSpec> spec = ttnn::TensorSpec::Make(*in);
    ASSERT_TRUE(spec.ok()) << spec.status();

    // The tile-padded plane: tt-mlir's collapsed physical shape is TTNN's
    // physical shape.
    EXPECT_EQ(mlir->collapsed_shape(),
              (V{spec->physical_shape()[0], spec->physical_shape()[1]}));
    if (spec->sharded()) {
      const ttnn::ShardSpec& s = *spec->memory_config().shard_spec;
      // The shard, and the memref: the shard in tiles.
      EXPECT_EQ(mlir->physical_shard_shape(), (V{s.shape[0], s.shape[1]}));
      const ttnn::ShardSpecBuffer& b = *spec->shard_spec_buffer();
      EXPECT_EQ(mlir->memref_shape(),
                (V{b.shard_shape_in_pages[0], b.shard_shape_in_pages[1]}));
      // The grid: one shard per core, as many shards as tt-mlir's grid.
      const ttnn::BufferDistribution& d = *spec->distribution();
      EXPECT_EQ(mlir->num_shards(), d.num_shards());
      EXPECT_EQ(d.max_shards_per_core(), 1);
      // A shard's bytes: tt-mlir's memref, TTNN's pages per shard.
      EXPECT_EQ(mlir->shard_bytes(),
                b.num_pages_per_shard * spec->page_size_bytes());
    } else {
      EXPECT_EQ(mlir->num_pages(), spec->num_pages());
      EXPECT_EQ(mlir->page_bytes(), spec->page_size_bytes());
    }

    // Every element: the same core and place in the shard (sharded), or
    // the same page and DRAM bank (interleaved).
    V index(c.shape.size(), 0);
    while (true) {
      absl::StatusOr<grid::TtnnAttrLocation> a = mlir->Locate(index);
      absl::StatusOr<ttnn::ElementPlace> b = ttnn::Locate(*spec, index);
      ASSERT_TRUE(a.ok() && b.ok());
      if (spec->sharded()) {
        ASSERT_TRUE(a->core.has_value());
        ASSERT_EQ(a->core->x, b->core->x) << absl::StrCat(index[0]);
        ASSERT_EQ(a->core->y, b->core->y);
        const std::array<int64_t, 2> shard =
            spec->memory_config().shard_spec->shape;
        const int64_t tiles_across = shard[1] / 32;
        const V offset = {*b->device_page / tiles_across * 32 + b->in_page[0],
                          *b->device_page % tiles_across * 32 + b->in_page[1]};
        ASSERT_EQ(a->offset, offset);
      } else {
        ASSERT_EQ(*a->page, b->host_page);
        ASSERT_EQ(*a->dram_bank, *b->bank);
        ASSERT_EQ(*a->page_in_bank, *b->page_in_bank);
      }
      ++elements;
      int i = static_cast<int>(index.size()) - 1;
      for (; i >= 0 && ++index[i] == c.shape[i]; --i) index[i] = 0;
      if (i < 0) break;
    }
  }
  EXPECT_EQ(elements, 128 * 2048 + 384 * 32 + 256 * 384 + 2 * 50 * 64 +
                          96 * 200 + 3 * 70 * 50);
}

}  // namespace
}  // namespace hlolayout

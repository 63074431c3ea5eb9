#include "hlolayout/ttmlir/ttnn_attr.h"

#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "hlolayout/ttmlir/ttmlir_parse.h"

namespace hlolayout::grid {
namespace {

// The layout of `tensor<SHAPE x ELEM, #ttnn.ttnn_layout<MAP, <GRID>,
// memref<MEMREF, #ttnn.buffer_type<BUFFER>>REST>>`.
absl::StatusOr<TtnnLayoutAttr> Build(const std::string& text,
                                     const TtnnDevice& device = {}) {
  absl::StatusOr<GridTensorText> t = ParseGridTensor(text);
  if (!t.ok()) return t.status();
  return TtnnLayoutAttr::Build(t->shape, *t->ttnn, device);
}

std::string Text(absl::string_view shape, absl::string_view grid,
                 absl::string_view memref, absl::string_view buffer,
                 absl::string_view rest, absl::string_view map = "") {
  // A map that matches nothing in particular: the builder's is compared
  // separately.
  return absl::StrCat("tensor<", shape, ", #ttnn.ttnn_layout<",
                      map.empty() ? "(d0, d1) -> (d0, d1)" : map, ", <", grid,
                      ">, memref<", memref, ", #ttnn.buffer_type<", buffer,
                      ">>", rest, ">>");
}

TEST(TtnnLayoutAttr, DramInterleavedTiled) {
  absl::StatusOr<TtnnLayoutAttr> l = Build(Text(
      "1x1x30x32xbf16", "1x1", "1x1x!ttcore.tile<32x32, bf16>", "dram",
      ", <interleaved>", "(d0, d1, d2, d3) -> (d0 * 32 + d1 * 32 + d2, d3)"));
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(l->physical_shape(), (std::vector<int64_t>{1, 1, 32, 32}));
  EXPECT_EQ(l->linear().ToString(),
            "(d0, d1, d2, d3) -> (d0 * 32 + d1 * 32 + d2, d3)");
  EXPECT_EQ(l->collapsed_shape(), (std::vector<int64_t>{32, 32}));
  EXPECT_EQ(l->memref_shape(), (std::vector<int64_t>{1, 1}));
  EXPECT_TRUE(l->warnings().empty());
  EXPECT_EQ(l->padding().tile_padding, 64);
  EXPECT_EQ(l->MemrefText(),
            "memref<1x1x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>");
  // Row-major: no padding, the map joins the real dims.
  l = Build(Text("1x1x30x32xbf16", "1x1", "30x32xbf16", "dram",
                 ", <interleaved>",
                 "(d0, d1, d2, d3) -> (d0 * 30 + d1 * 30 + d2, d3)"));
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(l->linear().ToString(),
            "(d0, d1, d2, d3) -> (d0 * 30 + d1 * 30 + d2, d3)");
  EXPECT_TRUE(l->warnings().empty());
}

TEST(TtnnLayoutAttr, L1InterleavedSpreadsTilesOverAllCores) {
  // tt-mlir's own examples (calculateLogicalShardShapeForL1Interleaved) on
  // an 8x8 grid.
  struct Case {
    const char* shape;
    const char* memref;  // what the builder writes
  };
  const Case tiled[] = {
      {"1x1024xbf16", "1x1"}, {"512x512xbf16", "1x4"}, {"32x2049xbf16", "1x2"}};
  for (const Case& c : tiled) {
    absl::StatusOr<TtnnLayoutAttr> l = Build(Text(
        c.shape, "8x8", absl::StrCat(c.memref, "x!ttcore.tile<32x32, bf16>"),
        "l1", ", <interleaved>"));
    ASSERT_TRUE(l.ok()) << l.status();
    EXPECT_EQ(DimsToString(l->memref_shape()), c.memref) << c.shape;
    EXPECT_TRUE(l->warnings().empty()) << l->warnings()[0];
  }
  const Case row_major[] = {{"1x1024xbf16", "1x16"},
                            {"512x512xbf16", "1x4096"},
                            {"32x2049xbf16", "1x1025"}};
  for (const Case& c : row_major) {
    absl::StatusOr<TtnnLayoutAttr> l =
        Build(Text(c.shape, "8x8", absl::StrCat(c.memref, "xbf16"), "l1",
                   ", <interleaved>"));
    ASSERT_TRUE(l.ok()) << l.status();
    EXPECT_EQ(DimsToString(l->memref_shape()), c.memref) << c.shape;
  }
  // The per-dim split is named in the warning.
  absl::StatusOr<TtnnLayoutAttr> l =
      Build(Text("4096x512xbf16", "1x1", "128x16x!ttcore.tile<32x32, bf16>",
                 "l1", ", <interleaved>"));
  ASSERT_TRUE(l.ok()) << l.status();
  ASSERT_EQ(l->warnings().size(), 1u);
  EXPECT_EQ(l->warnings()[0],
            "the written memref 128x16 is not the builder's 1x2048 (tiles); "
            "the text splits each dim by the grid, but for L1 interleaved the "
            "builder spreads all tiles over the 1 cores");
}

TEST(TtnnLayoutAttr, ShardingAndCanonicalPlacement) {
  // 12 height shards on an 8-wide worker grid: a full row and a tail.
  absl::StatusOr<TtnnLayoutAttr> l =
      Build(Text("384x32xbf16", "12x1", "1x1x!ttcore.tile<32x32, bf16>", "l1",
                 ", <height_sharded>, core_ranges = <[#ttnn.core_range<(0,0), "
                 "(7,0)>, #ttnn.core_range<(0,1), (3,1)>]>"));
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(CoreRangesToString(*l->canonical_core_ranges()),
            "<[#ttnn.core_range<(0,0), (7,0)>, #ttnn.core_range<(0,1), "
            "(3,1)>]>");
  EXPECT_TRUE(l->warnings().empty());
  absl::StatusOr<TtnnAttrLocation> loc = l->Locate({300, 5});
  ASSERT_TRUE(loc.ok());
  EXPECT_EQ(loc->shard, (std::vector<int64_t>{9, 0}));
  EXPECT_EQ(loc->offset, (std::vector<int64_t>{12, 5}));
  EXPECT_EQ(loc->core, (tenstorrent::CoreCoord{1, 1}));
  // Block sharding: identity; the text's ranges are kept when they differ.
  l = Build(Text("64x64xf32", "1x1", "2x2x!ttcore.tile<32x32, f32>", "l1",
                 ", <block_sharded>, core_ranges = "
                 "#ttnn.core_range_set<[#ttnn.core_range<(1, 1), (1, 1)>]>"));
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(CoreRangesToString(*l->canonical_core_ranges()),
            "<[#ttnn.core_range<(0,0), (0,0)>]>");
  EXPECT_EQ(l->Locate({5, 5})->core, (tenstorrent::CoreCoord{1, 1}));
  EXPECT_TRUE(l->warnings().empty());
  EXPECT_EQ(l->notes().size(), 1u);
  // DRAM sharding: banks.
  l = Build(Text("32x384xbf16", "1x12", "32x32xbf16", "dram",
                 ", <width_sharded>, core_ranges = <[#ttnn.core_range<(0,0), "
                 "(11,0)>]>"));
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(l->Locate({12, 189})->dram_bank, 5);
  // A legacy virtual grid: the builder divides per dim and says so.
  l = Build(Text("384x32xbf16", "6x2", "1x1x!ttcore.tile<32x32, bf16>", "l1",
                 ", <height_sharded>, core_ranges = "
                 "<[#ttnn.core_range<(0, 0), (1, 5)>]>"));
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(DimsToString(l->memref_shape()), "2x1");
  EXPECT_FALSE(l->canonical_core_ranges().has_value());
  ASSERT_EQ(l->warnings().size(), 2u);
  EXPECT_EQ(l->warnings()[0],
            "the written memref 1x1 is not the builder's 2x1 (tiles); the text "
            "reads grid 6x2 as the virtual grid 12x1 (tt-mlir's legacy "
            "convention), the builder divides per grid dim");
  EXPECT_EQ(l->warnings()[1],
            "tt-mlir's canonical core placement refuses grid 6x2: "
            "HeightSharded expects [M, 1] shard grid");
  EXPECT_EQ(l->Locate({383, 31})->core, (tenstorrent::CoreCoord{0, 5}));
  // A smaller device moves the tail.
  l = Build(Text("384x32xbf16", "12x1", "1x1x!ttcore.tile<32x32, bf16>", "l1",
                 ", <height_sharded>, ignorePhysicalLayout = true"),
            TtnnDevice{4, 5, 12});
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(CoreRangesToString(l->core_ranges()),
            "<[#ttnn.core_range<(0,0), (4,1)>, #ttnn.core_range<(0,2), "
            "(1,2)>]>");
}

TEST(TtnnLayoutAttr, VerifierRefusals) {
  struct Case {
    std::string text;
    const char* message;
  };
  const Case cases[] = {
      {Text("32x32xf32", "8x8", "1x1x!ttcore.tile<32x32, f32>", "dram",
            ", <interleaved>"),
       "tt-mlir's verifier refuses this layout: expected (1, 1) grid shape "
       "for dram buffer type with interleaved memory layout, got (8, 8)"},
      {Text("32x32xf32", "3x4", "32x32xf32", "system_memory", ""),
       "tt-mlir's verifier refuses this layout: expected (1, 1) grid shape "
       "for system_memory buffer type, got (3, 4)"},
      {Text("32x32xf32", "1x1", "32x32xf32", "system_memory",
            ", <interleaved>"),
       "tt-mlir's verifier refuses this layout: Memory layout is not allowed "
       "for SystemMemory buffer type."},
      {Text("32x32xf32", "1x1", "32x32xf32", "l1", ""),
       "tt-mlir's verifier refuses this layout: Memory layout is required "
       "for non-SystemMemory buffer type."},
      {Text("32x32xf32", "2x4", "16x8xf32", "dram", ", <block_sharded>"),
       "tt-mlir's verifier refuses this layout: BlockSharded layout is not "
       "supported for DRAM buffer type; use WidthSharded, HeightSharded or "
       "Interleaved"},
      {Text("32x32xf32", "1x8", "32x4xf32", "dram", ", <width_sharded>"),
       "tt-mlir's verifier refuses this layout: sharded TTNN layout "
       "(width_sharded) must carry a core_range_set"},
      {Text("32x32xf32", "1x1", "32x32xf32", "dram",
            ", <interleaved>, core_ranges = <[#ttnn.core_range<(0,0), "
            "(0,0)>]>"),
       "tt-mlir's verifier refuses this layout: non-sharded TTNN layout must "
       "not carry a core_range_set (got interleaved)"},
      {Text("32x32xf32", "1x1x1", "32x32xf32", "l1", ", <interleaved>"),
       "the grid has rank 3; TTNN grids have rank 2 (the 2-D worker grid)"},
      {Text("32x32xf32", "0x1", "32x32xf32", "l1", ", <interleaved>"),
       "grid dim 0 is 0"},
  };
  for (const Case& c : cases) {
    absl::StatusOr<TtnnLayoutAttr> l = Build(c.text);
    ASSERT_FALSE(l.ok()) << c.text;
    EXPECT_EQ(l.status().message(), c.message);
  }
}

TEST(TtnnLayoutAttr, MapWarnings) {
  absl::StatusOr<TtnnLayoutAttr> l = Build(Text(
      "1x1x32x32xf32", "1x1", "1x1x!ttcore.tile<32x32, f32>", "dram",
      ", <interleaved>", "(d0, d1, d2, d3) -> (d0 * 1024 + d1 * 32 + d2, d3)"));
  ASSERT_TRUE(l.ok());
  ASSERT_EQ(l->warnings().size(), 1u);
  EXPECT_EQ(l->warnings()[0],
            "the written map (d0, d1, d2, d3) -> (d0 * 1024 + d1 * 32 + d2, "
            "d3) differs from the builder's (d0, d1, d2, d3) -> (d0 * 32 + d1 "
            "* 32 + d2, d3) only in coefficients of size-1 dims (the same on "
            "every index)");
  l = Build(Text("32xf32", "1x1", "1x1x!ttcore.tile<32x32, f32>", "dram",
                 ", <interleaved>"));
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(l->warnings()[0],
            "the written map has 2 input dims but the tensor has rank 1; the "
            "builder writes (d0) -> (0, d0)");
  l = Build(Text("1x1x1x64xbf16", "1x1", "1x2x!ttcore.tile<32x32, bf16>", "l1",
                 ", <interleaved>", "(d0, d1, d2, d3) -> (d0, d1, d2, d3)"));
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(l->warnings()[0],
            "the written map (d0, d1, d2, d3) -> (d0, d1, d2, d3) has 4 "
            "results; the builder collapses to 2: (d0, d1, d2, d3) -> (d0 * "
            "32 + d1 * 32 + d2, d3)");
}

// Every element of small layouts lands in exactly one place inside the
// allocation, the per-shard counts add up, and the valid rows and columns
// are the images of the indices.
TEST(TtnnLayoutAttr, LocateIsOneToOne) {
  const std::vector<std::vector<int64_t>> shapes = {
      {}, {5}, {40}, {3, 5}, {33, 40}, {2, 3, 5}, {2, 40, 7}, {1, 2, 3, 4}};
  const char* layouts[] = {"system_memory:",         "dram:, <interleaved>",
                           "l1:, <interleaved>",     "l1:, <height_sharded>",
                           "l1:, <width_sharded>",   "l1:, <block_sharded>",
                           "dram:, <width_sharded>", "dram:, <height_sharded>"};
  const std::vector<std::vector<int64_t>> grids = {
      {1, 1}, {2, 3}, {3, 1}, {1, 3}};
  int built = 0;
  for (const std::vector<int64_t>& shape : shapes) {
    for (bool tiled : {false, true}) {
      for (const char* spec : layouts) {
        for (const std::vector<int64_t>& g : grids) {
          const std::string s(spec);
          const std::string buffer = s.substr(0, s.find(':'));
          const std::string rest = s.substr(s.find(':') + 1);
          TtnnLayoutText text;
          text.map = AffineMap::Identity(static_cast<int64_t>(shape.size()));
          text.grid = g;
          text.memref_shape = {1, 1};
          text.memref_element.scalar = ScalarType{F32, false};
          if (tiled)
            text.memref_element.tile = TileType{32, 32, TileDataType::kF32};
          text.buffer_type = *BufferTypeFromMlirName(buffer);
          if (!rest.empty()) {
            text.mem_layout =
                MemoryLayoutFromMlirName(rest.substr(3, rest.size() - 4));
          }
          text.ignore_physical_layout = true;
          absl::StatusOr<TtnnLayoutAttr> l = TtnnLayoutAttr::Build(shape, text);
          if (!l.ok()) continue;  // a grid the verifier refuses
          ++built;
          int64_t volume = 1;
          for (int64_t d : shape) volume *= d;
          std::set<std::tuple<int64_t, int64_t, int64_t, int64_t>> seen;
          std::vector<int64_t> index(shape.size(), 0);
          for (int64_t k = 0; k < volume; ++k) {
            int64_t rest_k = k;
            for (size_t d = shape.size(); d-- > 0;) {
              index[d] = rest_k % shape[d];
              rest_k /= shape[d];
            }
            absl::StatusOr<TtnnAttrLocation> loc = l->Locate(index);
            ASSERT_TRUE(loc.ok()) << loc.status();
            EXPECT_LT(loc->physical[0], l->collapsed_shape()[0]);
            EXPECT_LT(loc->physical[1], l->collapsed_shape()[1]);
            if (l->sharded()) {
              EXPECT_LT(loc->shard[0], l->grid()[0]);
              EXPECT_LT(loc->shard[1], l->grid()[1]);
              seen.insert({loc->shard[0], loc->shard[1], loc->offset[0],
                           loc->offset[1]});
            } else {
              EXPECT_LT(*loc->page, l->num_pages());
              seen.insert({loc->physical[0], loc->physical[1], 0, 0});
            }
          }
          EXPECT_EQ(static_cast<int64_t>(seen.size()), volume);
          EXPECT_EQ(l->padding().logical, volume);
          EXPECT_GE(l->padding().allocated, volume);
          if (l->sharded()) {
            int64_t sum = 0;
            for (int64_t y = 0; y < l->grid()[0]; ++y) {
              for (int64_t x = 0; x < l->grid()[1]; ++x) {
                sum += *l->ShardElements(y, x);
              }
            }
            EXPECT_EQ(sum, volume) << DimsToString(shape);
          }
          EXPECT_EQ(l->ValidRowsBelow(l->collapsed_shape()[0]) *
                        l->ValidColsBelow(l->collapsed_shape()[1]),
                    volume);
        }
      }
    }
  }
  EXPECT_GT(built, 300);
}

TEST(TtnnLayoutAttr, EmptyTensor) {
  absl::StatusOr<TtnnLayoutAttr> l =
      Build(Text("0x64xbf16", "1x1", "1x1x!ttcore.tile<32x32, bf16>", "dram",
                 ", <interleaved>"));
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(DimsToString(l->memref_shape()), "0x2");
  EXPECT_EQ(l->padding().allocated, 0);
  EXPECT_FALSE(l->Locate({0, 0}).ok());
}

TEST(TtnnLayoutAttr, LocateErrors) {
  absl::StatusOr<TtnnLayoutAttr> l =
      Build(Text("32x32xf32", "1x1", "1x1x!ttcore.tile<32x32, f32>", "dram",
                 ", <interleaved>"));
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(l->Locate({32, 0}).status().message(),
            "index 32 is out of bounds for dim 0 of size 32");
  EXPECT_EQ(l->Locate({1}).status().message(),
            "index has 1 values but the tensor has rank 2");
  absl::StatusOr<TtnnAttrLocation> loc = l->Locate({31, 31});
  ASSERT_TRUE(loc.ok());
  EXPECT_EQ(loc->page, 0);
  EXPECT_EQ(loc->dram_bank, 0);
}

}  // namespace
}  // namespace hlolayout::grid

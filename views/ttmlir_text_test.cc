#include "hlolayout/views/ttmlir_text.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "hlolayout/answers/ttmlir.h"
#include "hlolayout/testing/ttmlir_layouts.h"
#include "hlolayout/ttmlir/explain.h"
#include "hlolayout/ttmlir/metal_layout.h"
#include "hlolayout/ttmlir/print.h"
#include "hlolayout/ttmlir/ttmlir_explain.h"
#include "hlolayout/ttmlir/ttmlir_parse.h"

namespace hlolayout::grid {
namespace {

MetalLayout Parse(absl::string_view text) {
  absl::StatusOr<MetalLayout> l = ParseTensorType(text);
  EXPECT_TRUE(l.ok()) << l.status();
  return *std::move(l);
}

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Each form's text is that form's renderer: the dispatch picks the form.
TEST(TtmlirText, ExplainAndLocatePickTheForm) {
  for (const char* text :
       {kTestTtnnLayout, kTestMetalLayout, kTestSeedMetalLayout}) {
    absl::StatusOr<GridAnalysis> a = AnalyzeGridText(text);
    ASSERT_TRUE(a.ok()) << a.status();
    const std::string expected_text =
        a->ttnn    ? FormatTtnnExplanation(*a)
        : a->metal ? FormatMetalExplanation(*a)
                   : FormatGridExplanation(ExplainGridLayout(*a->text.seed));
    EXPECT_EQ(ExplainText(*a), expected_text);
    EXPECT_TRUE(LocateText(*a, {1, 2}).ok());
    EXPECT_FALSE(LocateText(*a, {100000, 0}).ok()) << text;
  }
}

TEST(TtmlirText, LocateTextNamesTheCore) {
  absl::StatusOr<GridAnalysis> a = AnalyzeGridText(kTestTtnnLayout);
  ASSERT_TRUE(a.ok()) << a.status();
  absl::StatusOr<std::string> located = LocateText(*a, {2, 1541});
  ASSERT_TRUE(located.ok()) << located.status();
  EXPECT_NE(located->find("core:            3,0 (x,y)\n"), std::string::npos)
      << *located;
}

// The batch answer: one line of key=value pairs, as `hlolayout batch`
// writes for grid-locate.
TEST(TtmlirText, LocateBatchTextIsOneLine) {
  absl::StatusOr<GridAnalysis> ttnn = AnalyzeGridText(kTestTtnnLayout);
  ASSERT_TRUE(ttnn.ok()) << ttnn.status();
  absl::StatusOr<LocationAnswer> t = AnswerLocate(*ttnn, {2, 1541});
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(LocateBatchText(*t),
            "shard=0,3 offset=2,5 tile=0,48 in_tile=2,5 core=3,0");
  EXPECT_EQ(ShardBatchText(*ttnn), "1x16");
  absl::StatusOr<GridAnalysis> metal = AnalyzeGridText(kTestMetalLayout);
  ASSERT_TRUE(metal.ok()) << metal.status();
  absl::StatusOr<LocationAnswer> m = AnswerLocate(*metal, {100, 300});
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(LocateBatchText(*m),
            "shard=1,4 offset=36,44 offset_tile=1,1 core=4,1");
  EXPECT_FALSE(AnswerLocate(*metal, {100000, 0}).ok());
}

// The seed form's batch lines (were GridShardAnswer and GridLocateAnswer
// in ttmlir/explain.cc): the request's index is read, the answer located,
// the line its view.
absl::StatusOr<std::string> SeedLocate(absl::string_view tensor,
                                       absl::string_view index_text) {
  absl::StatusOr<GridAnalysis> a = AnalyzeGridText(tensor);
  EXPECT_TRUE(a.ok()) << a.status();
  absl::StatusOr<std::vector<int64_t>> index = ParseIndexList(index_text);
  if (!index.ok()) return index.status();
  absl::StatusOr<LocationAnswer> answer = AnswerLocate(*a, *index);
  if (!answer.ok()) return answer.status();
  return LocateBatchText(*answer);
}

std::string SeedShard(absl::string_view tensor) {
  absl::StatusOr<GridAnalysis> a = AnalyzeGridText(tensor);
  EXPECT_TRUE(a.ok()) << a.status();
  return ShardBatchText(*a);
}

TEST(TtmlirText, SeedShardLines) {
  EXPECT_EQ(SeedShard(kTestSeedScalarLayout), "18x32");
  EXPECT_EQ(SeedShard(kTestSeedTiledLayout), "1x1");
  EXPECT_EQ(SeedShard(kTestSeedMultiDeviceLayout), "1x3x1");
}

TEST(TtmlirText, SeedLocateLines) {
  EXPECT_EQ(*SeedLocate((kTestSeedScalarLayout), "20,40"),
            "core=1,1 offset=2,8");
  EXPECT_EQ(*SeedLocate((kTestSeedTiledLayout), "20,40"),
            "core=1,1 offset=2,8 tile=0,0 in_tile=2,8");
  EXPECT_EQ(*SeedLocate((kTestSeedTiledLayout), "52, 62"),
            "core=2,1 offset=16,30 tile=0,0 in_tile=16,30");
  EXPECT_EQ(*SeedLocate((kTestSeedMultiDeviceLayout), "1,2,10,127"),
            "core=1,1,3 offset=0,42,31 tile=0,1,0 in_tile=10,31");
  EXPECT_EQ(SeedLocate((kTestSeedTiledLayout), "53,0").status().message(),
            "index 53 is out of bounds for dim 0 of size 53");
  EXPECT_EQ(SeedLocate((kTestSeedTiledLayout), "1,x").status().message(),
            "bad index value 'x'");
  EXPECT_EQ(SeedLocate((kTestSeedTiledLayout), "1").status().message(),
            "index has 1 values but the tensor has rank 2");
  EXPECT_EQ(SeedLocate((kTestSeedTiledLayout), "1,99999999999999999999")
                .status()
                .message(),
            "bad index value '99999999999999999999'");
}

TEST(TtmlirText, SeedPaddingExampleText) {
  GridExplanation e = ExplainGridLayout(Parse(kTestSeedTiledLayout));
  EXPECT_EQ(FormatGridExplanation(e),
            "tensor:          tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> "
            "(d0, d1), undef, <3x2>, memref<1x1x!tt.tile<32 x 32, bfp_bf8>, "
            "#tt.memory_space<l1>>>>\n"
            "logical shape:   53x63 f32 (3339 elements, 4 bytes each)\n"
            "map:             (d0, d1) -> (d0, d1)\n"
            "collapsed:       53x63 (map at the last index, plus 1)\n"
            "grid:            3x2 (6 cores)\n"
            "shard:           18x32 scalars (ceilDiv of the collapsed shape "
            "by the grid)\n"
            "tile:            !tt.tile<32 x 32, bfp_bf8>, 1088 bytes\n"
            "physical shard:  32x32 scalars (shard padded to whole tiles), 1 "
            "tile per shard\n"
            "memref:          memref<1x1x!tt.tile<32 x 32, bfp_bf8>, "
            "#tt.memory_space<l1>>\n"
            "memory space:    l1 (DeviceL1)\n"
            "oob_val:         undef\n"
            "padding by dim:  dim 0: 14,14,15; dim 1: 0,1 (positions per "
            "core, by core index along the dim)\n"
            "padding per core:\n"
            "  core 0,0: 576 elements, 448 padding\n"
            "  core 0,1: 558 elements, 466 padding\n"
            "  core 1,0: 576 elements, 448 padding\n"
            "  core 1,1: 558 elements, 466 padding\n"
            "  core 2,0: 544 elements, 480 padding\n"
            "  core 2,1: 527 elements, 497 padding\n"
            "padding-only:    0 cores\n"
            "padding total:   2805 of 6144 positions\n"
            "bytes:           1088 per shard, 6528 total\n");
}

TEST(TtmlirText, SeedExplanationTruncates) {
  const std::string text = FormatGridExplanation(
      ExplainGridLayout(Parse(kTestSeedMultiDeviceLayout)), 3);
  EXPECT_NE(text.find("devices:         2 (outer grid dims), 2x4 cores each"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  ... (13 more cores)\n"), std::string::npos) << text;
}

TEST(TtmlirText, SeedLocateText) {
  MetalLayout l = Parse(kTestSeedMultiDeviceLayout);
  const std::vector<int64_t> index = {1, 2, 10, 127};
  EXPECT_EQ(FormatElementLocation(l, index, l.Locate(index)),
            "index:        1,2,10,127\n"
            "collapsed:    1,138,127\n"
            "core:         1,1,3 (device 1, core 1,3)\n"
            "offset:       0,42,31 (in the 1x96x32 shard)\n"
            "tile:         0,1,0 (memref index, of 1x3x1)\n"
            "in tile:      10,31 (in 32x32)\n"
            "byte offset:  1088 (start of the tile in the shard)\n");
}

TEST(TtmlirText, CollapseText) {
  auto l = BuildCollapsedLayout("2x3x4x5x6x7x8xbf16", "2x1x3x2",
                                "(0,3),(-3,-1)", "");
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(FormatCollapse(*l, "(0,3),(-3,-1)"),
            "joined:  (d0, d1, d2, d3, d4, d5, d6) -> (d0 <> d1 <> d2, d3, d4 "
            "<> d5, d6)\n"
            "map:     (d0, d1, d2, d3, d4, d5, d6) -> (d0 * 12 + d1 * 4 + d2, "
            "d3, d4 * 7 + d5, d6)\n"
            "tensor:  tensor<2x3x4x5x6x7x8xbf16, #tt.metal_layout<(d0, d1, d2, "
            "d3, d4, d5, d6) -> (d0 * 12 + d1 * 4 + d2, d3, d4 * 7 + d5, d6), "
            "undef, <2x1x3x2>, memref<12x5x14x4xbf16, "
            "#tt.memory_space<l1>>>>\n");
}

TEST(TtmlirText, TtnnExplanationWithAliases) {
  absl::StatusOr<GridAnalysis> a = AnalyzeGridText(kTestTtnnAliasedLayout);
  ASSERT_TRUE(a.ok()) << a.status();
  const std::string text = FormatTtnnExplanation(*a, 3);
  EXPECT_TRUE(Has(text, "grid:            12x1 (12 shards)\n")) << text;
  EXPECT_TRUE(Has(text, "cores:           (0,0)-(7,0), (0,1)-(3,1) (written)"))
      << text;
  EXPECT_TRUE(Has(text,
                  "  shard 2,0 (core (2,0)): 1024 elements, 0 padding\n"
                  "  ... (9 more)\n"))
      << text;
}

TEST(TtmlirText, MetalAndLocations) {
  absl::StatusOr<GridAnalysis> a = AnalyzeGridText(
      "tensor<2x6x2x2x!ttcore.tile<32x32, f32>, #ttcore.metal_layout<"
      "logical_shape = 128x380, dim_alignments = 32x32, collapsed_intervals = "
      "dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>>");
  ASSERT_TRUE(a.ok()) << a.status();
  const std::string text = FormatMetalExplanation(*a);
  EXPECT_TRUE(Has(text, "physical shape:  128x384 = 4x12 tiles\n")) << text;
  EXPECT_TRUE(Has(text, "device shape:    2x6x2x2\n")) << text;
  EXPECT_TRUE(Has(text, "  shard 1,5: 3840 elements, 256 padding\n")) << text;
  absl::StatusOr<MetalLocation> loc = a->metal->Locate({127, 379});
  ASSERT_TRUE(loc.ok());
  EXPECT_EQ(FormatMetalLocation(*a->metal, {127, 379}, *loc),
            "index:           127,379\n"
            "physical:        127,379\n"
            "shard:           1,5\n"
            "offset:          63,59 (in the 64x64 shard)\n"
            "offset tile:     1,1\n"
            "offset in tile:  31,27\n"
            "core:            5,1 (x,y)\n");
  EXPECT_EQ(CoreRangesShort({{{0, 0}, {0, 0}}, {{1, 0}, {3, 2}}}),
            "(0,0), (1,0)-(3,2)");
}

TEST(TtmlirText, ReportCountsThenListsEachType) {
  const std::string file = std::string("#l1 = #ttnn.buffer_type<l1>\n") +
                           "func.func @f(%a: " + kTestTtnnLayout + ") {\n}\n" +
                           "func.func @f(%a: tensor<32x32xf32, "
                           "#ttnn.ttnn_layout<(d0, d1) -> (d0, d1) <1x1>>>)\n";
  absl::StatusOr<GridReport> r = ReadGridReport(file, "r.mlir", {});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(FormatGridReport(*r),
            std::string("file: r.mlir\n"
                        "2 tensor types with a layout (1 section, 1 alias "
                        "definitions): 1 as written, 0 with warnings, 0 "
                        "refused, 1 unread\n"
                        "\n"
                        "1. line 2: ") +
                kTestTtnnLayout +
                "\n   ttnn_layout, l1 width_sharded, tiled, grid 1x8: "
                "memref<1x16x!ttcore.tile<32x32, bf16>, "
                "#ttnn.buffer_type<l1>> (as written)\n"
                "\n"
                "2. line 4: tensor<32x32xf32, #ttnn.ttnn_layout<(d0, d1) -> "
                "(d0, d1) <1x1>>>\n"
                "   not read: 4:75: expected ',' after the map, found '<'\n");
}

}  // namespace
}  // namespace hlolayout::grid

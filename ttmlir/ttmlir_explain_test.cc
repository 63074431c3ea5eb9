#include "hlolayout/ttmlir/ttmlir_explain.h"

#include <string>

#include "gtest/gtest.h"

namespace hlolayout::grid {
namespace {

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(AnalyzeGridText, TtnnWithAliases) {
  absl::StatusOr<GridAnalysis> a = AnalyzeGridText(
      "#l1 = #ttnn.buffer_type<l1>\n"
      "tensor<384x32xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <12x1>, "
      "memref<1x1x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>, "
      "core_ranges = <[#ttnn.core_range<(0,0), (7,0)>, "
      "#ttnn.core_range<(0,1), (3,1)>]>>>");
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(a->ttnn.has_value());
  EXPECT_TRUE(a->warnings.empty());
  const std::string text = FormatTtnnExplanation(*a, 3);
  EXPECT_TRUE(Has(text, "grid:            12x1 (12 shards)\n")) << text;
  EXPECT_TRUE(Has(text, "cores:           (0,0)-(7,0), (0,1)-(3,1) (written)"))
      << text;
  EXPECT_TRUE(Has(text,
                  "  shard 2,0 (core (2,0)): 1024 elements, 0 padding\n"
                  "  ... (9 more)\n"))
      << text;
}

TEST(AnalyzeGridText, RefusalsAreLocated) {
  absl::StatusOr<GridAnalysis> a = AnalyzeGridText(
      "tensor<32x32xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x8>, "
      "memref<1x1x!ttcore.tile<32x32, f32>, #ttnn.buffer_type<dram>>, "
      "<interleaved>>>");
  ASSERT_FALSE(a.ok());
  const std::string m(a.status().message());
  EXPECT_EQ(m.substr(0, m.find('\n')),
            "1:19: tt-mlir's verifier refuses this layout: expected (1, 1) "
            "grid shape for dram buffer type with interleaved memory layout, "
            "got (8, 8)");
  EXPECT_TRUE(Has(std::string(a.status().message()), "\n                  ^"));
}

TEST(AnalyzeGridText, SeedUnderTheNewName) {
  absl::StatusOr<GridAnalysis> a = AnalyzeGridText(
      "tensor<256x32xf32, #ttcore.metal_layout<(d0, d1) -> (d0, d1), undef, "
      "<4x1>, memref<64x32xf32, #ttcore.memory_space<l1>>>>");
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_EQ(a->warnings.size(), 1u);
  EXPECT_TRUE(Has(a->warnings[0], "no longer read by tt-mlir"));
  a = AnalyzeGridText(
      "tensor<256x32xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, "
      "<4x1>, memref<64x32xf32, #tt.memory_space<l1>>>>");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_TRUE(a->warnings.empty());
}

TEST(FormatExplanation, MetalAndLocations) {
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

}  // namespace
}  // namespace hlolayout::grid

#include "hlolayout/ttmlir/ttmlir_explain.h"

#include <string>

#include "gtest/gtest.h"
#include "hlolayout/testing/ttmlir_layouts.h"

namespace hlolayout::grid {
namespace {

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(AnalyzeGridText, TtnnWithAliases) {
  absl::StatusOr<GridAnalysis> a = AnalyzeGridText(kTestTtnnAliasedLayout);
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(a->ttnn.has_value());
  EXPECT_TRUE(a->warnings.empty());
  EXPECT_EQ(a->ttnn->num_shards(), 12);
  EXPECT_EQ(a->ttnn->core_ranges().size(), 2u);
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

}  // namespace
}  // namespace hlolayout::grid

#include "hlolayout/ttmlir/explain.h"

#include <string>

#include "gtest/gtest.h"
#include "hlolayout/testing/ttmlir_layouts.h"
#include "hlolayout/ttmlir/print.h"
#include "hlolayout/ttmlir/ttmlir_parse.h"

namespace hlolayout::grid {
namespace {

MetalLayout Parse(absl::string_view text) {
  absl::StatusOr<MetalLayout> l = ParseTensorType(text);
  EXPECT_TRUE(l.ok()) << l.status();
  return *std::move(l);
}

TEST(Explain, ShardShapes) {
  EXPECT_EQ(DimsToString(Parse(kTestSeedScalarLayout).memref_shape()), "18x32");
  EXPECT_EQ(DimsToString(Parse(kTestSeedTiledLayout).memref_shape()), "1x1");
  EXPECT_EQ(DimsToString(Parse(kTestSeedMultiDeviceLayout).memref_shape()),
            "1x3x1");
}

TEST(Explain, ParseIndexList) {
  EXPECT_EQ(*ParseIndexList(""), (std::vector<int64_t>{}));
  EXPECT_EQ(*ParseIndexList(" 1 , 2 "), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(ParseIndexList("1,,2").status().message(), "bad index value ''");
}

TEST(Explain, MultiDeviceAndTruncation) {
  GridExplanation e = ExplainGridLayout(Parse(kTestSeedMultiDeviceLayout));
  EXPECT_EQ(e.device_grid, (std::vector<int64_t>{2}));
  EXPECT_EQ(e.core_grid, (std::vector<int64_t>{2, 4}));
  EXPECT_EQ(e.per_core.size(), 16u);
  EXPECT_EQ(e.total_padding, 0);
  GridExplanation few = ExplainGridLayout(Parse(kTestSeedMultiDeviceLayout), 8);
  EXPECT_TRUE(few.per_core.empty());
  EXPECT_EQ(few.padding_only_cores, -1);
  EXPECT_EQ(few.per_core_note,
            "grid has 16 cores; per-core counts are limited to 8");
}

TEST(Explain, EmptyCoresAndDuplicateDims) {
  GridExplanation e = ExplainGridLayout(
      Parse("tensor<128xf32, #tt.metal_layout<(d0) -> (0, 0, d0), zero, "
            "<1x2x4>, memref<1x1x32xf32, #tt.memory_space<dram>>>>"));
  EXPECT_EQ(e.padding_only_cores, 4);
  EXPECT_EQ(e.total_padding, 128);
  GridExplanation d = ExplainGridLayout(
      Parse("tensor<8x96x32xf32, #tt.metal_layout<(d0, d1, d2) -> (d0 * 96 + "
            "d1, d1, d2), undef, <2x1x2>, memref<384x96x16xf32, "
            "#tt.memory_space<l1>>>>"));
  EXPECT_FALSE(d.padding_per_dim.has_value());
  EXPECT_EQ(d.padding_per_dim_note.substr(0, 3), "n/a");
  EXPECT_EQ(d.per_core[0].elements, 4 * 96 * 16);
}

TEST(Explain, HugeGridIsSummarized) {
  GridExplanation e = ExplainGridLayout(
      Parse("tensor<100000x4xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), "
            "undef, <100000x1>, memref<1x4xf32, #tt.memory_space<dram>>>>"));
  EXPECT_FALSE(e.padding_per_dim.has_value());
  EXPECT_EQ(e.padding_per_dim_note, "not computed: a grid dim exceeds 65536");
  EXPECT_TRUE(e.per_core.empty());
  EXPECT_EQ(e.total_padding, 0);
}

TEST(Explain, CollapseIntervalsText) {
  EXPECT_EQ(ParseCollapseIntervals("")->size(), 1u);
  EXPECT_TRUE(ParseCollapseIntervals("none")->empty());
  auto two = ParseCollapseIntervals(" (0, 3), (-3,-1) ");
  ASSERT_TRUE(two.ok()) << two.status();
  EXPECT_EQ(*two, (std::vector<CollapseInterval>{{0, 3}, {-3, -1}}));
  for (absl::string_view bad :
       {"(0,3", "(0)", "0,3", "(0,3),", "(a,1)", "(0,3)(1,2)"}) {
    EXPECT_FALSE(ParseCollapseIntervals(bad).ok()) << bad;
  }
  EXPECT_EQ(ParseCollapseIntervals("(0,3").status().message(),
            "bad collapse intervals '(0,3'; expected e.g. (0,3),(-3,-1)");
}

TEST(Explain, BuildCollapsedSevenDim) {
  auto l = BuildCollapsedLayout("2x3x4x5x6x7x8xbf16", "2x1x3x2",
                                "(0,3),(-3,-1)", "");
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(l->linear().ToString(),
            "(d0, d1, d2, d3, d4, d5, d6) -> (d0 * 12 + d1 * 4 + d2, d3, d4 * "
            "7 + d5, d6)");
  // What it prints parses back.
  auto again = ParseTensorType(TensorTypeToString(*l));
  ASSERT_TRUE(again.ok()) << again.status();
}

TEST(Explain, BuildCollapsedSeedMultiDeviceTiled) {
  auto l = BuildCollapsedLayout("2x3x64x128xf32", "2x2x4", "(1,-1)", "bfp_bf8");
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(DimsToString(l->memref_shape()), "1x3x1");
  auto t = BuildCollapsedLayout("64x64xf32", "2x2", "", "16x32,bf16");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(DimsToString(t->memref_shape()), "2x1");
}

TEST(Explain, BuildCollapsedErrors) {
  auto error = [](absl::string_view t, absl::string_view g, absl::string_view i,
                  absl::string_view tile) {
    auto l = BuildCollapsedLayout(t, g, i, tile);
    return l.ok() ? std::string("ok") : std::string(l.status().message());
  };
  EXPECT_EQ(error("4x4xf33", "2x2", "", ""), "unknown element type 'f33'");
  EXPECT_EQ(error("4xax4xf32", "2x2", "", ""), "bad tensor dim 'a'");
  EXPECT_EQ(error("4x4xf32", "2x0", "", ""), "bad grid dim '0'");
  EXPECT_EQ(error("2x3x64x128xf32", "2x2", "(1,-1)", ""),
            "collapsed rank 3 exceeds grid rank 2");
  EXPECT_EQ(error("4x4xf32", "2x2", "", "bfp_f16"),
            "unknown tile data type 'bfp_f16'");
  EXPECT_EQ(error("4x4xf32", "2x2", "", "16x16,bfp_bf8"),
            "bfp_bf8 tiles must be 32x32, got 16x16");
  EXPECT_EQ(error("4x4xf32", "2x2", "", "16,bf16"),
            "a tile shape has two dims");
  EXPECT_EQ(error("4x4xf32", "2x2", "(0,1),(0,2)", ""),
            "intervals (0, 1) and (0, 2) overlap");
}

}  // namespace
}  // namespace hlolayout::grid

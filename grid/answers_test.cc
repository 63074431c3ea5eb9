#include "hlolayout/grid/answers.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace hlolayout::grid {
namespace {

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// JSON without its layout whitespace: {"index":[1,2],...}.
std::string Squash(const std::string& json) {
  std::string out;
  for (char c : json) {
    if (c != ' ' && c != '\n') out += c;
  }
  return out;
}

constexpr char kTtnn[] =
    "tensor<32x4096xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x8>, "
    "memref<1x16x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>, "
    "<width_sharded>, core_ranges = <[#ttnn.core_range<(0,0), (7,0)>]>>>";
constexpr char kMetal[] =
    "tensor<2x6x2x2x!ttcore.tile<32x32, f32>, #ttcore.metal_layout<"
    "logical_shape = 128x380, dim_alignments = 32x32, collapsed_intervals = "
    "dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>>";
constexpr char kSeed[] =
    "tensor<256x32xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, "
    "<4x1>, memref<64x32xf32, #tt.memory_space<l1>>>>";

// Each form's answer is that form's renderer: the dispatch picks the form.
TEST(GridAnswers, ExplainAndLocatePickTheForm) {
  for (const char* text : {kTtnn, kMetal, kSeed}) {
    absl::StatusOr<GridAnalysis> a = AnalyzeGridText(text);
    ASSERT_TRUE(a.ok()) << a.status();
    const std::string kind = a->ttnn    ? "ttnn_layout"
                             : a->metal ? "metal_layout"
                                        : "seed_metal_layout";
    EXPECT_TRUE(Has(Squash(ExplainJson(*a)), "\"kind\":\"" + kind + "\""))
        << ExplainJson(*a);
    const std::string expected_text =
        a->ttnn    ? FormatTtnnExplanation(*a)
        : a->metal ? FormatMetalExplanation(*a)
                   : FormatGridExplanation(ExplainGridLayout(*a->text.seed));
    EXPECT_EQ(ExplainText(*a), expected_text);
    absl::StatusOr<std::string> json = LocateJson(*a, {1, 2});
    ASSERT_TRUE(json.ok()) << json.status();
    EXPECT_TRUE(Has(Squash(*json), "\"index\":[1,2]")) << *json;
    EXPECT_TRUE(LocateText(*a, {1, 2}).ok());
  }
}

TEST(GridAnswers, TtnnLocateNamesTheCore) {
  absl::StatusOr<GridAnalysis> a = AnalyzeGridText(kTtnn);
  ASSERT_TRUE(a.ok()) << a.status();
  absl::StatusOr<std::string> json = LocateJson(*a, {2, 1541});
  ASSERT_TRUE(json.ok()) << json.status();
  EXPECT_TRUE(Has(Squash(*json), "\"core\":[3,0]")) << *json;
}

TEST(GridAnswers, AnIndexOutsideTheTensorIsAnError) {
  for (const char* text : {kTtnn, kMetal, kSeed}) {
    absl::StatusOr<GridAnalysis> a = AnalyzeGridText(text);
    ASSERT_TRUE(a.ok()) << a.status();
    EXPECT_FALSE(LocateJson(*a, {100000, 0}).ok()) << text;
    EXPECT_FALSE(LocateText(*a, {100000, 0}).ok()) << text;
    EXPECT_FALSE(LocateJson(*a, {0}).ok()) << text;  // rank 1 of rank 2
  }
}

TEST(GridAnswers, ReportNamesTheFileAndCountsTheTypes) {
  const std::string file = std::string("#l1 = #ttnn.buffer_type<l1>\n") +
                           "func.func @f(%a: " + kTtnn + ") {\n}\n";
  absl::StatusOr<GridReport> r = ReadGridReport(file, "model.mlir", {});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->file, "model.mlir");
  ASSERT_EQ(r->types.size(), 1u);
  EXPECT_EQ(r->types[0].status, "ok");
  EXPECT_TRUE(Has(Squash(GridReportJson(*r)), "\"file\":\"model.mlir\""))
      << GridReportJson(*r);
}

}  // namespace
}  // namespace hlolayout::grid

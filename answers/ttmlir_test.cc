#include "hlolayout/answers/ttmlir.h"

#include <string>
#include <variant>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/testing/ttmlir_layouts.h"

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

// Each form's answer names its kind: the dispatch picks the form.
TEST(GridAnswers, ExplainAndLocatePickTheForm) {
  for (const char* text :
       {kTestTtnnLayout, kTestMetalLayout, kTestSeedMetalLayout}) {
    absl::StatusOr<GridAnalysis> a = AnalyzeGridText(text);
    ASSERT_TRUE(a.ok()) << a.status();
    const std::string kind = a->ttnn    ? "ttnn_layout"
                             : a->metal ? "metal_layout"
                                        : "seed_metal_layout";
    const std::string explain = AnswerJson(AnswerExplain(*a));
    EXPECT_TRUE(Has(Squash(explain), "\"kind\":\"" + kind + "\"")) << explain;
    absl::StatusOr<LocationAnswer> located = AnswerLocate(*a, {1, 2});
    ASSERT_TRUE(located.ok()) << located.status();
    const std::string json = AnswerJson(*located);
    EXPECT_TRUE(Has(Squash(json), "\"index\":[1,2]")) << json;
  }
}

TEST(GridAnswers, TtnnLocateNamesTheCore) {
  absl::StatusOr<GridAnalysis> a = AnalyzeGridText(kTestTtnnLayout);
  ASSERT_TRUE(a.ok()) << a.status();
  absl::StatusOr<LocationAnswer> located = AnswerLocate(*a, {2, 1541});
  ASSERT_TRUE(located.ok()) << located.status();
  const auto& ttnn = std::get<TtnnLayoutLocation>(*located);
  ASSERT_TRUE(ttnn.core.has_value());
  EXPECT_EQ(*ttnn.core, (Pair{3, 0}));
  EXPECT_TRUE(Has(Squash(AnswerJson(*located)), "\"core\":[3,0]"));
}

TEST(GridAnswers, AnIndexOutsideTheTensorIsAnError) {
  for (const char* text :
       {kTestTtnnLayout, kTestMetalLayout, kTestSeedMetalLayout}) {
    absl::StatusOr<GridAnalysis> a = AnalyzeGridText(text);
    ASSERT_TRUE(a.ok()) << a.status();
    EXPECT_FALSE(AnswerLocate(*a, {100000, 0}).ok()) << text;
    EXPECT_FALSE(AnswerLocate(*a, {0}).ok()) << text;  // rank 1 of rank 2
  }
}

TEST(GridAnswers, ReportNamesTheFileAndCountsTheTypes) {
  const std::string file = std::string("#l1 = #ttnn.buffer_type<l1>\n") +
                           "func.func @f(%a: " + kTestTtnnLayout + ") {\n}\n";
  absl::StatusOr<GridReport> r = ReadGridReport(file, "model.mlir", {});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->file, "model.mlir");
  ASSERT_EQ(r->types.size(), 1u);
  EXPECT_EQ(r->types[0].status, "ok");
  EXPECT_EQ(r->counts.types, 1);
  EXPECT_EQ(r->counts.ok, 1);
  const std::string json = AnswerJson(*r);
  EXPECT_TRUE(Has(Squash(json), "\"file\":\"model.mlir\"")) << json;
  // The text-only summary is not in the JSON.
  EXPECT_FALSE(Has(json, "summary")) << json;
}

// A request picks the type: the text itself, or the --type-th of a file's
// tensor types with a layout; what to pick is said when it is not clear.
TEST(GridAnswers, ARequestPicksOneOfAFilesTypes) {
  const std::string file = std::string("func.func @f(%a: ") + kTestTtnnLayout +
                           ", %b: " + kTestMetalLayout + ")\n";
  GridRequest request;
  request.file = "m.mlir";
  EXPECT_EQ(AnalyzeGridRequest(file, request).status().message(),
            "m.mlir holds 2 tensor types with a layout; pick one with "
            "--type=K ('hlolayout grid report m.mlir' numbers them)");
  request.type = "2";
  absl::StatusOr<GridAnalysis> a = AnalyzeGridRequest(file, request);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_TRUE(a->metal.has_value());
  request.type = "3";
  EXPECT_EQ(AnalyzeGridRequest(file, request).status().message(),
            "bad --type '3': m.mlir has 2 tensor types with a layout");
  EXPECT_EQ(AnalyzeGridRequest(kTestTtnnLayout, request).status().message(),
            "--type picks one of a file's tensor types; this is a single type");
  request = GridRequest();
  EXPECT_EQ(AnalyzeGridRequest("func.func @f()\n", request).status().message(),
            "the input holds no tensor type with a tt-mlir layout");
  a = AnalyzeGridRequest(kTestSeedMetalLayout, request);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_TRUE(a->text.seed.has_value());
}

// An unread or refused type has no grid, memref shape or memref: they are
// null in the JSON; an interleaved TTNN layout has no shards, its
// locations no shard fields (left out, not null).
TEST(GridAnswers, WhatDoesNotApplyIsNullOrLeftOut) {
  const std::string file =
      "func.func @f(%a: tensor<32x32xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, "
      "d1), <8x8>, memref<1x1x!ttcore.tile<32x32, f32>, "
      "#ttnn.buffer_type<dram>>, <interleaved>>>)\n"
      "func.func @g(%a: tensor<32x32xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, "
      "d1) <1x1>>>)\n";
  absl::StatusOr<GridReport> r = ReadGridReport(file, "x.mlir", {});
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->types.size(), 2u);
  EXPECT_EQ(r->types[0].status, "refused");
  EXPECT_EQ(r->types[1].status, "unread");
  for (const GridReportType& t : r->types) {
    const std::string json = Squash(AnswerJson(t));
    EXPECT_TRUE(
        Has(json, "\"grid\":null,\"memref_shape\":null,\"memref\":null"))
        << json;
  }
  EXPECT_TRUE(Has(Squash(AnswerJson(r->types[1])), "\"kind\":null"));
  EXPECT_EQ(r->counts.refused, 1);
  EXPECT_EQ(r->counts.unread, 1);
  const char kInterleaved[] =
      "tensor<64x64xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, "
      "memref<2x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, "
      "<interleaved>>>";
  absl::StatusOr<GridAnalysis> a = AnalyzeGridText(kInterleaved);
  ASSERT_TRUE(a.ok()) << a.status();
  const std::string explain = Squash(AnswerJson(AnswerExplain(*a)));
  EXPECT_TRUE(Has(explain, "\"per_shard\":null")) << explain;
  EXPECT_TRUE(
      Has(explain, "\"pages\":{\"count\":4,\"bytes\":2048,\"unit\":\"tile\"}"))
      << explain;
  absl::StatusOr<LocationAnswer> located = AnswerLocate(*a, {40, 3});
  ASSERT_TRUE(located.ok()) << located.status();
  const std::string where = Squash(AnswerJson(*located));
  EXPECT_FALSE(Has(where, "shard")) << where;
  EXPECT_TRUE(Has(where, "\"dram_bank\":")) << where;
}

}  // namespace
}  // namespace hlolayout::grid

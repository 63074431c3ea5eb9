#include "hlolayout/views/ttmlir_text.h"

#include <string>

#include "gtest/gtest.h"
#include "hlolayout/answers/ttmlir.h"
#include "hlolayout/testing/ttmlir_layouts.h"
#include "hlolayout/ttmlir/explain.h"
#include "hlolayout/ttmlir/ttmlir_explain.h"

namespace hlolayout::grid {
namespace {

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
TEST(TtmlirText, LocateAnswerIsOneLine) {
  absl::StatusOr<GridAnalysis> ttnn = AnalyzeGridText(kTestTtnnLayout);
  ASSERT_TRUE(ttnn.ok()) << ttnn.status();
  absl::StatusOr<std::string> t = LocateAnswer(*ttnn, {2, 1541});
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(*t, "shard=0,3 offset=2,5 tile=0,48 in_tile=2,5 core=3,0");
  absl::StatusOr<GridAnalysis> metal = AnalyzeGridText(kTestMetalLayout);
  ASSERT_TRUE(metal.ok()) << metal.status();
  absl::StatusOr<std::string> m = LocateAnswer(*metal, {100, 300});
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(*m, "shard=1,4 offset=36,44 offset_tile=1,1 core=4,1");
  EXPECT_FALSE(LocateAnswer(*metal, {100000, 0}).ok());
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

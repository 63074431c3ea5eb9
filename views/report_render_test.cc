#include "hlolayout/views/report_render.h"

#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace hlolayout {
namespace {

using ::testing::HasSubstr;

constexpr char kDump[] = R"(HloModule jit_small
ENTRY %main {
  %a = bf16[3,200]{1,0:T(8,128)(2,1)} parameter(0), metadata={op_name="a"}
  %v = f32[128]{0:T(128)S(1)} parameter(1)
  %n = rng(%v, %v), distribution=rng_uniform
  ROOT %t = (f32[128]{0:T(128)S(1)}, f32[?]{0}) tuple(%v, %v)
}
)";

Report Build(absl::string_view text) {
  absl::StatusOr<Report> report = BuildReport(text);
  EXPECT_TRUE(report.ok()) << report.status();
  return report.ok() ? *std::move(report) : Report();
}

std::string Text(const Report& report, bool summary) {
  std::ostringstream out;
  RenderOptions options;
  options.summary = summary;
  RenderReportText(report, options, out);
  return out.str();
}

std::string Json(const Report& report, bool summary) {
  std::ostringstream out;
  RenderOptions options;
  options.summary = summary;
  RenderReportJson(report, options, out);
  return out.str();
}

TEST(Render, FormatBytes) {
  EXPECT_EQ(BytesWithTotal(0), "0 B");
  EXPECT_EQ(BytesWithTotal(1023), "1023 B");
  EXPECT_EQ(BytesWithTotal(20480), "20.0 KiB (20480 B)");
  EXPECT_EQ(BytesWithTotal(int64_t{3} << 30), "3.0 GiB (3221225472 B)");
  EXPECT_EQ(BytesWithTotal(INT64_MAX), "8.0 EiB (9223372036854775807 B)");
}

// Hand count: the module defines a (4096 padded, 1200 logical bytes), v
// (512) and the 16-byte index table of t (two 8-byte pointers); t's elements
// are v again, and the untyped rng has no shape (its shape
// cannot be inferred). Every result counted:
// a, v, and t's two leaves (v twice more, f32[?] unsized).
TEST(Render, TextTable) {
  EXPECT_EQ(
      Text(Build(kDump), false),
      "module jit_small: entry main, 1 computation, 4 instructions\n"
      "  what XLA will allocate: known for scheduled modules only "
      "(is_scheduled=true, as XLA dumps them after optimizations)\n"
      "  computation  instruction  opcode     shape                          "
      "      memory  logical B  padded B  expansion  buffer  buffer B\n"
      "  main         a            parameter  bf16[3,200]{1,0:T(8,128)(2,1)} "
      "      hbm          1200      4096       3.4x  new         4096\n"
      "  main         v            parameter  f32[128]{0:T(128)S(1)}         "
      "      vmem          512       512       1.0x  new          512\n"
      "  main         n            rng        -                              "
      "      -               -         -          -  new            -\n"
      "  main         ROOT t       tuple      (f32[128]{0:T(128)S(1)}, "
      "f32[?]{0})  mixed       512+?     512+?       1.0x  part        16+?\n"
      "buffers (the values the module defines, each once; aliases and fused "
      "internals not counted; not what XLA allocates): 3 values\n"
      "  logical 1.7 KiB (1728 B), padded 4.5 KiB (4624 B), expansion 2.7x, "
      "padding 2.8 KiB (2896 B)\n"
      "all instruction results (every instruction of every computation, "
      "aliases counted again; not memory use: the base of padding and "
      "expansion): 4 instructions in 1 computation (1 without a "
      "shape), 4 array leaves (1 not sized: unbounded dims or too large)\n"
      "  logical 2.2 KiB (2224 B), padded 5.0 KiB (5120 B), expansion 2.3x, "
      "padding 2.8 KiB (2896 B)\n"
      "memory spaces:\n"
      "  hbm (default device memory (HBM)): buffers: 2 values, logical 1.2 "
      "KiB (1216 B), padded 4.0 KiB (4112 B), 3.4x\n"
      "    all results: 2 instructions, 2 array leaves, logical 1.2 KiB (1200 "
      "B), padded 4.0 KiB (4096 B), 3.4x\n"
      "  vmem (alternate fast memory (VMEM on TPU)): buffers: 1 value, "
      "logical 512 B, padded 512 B, 1.0x\n"
      "    all results: 2 instructions, 2 array leaves, logical 1.0 KiB (1024 "
      "B), padded 1.0 KiB (1024 B), 1.0x\n"
      "top padding wasters (each value on its own, aliases not known: the "
      "memory analysis refused the module (instruction 'n' in 'main' has no "
      "shape; memory analysis needs every result shape)):\n"
      "  1. a in main: bf16[3,200]{1,0:T(8,128)(2,1)}\n"
      "     2.8 KiB (2896 B) of padding (1200 -> 4096 B, 3.4x)\n"
      "       dim 0 (size 3) is not a multiple of tile 8 of tile level 0 "
      "(8,128) in T(8,128)(2,1): padded to 8\n"
      "       dim 1 (size 200) is not a multiple of tile 128 of tile level 0 "
      "(8,128) in T(8,128)(2,1): padded to 256\n");
}

// A cell wider than kMaxColumnWidth runs past its column; the others are
// padded to kMaxColumnWidth at most (a tuple of 8,000 elements padded every
// row to 90 KB).
TEST(Render, WideCellsRunPastTheirColumn) {
  std::string tuple = "(";
  std::string operands;
  for (int i = 0; i < 200; ++i) {
    absl::StrAppend(&tuple, i == 0 ? "" : ", ", "f32[128]{0}");
    absl::StrAppend(&operands, i == 0 ? "" : ", ", "%p");
  }
  tuple += ")";
  ASSERT_GT(tuple.size(), kMaxColumnWidth);
  const std::string text =
      Text(Build(absl::StrCat(
               "HloModule m\nENTRY %e {\n", "  %p = f32[128]{0} parameter(0)\n",
               "  ROOT %t = ", tuple, " tuple(", operands, ")\n}\n")),
           false);
  const std::vector<std::string> lines = absl::StrSplit(text, '\n');
  ASSERT_GT(lines.size(), 4u);
  // Header, p, t: p's shape is padded to the bound, t's runs past it.
  EXPECT_THAT(lines[2], HasSubstr("shape"));
  EXPECT_THAT(lines[3],
              HasSubstr("f32[128]{0}" + std::string(kMaxColumnWidth - 11, ' ') +
                        "  hbm"));
  EXPECT_THAT(lines[4], HasSubstr(tuple + "  hbm"));
}

TEST(Render, TextSummaryHasNoTable) {
  const std::string text = Text(Build(kDump), true);
  EXPECT_THAT(text, HasSubstr("buffers (the values the module defines"));
  EXPECT_THAT(text, HasSubstr("all instruction results"));
  EXPECT_THAT(text, HasSubstr("memory spaces:"));
  EXPECT_THAT(text, ::testing::Not(HasSubstr("parameter")));
  EXPECT_THAT(text, ::testing::Not(HasSubstr("wasters")));
}

TEST(Render, JsonSummary) {
  EXPECT_EQ(
      Json(Build(kDump), true),
      "{\"modules\": [\n {\"name\": \"jit_small\", \"entry_computation\": "
      "\"main\",\n  \"totals\": {\"computations\": 1, \"instructions\": 4, "
      "\"instructions_without_shape\": 1, \"buffer_values\": 3, "
      "\"buffer_logical_bytes\": 1728, \"buffer_padded_bytes\": 4624, "
      "\"buffer_padding_bytes\": 2896, \"buffer_overflow\": false, "
      "\"array_leaves\": 4, "
      "\"unsized_array_leaves\": 1, \"array_leaf_logical_bytes\": 2224, "
      "\"array_leaf_padded_bytes\": 5120, \"padding_bytes\": 2896, "
      "\"expansion\": 2.30216, \"overflow\": false},\n  \"memory_spaces\": "
      "[{\"memory_space\": 0, \"key\": \"hbm\", \"name\": \"default device "
      "memory (HBM)\", \"buffer_values\": 2, \"buffer_logical_bytes\": 1216, "
      "\"buffer_padded_bytes\": 4112, \"buffer_padding_bytes\": 2896, "
      "\"buffer_overflow\": false, \"instructions\": 2, \"array_leaves\": 2, "
      "\"array_leaf_logical_bytes\": 1200, \"array_leaf_padded_bytes\": 4096, "
      "\"padding_bytes\": 2896, \"expansion\": 3.41333, \"overflow\": false}, "
      "{\"memory_space\": 1, \"key\": \"vmem\", \"name\": \"alternate fast "
      "memory (VMEM on TPU)\", \"buffer_values\": 1, "
      "\"buffer_logical_bytes\": 512, \"buffer_padded_bytes\": 512, "
      "\"buffer_padding_bytes\": 0, \"buffer_overflow\": false, "
      "\"instructions\": 2, \"array_leaves\": 2, "
      "\"array_leaf_logical_bytes\": 1024, \"array_leaf_padded_bytes\": 1024, "
      "\"padding_bytes\": 0, \"expansion\": 1, \"overflow\": false}]}],\n "
      "\"errors\": []}\n");
}

TEST(Render, JsonInstructionsAndWasters) {
  const std::string json = Json(Build(kDump), false);
  EXPECT_THAT(json,
              HasSubstr("{\"computation\": \"main\", \"instruction\": \"n\", "
                        "\"opcode\": \"rng\", \"root\": false, \"shape\": "
                        "null, \"memory_space\": null, \"array_leaves\": 0, "
                        "\"unsized_array_leaves\": 0, "
                        "\"array_leaf_logical_bytes\": 0"));
  EXPECT_THAT(json, HasSubstr("\"instruction\": \"t\", \"opcode\": \"tuple\", "
                              "\"root\": true, \"shape\": \"(f32[128]{0:T("
                              "128)S(1)}, f32[?]{0})\", \"memory_space\": "
                              "\"mixed\", \"array_leaves\": 2, "
                              "\"unsized_array_leaves\": 1"));
  EXPECT_THAT(json, HasSubstr("\"top_padding_wasters\": [\n    "
                              "{\"computation\": \"main\", \"instruction\": "
                              "\"a\", \"index\": \"{}\", \"shape\": "
                              "\"bf16[3,200]{1,0:T(8,128)(2,1)}\", "
                              "\"memory_space\": \"hbm\", "
                              "\"array_leaf_logical_bytes\": 1200"));
  EXPECT_THAT(json, HasSubstr("\"also_defined_by\": [], \"aliases\": []}"));
  EXPECT_THAT(json, HasSubstr("\"padding_wasters_note\": \"each value on its "
                              "own, aliases not known"));
}

TEST(Render, JsonEscapesStringsAndListsErrors) {
  Report report;
  report.errors.push_back("x.txt:1:2: bad \"quote\"\nline\n ^");
  std::ostringstream out;
  RenderReportJson(report, {}, out);
  EXPECT_EQ(out.str(),
            "{\"modules\": [],\n \"errors\": [\"x.txt:1:2: bad \\\"quote\\\""
            "\\nline\\n ^\"]}\n");
}

}  // namespace
}  // namespace hlolayout

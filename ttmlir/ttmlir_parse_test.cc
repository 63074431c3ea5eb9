#include "hlolayout/ttmlir/ttmlir_parse.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace hlolayout::grid {
namespace {

constexpr char kWidth[] =
    "tensor<32x4096xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x8>, "
    "memref<1x16x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>, "
    "<width_sharded>, core_ranges = <[#ttnn.core_range<(0,0), (7,0)>]>>>";
constexpr char kMetal[] =
    "tensor<2x6x2x2x!ttcore.tile<32x32, f32>, #ttcore.metal_layout<"
    "logical_shape = 128x384, dim_alignments = 32x32, collapsed_intervals = "
    "dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>>";

TEST(ParseGridTensor, TtnnLayout) {
  absl::StatusOr<GridTensorText> t = ParseGridTensor(kWidth);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->kind, GridEncodingKind::kTtnnLayout);
  EXPECT_EQ(t->shape, (std::vector<int64_t>{32, 4096}));
  EXPECT_EQ(MlirElementToString(t->element), "bf16");
  const TtnnLayoutText& l = *t->ttnn;
  ASSERT_TRUE(l.map.has_value());
  EXPECT_EQ(l.map->ToString(), "(d0, d1) -> (d0, d1)");
  EXPECT_EQ(l.grid, (std::vector<int64_t>{1, 8}));
  EXPECT_EQ(l.memref_shape, (std::vector<int64_t>{1, 16}));
  EXPECT_EQ(MlirElementToString(l.memref_element), "!ttcore.tile<32x32, bf16>");
  EXPECT_EQ(l.buffer_type, tenstorrent::BufferType::kL1);
  EXPECT_EQ(l.mem_layout, tenstorrent::TensorMemoryLayout::kWidthSharded);
  ASSERT_TRUE(l.core_ranges.has_value());
  EXPECT_EQ(*l.core_ranges,
            (std::vector<tenstorrent::CoreRange>{{{0, 0}, {7, 0}}}));
  EXPECT_EQ(t->text, kWidth);
}

TEST(ParseGridTensor, TtnnSpellings) {
  // The core range set spelled out, spaces in coordinates and tiles, a
  // memory layout attribute spelled out, mesh and ignorePhysicalLayout.
  absl::StatusOr<GridTensorText> t = ParseGridTensor(
      "tensor<4x32x32xf32, #ttnn.ttnn_layout< (d0, d1, d2) -> (d0 * 32 + d1, "
      "d2), <2x1>, mesh = #ttcore.tensor_mesh<\"mesh\">, memref<2x1x!tt.tile<"
      "32 x 32, f32>, #ttnn.buffer_type<l1>>, "
      "#ttnn.tensor_memory_layout<height_sharded>, core_ranges = "
      "#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (1, 0)>]>, "
      "ignorePhysicalLayout = true >>");
  ASSERT_TRUE(t.ok()) << t.status();
  const TtnnLayoutText& l = *t->ttnn;
  EXPECT_EQ(l.map->ToString(), "(d0, d1, d2) -> (d0 * 32 + d1, d2)");
  EXPECT_EQ(l.mesh, "#ttcore.tensor_mesh<\"mesh\">");
  EXPECT_TRUE(l.ignore_physical_layout);
  EXPECT_EQ(l.mem_layout, tenstorrent::TensorMemoryLayout::kHeightSharded);
  EXPECT_EQ(l.core_ranges->size(), 1u);
  // A rank-0 tensor, a row-major memref, no memory layout, an empty set.
  t = ParseGridTensor(
      "tensor<f32, #ttnn.ttnn_layout<() -> (0, 0), <1x1>, memref<1x1xf32, "
      "#ttnn.buffer_type<system_memory>>>>");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_TRUE(t->shape.empty());
  EXPECT_FALSE(t->ttnn->mem_layout.has_value());
  t = ParseGridTensor(
      "tensor<8xf32, #ttnn.ttnn_layout<(d0) -> (0, d0), <1x1>, "
      "memref<1x8xf32, #ttnn.buffer_type<l1>>, <block_sharded>, "
      "core_ranges = <>>>");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_TRUE(t->ttnn->core_ranges->empty());
}

TEST(ParseGridTensor, UnreadMapIsKeptAsText) {
  absl::StatusOr<GridTensorText> t = ParseGridTensor(
      "tensor<64x64xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0 floordiv 32, d1), "
      "<1x1>, memref<2x2x!ttcore.tile<32x32, f32>, #ttnn.buffer_type<dram>>, "
      "<interleaved>>>");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_FALSE(t->ttnn->map.has_value());
  EXPECT_EQ(t->ttnn->map_text, "(d0, d1) -> (d0 floordiv 32, d1)");
  EXPECT_EQ(t->ttnn->map_note, "'floordiv' is not supported in a layout map");
}

TEST(ParseGridTensor, MetalLayout) {
  absl::StatusOr<GridTensorText> t = ParseGridTensor(kMetal);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->kind, GridEncodingKind::kMetalLayout);
  EXPECT_EQ(t->shape, (std::vector<int64_t>{2, 6, 2, 2}));
  const MetalLayoutText& m = *t->metal;
  EXPECT_EQ(m.logical_shape, (std::vector<int64_t>{128, 384}));
  EXPECT_EQ(m.dim_alignments, (std::vector<int64_t>{32, 32}));
  EXPECT_EQ(m.intervals, (std::vector<int64_t>{0, 1, 1, 2}));
  EXPECT_EQ(m.intervals_type, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(m.memory_space, MemorySpace::kDeviceL1);
  EXPECT_EQ(m.memory_layout, MetalMemoryLayout::kSharded);
  EXPECT_FALSE(m.oob.has_value());
}

TEST(ParseGridTensor, MetalIntervalForms) {
  struct Case {
    const char* dense;
    std::vector<int64_t> intervals;
  };
  const Case cases[] = {
      {"dense<> : tensor<0x2xi64>", {}},
      {"dense<[[0, -1]]> : tensor<1x2xi64>", {0, -1}},
      {"dense<0> : tensor<1x2xi64>", {0, 0}},
      {"dense<[[0, 1], [1, 2], [2, 3]]> : tensor<3x2xi64>", {0, 1, 1, 2, 2, 3}},
  };
  for (const Case& c : cases) {
    const std::string text =
        std::string(
            "tensor<1x1x1x1x!ttcore.tile<32x32, f32>, #ttcore.metal_layout< "
            "logical_shape = 32x32, dim_alignments = 32x32, "
            "collapsed_intervals "
            "= ") +
        c.dense + ", undef, dram, interleaved >>";
    absl::StatusOr<GridTensorText> t = ParseGridTensor(text);
    ASSERT_TRUE(t.ok()) << c.dense << ": " << t.status();
    EXPECT_EQ(t->metal->intervals, c.intervals) << c.dense;
    EXPECT_EQ(t->metal->oob, OobVal::kUndef);
    EXPECT_EQ(t->metal->memory_space, MemorySpace::kDeviceDRAM);
  }
}

TEST(ParseGridTensor, SeedFormUnderBothNames) {
  for (const char* dialect : {"tt", "ttcore"}) {
    const std::string text = absl::StrCat(
        "tensor<2x3x64x128xf32, #", dialect,
        ".metal_layout<(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3), "
        "undef, <2x2>, memref<6x2x!",
        dialect, ".tile<32 x 32, f32>, #", dialect, ".memory_space<l1>>>>");
    absl::StatusOr<GridTensorText> t = ParseGridTensor(text);
    ASSERT_TRUE(t.ok()) << t.status();
    EXPECT_EQ(t->kind, GridEncodingKind::kSeedMetalLayout);
    EXPECT_EQ(t->seed_dialect, dialect);
    EXPECT_EQ(t->seed->memref_shape(), (std::vector<int64_t>{6, 2}));
  }
}

// The 2024 form is read by the same parser as the others: behind aliases
// and comment lines, its errors point at the line and column of the text
// given (they used to point into a copy with the aliases inlined).
TEST(ParseGridTensor, SeedErrorsPointIntoTheText) {
  absl::StatusOr<GridTensorText> t = ParseGridTensor(
      "// a comment\n"
      "#l1 = #tt.memory_space<l1>\n"
      "tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef,\n"
      "  <3x2>, memref<18x32xf32, #l1>>>");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->seed->memory_space(), MemorySpace::kDeviceL1);
  EXPECT_EQ(t->text,
            "tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, "
            "<3x2>, memref<18x32xf32, #tt.memory_space<l1>>>>");
  absl::StatusOr<GridTensorText> bad = ParseGridTensor(
      "// a comment\n"
      "tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef,\n"
      "  <3x2>, memref<18x31xf32>>>");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "3:17: memref shape 18x31 does not match the computed shard "
            "shape 18x32\n"
            "  <3x2>, memref<18x31xf32>>>\n"
            "                ^");
  absl::StatusOr<GridTensorText> space = ParseGridTensor(
      "#l1 = #tt.memory_space<sram>\n"
      "tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, "
      "<3x2>, memref<18x32xf32, #l1>>>");
  ASSERT_FALSE(space.ok());
  EXPECT_EQ(space.status().message().substr(0, 61),
            "1:24: expected a memory space (system, mmio, dram, l1), found");
}

TEST(ParseGridTensor, Aliases) {
  absl::StatusOr<GridTensorText> t = ParseGridTensor(
      "// a comment\n"
      "#dram = #ttnn.buffer_type<dram>\n"
      "#layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>,\n"
      "    memref<1x1x!ttcore.tile<32x32, f32>, #dram>,\n"
      "    <interleaved>>\n"
      "tensor<32x32xf32, #layout>\n");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->ttnn->buffer_type, tenstorrent::BufferType::kDram);
  EXPECT_EQ(t->text,
            "tensor<32x32xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, "
            "memref<1x1x!ttcore.tile<32x32, f32>, #ttnn.buffer_type<dram>>, "
            "<interleaved>>>");
  // An error inside an alias points into its definition.
  absl::StatusOr<GridTensorText> bad = ParseGridTensor(
      "#dram = #ttnn.buffer_type<sram>\n"
      "tensor<32x32xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, "
      "memref<32x32xf32, #dram>, <interleaved>>>");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "1:27: unknown buffer type 'sram' (dram, l1, system_memory, "
            "l1_small, trace)\n"
            "#dram = #ttnn.buffer_type<sram>\n"
            "                          ^");
}

TEST(ParseGridTensor, Errors) {
  struct Case {
    const char* text;
    const char* message;  // the first line of the error
  };
  const Case cases[] = {
      {"tensor<32x32xf32>",
       "1:17: expected ',' and a layout (#ttnn.ttnn_layout, "
       "#ttcore.metal_layout)"},
      {"tensor<32x32xf32, #nope>",
       "1:19: unknown layout or alias '#nope' (expected #ttnn.ttnn_layout or "
       "#ttcore.metal_layout)"},
      {"tensor<32x32xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, "
       "memref<1x1xf32, #ttnn.buffer_type<l1>>, <diagonal>>>",
       "1:107: unknown memory layout 'diagonal' (interleaved, height_sharded, "
       "width_sharded, block_sharded)"},
      {"tensor<32x32xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, "
       "memref<1x1xf32, #ttnn.buffer_type<l1>>, <block_sharded>, core_ranges "
       "= <[#ttnn.core_range<(3,0), (1,0)>]>>>",
       "1:139: core range (3,0)-(1,0) ends before it starts"},
      {"tensor<32x32xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x>, "
       "memref<1x1xf32, #ttnn.buffer_type<l1>>>>",
       "1:62: expected a dim after 'x', found '>'"},
      {"tensor<32x32xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, "
       "memref<1x1x!ttcore.tile<32x32, f64>, #ttnn.buffer_type<l1>>>>",
       "1:97: unknown tile data type 'f64'"},
      {"tensor<32x32xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, "
       "memref<1x1x!ttcore.tile<32x32, bfp_bf8>, #ttnn.buffer_type<l1>>>> x",
       "1:132: unexpected 'x' after the tensor type"},
      {"tensor<2x2xf32, #ttcore.metal_layout<logical_shape = 2x2, "
       "dim_alignments = 1x1, collapsed_intervals = dense<[[0, 1, 2]]> : "
       "tensor<1x3xi64>, l1, sharded>>",
       "1:110: collapsed_intervals must have pairs (second dim size 2)"},
      {"tensor<2x2xf32, #ttcore.metal_layout<logical_shape = 2x2, "
       "dim_alignments = 1x1, collapsed_intervals = dense<[[0, 1]]> : "
       "tensor<2x2xi64>, l1, sharded>>",
       "1:103: dense values have shape 1x2 but the type says 2x2"},
      {"tensor<2x2xf32, #ttcore.metal_layout<logical_shape = 2x2, "
       "dim_alignments = 1x1, collapsed_intervals = dense<> : tensor<0x2xi64>, "
       "dst, sharded>>",
       "1:130: memory space dst (the destination registers) holds no tensor "
       "layout hlolayout models"},
      {"tensor<?x2xf32, #x>", "1:8: dynamic dims are not supported"},
      {"#a = #ttnn.buffer_type<\ntensor<2xf32, #a>",
       "1:1: the definition of '#a' never closes its brackets"},
      {"", "1:1: expected a tensor type, found end of input"},
      {"tensor<99999999999999999999xf32, #x>",
       "1:8: integer '99999999999999999999' is too large"},
  };
  for (const Case& c : cases) {
    absl::StatusOr<GridTensorText> t = ParseGridTensor(c.text);
    ASSERT_FALSE(t.ok()) << c.text;
    const std::string m(t.status().message());
    EXPECT_EQ(m.substr(0, m.find('\n')), c.message) << c.text;
  }
}

TEST(ParseGridTensor, AliasLimits) {
  // Each alias doubles the previous one: 2^24 copies are refused before
  // they are built.
  std::string text = "#a0 = #ttnn.buffer_type<dram>\n";
  for (int i = 1; i <= 24; ++i) {
    absl::StrAppend(&text, "#a", i, " = <#a", i - 1, ", #a", i - 1, ">\n");
  }
  text += "tensor<2xf32, #a24>";
  absl::StatusOr<GridTensorText> t = ParseGridTensor(text);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("aliases expand past 1 MB"),
            std::string::npos)
      << t.status();
}

// An alias value that never balances swallows the lines after it, its own
// uses among them; a definition only sees the aliases defined before it, so
// this reads (and fails) at once instead of expanding itself forever (a
// fuzzer's find).
TEST(ScanMlirFile, AnAliasCannotUseItself) {
  absl::StatusOr<MlirFileScan> scan = ScanMlirFile(
      "#d = #ttnn.ttnn_layout<(d0, d1) ->((d5, dq), <1x1>,\n"
      "    memref<4x4x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>\n"
      "func.func @f(%a: tensor<128x128xf32, #d>) -> tensor<32x32xf32, #d]>>\n"
      "func.func @f(%a: tensor<128x128xf32, #d>) -> tensor<32x32xf32, #d> {\n");
  ASSERT_TRUE(scan.ok()) << scan.status();
  ASSERT_EQ(scan->types.size(), 2u);
  EXPECT_FALSE(scan->types[0].parsed.ok());
  absl::StatusOr<GridTensorText> t = ParseGridTensor(
      "#a = #ttnn.buffer_type<l1>\n#a = <#a>\ntensor<2xf32, #a>");
  ASSERT_FALSE(t.ok());
}

TEST(ScanMlirFile, AliasesAreBoundedInAll) {
  // 50 aliases of about 400 KB each: each under 1 MB, together past 16 MB.
  std::string text = "#a0 = #ttnn.buffer_type<l1>\n";
  for (int i = 1; i <= 14; ++i) {
    absl::StrAppend(&text, "#a", i, " = <#a", i - 1, ", #a", i - 1, ">\n");
  }
  for (int i = 0; i < 50; ++i) absl::StrAppend(&text, "#b", i, " = <#a14>\n");
  absl::StatusOr<MlirFileScan> scan = ScanMlirFile(text);
  ASSERT_FALSE(scan.ok());
  EXPECT_NE(scan.status().message().find(
                "alias definitions expand past 16 MB in all"),
            std::string::npos)
      << scan.status();
}

TEST(IsSingleTensorText, TypesAndModules) {
  EXPECT_TRUE(IsSingleTensorText(kWidth));
  EXPECT_TRUE(IsSingleTensorText("#l = #ttnn.buffer_type<l1>\n tensor<2xf32>"));
  EXPECT_FALSE(IsSingleTensorText("#l = #ttnn.buffer_type<l1>\nmodule {}"));
  EXPECT_FALSE(IsSingleTensorText("func.func @f()"));
}

TEST(ScanMlirFile, SectionsAliasesAndUses) {
  const char kFile[] =
      "#dram = #ttnn.buffer_type<dram>\n"
      "#l = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore."
      "tile<32x32, f32>, #dram>, <interleaved>>\n"
      "func.func @f(%a: tensor<32x32xf32, #l>) -> tensor<32x32xf32, #l> {\n"
      "  // CHECK: tensor<64x64xf32, #l>\n"
      "  %0 = \"ttnn.abs\"(%a) : (tensor<32x32xf32,\n"
      "      #l>) -> tensor<64x64xf32, #l>\n"
      "}\n"
      "// -----\n"
      "#l = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2xf32, "
      "#ttnn.buffer_type<sram>>>\n"
      "func.func @g(%a: tensor<2x2xf32, #l>, %b: tensor<2x2xf32>)\n";
  absl::StatusOr<MlirFileScan> scan = ScanMlirFile(kFile);
  ASSERT_TRUE(scan.ok()) << scan.status();
  EXPECT_EQ(scan->sections, 2);
  EXPECT_EQ(scan->aliases, 3);
  ASSERT_EQ(scan->types.size(), 3u);
  EXPECT_EQ(scan->types[0].line, 3);
  EXPECT_EQ(scan->types[0].column, 18);
  EXPECT_EQ(scan->types[0].uses, 3);  // the multi-line use counts
  EXPECT_EQ(scan->types[0].written, "tensor<32x32xf32, #l>");
  EXPECT_TRUE(scan->types[0].parsed.ok());
  EXPECT_EQ(scan->types[1].line, 6);  // not the CHECK line
  EXPECT_EQ(scan->types[1].uses, 1);
  EXPECT_EQ(scan->types[2].line, 10);
  ASSERT_FALSE(scan->types[2].parsed.ok());
  // The error points into the alias definition, in the file's lines.
  EXPECT_EQ(std::string(scan->types[2].parsed.status().message()).substr(0, 5),
            "9:87:");
}

TEST(ScanMlirFile, NeverClosedAlias) {
  absl::StatusOr<MlirFileScan> scan =
      ScanMlirFile("x\n#l = #ttnn.ttnn_layout<(d0) -> (d0)\n");
  ASSERT_FALSE(scan.ok());
  EXPECT_EQ(std::string(scan.status().message()).substr(0, 54),
            "2:1: the definition of '#l' never closes its brackets\n");
}

}  // namespace
}  // namespace hlolayout::grid

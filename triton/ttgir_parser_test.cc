// TTGIR text: layout attributes in both spellings, located errors, and the
// two kernels Triton 3.6.0 compiled (triton/testdata/*.ttgir).
#include "hlolayout/triton/ttgir_parser.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/triton_test_data.h"
#include "hlolayout/triton/named_layouts.h"
#include "hlolayout/triton/ttgir_printer.h"

namespace hlolayout::triton {
namespace {

using ::testing::HasSubstr;

TEST(TtgirParserTest, EveryLayoutKindRoundTrips) {
  const char* texts[] = {
      "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], "
      "warpsPerCTA = [4, 1], order = [1, 0]}>",
      "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], "
      "warpsPerCTA = [1, 4], order = [1, 0], CGALayout = [[0, 1]]}>",
      "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = "
      "[4, 1], instrShape = [16, 64, 16]}>",
      "#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, "
      "versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth "
      "= 2}>",
      "#ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 4], "
      "threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>",
      "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = "
      "[1, 0]}>",
      "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, "
      "elementBitWidth = 16}>",
      "#ttg.linear<{register = [[0, 1], [0, 2]], lane = [[1, 0], [2, 0], [4, "
      "0], [8, 0], [16, 0]], warp = [[0, 4], [0, 8]], block = []}>",
      "#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0]]}, alignment = "
      "1024>",
  };
  for (const char* text : texts) {
    absl::StatusOr<Layout> l = ParseLayout(text);
    ASSERT_TRUE(l.ok()) << text << "\n" << l.status();
    EXPECT_EQ(PrintLayout(*l), text);
  }
}

TEST(TtgirParserTest, OlderSpelling) {
  Layout mma = *ParseLayout(
      "#triton_gpu.mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = "
      "[2, 2], CTAsPerCGA = [1, 1], CTASplitNum = [1, 1], CTAOrder = [1, 0], "
      "instrShape = [16, 8]}>");
  EXPECT_EQ(PrintLayout(mma),
            "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, "
            "warpsPerCTA = [2, 2], instrShape = [16, 8]}>");
  Layout nvmma = *ParseLayout(
      "#triton_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, "
      "0], hasLeadingOffset = true}>");
  ASSERT_NE(nvmma.get<NvmmaSharedLayout>(), nullptr);
  EXPECT_EQ(nvmma.get<NvmmaSharedLayout>()->swizzle_bytes, 128);
}

TEST(TtgirParserTest, AliasesAsParents) {
  LayoutAliases aliases;
  aliases["#mma"].layout = std::make_shared<const Layout>(*ParseLayout(
      "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = "
      "[1, 1], instrShape = [16, 8]}>"));
  Layout dot = *ParseLayout(
      "#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>", &aliases);
  EXPECT_NE(dot.get<DotOperandLayout>()->parent->get<NvidiaMmaLayout>(),
            nullptr);
  EXPECT_EQ(ParseLayout("#ttg.slice<{dim = 0, parent = #nope}>", &aliases)
                .status()
                .message(),
            "1:31: undefined attribute alias #nope\n"
            "#ttg.slice<{dim = 0, parent = #nope}>\n"
            "                              ^");
}

TEST(TtgirParserTest, LocatedErrors) {
  EXPECT_EQ(ParseLayout("#ttg.blocked<{sizePerThread = [1, 4],\n"
                        "  threadsPerWarp = [4 8]}>")
                .status()
                .message(),
            "2:23: expected ',' or ']', found '8'\n"
            "  threadsPerWarp = [4 8]}>\n"
            "                      ^");
  EXPECT_THAT(ParseLayout("#ttg.blocked<{sizePerThread = [1], threadsPerWarp "
                          "= [32], warpsPerCTA = [4], order = [0], bogus = "
                          "1}>")
                  .status()
                  .message(),
              HasSubstr("1:91: unexpected key: bogus"));
  EXPECT_THAT(ParseLayout("#ttg.blocked<{sizePerThread = [-1], "
                          "threadsPerWarp = [32], warpsPerCTA = [4], order = "
                          "[0]}>")
                  .status()
                  .message(),
              HasSubstr("expected an unsigned integer value in number of "
                        "elements per thread"));
  EXPECT_THAT(ParseLayout("#ttg.linear<{register = [], lane = [], warp = [], "
                          "block = []}>")
                  .status()
                  .message(),
              HasSubstr("Empty Layout not supported"));
  EXPECT_THAT(ParseLayout("#ttg.linear<{register = [[1]], lane = []}>")
                  .status()
                  .message(),
              HasSubstr("Expected basis of 'warp' not found"));
  EXPECT_THAT(
      ParseLayout("#other.user_layout<{version = 3}>").status().message(),
      HasSubstr("#other.user_layout is not a Triton layout"));
  EXPECT_THAT(ParseLayout("#ttng.tensor_memory_encoding<blockM = 128, blockN "
                          "= 64, colStride = 1, foo = 1>")
                  .status()
                  .message(),
              HasSubstr("duplicate or unknown struct parameter name: foo"));
  EXPECT_THAT(ParseLayout("#ttng.tensor_memory_encoding<blockM = 128, "
                          "colStride = 1>")
                  .status()
                  .message(),
              HasSubstr("struct is missing required parameter: blockN"));
  EXPECT_THAT(ParseLayout("#ttg.shared_linear<{offset = [[1]], alignment = "
                          "16}>")
                  .status()
                  .message(),
              HasSubstr("alignment must be specified outside"));
  EXPECT_THAT(ParseLayout("#ttg.blocked<{order = [0]").status().message(),
              HasSubstr("expected ',' or '}'"));
  EXPECT_THAT(ParseLayout(std::string(200, '[')).status().message(),
              HasSubstr("nested too deeply"));
}

TEST(TtgirParserTest, MatmulKernel) {
  const std::string text =
      ReadTestFile("triton/testdata/matmul_f16_64x64x32_w4.ttgir");
  absl::StatusOr<TtgirModule> m = ParseTtgirModule(text);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->alias_order,
            (std::vector<std::string>{"#blocked", "#blocked1", "#mma",
                                      "#shared", "#shared1"}));
  EXPECT_EQ(m->num_warps, 4);
  EXPECT_EQ(m->threads_per_warp, 32);
  EXPECT_EQ(m->num_ctas, 1);
  EXPECT_EQ(m->target, "cuda:90");
  ASSERT_EQ(m->converts.size(), 1u);
  const ConvertLayoutOp& cvt = m->converts[0];
  EXPECT_EQ(cvt.src.encoding, "#mma");
  EXPECT_EQ(cvt.dst.encoding, "#blocked1");
  EXPECT_EQ(cvt.src.shape, (std::vector<int64_t>{64, 64}));
  EXPECT_EQ(cvt.src.element_type, "f16");
  // Memdescs with a pipelining dim describe their layout's trailing dims.
  bool saw_memdesc = false;
  for (const TtgirType& t : m->types) {
    if (t.memdesc && t.shape.size() == 3) {
      saw_memdesc = true;
      EXPECT_EQ(t.LayoutShape().size(), 2u);
      ASSERT_NE(t.layout.layout, nullptr);
    }
  }
  EXPECT_TRUE(saw_memdesc);
  // Inline layouts inside types.
  bool saw_inline_slice = false;
  for (const TtgirType& t : m->types) {
    if (t.encoding == "#ttg.slice<{dim = 1, parent = #blocked}>") {
      saw_inline_slice = true;
      ASSERT_NE(t.layout.layout, nullptr);
      EXPECT_NE(t.layout.layout->get<SliceLayout>(), nullptr);
    }
  }
  EXPECT_TRUE(saw_inline_slice);
}

TEST(TtgirParserTest, SoftmaxKernel) {
  absl::StatusOr<TtgirModule> m =
      ParseTtgirModule(ReadTestFile("triton/testdata/softmax_1024.ttgir"));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->alias_order, (std::vector<std::string>{"#blocked"}));
  EXPECT_TRUE(m->converts.empty());
  EXPECT_FALSE(m->types.empty());
  for (const TtgirType& t : m->types) {
    if (t.encoding.empty()) continue;
    ASSERT_NE(t.layout.layout, nullptr) << t.encoding;
  }
}

TEST(TtgirParserTest, ModuleErrorsAndAmdLayouts) {
  absl::StatusOr<TtgirModule> m = ParseTtgirModule(
      "#mfma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape "
      "= [32, 32, 8], isTransposed = true}>\n"
      "#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], "
      "warpsPerCTA = [4], order = [0]}>\n"
      "module attributes {\"ttg.num-warps\" = 4 : i32} {\n"
      "  %1 = ttg.convert_layout %0 : tensor<256xf32, #blocked> -> "
      "tensor<256xf32, #mfma>\n"
      "}\n");
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_NE(m->aliases["#mfma"].layout, nullptr);
  EXPECT_NE(m->aliases["#mfma"].layout->get<AmdMfmaLayout>(), nullptr);
  EXPECT_TRUE(m->aliases["#mfma"].unsupported.empty());
  ASSERT_EQ(m->converts.size(), 1u);
  EXPECT_EQ(m->converts[0].result, "%1");
  // The fields as written are kept too.
  EXPECT_EQ(m->aliases["#mfma"].kind, "amd_mfma");
  EXPECT_EQ(m->aliases["#mfma"].fields,
            (std::vector<std::pair<std::string, std::string>>{
                {"version", "3"},
                {"warpsPerCTA", "[2, 2]"},
                {"instrShape", "[32, 32, 8]"},
                {"isTransposed", "true"}}));
  EXPECT_EQ(m->aliases["#blocked"].kind, "blocked");
  EXPECT_EQ(ParseTtgirModule("#b = #ttg.blocked<{order = [0]}>\n"
                             "  %x = tt.load %p : tensor<8xf32, #c>\n")
                .status()
                .message(),
            "1:6: missing 'sizePerThread' in #ttg.blocked\n"
            "#b = #ttg.blocked<{order = [0]}>\n"
            "     ^");
  EXPECT_THAT(ParseTtgirModule("%x = tt.load %p : tensor<8xf32, #c>\n")
                  .status()
                  .message(),
              HasSubstr("1:33: undefined attribute alias #c"));
  EXPECT_THAT(ParseTtgirModule("%x = ttg.convert_layout %p : tensor<8xf32> "
                               "tensor<8xf32>")
                  .status()
                  .message(),
              HasSubstr("expected '->'"));
  EXPECT_THAT(ParseTtgirModule("x = \"unterminated").status().message(),
              HasSubstr("unterminated string"));
}

TEST(TtgirParserTest, EveryKindKeepsItsFields) {
  absl::StatusOr<TtgirModule> m = ParseTtgirModule(
      "#p = #ttg.padded_shared<[128:+16, 256:+8] {order = [1, 0], shape = "
      "[32, 64]}>\n"
      "#t = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride "
      "= 1>\n"
      "#s = #ttng.tensor_memory_scales_encoding<>\n"
      "#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = "
      "[32, 32, 8], isTransposed = true}>\n"
      "#d = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>\n"
      "%0 = ttg.local_alloc : () -> !ttg.memdesc<32x64xf16, #p, "
      "#ttg.shared_memory>\n"
      "%1 = ttg.convert_layout %x#1 : tensor<64x32xf16, #d> -> "
      "tensor<64x32xf16, #ttg.slice<{dim = 0, parent = #mma}>>\n");
  ASSERT_TRUE(m.ok()) << m.status();
  using Fields = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(m->aliases["#p"].fields, (Fields{{"intervals", "[128:+16, 256:+8]"},
                                             {"order", "[1, 0]"},
                                             {"shape", "[32, 64]"}}));
  EXPECT_EQ(m->aliases["#t"].kind, "tensor_memory_encoding");
  EXPECT_EQ(m->aliases["#t"].fields,
            (Fields{{"blockM", "128"}, {"blockN", "64"}, {"colStride", "1"}}));
  EXPECT_EQ(m->aliases["#s"].kind, "tensor_memory_scales_encoding");
  EXPECT_TRUE(m->aliases["#s"].fields.empty());
  EXPECT_EQ(m->aliases["#d"].kind, "dot_op");
  for (const char* name : {"#p", "#t", "#s", "#mma", "#d"}) {
    EXPECT_NE(m->aliases[name].layout, nullptr) << name;
  }
  ASSERT_EQ(m->converts.size(), 1u);
  EXPECT_EQ(m->converts[0].src.layout.kind, "dot_op");
  EXPECT_EQ(m->converts[0].dst.layout.kind, "slice");
  EXPECT_NE(m->converts[0].dst.layout.layout, nullptr);
  // A bad result number after '#'.
  EXPECT_THAT(std::string(ParseTtgirModule("%1 = ttg.convert_layout %x#a : "
                                           "tensor<4xf32> -> tensor<4xf32>")
                              .status()
                              .message()),
              HasSubstr("expected a result number (%name#N)"));
}

}  // namespace
}  // namespace hlolayout::triton

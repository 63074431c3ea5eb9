// Named layouts: the cases of Triton's LinearLayoutConversionsTest.cpp
// quoted in docs/triton.md (blocked, CGA, MMA v2/v3, dot operands, slices,
// swizzled and NVMMA shared layouts), written as TTGIR text.
#include "hlolayout/triton/named_layouts.h"

#include <memory>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/ttgir_parser.h"

namespace hlolayout::triton {
namespace {

using ::testing::HasSubstr;

LinearLayout Convert(const std::string& text, std::vector<int64_t> shape) {
  absl::StatusOr<Layout> layout = ParseLayout(text);
  EXPECT_TRUE(layout.ok()) << layout.status();
  absl::StatusOr<LinearLayout> l = ToLinearLayout(*layout, shape);
  EXPECT_TRUE(l.ok()) << l.status();
  return l.ok() ? *l : LinearLayout();
}

// The message of the parser's refusal (Triton's attribute verifiers),
// without its location and source window, or of the conversion's.
std::string Error(const std::string& text, std::vector<int64_t> shape) {
  absl::StatusOr<Layout> layout = ParseLayout(text);
  if (!layout.ok()) {
    std::string m(layout.status().message());
    m = m.substr(0, m.find('\n'));
    return m.substr(m.find(": ") == std::string::npos ? 0 : m.find(": ") + 2);
  }
  return std::string(ToLinearLayout(*layout, shape).status().message());
}

// The expected layout, register/lane/warp/block -> dim0.. with the shape's
// sizes.
LinearLayout Want(DimBases reg, DimBases lane, DimBases warp, DimBases block,
                  std::vector<int32_t> shape) {
  NamedInts outs;
  for (size_t i = 0; i < shape.size(); ++i) {
    outs.emplace_back("dim" + std::to_string(i), shape[i]);
  }
  return *LinearLayout::Create(
      {{"register", reg}, {"lane", lane}, {"warp", warp}, {"block", block}},
      outs, false);
}

LinearLayout WantShared(DimBases offset, std::vector<int32_t> shape) {
  NamedInts outs;
  for (size_t i = 0; i < shape.size(); ++i) {
    outs.emplace_back("dim" + std::to_string(i), shape[i]);
  }
  return *LinearLayout::Create({{"offset", offset}, {"block", {}}}, outs,
                               false);
}

std::string Blocked1D(int spt, int tpw, int wpc, const std::string& cta = "") {
  return "#ttg.blocked<{sizePerThread = [" + std::to_string(spt) +
         "], threadsPerWarp = [" + std::to_string(tpw) + "], warpsPerCTA = [" +
         std::to_string(wpc) + "], order = [0]" + cta + "}>";
}

TEST(NamedLayoutsTest, Blocked) {
  EXPECT_EQ(Convert(Blocked1D(1, 4, 4), {16}),
            Want({}, {{1}, {2}}, {{4}, {8}}, {}, {16}));
  // Shape smaller than the layout: the largest bases broadcast.
  EXPECT_EQ(Convert(Blocked1D(4, 4, 4), {8}),
            Want({{1}, {2}}, {{4}, {0}}, {{0}, {0}}, {}, {8}));
  // Larger: more registers.
  EXPECT_EQ(Convert(Blocked1D(1, 4, 4), {128}),
            Want({{16}, {32}, {64}}, {{1}, {2}}, {{4}, {8}}, {}, {128}));
}

TEST(NamedLayoutsTest, BlockedWithCtaTilingInBothSpellings) {
  const LinearLayout want = Want(
      {{0, 1}, {1, 0}, {0, 32}, {16, 0}, {32, 0}, {64, 0}, {128, 0}, {256, 0}},
      {{0, 2}, {0, 4}, {0, 8}, {2, 0}, {4, 0}}, {{0, 16}, {8, 0}},
      {{0, 64}, {512, 0}}, {1024, 128});
  EXPECT_EQ(Convert("#triton_gpu.blocked<{sizePerThread = [2, 2], "
                    "threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = "
                    "[1, 0], CTAsPerCGA = [2, 2], CTASplitNum = [2, 2], "
                    "CTAOrder = [1, 0]}>",
                    {1024, 128}),
            want);
  EXPECT_EQ(Convert("#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = "
                    "[4, 8], warpsPerCTA = [2, 2], order = [1, 0], CGALayout "
                    "= [[0, 1], [1, 0]]}>",
                    {1024, 128}),
            want);
  // Four CTAs split two ways: duplicated.
  EXPECT_EQ(Convert(Blocked1D(1, 4, 4,
                              ", CTAsPerCGA = [4], CTASplitNum = [2], "
                              "CTAOrder = [0]"),
                    {32}),
            Want({}, {{1}, {2}}, {{4}, {8}}, {{16}, {0}}, {32}));
}

TEST(NamedLayoutsTest, BlockedRefusals) {
  EXPECT_EQ(Error("#ttg.blocked<{sizePerThread = [3], threadsPerWarp = [32], "
                  "warpsPerCTA = [4], order = [0]}>",
                  {64}),
            "Every element in sizePerThread must be a power of two.");
  EXPECT_EQ(Error("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = "
                  "[32], warpsPerCTA = [4], order = [0]}>",
                  {64}),
            "sizePerThread, threadsPerWarp, warpsPerCTA, and order must all "
            "have the same rank.");
  EXPECT_EQ(Error("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = "
                  "[4, 8], warpsPerCTA = [4, 1], order = [0, 0]}>",
                  {64, 64}),
            "order must be a permutation of 0..(rank-1), but was [0, 0]");
  EXPECT_THAT(Error(Blocked1D(1, 32, 4), {64, 2}),
              HasSubstr("Layout has rank 1, but the tensor it's attached to "
                        "has rank 2."));
  EXPECT_THAT(Error(Blocked1D(1, 32, 4), {48}),
              HasSubstr("not made of powers of two"));
  // A CGA whose bases do not cover their sizes.
  EXPECT_THAT(Error("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = "
                    "[4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout "
                    "= [[0, 2]]}>",
                    {64, 64}),
              HasSubstr("Layout is expected to be surjective"));
}

const char kMmaV2[] =
    "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, "
    "1], instrShape = [16, 8]}>";

TEST(NamedLayoutsTest, MmaV2) {
  EXPECT_EQ(Convert(kMmaV2, {32, 32}),
            Want({{0, 1}, {8, 0}, {0, 8}, {0, 16}, {16, 0}},
                 {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, {}, {}, {32, 32}));
}

TEST(NamedLayoutsTest, MmaV3) {
  const std::string mma =
      "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = "
      "[4, 2], instrShape = [16, 32, 16]}>";
  const DimBases lane = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
  EXPECT_EQ(Convert(mma, {64, 64}),
            Want({{0, 1}, {8, 0}, {0, 8}, {0, 16}}, lane,
                 {{16, 0}, {32, 0}, {0, 32}}, {}, {64, 64}));
  EXPECT_EQ(Convert(mma, {128, 64}),
            Want({{0, 1}, {8, 0}, {0, 8}, {0, 16}, {64, 0}}, lane,
                 {{16, 0}, {32, 0}, {0, 32}}, {}, {128, 64}));
  EXPECT_EQ(Convert(mma, {64, 32}),
            Want({{0, 1}, {8, 0}, {0, 8}, {0, 16}}, lane,
                 {{16, 0}, {32, 0}, {0, 0}}, {}, {64, 32}));
  for (const char* instr : {"[16, 16, 8]", "[16, 8, 8]"}) {
    EXPECT_EQ(
        Convert(std::string("#ttg.nvidia_mma<{versionMajor = 3, "
                            "versionMinor = 0, warpsPerCTA = [4, 1], "
                            "instrShape = ") +
                    instr + "}>",
                {64, 16}),
        Want({{0, 1}, {8, 0}, {0, 8}}, lane, {{16, 0}, {32, 0}}, {}, {64, 16}));
  }
  EXPECT_THAT(Error("#ttg.nvidia_mma<{versionMajor = 5, versionMinor = 0, "
                    "warpsPerCTA = [4, 1], instrShape = [16, 8]}>",
                    {64, 64}),
              HasSubstr("version 5 is not converted"));
}

TEST(NamedLayoutsTest, DotOperandOfMmaV2) {
  const std::string a = std::string("#ttg.dot_op<{opIdx = 0, parent = ") +
                        kMmaV2 + ", kWidth = 8}>";
  const std::string b = std::string("#ttg.dot_op<{opIdx = 1, parent = ") +
                        kMmaV2 + ", kWidth = 8}>";
  EXPECT_EQ(Convert(a, {16, 64}),
            Want({{0, 1}, {0, 2}, {0, 4}, {8, 0}, {0, 32}},
                 {{0, 8}, {0, 16}, {1, 0}, {2, 0}, {4, 0}}, {}, {}, {16, 64}));
  EXPECT_EQ(Convert(b, {64, 8}),
            Want({{1, 0}, {2, 0}, {4, 0}, {32, 0}},
                 {{8, 0}, {16, 0}, {0, 1}, {0, 2}, {0, 4}}, {}, {}, {64, 8}));
  // Warps broadcast along K.
  const std::string mma22 =
      "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = "
      "[2, 2], instrShape = [16, 8]}>";
  LinearLayout a22 = Convert(
      "#ttg.dot_op<{opIdx = 0, parent = " + mma22 + ", kWidth = 8}>", {32, 64});
  EXPECT_EQ(a22.bases()[2].second, (DimBases{{0, 0}, {16, 0}}));
  LinearLayout b22 = Convert(
      "#ttg.dot_op<{opIdx = 1, parent = " + mma22 + ", kWidth = 8}>", {64, 16});
  EXPECT_EQ(b22.bases()[2].second, (DimBases{{0, 8}, {0, 0}}));
  // Hopper keeps B in shared memory: Triton's verifier refuses the text, the
  // conversion the value.
  EXPECT_THAT(Error("#ttg.dot_op<{opIdx = 1, parent = #ttg.nvidia_mma<{"
                    "versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, "
                    "1], instrShape = [16, 64, 16]}>, kWidth = 2}>",
                    {64, 64}),
              HasSubstr("opIdx parameter must be 0 for Hopper MMA parent"));
  DotOperandLayout b_of_v3;
  b_of_v3.op_idx = 1;
  b_of_v3.k_width = 2;
  b_of_v3.parent = std::make_shared<const Layout>(
      NvidiaMmaLayout{3, 0, {4, 1}, {16, 64, 16}, {}});
  EXPECT_THAT(
      std::string(ToLinearLayout(Layout(b_of_v3), {64, 64}).status().message()),
      HasSubstr("B operand from shared memory"));
}

TEST(NamedLayoutsTest, DotOperandOfBlockedKeepsKInRegisters) {
  const std::string blocked =
      "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], "
      "warpsPerCTA = [2, 2], order = [1, 0]}>";
  LinearLayout a =
      Convert("#ttg.dot_op<{opIdx = 0, parent = " + blocked + "}>", {16, 8});
  // K (dim1) entirely in registers; lanes and warps broadcast along K.
  EXPECT_EQ(a, Want({{0, 1}, {0, 2}, {0, 4}},
                    {{0, 0}, {0, 0}, {1, 0}, {2, 0}, {4, 0}}, {{0, 0}, {8, 0}},
                    {}, {16, 8}));
}

TEST(NamedLayoutsTest, SliceOfMmaV2) {
  const std::string p =
      "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = "
      "[2, 2], instrShape = [16, 8]}>";
  EXPECT_EQ(Convert("#ttg.slice<{dim = 0, parent = " + p + "}>", {16}),
            Want({{1}}, {{2}, {4}, {0}, {0}, {0}}, {{8}, {0}}, {}, {16}));
  EXPECT_EQ(Convert("#ttg.slice<{dim = 1, parent = " + p + "}>", {128}),
            Want({{8}, {32}, {64}}, {{0}, {0}, {1}, {2}, {4}}, {{0}, {16}}, {},
                 {128}));
  // Triton 3.6.0 drops all-zero registers of a slice (an older version
  // re-added one here, giving register {{0}}).
  EXPECT_EQ(Convert("#ttg.slice<{dim = 1, parent = " + p + "}>", {8})
                .bases()[0]
                .second,
            DimBases{});
  EXPECT_THAT(Error("#ttg.slice<{dim = 2, parent = " + p + "}>", {8}),
              HasSubstr("slice dim=2 must be less than the parent rank=2"));
}

std::string Swizzled(int vec, int pp, int mp, const std::string& order) {
  return "#ttg.swizzled_shared<{vec = " + std::to_string(vec) +
         ", perPhase = " + std::to_string(pp) +
         ", maxPhase = " + std::to_string(mp) + ", order = " + order + "}>";
}

TEST(NamedLayoutsTest, SwizzledShared) {
  EXPECT_EQ(Convert(Swizzled(2, 1, 4, "[1, 0]"), {4, 8}),
            WantShared({{0, 1}, {0, 2}, {0, 4}, {1, 2}, {2, 4}}, {4, 8}));
  EXPECT_EQ(Convert(Swizzled(2, 2, 4, "[1, 0]"), {32, 32}),
            WantShared({{0, 1},
                        {0, 2},
                        {0, 4},
                        {0, 8},
                        {0, 16},
                        {1, 0},
                        {2, 2},
                        {4, 4},
                        {8, 0},
                        {16, 0}},
                       {32, 32}));
  EXPECT_EQ(Convert(Swizzled(1, 1, 4, "[0, 1]"), {4, 8}),
            WantShared({{1, 0}, {2, 0}, {1, 1}, {2, 2}, {0, 4}}, {4, 8}));
  // The older spelling.
  EXPECT_EQ(Convert("#triton_gpu.shared<{vec = 2, perPhase = 1, maxPhase = "
                    "4, order = [1, 0], hasLeadingOffset = false}>",
                    {4, 8}),
            WantShared({{0, 1}, {0, 2}, {0, 4}, {1, 2}, {2, 4}}, {4, 8}));
  // Rank 1 is the identity.
  EXPECT_EQ(Convert("#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase "
                    "= 1, order = [0]}>",
                    {8}),
            WantShared({{1}, {2}, {4}}, {8}));
}

TEST(NamedLayoutsTest, NvmmaShared) {
  EXPECT_EQ(Convert("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed "
                    "= false, elementBitWidth = 16}>",
                    {8, 64}),
            WantShared({{0, 1},
                        {0, 2},
                        {0, 4},
                        {0, 8},
                        {0, 16},
                        {0, 32},
                        {1, 8},
                        {2, 16},
                        {4, 32}},
                       {8, 64}));
  EXPECT_EQ(Convert("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed "
                    "= false, elementBitWidth = 32}>",
                    {8, 64}),
            WantShared({{0, 1},
                        {0, 2},
                        {0, 4},
                        {0, 8},
                        {0, 16},
                        {1, 4},
                        {2, 8},
                        {4, 16},
                        {0, 32}},
                       {8, 64}));
  // Transposed: the contiguous dim is dim0.
  LinearLayout t = Convert(
      "#ttg.nvmma_shared<{swizzlingByteWidth = 64, "
      "transposed = true, elementBitWidth = 16}>",
      {32, 16});
  EXPECT_EQ(t.bases()[0].second[0], (std::vector<int32_t>{1, 0}));
  EXPECT_TRUE(t.IsInvertible());
  EXPECT_THAT(Error("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed "
                    "= false, elementBitWidth = 16}>",
                    {8, 32}),
              HasSubstr("too small for the swizzle byte size 128"));
}

TEST(NamedLayoutsTest, SharedLayoutsAreBijectiveOnEveryOffset) {
  for (int bits : {8, 16, 32}) {
    for (int swizzle : {0, 32, 64, 128}) {
      for (bool transposed : {false, true}) {
        const std::string text =
            "#ttg.nvmma_shared<{swizzlingByteWidth = " +
            std::to_string(swizzle) +
            ", transposed = " + (transposed ? "true" : "false") +
            ", elementBitWidth = " + std::to_string(bits) + "}>";
        LinearLayout l = Convert(text, {128, 128});
        EXPECT_TRUE(l.IsInvertible()) << text << l;
      }
    }
  }
}

TEST(NamedLayoutsTest, LinearLayoutsResizeToTheShape) {
  const std::string text =
      "#ttg.linear<{register = [[0, 1], [0, 2]], lane = [[1, 0], [2, 0], [4, "
      "0], [8, 0], [16, 0]], warp = [[0, 4], [0, 8]], block = []}>";
  LinearLayout same = Convert(text, {32, 16});
  EXPECT_EQ(same.OutDimSize(0), 32);
  // Larger: more registers; smaller: register bases dropped.
  EXPECT_EQ(Convert(text, {32, 32}).InDimSizeLog2(0), 3);
  EXPECT_EQ(Convert(text, {32, 2}).InDimSizeLog2(0), 1);
}

}  // namespace
}  // namespace hlolayout::triton

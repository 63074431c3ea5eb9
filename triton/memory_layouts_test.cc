// Tensor memory, its scales, padded and partitioned shared layouts, and
// Triton's checks of a layout where a type uses it: properties over small
// parameter sets (rows and columns, colStride's unused columns, the two CTA
// spellings, the padding arithmetic, a partition's pieces) and the
// refusals' messages.
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/named_layouts.h"
#include "hlolayout/triton/ttgir_parser.h"
#include "hlolayout/triton/ttgir_printer.h"
#include "hlolayout/triton/type_verifier.h"
#include "hlolayout/views/triton_picture.h"

namespace hlolayout::triton {
namespace {

using ::testing::HasSubstr;

LinearLayout Convert(const std::string& text, std::vector<int64_t> shape) {
  absl::StatusOr<Layout> layout = ParseLayout(text);
  EXPECT_TRUE(layout.ok()) << layout.status();
  if (!layout.ok()) return LinearLayout();
  absl::StatusOr<LinearLayout> l = ToLinearLayout(*layout, shape);
  EXPECT_TRUE(l.ok()) << l.status();
  return l.ok() ? *l : LinearLayout();
}

std::vector<int32_t> Basis(const LinearLayout& l, const char* in, int i) {
  auto b = l.Basis(l.InDimIndex(in), i);
  return std::vector<int32_t>(b.begin(), b.end());
}

std::string Tmem(int m, int n, int stride, const std::string& rest = "") {
  return absl::StrCat("#ttng.tensor_memory_encoding<blockM = ", m,
                      ", blockN = ", n, ", colStride = ", stride, rest, ">");
}

// blockM = 128: a row of TMEM per row of the tensor; colStride c leaves
// c - 1 of every c 32-bit columns unused (zero bases first); the
// allocation covered.
TEST(MemoryLayoutsTest, TensorMemoryRowsAndColumns) {
  for (int stride : {1, 2, 4}) {
    for (int n : {8, 64, 256}) {
      for (int64_t rows : {128, 256}) {
        const int64_t cols = 2 * n;
        const LinearLayout l = Convert(Tmem(128, n, stride), {rows, cols});
        SCOPED_TRACE(Tmem(128, n, stride));
        EXPECT_TRUE(l.IsSurjective());
        ASSERT_EQ(l.InDimSizeLog2(l.InDimIndex("row")), 7);
        for (int i = 0; i < 7; ++i) {
          EXPECT_EQ(Basis(l, "row", i), (std::vector<int32_t>{1 << i, 0}));
        }
        int zeros = 0;
        while (zeros < l.InDimSizeLog2(l.InDimIndex("col")) &&
               Basis(l, "col", zeros) == std::vector<int32_t>{0, 0}) {
          ++zeros;
        }
        EXPECT_EQ(1 << zeros, stride);
      }
    }
  }
}

// blockM = 64 on one CTA: 16 rows, the columns, then rows 16 and 32; the
// 64-row bit goes where the second half of the tensor is.
TEST(MemoryLayoutsTest, TensorMemoryBlockM64) {
  const LinearLayout tall = Convert(Tmem(64, 32, 1), {128, 32});
  EXPECT_EQ(Basis(tall, "row", 4), (std::vector<int32_t>{64, 0}));
  const LinearLayout wide = Convert(Tmem(64, 32, 1), {64, 64});
  EXPECT_EQ(Basis(wide, "row", 4), (std::vector<int32_t>{0, 32}));
  const LinearLayout one = Convert(Tmem(64, 32, 1), {64, 32});
  EXPECT_EQ(Basis(one, "row", 4), (std::vector<int32_t>{0, 0}));
  // fp4Padded: the lowest column bit picks the padded half.
  const LinearLayout fp4 =
      Convert(Tmem(128, 64, 1, ", fp4Padded = true"), {128, 64});
  EXPECT_EQ(Basis(fp4, "col", 0), (std::vector<int32_t>{0, 0}));
  EXPECT_EQ(Basis(fp4, "col", 1), (std::vector<int32_t>{0, 1}));
}

// Triton 3.6's CTASplitM and today's CGALayout place the same rows and
// columns; 3.6 numbers the second CTA's piece as more columns, today as a
// block.
TEST(MemoryLayoutsTest, TensorMemoryCtaSpellings) {
  const LinearLayout legacy =
      Convert(Tmem(128, 64, 1, ", CTASplitM = 2"), {256, 64});
  const LinearLayout today =
      Convert(Tmem(128, 64, 1, ", CGALayout = [[1, 0]]"), {256, 64});
  EXPECT_EQ(legacy.bases()[0], today.bases()[0]);  // rows
  const int cols = legacy.InDimSizeLog2(legacy.InDimIndex("col"));
  EXPECT_EQ(Basis(legacy, "col", cols - 1), (std::vector<int32_t>{128, 0}));
  EXPECT_EQ(Basis(today, "block", 0), (std::vector<int32_t>{128, 0}));
  EXPECT_EQ(today.in_dim_names(),
            (std::vector<std::string>{"row", "col", "block"}));
}

TEST(MemoryLayoutsTest, TensorMemoryScales) {
  const LinearLayout l =
      Convert("#ttng.tensor_memory_scales_encoding<>", {128, 8});
  // 32 rows, copied on each warp's 32 lanes (zero row bases 32 and 64).
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(Basis(l, "row", i), (std::vector<int32_t>{1 << i, 0}));
  }
  EXPECT_EQ(Basis(l, "row", 5), (std::vector<int32_t>{0, 0}));
  EXPECT_EQ(Basis(l, "row", 6), (std::vector<int32_t>{0, 0}));
  EXPECT_TRUE(l.IsSurjective());
}

int64_t Reference(int64_t offset,
                  const std::vector<std::pair<int32_t, int32_t>>& pads) {
  int64_t out = offset;
  for (const auto& [interval, pad] : pads) out += (offset / interval) * pad;
  return out;
}

// Padding: distinct, increasing physical offsets; the padded size Triton
// allocates (getPaddedSize) is the last one plus one.
TEST(MemoryLayoutsTest, PaddedOffsetsAreIncreasing) {
  const std::vector<std::vector<std::pair<int32_t, int32_t>>> pads = {
      {{32, 4}}, {{2, 1}, {4, 2}}, {{128, 16}, {1024, 8}}, {{1, 1}}};
  for (const auto& p : pads) {
    int64_t last = -1;
    for (int64_t x = 0; x < 4096; ++x) {
      const int64_t o = PaddedOffset(x, p);
      EXPECT_EQ(o, Reference(x, p));
      EXPECT_GT(o, last);
      last = o;
    }
  }
  // Gluon's docstring: [[2, 1], [4, 2]] over e0..e7.
  const std::vector<std::pair<int32_t, int32_t>> doc = {{2, 1}, {4, 2}};
  std::vector<int64_t> got;
  for (int x = 0; x < 8; ++x) got.push_back(PaddedOffset(x, doc));
  EXPECT_EQ(got, (std::vector<int64_t>{0, 1, 3, 4, 8, 9, 11, 12}));
}

TEST(MemoryLayoutsTest, PaddedPrintsItsShortFormOnlyForAnIdentity) {
  for (const std::string text :
       {"#ttg.padded_shared<[32:+4] {order = [1, 0], shape = [16, 16]}>",
        "#ttg.padded_shared<[32:+4, 128:+8] {order = [0, 1], shape = [4, 8]}>",
        "#ttg.padded_shared<[8:+2] {offset = [[0, 2], [0, 1], [1, 0]], block "
        "= []}>",
        "#ttg.padded_shared<[8:+2] {offset = [[0, 1], [1, 0]], block = [[0, "
        "2]]}>"}) {
    absl::StatusOr<Layout> l = ParseLayout(text);
    ASSERT_TRUE(l.ok()) << l.status();
    EXPECT_EQ(PrintLayout(*l), text);
  }
}

// A partitioned layout: the piece's layout, the partition bit above it
// along partitionDim, then the groups in more offsets.
TEST(MemoryLayoutsTest, PartitionedPieces) {
  const std::string inner =
      "#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = "
      "[1, 0]}>";
  const LinearLayout piece = Convert(inner, {16, 32});
  const LinearLayout l = Convert(
      absl::StrCat("#ttg.partitioned_shared<{numPartitions = 2, numGroups = "
                   "4, partitionDim = 0, partitionLayout = ",
                   inner, "}>"),
      {128, 32});
  EXPECT_EQ(l.in_dim_names(),
            (std::vector<std::string>{"offset", "block", "partition"}));
  const int n = piece.InDimSizeLog2(0);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(Basis(l, "offset", i), Basis(piece, "offset", i));
  }
  EXPECT_EQ(Basis(l, "partition", 0), (std::vector<int32_t>{16, 0}));
  EXPECT_EQ(Basis(l, "offset", n), (std::vector<int32_t>{32, 0}));
  EXPECT_EQ(Basis(l, "offset", n + 1), (std::vector<int32_t>{64, 0}));
  EXPECT_TRUE(l.IsInvertible());
}

absl::Status Use(const std::string& text, std::vector<int64_t> shape,
                 bool memdesc, int bits, int tpw, int warps, int ctas = 1) {
  absl::StatusOr<Layout> l = ParseLayout(text);
  if (!l.ok()) return l.status();
  LayoutUse use;
  use.shape = std::move(shape);
  use.memdesc = memdesc;
  use.element_bits = bits;
  use.threads_per_warp = tpw;
  use.num_warps = warps;
  use.num_ctas = ctas;
  return LayoutForUse(*l, use).status();
}

TEST(MemoryLayoutsTest, TritonsChecksWhereATypeUsesALayout) {
  const std::string mfma =
      "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, "
      "32, 8], isTransposed = true}>";
  EXPECT_TRUE(Use(mfma, {64, 64}, false, 32, 64, 4).ok());
  EXPECT_THAT(std::string(Use(mfma, {64, 64}, false, 32, 32, 4).message()),
              HasSubstr("Layout has 64 threads per warp, but the module "
                        "specifies 32 threads per warp."));
  EXPECT_THAT(std::string(Use(mfma, {64, 64}, false, 32, 64, 8).message()),
              HasSubstr("Layout has 4 warps per CTA, but the context "
                        "requires 8 warps per CTA."));
  EXPECT_THAT(std::string(Use(mfma, {64, 64}, false, 32, 64, 4, 2).message()),
              HasSubstr("Layout has 1 CTAs per CGA, but the context requires "
                        "2 CTAs per CGA."));
  EXPECT_THAT(std::string(Use(mfma, {4, 64, 64}, false, 32, 64, 4).message()),
              HasSubstr("Layout has rank 2, but the tensor it's attached to "
                        "has rank 3."));
  EXPECT_THAT(
      std::string(Use(Tmem(128, 64, 2), {128, 64}, true, 32, 32, 4).message()),
      HasSubstr("bitwidth * colStride must be less than or equal to "
                "32. Got 32 and 2"));
  EXPECT_THAT(
      std::string(Use(Tmem(128, 64, 1), {64, 64}, true, 32, 32, 4).message()),
      HasSubstr("the tensor shape must be at least 128x64. Got 64, 64"));
  EXPECT_TRUE(Use(Tmem(128, 256, 1), {2, 128, 64}, true, 16, 32, 4).ok());
  EXPECT_THAT(std::string(Use("#ttng.tensor_memory_scales_encoding<>", {128, 4},
                              true, 16, 32, 4)
                              .message()),
              HasSubstr("bitwidth must be 8"));
  EXPECT_THAT(
      std::string(Use("#ttg.padded_shared<[8:+2] {order = [1, 0], shape = [4, "
                      "8]}>",
                      {4, 16}, true, 16, 32, 4)
                      .message()),
      HasSubstr("Mismatch in expected shape for dimension 1. Expected: 16, "
                "got: 8"));
  EXPECT_THAT(std::string(Use(mfma, {64, 64}, true, 32, 64, 4).message()),
              HasSubstr("is not a valid encoding"));
  EXPECT_THAT(
      std::string(Use("#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase "
                      "= 1, order = [1, 0]}>",
                      {64, 64}, false, 16, 32, 4)
                      .message()),
      HasSubstr("Non-distributed layout is not allowed in tensor type."));
  // Generic linear layouts count their CTAs per dim: no swizzled block.
  EXPECT_THAT(
      std::string(Use("#ttg.generic_linear<{register = [[1], [2]], lane = "
                      "[[4], [8], [16], [32], [64]], warp = [], block = "
                      "[[3]]}>",
                      {128}, false, 32, 32, 1, 2)
                      .message()),
      HasSubstr("basesPerDim cannot decompose swizzled bases"));
}

}  // namespace
}  // namespace hlolayout::triton

// AMD's layouts: worked cases of Triton's LinearLayoutConversionsTest.cpp
// (MFMA32/16 with 2x4 warps, f64, WMMA v2), properties over every small
// MFMA and WMMA parameter set (bijective on one CTA tile, kWidth registers
// along K, a slice dropping its dim, the two WMMA spellings agreeing, the
// operands' CGA layouts), the rotating shared layout, and the instruction
// pictures.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/named_layouts.h"
#include "hlolayout/triton/named_layouts_internal.h"
#include "hlolayout/triton/ttgir_parser.h"
#include "hlolayout/views/amd_picture.h"

namespace hlolayout::triton {
namespace {

using ::testing::HasSubstr;

LinearLayout Convert(const Layout& layout, std::vector<int64_t> shape) {
  absl::StatusOr<LinearLayout> l = ToLinearLayout(layout, shape);
  EXPECT_TRUE(l.ok()) << l.status();
  return l.ok() ? *l : LinearLayout();
}

LinearLayout Convert(const std::string& text, std::vector<int64_t> shape) {
  absl::StatusOr<Layout> layout = ParseLayout(text);
  EXPECT_TRUE(layout.ok()) << layout.status();
  return layout.ok() ? Convert(*layout, shape) : LinearLayout();
}

LinearLayout Want(DimBases reg, DimBases lane, DimBases warp,
                  std::vector<int32_t> shape) {
  NamedInts outs;
  for (size_t i = 0; i < shape.size(); ++i) {
    outs.emplace_back(absl::StrCat("dim", i), shape[i]);
  }
  return *LinearLayout::Create(
      {{"register", reg}, {"lane", lane}, {"warp", warp}, {"block", {}}}, outs,
      false);
}

Layout Mfma(std::vector<int32_t> instr, bool transposed,
            std::vector<int32_t> warps, std::vector<int32_t> tiles = {},
            int bits = 32) {
  AmdMfmaLayout m;
  m.version = 3;
  m.instr_shape = std::move(instr);
  m.is_transposed = transposed;
  m.warps_per_cta = std::move(warps);
  m.tiles_per_warp = std::move(tiles);
  m.element_bits = bits;
  return Layout(m);
}

std::vector<int32_t> Basis(const LinearLayout& l, const char* in, int i) {
  auto b = l.Basis(l.InDimIndex(in), i);
  return std::vector<int32_t>(b.begin(), b.end());
}

TEST(AmdLayoutsTest, MfmaCasesOfTritonsTests) {
  const Layout nt = Mfma({32, 32, 8}, false, {2, 4});
  EXPECT_EQ(Convert(nt, {32, 32}),
            Want({{1, 0}, {2, 0}, {8, 0}, {16, 0}},
                 {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {4, 0}},
                 {{0, 0}, {0, 0}, {0, 0}}, {32, 32}));
  EXPECT_EQ(Convert(nt, {64, 32}),
            Want({{1, 0}, {2, 0}, {8, 0}, {16, 0}},
                 {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {4, 0}},
                 {{0, 0}, {0, 0}, {32, 0}}, {64, 32}));
  EXPECT_EQ(Convert(nt, {128, 128}),
            Want({{1, 0}, {2, 0}, {8, 0}, {16, 0}, {64, 0}},
                 {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {4, 0}},
                 {{0, 32}, {0, 64}, {32, 0}}, {128, 128}));
  const Layout t = Mfma({32, 32, 8}, true, {2, 4});
  EXPECT_EQ(Convert(t, {128, 128}),
            Want({{0, 1}, {0, 2}, {0, 8}, {0, 16}, {64, 0}},
                 {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {0, 4}},
                 {{0, 32}, {0, 64}, {32, 0}}, {128, 128}));
  EXPECT_EQ(
      Convert(Mfma({16, 16, 16}, false, {2, 4}), {16, 16}),
      Want({{1, 0}, {2, 0}}, {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {4, 0}, {8, 0}},
           {{0, 0}, {0, 0}, {0, 0}}, {16, 16}));
  // f64 accumulators: one element per lane per tile row group.
  EXPECT_EQ(
      Convert(Mfma({16, 16, 4}, false, {2, 4}, {}, 64), {16, 16}),
      Want({{4, 0}, {8, 0}}, {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {1, 0}, {2, 0}},
           {{0, 0}, {0, 0}, {0, 0}}, {16, 16}));
}

TEST(AmdLayoutsTest, WmmaCaseOfTritonsTests) {
  // Triton's test builds the CTA layout of 2x4 warps: warp bases in tiles.
  const std::string v2 =
      "#ttg.amd_wmma<{version = 2, isTranspose = false, ctaLayout = {warp = "
      "[[0, 1], [0, 2], [1, 0]]}}>";
  EXPECT_EQ(
      Convert(v2, {16, 16}),
      Want({{1, 0}, {2, 0}, {4, 0}}, {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {8, 0}},
           {{0, 0}, {0, 0}, {0, 0}}, {16, 16}));
  EXPECT_EQ(Convert(v2, {64, 128}),
            Want({{1, 0}, {2, 0}, {4, 0}, {0, 64}, {32, 0}},
                 {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {8, 0}},
                 {{0, 16}, {0, 32}, {16, 0}}, {64, 128}));
}

// Every small MFMA: one CTA tile (instruction x tiles per warp x warps) is
// covered exactly once; the first `height` registers run along M (along N
// when transposed), 4 of them for 32-bit accumulators.
TEST(AmdLayoutsTest, MfmaIsABijectionOnItsTile) {
  const std::vector<std::vector<int32_t>> instrs = {
      {32, 32, 8}, {16, 16, 16}, {64, 4, 4}, {4, 64, 4}};
  int checked = 0;
  for (const auto& instr : instrs) {
    for (bool transposed : {false, true}) {
      if (instr[0] == 64 && !transposed) continue;
      for (int bits : {32, 64}) {
        for (std::vector<int32_t> warps :
             {std::vector<int32_t>{1, 1}, {2, 1}, {1, 2}, {2, 2}, {4, 2}}) {
          for (std::vector<int32_t> tiles :
               {std::vector<int32_t>{1, 1}, {2, 1}, {1, 2}, {2, 2}}) {
            const Layout m = Mfma(instr, transposed, warps, tiles, bits);
            const std::vector<int64_t> tile = {
                int64_t{instr[0]} * warps[0] * tiles[0],
                int64_t{instr[1]} * warps[1] * tiles[1]};
            const LinearLayout l = Convert(m, tile);
            SCOPED_TRACE(absl::StrCat(absl::StrJoin(instr, "x"), " t",
                                      transposed, " ", bits, " w",
                                      absl::StrJoin(warps, "x"), " tiles",
                                      absl::StrJoin(tiles, "x")));
            EXPECT_TRUE(l.IsInvertible()) << l.ToString();
            EXPECT_EQ(l.InDimSize(l.InDimIndex("lane")), 64);
            EXPECT_EQ(l.InDimSize(l.InDimIndex("warp")), warps[0] * warps[1]);
            const int along = transposed ? 1 : 0;
            const std::vector<int32_t> first = Basis(l, "register", 0);
            if (bits == 32 && !(instr[0] == 4 && instr[1] == 64) &&
                !(instr[0] == 64 && instr[1] == 4)) {
              EXPECT_EQ(first[along], 1);
              EXPECT_EQ(first[1 - along], 0);
            }
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_EQ(checked, 7 * 2 * 5 * 4);
}

// A dot operand: kWidth consecutive K elements per lane, then the other dim
// across lanes; the whole operand tile covered.
TEST(AmdLayoutsTest, MfmaOperandsHoldKWidthAlongK) {
  for (const std::vector<int32_t>& instr :
       {std::vector<int32_t>{32, 32, 8}, {16, 16, 16}}) {
    for (int op = 0; op < 2; ++op) {
      for (int k_width : {1, 2, 4, 8, 16}) {
        auto parent =
            std::make_shared<const Layout>(Mfma(instr, op == 1, {2, 2}));
        const Layout dot = Layout(DotOperandLayout{op, parent, k_width});
        const int64_t k = int64_t{k_width} * (64 / instr[op]) * 2;
        const std::vector<int64_t> shape =
            op == 0 ? std::vector<int64_t>{2 * instr[0], k}
                    : std::vector<int64_t>{k, 2 * instr[1]};
        const LinearLayout l = Convert(dot, shape);
        SCOPED_TRACE(absl::StrCat("op ", op, " kWidth ", k_width));
        EXPECT_TRUE(l.IsSurjective());
        const int k_dim = op == 0 ? 1 : 0;
        for (int i = 0; (1 << i) < k_width; ++i) {
          std::vector<int32_t> want(2, 0);
          want[k_dim] = 1 << i;
          EXPECT_EQ(Basis(l, "register", i), want);
        }
        std::vector<int32_t> lane0(2, 0);
        lane0[1 - k_dim] = 1;
        EXPECT_EQ(Basis(l, "lane", 0), lane0);
      }
    }
  }
}

TEST(AmdLayoutsTest, SliceDropsItsDim) {
  auto parent = std::make_shared<const Layout>(Mfma({32, 32, 8}, true, {2, 2}));
  const LinearLayout full = Convert(*parent, {64, 1});
  const LinearLayout sliced = Convert(Layout(SliceLayout{1, parent}), {64});
  // The sliced layout: the parent's bases without dim1, zero registers
  // dropped.
  for (const char* in : {"lane", "warp"}) {
    const int d = full.InDimIndex(in);
    ASSERT_EQ(full.InDimSizeLog2(d),
              sliced.InDimSizeLog2(sliced.InDimIndex(in)));
    for (int i = 0; i < full.InDimSizeLog2(d); ++i) {
      EXPECT_EQ(Basis(sliced, in, i)[0], Basis(full, in, i)[0]);
    }
  }
}

// The two WMMA spellings agree where Triton 3.6's shape-dependent
// repetition does not come in (one CTA tile, one tile per warp).
TEST(AmdLayoutsTest, WmmaSpellingsAgreeOnOneCtaTile) {
  for (int version : {1, 2, 3}) {
    for (bool transposed : {false, true}) {
      for (std::vector<int32_t> warps :
           {std::vector<int32_t>{1, 1}, {2, 1}, {1, 2}, {2, 2}, {2, 4}}) {
        AmdWmmaLayout legacy;
        legacy.version = version;
        legacy.is_transposed = transposed;
        legacy.legacy_warps = true;
        legacy.warps_per_cta = warps;
        legacy.tiles_per_warp = {1, 1};
        if (version == 3) legacy.instr_shape = {16, 16, 32};
        absl::StatusOr<LinearLayout> cta = internal::WmmaCtaLayout(legacy);
        ASSERT_TRUE(cta.ok()) << cta.status();
        AmdWmmaLayout today = legacy;
        today.legacy_warps = false;
        today.warps_per_cta.clear();
        today.tiles_per_warp.clear();
        today.cta_warp = cta->bases()[1].second;
        const std::vector<int64_t> shape = {16 * warps[0], 16 * warps[1]};
        SCOPED_TRACE(absl::StrCat("v", version, " t", transposed, " w",
                                  absl::StrJoin(warps, "x")));
        EXPECT_EQ(Convert(Layout(legacy), shape),
                  Convert(Layout(today), shape));
      }
    }
  }
}

// WMMA v1 operands: the two halves of a warp hold the same K (a zero lane
// basis); v2 and v3 split K between them.
TEST(AmdLayoutsTest, WmmaOperandLaneHalves) {
  for (int version : {1, 2}) {
    const std::string parent =
        absl::StrCat("#ttg.amd_wmma<{version = ", version,
                     ", isTranspose = false, ctaLayout = {warp = [[1, 0]]}}>");
    const LinearLayout l =
        Convert(absl::StrCat("#ttg.dot_op<{opIdx = 0, parent = ", parent,
                             ", kWidth = 8}>"),
                {32, 32});
    const std::vector<int32_t> half = Basis(l, "lane", 4);
    const std::vector<int32_t> want =
        version == 1 ? std::vector<int32_t>{0, 0} : std::vector<int32_t>{0, 8};
    EXPECT_EQ(half, want);
  }
}

// A dot operand's CGA layout is broadcast along K (Triton's
// DotOperandEncodingAttr::getCGALayout), for every parent that splits K
// across CTAs: two layouts of Triton's lit tests gave the parent's K basis.
TEST(AmdLayoutsTest, OperandsBroadcastAlongKAcrossCtas) {
  const LinearLayout blocked = Convert(
      "#ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [1, 1], "
      "threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], "
      "CGALayout = [[0, 1], [1, 0]]}>}>",
      {32, 64});
  EXPECT_EQ(Basis(blocked, "block", 0), (std::vector<int32_t>{0, 0}));
  EXPECT_EQ(Basis(blocked, "block", 1), (std::vector<int32_t>{16, 0}));
  const LinearLayout mma = Convert(
      "#ttg.dot_op<{opIdx = 1, parent = #ttg.nvidia_mma<{versionMajor = 2, "
      "versionMinor = 0, warpsPerCTA = [2, 2], CGALayout = [[1, 0]], "
      "instrShape = [16, 8]}>, kWidth = 2}>",
      {64, 32});
  EXPECT_EQ(Basis(mma, "block", 0), (std::vector<int32_t>{0, 0}));
  // MFMA keeps its parent's (Triton passes the MFMA layout's CGA there).
  const LinearLayout mfma = Convert(
      "#ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, "
      "warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true, "
      "CGALayout = [[0, 1]]}>, kWidth = 4}>",
      {64, 64});
  EXPECT_EQ(Basis(mfma, "block", 0), (std::vector<int32_t>{0, 32}));
}

TEST(AmdLayoutsTest, RotatingSharedXorsEachBlockOfRows) {
  // maxPhase 1: no swizzle at all; else the phase of row r XORed with its
  // block of maxPhase * perPhase rows.
  const LinearLayout flat = Convert(
      "#ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 1, order "
      "= [1, 0]}>",
      {8, 8});
  EXPECT_TRUE(flat.IsInvertible());
  for (int i = 3; i < 6; ++i) {
    EXPECT_EQ(Basis(flat, "offset", i)[1], 0);
  }
  const LinearLayout rot = Convert(
      "#ttg.amd_rotating_shared<{vec = 1, perPhase = 1, maxPhase = 2, order "
      "= [1, 0]}>",
      {4, 4});
  // rows 1, 2: phases 1, 0 with blocks 0, 1 -> swizzle 1 both.
  EXPECT_EQ(Basis(rot, "offset", 2), (std::vector<int32_t>{1, 1}));
  EXPECT_EQ(Basis(rot, "offset", 3), (std::vector<int32_t>{2, 1}));
}

TEST(AmdLayoutsTest, InstructionPicturesLabelVgprsAndLanes) {
  absl::StatusOr<Layout> mfma = ParseLayout(
      "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, "
      "32, 8], isTransposed = false}>");
  ASSERT_TRUE(mfma.ok());
  EXPECT_EQ(InstructionKWidth(*mfma), 4);
  absl::StatusOr<std::vector<draw::CellGrid>> grids =
      InstructionPictures(*mfma, {});
  ASSERT_TRUE(grids.ok()) << grids.status();
  ASSERT_EQ(grids->size(), 3u);
  const draw::CellGrid& a = (*grids)[0];
  const draw::CellGrid& c = (*grids)[2];
  EXPECT_EQ(a.rows, 32);
  EXPECT_EQ(a.cols, 8);
  EXPECT_EQ(c.rows, 32);
  EXPECT_EQ(c.cols, 32);
  // A[0][1] is the upper half of lane 0's first VGPR; A[0][4] is lane 32's.
  EXPECT_EQ(a.cells[1].label, "v0{0}.[31:16]");
  EXPECT_EQ(a.cells[4].label, "v0{32}.[15:0]");
  // C of a 32x32 MFMA: 16 VGPRs per lane, 4 rows each in turn.
  EXPECT_EQ(c.cells[0].label, "v0{0}");
  EXPECT_EQ(c.cells[1 * 32].label, "v1{0}");
  EXPECT_EQ(c.cells[4 * 32].label, "v0{32}");
  EXPECT_EQ(c.cells[8 * 32].label, "v4{0}");
  // Every element of C is held by exactly one lane.
  for (const draw::GridCell& cell : c.cells) {
    EXPECT_FALSE(cell.hatched);
    EXPECT_EQ(cell.label.find('+'), std::string::npos);
  }
  absl::StatusOr<Layout> blocked = ParseLayout(
      "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA "
      "= [4], order = [0]}>");
  ASSERT_TRUE(blocked.ok());
  EXPECT_THAT(std::string(InstructionPictures(*blocked, {}).status().message()),
              HasSubstr("amd_mfma and amd_wmma"));
}

}  // namespace
}  // namespace hlolayout::triton

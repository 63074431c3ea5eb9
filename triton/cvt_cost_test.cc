// convert_layout costs on small hand-made cases (the 300 compiled kernels
// are in cvt_cost_data_test.cc).
#include "hlolayout/triton/cvt_cost.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/triton/named_layouts.h"
#include "hlolayout/triton/ops.h"
#include "hlolayout/triton/ttgir_parser.h"

namespace hlolayout::triton {
namespace {

CvtTarget H100() { return *CvtTargetNamed("cuda:90"); }

LinearLayout Blocked(const std::string& params, std::vector<int64_t> shape) {
  absl::StatusOr<Layout> l = ParseLayout("#ttg.blocked<{" + params + "}>");
  EXPECT_TRUE(l.ok()) << l.status();
  return *ToLinearLayout(*l, shape);
}

TEST(CvtCostTest, SameLayoutIsFree) {
  LinearLayout l = Blocked(
      "sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], "
      "order = [1, 0]",
      {64, 64});
  CvtCost c = *ConvertLayoutCost(l, l, 16, H100());
  EXPECT_EQ(c.kind, CvtKind::kRegisters);
  EXPECT_EQ(c.map.num_out_dims(), 0);
  EXPECT_EQ(c.scratch_bytes, 0);
}

TEST(CvtCostTest, RegisterOrderOnly) {
  // Each thread holds the same 4x4 block, in either order.
  LinearLayout a = Blocked(
      "sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], "
      "order = [1, 0]",
      {16, 32});
  // The same layout with its register bases reversed.
  LinearLayout b = *ApplyColumnAction(a, "register", {3, 2, 1, 0});
  CvtCost c = *ConvertLayoutCost(a, b, 32, H100());
  EXPECT_EQ(c.kind, CvtKind::kRegisters);
  EXPECT_EQ(c.map.OutDimNames(), (std::vector<std::string>{"register"}));
}

TEST(CvtCostTest, LanesSwapInsideAWarp) {
  LinearLayout a = Blocked(
      "sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], "
      "order = [1, 0]",
      {4, 8});
  LinearLayout b = Blocked(
      "sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], "
      "order = [0, 1]",
      {4, 8});
  CvtCost c = *ConvertLayoutCost(a, b, 32, H100());
  EXPECT_EQ(c.kind, CvtKind::kWarpShuffle);
  ASSERT_TRUE(c.mixed_transpositions.has_value());
  EXPECT_EQ(*c.mixed_transpositions, 0);
}

TEST(CvtCostTest, AcrossCtas) {
  LinearLayout a = Blocked(
      "sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], "
      "order = [1, 0], CGALayout = [[0, 1]]",
      {4, 16});
  LinearLayout b = Blocked(
      "sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], "
      "order = [1, 0], CGALayout = [[1, 0]]",
      {8, 8});
  // Not the same shape: refused.
  EXPECT_FALSE(ConvertLayoutCost(a, b, 32, H100()).ok());
  LinearLayout b2 = Blocked(
      "sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [1, "
      "1], order = [1, 0], CGALayout = [[1, 0]]",
      {4, 16});
  CvtCost c = *ConvertLayoutCost(a, b2, 32, H100());
  EXPECT_EQ(c.kind, CvtKind::kCrossCta);
  EXPECT_GT(c.scratch_bytes, 0);
}

// Layouts of different kernels (8 warps and 4) are refused on every target,
// not walked (found by fuzz/triton_fuzzer.cc: the cost read past the
// destination's warp bases).
TEST(CvtCostTest, DifferentWarpCountsAreRefused) {
  LinearLayout eight = Blocked(
      "sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], "
      "order = [0, 1]",
      {32, 4});
  LinearLayout four = Blocked(
      "sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], "
      "order = [0, 1]",
      {32, 4});
  for (const std::string& name : ModelledCvtTargets()) {
    const CvtTarget target = *CvtTargetNamed(name);
    absl::StatusOr<CvtCost> c = ConvertLayoutCost(eight, four, 32, target);
    ASSERT_FALSE(c.ok()) << name;
    if (target.warp_size != 32) continue;  // refused for its lanes first
    EXPECT_EQ(c.status().message(),
              "the two layouts must have as many warps (8 and 4)");
  }
  absl::StatusOr<bool> local = ReadsLocalCopies(eight, four);
  ASSERT_FALSE(local.ok());
  EXPECT_EQ(local.status().message(),
            "the two layouts must have as many warps");
}

TEST(CvtCostTest, TheMapSendsEachElementWhereDstHoldsIt) {
  LinearLayout a = Blocked(
      "sizePerThread = [2, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], "
      "order = [0, 1]",
      {32, 32});
  LinearLayout b = Blocked(
      "sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], "
      "order = [1, 0]",
      {32, 32});
  CvtCost c = *ConvertLayoutCost(a, b, 32, H100());
  EXPECT_EQ(c.kind, CvtKind::kSharedMemory);
  // The map is src^-1 o dst (for each hardware position of dst, where src
  // holds that element), here without the block dim, which it does not move.
  LinearLayout full = *InvertAndCompose(b, a);
  EXPECT_EQ(c.map, **Quotient(full, {"block"}));
  for (int x = 0; x < 1024; x += 37) {
    NamedInts in = {{"register", x & 3},
                    {"lane", (x >> 2) & 31},
                    {"warp", (x >> 7) & 3},
                    {"block", 0}};
    NamedInts from = *full.Apply(in);
    EXPECT_EQ(*a.Apply(from), *b.Apply(in));
  }
}

TEST(CvtCostTest, SixteenBitElementsConsiderTransposingMatrixLoads) {
  const SmemTarget hopper{true, true};
  EXPECT_EQ(SmemTilesFor(16, hopper).src.size(), 3u);
  EXPECT_EQ(SmemTilesFor(32, hopper).src.size(), 2u);
  EXPECT_EQ(SmemTilesFor(64, hopper).src.size(), 1u);
  EXPECT_EQ(SmemTilesFor(16, SmemTarget{false, false}).dst.size(), 1u);
}

}  // namespace
}  // namespace hlolayout::triton

// The printed views (the distributed views are also checked against
// Triton's own output in ops_data_test.cc and named_layouts_data_test.cc).
#include "hlolayout/triton/views.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/triton/linear_layout.h"

namespace hlolayout::triton {
namespace {

using ::testing::HasSubstr;

TEST(ViewsTest, SharedView) {
  LinearLayout l =
      *LinearLayout::Create({{"offset", {{0, 1}, {1, 0}}}, {"block", {}}},
                            {{"dim0", 2}, {"dim1", 2}}, true);
  // Triton opens the brackets before the indentation of a new row.
  EXPECT_EQ(*SharedView(l, false), "[[(0:0),(0:1)]\n[ (1:0),(1:1)]]\n");
  EXPECT_EQ(*SharedView(l, true),
            "Block: 0:\nOffset: 0 -> (0,0)\nOffset: 1 -> (0,1)\n"
            "Offset: 2 -> (1,0)\nOffset: 3 -> (1,1)\n");
  // A swizzle: offset 2 holds (1, 1).
  LinearLayout s =
      *LinearLayout::Create({{"offset", {{0, 1}, {1, 1}}}, {"block", {}}},
                            {{"dim0", 2}, {"dim1", 2}}, true);
  EXPECT_EQ(*SharedView(s, false), "[[(0:0),(0:1)]\n[ (1:1),(1:0)]]\n");
}

TEST(ViewsTest, DistributedViewPadsToTheWidestEntry) {
  // 16 lanes, one element each: T0..T15 padded to two digits.
  LinearLayout l = *LinearLayout::Create({{"register", {}},
                                          {"lane", {{1}, {2}, {4}, {8}}},
                                          {"warp", {}},
                                          {"block", {}}},
                                         {{"dim0", 16}}, true);
  EXPECT_EQ(*DistributedView(l, false),
            "[ T0:0,  T1:0,  T2:0,  T3:0,  T4:0,  T5:0,  T6:0,  T7:0,  T8:0,  "
            "T9:0, T10:0, T11:0, T12:0, T13:0, T14:0, T15:0]\n");
  EXPECT_EQ(
      *DistributedView(l, true),
      "Warp0:\n( 0), ( 1), ( 2), ( 3), ( 4), ( 5), ( 6), ( 7), ( 8), ( 9), "
      "(10), (11), (12), (13), (14), (15)\n");
}

TEST(ViewsTest, Refusals) {
  LinearLayout l = *LinearLayout::Identity1D(4, "lane", "dim0");
  EXPECT_THAT(DistributedView(l, false).status().message(),
              HasSubstr("register, lane, warp and block"));
  EXPECT_THAT(SharedView(l, false).status().message(),
              HasSubstr("offset and block"));
  LinearLayout big = *LinearLayout::Create(
      {{"offset", std::vector<std::vector<int32_t>>(23, {0})}, {"block", {}}},
      {{"dim0", 1}}, true);
  EXPECT_THAT(SharedView(big, false).status().message(),
              HasSubstr("too large to print"));
}

TEST(ViewsTest, MatrixView) {
  LinearLayout l =
      *LinearLayout::Create({{"in", {{2}, {1}}}}, {{"out", 4}}, true);
  EXPECT_EQ(MatrixView(l), (std::vector<std::vector<int>>{{0, 1}, {1, 0}}));
}

}  // namespace
}  // namespace hlolayout::triton

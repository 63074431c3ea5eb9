#include "hlolayout/ttmlir/collapse.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace hlolayout::grid {
namespace {

std::string Map(std::vector<int64_t> shape, int64_t grid_rank,
                std::vector<CollapseInterval> intervals) {
  auto m = CollapsedLinearMap(shape, grid_rank, intervals);
  if (!m.ok()) return std::string(m.status().message());
  return m->ToString();
}

std::string Join(int64_t rank, std::vector<CollapseInterval> intervals) {
  auto g = CollapseGroups(rank, intervals);
  if (!g.ok()) return std::string(g.status().message());
  return JoinNotation(rank, *g);
}

TEST(Collapse, SeedDefaultExample) {
  EXPECT_EQ(Map({2, 3, 64, 128}, 2, DefaultCollapseIntervals()),
            "(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3)");
}

TEST(Collapse, SeedJoinExamples) {
  EXPECT_EQ(Join(3, {{0, -1}}), "(d0, d1, d2) -> (d0 <> d1, d2)");
  EXPECT_EQ(Join(4, {{1, -1}}), "(d0, d1, d2, d3) -> (d0, d1 <> d2, d3)");
  EXPECT_EQ(Join(4, {{0, 2}}), "(d0, d1, d2, d3) -> (d0 <> d1, d2, d3)");
}

TEST(Collapse, SeedSevenDimExample) {
  EXPECT_EQ(Join(7, {{0, 3}, {-3, -1}}),
            "(d0, d1, d2, d3, d4, d5, d6) -> (d0 <> d1 <> d2, d3, d4 <> d5, "
            "d6)");
  EXPECT_EQ(Map({2, 3, 4, 5, 6, 7, 8}, 4, {{0, 3}, {-3, -1}}),
            "(d0, d1, d2, d3, d4, d5, d6) -> (d0 * 12 + d1 * 4 + d2, d3, "
            "d4 * 7 + d5, d6)");
  // Order of the intervals does not matter.
  EXPECT_EQ(Join(7, {{-3, -1}, {0, 3}}), Join(7, {{0, 3}, {-3, -1}}));
}

TEST(Collapse, SeedMultiDeviceExample) {
  EXPECT_EQ(Map({2, 3, 64, 128}, 3, {{1, -1}}),
            "(d0, d1, d2, d3) -> (d0, d1 * 64 + d2, d3)");
  EXPECT_EQ(Map({2, 3, 64, 128}, 3, {{0, 2}}),
            "(d0, d1, d2, d3) -> (d0 * 3 + d1, d2, d3)");
}

TEST(Collapse, GridRankAboveCollapsedRankPrependsZeros) {
  EXPECT_EQ(Map({128}, 3, DefaultCollapseIntervals()), "(d0) -> (0, 0, d0)");
  EXPECT_EQ(Map({128}, 1, DefaultCollapseIntervals()), "(d0) -> (d0)");
  EXPECT_EQ(Map({8, 96, 32}, 3, DefaultCollapseIntervals()),
            "(d0, d1, d2) -> (0, d0 * 96 + d1, d2)");
  EXPECT_EQ(Map({}, 2, {}), "() -> (0, 0)");
}

TEST(Collapse, NoIntervalsKeepsEveryDim) {
  EXPECT_EQ(Map({4, 5}, 2, {}), "(d0, d1) -> (d0, d1)");
  EXPECT_EQ(Map({4, 5, 6}, 1, {{0, 3}}),
            "(d0, d1, d2) -> (d0 * 30 + d1 * 6 + d2)");
}

TEST(Collapse, Errors) {
  EXPECT_EQ(Map({2, 3, 64, 128}, 2, {{1, -1}}),
            "collapsed rank 3 exceeds grid rank 2");
  EXPECT_EQ(Map({2, 3, 4, 5}, 2, {{0, 2}, {1, 3}}),
            "intervals (0, 2) and (1, 3) overlap");
  EXPECT_EQ(Map({2, 3, 4, 5}, 2, {{0, 2}, {0, 0}, {-3, 3}}),
            "intervals (0, 2) and (-3, 3) overlap");
  EXPECT_EQ(Map({2, 3, 4, 5}, 2, {{3, 1}}), "interval (3, 1) is reversed");
  EXPECT_EQ(Map({2, 3, 4, 5}, 2, {{0, 9}}),
            "interval (0, 9) is out of range for rank 4");
  EXPECT_EQ(Map({2, 3, 4, 5}, 2, {{-5, 1}}),
            "interval (-5, 1) is out of range for rank 4");
  EXPECT_EQ(Map({2, 0}, 2, {}), "tensor dim 1 has size 0");
  EXPECT_EQ(Map({2, 3}, 0, {}), "grid rank 0 is not positive");
  EXPECT_EQ(Map({INT64_MAX / 2, 4, 2}, 2, {{0, 2}}),
            "extent of result 0 overflows int64");
  EXPECT_EQ(Map({2, INT64_MAX / 2, 4}, 2, {{0, 3}}),
            "stride of d0 overflows int64");
}

// Every interval list over small ranks: the groups cover each dim exactly
// once in order, and the map is the tight row-major join of each group.
TEST(Collapse, PropertyGroupsPartitionDims) {
  int lists = 0;
  for (int64_t rank = 1; rank <= 5; ++rank) {
    std::vector<CollapseInterval> all;
    for (int64_t b = -rank; b <= rank; ++b) {
      for (int64_t e = -rank; e <= rank; ++e) all.push_back({b, e});
    }
    for (size_t a = 0; a < all.size(); ++a) {
      for (size_t b = a; b < all.size(); ++b) {
        std::vector<CollapseInterval> list = {all[a], all[b]};
        auto groups = CollapseGroups(rank, list);
        if (!groups.ok()) continue;
        ++lists;
        int64_t next = 0;
        for (const CollapseInterval& g : *groups) {
          ASSERT_EQ(g.begin, next);
          ASSERT_LT(g.begin, g.end);
          next = g.end;
        }
        ASSERT_EQ(next, rank);
        std::vector<int64_t> shape;
        for (int64_t d = 0; d < rank; ++d) shape.push_back(d + 2);
        auto m = CollapsedLinearMap(shape, groups->size(), list);
        ASSERT_TRUE(m.ok()) << m.status();
        for (size_t i = 0; i < groups->size(); ++i) {
          int64_t stride = 1;
          for (int64_t d = (*groups)[i].end - 1; d >= (*groups)[i].begin; --d) {
            EXPECT_EQ(m->Coefficient(i, d), stride);
            stride *= shape[d];
          }
          EXPECT_EQ(CollapsedExtent(*m, shape)[i], stride);
        }
      }
    }
  }
  EXPECT_GT(lists, 200);
}

}  // namespace
}  // namespace hlolayout::grid

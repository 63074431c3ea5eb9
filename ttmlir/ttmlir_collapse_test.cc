#include "hlolayout/ttmlir/ttmlir_collapse.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace hlolayout::grid {
namespace {

std::string Map(std::vector<int64_t> shape, int64_t grid_rank,
                std::vector<CollapseInterval> intervals = {{0, -1}}) {
  absl::StatusOr<AffineMap> m =
      TtmlirCollapsedLinearMap(shape, grid_rank, intervals);
  return m.ok() ? m->ToString() : std::string(m.status().message());
}

TEST(TtmlirCollapsedLinearMap, TheSpecificationsExamples) {
  EXPECT_EQ(Map({2, 3, 64, 128}, 2),
            "(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3)");
  EXPECT_EQ(Map({2, 3, 64, 128}, 3, {{1, -1}}),
            "(d0, d1, d2, d3) -> (d0, d1 * 64 + d2, d3)");
  EXPECT_EQ(Map({2, 3, 64, 128}, 3, {{0, 2}}),
            "(d0, d1, d2, d3) -> (d0 * 3 + d1, d2, d3)");
  // tt-mlir's quirks: a grid rank above the collapsed rank keeps the tail of
  // the minor identity, dims appear twice.
  EXPECT_EQ(Map({8, 96, 32}, 3), "(d0, d1, d2) -> (d0 * 96 + d1, d1, d2)");
  EXPECT_EQ(Map({5, 3, 2, 2, 7, 32, 32}, 4),
            "(d0, d1, d2, d3, d4, d5, d6) -> (d0 * 2688 + d1 * 896 + d2 * 448 "
            "+ d3 * 224 + d4 * 32 + d5, d4, d5, d6)");
  // Rank 1 and rank 0: the interval is empty; constant zeros are prepended.
  EXPECT_EQ(Map({128}, 2), "(d0) -> (0, d0)");
  EXPECT_EQ(Map({128}, 3), "(d0) -> (0, 0, d0)");
  EXPECT_EQ(Map({}, 2), "() -> (0, 0)");
  // TTNN's tile-padded shapes keep the coefficients of size-1 dims.
  EXPECT_EQ(Map({1, 1, 32, 32}, 2),
            "(d0, d1, d2, d3) -> (d0 * 32 + d1 * 32 + d2, d3)");
  // An empty tensor: the minor identity, no join.
  EXPECT_EQ(Map({0, 64}, 2), "(d0, d1) -> (d0, d1)");
  EXPECT_EQ(Map({3, 0, 64}, 2), "(d0, d1, d2) -> (d1, d2)");
}

TEST(TtmlirCollapsedLinearMap, AssertionsAreErrors) {
  // Two intervals: the second join replaces result 4 of a 4-result map.
  EXPECT_EQ(Map({2, 3, 4, 5, 6, 7, 8}, 4, {{0, 3}, {-3, -1}}),
            "tt-mlir asserts: the join of interval (-3, -1) replaces result 4 "
            "of a 4-result map");
  // A grid rank too small drops a dim.
  EXPECT_EQ(Map({2, 3, 4}, 2, {{1, -1}}),
            "tt-mlir asserts: d2 does not participate in the map");
  EXPECT_NE(Map({2, 3, 4}, 1).find("tt-mlir asserts"), std::string::npos);
  EXPECT_EQ(Map({2, 3}, 2, {{0, 5}}),
            "tt-mlir asserts: interval (0, 5) names dims outside rank 2");
}

TEST(TtmlirCollapsedLinearMap, Int32Overflow) {
  bool overflow = true;
  ASSERT_TRUE(
      TtmlirCollapsedLinearMap({4, 4}, 2, DefaultCollapseIntervals(), &overflow)
          .ok());
  EXPECT_FALSE(overflow);
  ASSERT_TRUE(TtmlirCollapsedLinearMap({2, 70000, 70000, 2}, 2,
                                       DefaultCollapseIntervals(), &overflow)
                  .ok());
  EXPECT_TRUE(overflow);
}

// For every small shape, the default collapse on a 2-D grid is the tight
// row-major join of all dims but the last, and EvalShape gives
// [product of all but the last, last].
TEST(TtmlirCollapsedLinearMap, DefaultIsTheTightJoin) {
  for (int64_t rank = 2; rank <= 4; ++rank) {
    std::vector<int64_t> shape(rank, 1);
    for (;;) {
      absl::StatusOr<AffineMap> m = TtmlirCollapsedLinearMap(shape, 2);
      ASSERT_TRUE(m.ok()) << m.status();
      int64_t rows = 1;
      for (int64_t d = 0; d + 1 < rank; ++d) rows *= shape[d];
      EXPECT_EQ(EvalShape(*m, shape),
                (std::vector<int64_t>{rows, shape.back()}));
      int64_t stride = 1;
      for (int64_t d = rank - 2; d >= 0; --d) {
        EXPECT_EQ(m->Coefficient(0, d), stride);
        stride *= shape[d];
      }
      EXPECT_EQ(m->Coefficient(1, rank - 1), 1);
      int64_t d = 0;
      while (d < rank && shape[d] == 3) shape[d++] = 1;
      if (d == rank) break;
      ++shape[d];
    }
  }
}

TEST(EvalShape, ConstantsAndBumpedStrides) {
  EXPECT_EQ(EvalShape(AffineMap(1, {AffineResult{}, {{{0, 1}}, 0}}), {128}),
            (std::vector<int64_t>{1, 128}));
  // The seed's (d0 * 32 + d1, d2) on 6x15x10: 6*32 - 32 + 15 rows.
  EXPECT_EQ(EvalShape(AffineMap(3, {{{{0, 32}, {1, 1}}, 0}, {{{2, 1}}, 0}}),
                      {6, 15, 10}),
            (std::vector<int64_t>{175, 10}));
}

}  // namespace
}  // namespace hlolayout::grid

#include "hlolayout/ttmlir/affine_map.h"

#include <cstdint>
#include <map>
#include <vector>

#include "gtest/gtest.h"

namespace hlolayout::grid {
namespace {

// (d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3)
AffineMap SeedMap() {
  return AffineMap(4, {{{{0, 192}, {1, 64}, {2, 1}}, 0}, {{{3, 1}}, 0}});
}

TEST(AffineMap, PrintsSeedForm) {
  EXPECT_EQ(SeedMap().ToString(),
            "(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3)");
  EXPECT_EQ(AffineMap::Identity(2).ToString(), "(d0, d1) -> (d0, d1)");
  EXPECT_EQ(AffineMap(1, {{{}, 0}, {{{0, 1}}, 0}}).ToString(),
            "(d0) -> (0, d0)");
  EXPECT_EQ(AffineMap(1, {{{{0, 2}}, 5}}).ToString(), "(d0) -> (d0 * 2 + 5)");
  EXPECT_EQ(AffineMap(0, {{{}, 0}, {{}, 0}}).ToString(), "() -> (0, 0)");
}

TEST(AffineMap, SortsAndMergesTerms) {
  AffineMap m(2, {{{{1, 1}, {0, 3}, {1, 2}}, 0}});
  EXPECT_EQ(m.ToString(), "(d0, d1) -> (d0 * 3 + d1 * 3)");
  EXPECT_EQ(m.Coefficient(0, 1), 3);
  EXPECT_EQ(m.Coefficient(0, 0), 3);
}

TEST(AffineMap, EvaluatesSeedIndex) {
  auto p = SeedMap().Evaluate({1, 1, 6, 100});
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(*p, (std::vector<int64_t>{262, 100}));
}

TEST(AffineMap, EvaluateOverflowIsError) {
  AffineMap m(1, {{{{0, INT64_MAX / 2}}, 0}});
  EXPECT_FALSE(m.Evaluate({3}).ok());
  EXPECT_TRUE(m.Evaluate({2}).ok());
}

TEST(AffineMap, CollapsedExtentOfSeedExamples) {
  EXPECT_EQ(CollapsedExtent(SeedMap(), {2, 3, 64, 128}),
            (std::vector<int64_t>{384, 128}));
  // Bumped stride: the trailing gap is not allocated.
  AffineMap bumped(3, {{{{0, 32}, {1, 1}}, 0}, {{{2, 1}}, 0}});
  EXPECT_EQ(CollapsedExtent(bumped, {2, 8, 32}),
            (std::vector<int64_t>{40, 32}));
  AffineMap zero(1, {{{}, 0}, {{{0, 1}}, 0}});
  EXPECT_EQ(CollapsedExtent(zero, {128}), (std::vector<int64_t>{1, 128}));
}

TEST(AffineMap, ValidateErrors) {
  EXPECT_EQ(ValidateLayoutMap(SeedMap(), {2, 3, 64}).message(),
            "map has 4 dims but the tensor has rank 3");
  AffineMap missing(2, {{{{0, 1}}, 0}});
  EXPECT_EQ(ValidateLayoutMap(missing, {4, 5}).message(),
            "d1 does not appear in the map");
  EXPECT_TRUE(ValidateLayoutMap(missing, {4, 1}).ok());  // size 1 is fine
  AffineMap overlap(2, {{{{0, 32}, {1, 1}}, 0}});
  EXPECT_EQ(ValidateLayoutMap(overlap, {2, 64}).message(),
            "result 0 is not one-to-one: d0 has coefficient 32 but the "
            "smaller terms reach 63");
  EXPECT_TRUE(ValidateLayoutMap(overlap, {2, 32}).ok());
  AffineMap huge(2, {{{{0, INT64_MAX / 4}, {1, 1}}, 0}});
  EXPECT_EQ(ValidateLayoutMap(huge, {8, 2}).message(),
            "extent of result 0 overflows int64");
}

TEST(AffineMap, SeedDuplicateDimMapIsValidButNotSeparable) {
  // (d0, d1, d2) -> (d0 * 96 + d1, d1, d2) from the seed.
  AffineMap m(3, {{{{0, 96}, {1, 1}}, 0}, {{{1, 1}}, 0}, {{{2, 1}}, 0}});
  EXPECT_TRUE(ValidateLayoutMap(m, {8, 96, 32}).ok());
  EXPECT_FALSE(IsSeparable(m, {8, 96, 32}));
  EXPECT_TRUE(IsSeparable(SeedMap(), {2, 3, 64, 128}));
  // Disagreeing values for d1 are not an element.
  EXPECT_FALSE(InvertLayoutMap(m, {8, 96, 32}, {97, 2, 0}).has_value());
  EXPECT_EQ(*InvertLayoutMap(m, {8, 96, 32}, {97, 1, 5}),
            (std::vector<int64_t>{1, 1, 5}));
}

TEST(AffineMap, InvertBumpedStride) {
  AffineMap bumped(3, {{{{0, 32}, {1, 1}}, 0}, {{{2, 1}}, 0}});
  EXPECT_EQ(*InvertLayoutMap(bumped, {2, 8, 32}, {33, 5}),
            (std::vector<int64_t>{1, 1, 5}));
  EXPECT_FALSE(InvertLayoutMap(bumped, {2, 8, 32}, {9, 5}).has_value());
  EXPECT_FALSE(InvertLayoutMap(bumped, {2, 8, 32}, {64, 5}).has_value());
  AffineMap offset(1, {{{{0, 1}}, 3}});
  EXPECT_FALSE(InvertLayoutMap(offset, {4}, {2}).has_value());
  EXPECT_EQ(*InvertLayoutMap(offset, {4}, {3}), (std::vector<int64_t>{0}));
}

// Every valid map over small shapes: the image is one-to-one, the inverse
// returns each element, non-image points invert to nothing, and
// CountImageBelow matches a brute-force count.
TEST(AffineMap, PropertyInverseAndCountsOverSmallMaps) {
  const std::vector<std::vector<int64_t>> shapes = {
      {1}, {5}, {2, 3}, {3, 1, 4}, {2, 2, 3}, {1, 1, 7}};
  const std::vector<int64_t> coefficients = {1, 2, 3, 4, 5, 7, 12};
  int checked_maps = 0;
  for (const auto& shape : shapes) {
    const int64_t rank = shape.size();
    // One result holding every dim with coefficients drawn from the list,
    // plus a constant; and the split map (one result per dim).
    std::vector<int64_t> choice(rank, 0);
    for (;;) {
      for (int64_t constant : {0, 2}) {
        AffineResult r;
        for (int64_t d = 0; d < rank; ++d) {
          r.terms.push_back({d, coefficients[choice[d]]});
        }
        r.constant = constant;
        AffineMap m(rank, {r});
        if (!ValidateLayoutMap(m, shape).ok()) continue;
        ++checked_maps;
        const int64_t extent = CollapsedExtent(m, shape)[0];
        std::map<int64_t, std::vector<int64_t>> image;
        std::vector<int64_t> index(rank, 0);
        for (;;) {
          int64_t v = m.Evaluate(index).value()[0];
          ASSERT_LT(v, extent);
          ASSERT_TRUE(image.emplace(v, index).second) << m.ToString();
          int64_t d = rank - 1;
          for (; d >= 0 && ++index[d] == shape[d]; --d) index[d] = 0;
          if (d < 0) break;
        }
        for (int64_t v = 0; v <= extent + 2; ++v) {
          auto inv = InvertLayoutMap(m, shape, {v});
          auto it = image.find(v);
          if (it == image.end()) {
            EXPECT_FALSE(inv.has_value()) << m.ToString() << " at " << v;
          } else {
            ASSERT_TRUE(inv.has_value()) << m.ToString() << " at " << v;
            EXPECT_EQ(*inv, it->second);
          }
          int64_t below = 0;
          for (const auto& [value, idx] : image) below += value < v;
          EXPECT_EQ(CountImageBelow(m, shape, 0, v), below)
              << m.ToString() << " below " << v;
        }
      }
      int64_t d = rank - 1;
      for (; d >= 0 && ++choice[d] == (int64_t)coefficients.size(); --d) {
        choice[d] = 0;
      }
      if (d < 0) break;
    }
  }
  EXPECT_GT(checked_maps, 50);
}

}  // namespace
}  // namespace hlolayout::grid

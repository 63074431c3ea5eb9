#include "hlolayout/triton/f2.h"

#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace hlolayout::triton {
namespace {

TEST(F2Test, HeaderExample) {
  std::vector<uint64_t> m = {0b011, 0b110};
  ReduceRowEchelon(m, 3);
  EXPECT_EQ(m, (std::vector<uint64_t>{0b101, 0b110}));
  EXPECT_EQ(NonzeroRows(m), 2);
}

// The reduced form is unique: any row operation sequence reaches it, so
// shuffling and mixing rows first must not change it.
TEST(F2Test, ReducedFormIsUnique) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const int rows = 1 + rng() % 8, cols = 1 + rng() % 10;
    std::vector<uint64_t> m(rows);
    for (auto& r : m) r = rng() & ((uint64_t{1} << cols) - 1);
    std::vector<uint64_t> mixed = m;
    for (int k = 0; k < 10; ++k) {
      const int i = rng() % rows, j = rng() % rows;
      if (i != j) mixed[i] ^= mixed[j];
      std::swap(mixed[rng() % rows], mixed[rng() % rows]);
    }
    ReduceRowEchelon(m, cols);
    ReduceRowEchelon(mixed, cols);
    EXPECT_EQ(m, mixed);
    // Pivots increase and are alone in their columns.
    int last = -1;
    for (uint64_t r : m) {
      if (r == 0) continue;
      const int p = LowestBit(r);
      EXPECT_GT(p, last);
      last = p;
      int count = 0;
      for (uint64_t s : m) count += (s >> p) & 1;
      EXPECT_EQ(count, 1);
    }
  }
}

TEST(F2Test, WideRows) {
  std::vector<F2Row128> m = {(F2Row128{1} << 100) | 2, F2Row128{2}};
  ReduceRowEchelon(m, 128);
  EXPECT_EQ(LowestBit(m[0]), 1);
  EXPECT_EQ(LowestBit(m[1]), 100);
}

TEST(F2Test, SubspaceHeaderExamples) {
  EXPECT_EQ(TopBitBasis({0b011, 0b110, 0b101}, 3),
            (std::vector<uint64_t>{0b011, 0b101}));
  EXPECT_EQ(SpanIntersection({0b001, 0b010}, {0b011, 0b100}, 3),
            (std::vector<uint64_t>{0b011}));
  EXPECT_EQ(UnitComplement({0b011}, 3), (std::vector<uint64_t>{0b010, 0b100}));
  EXPECT_TRUE(SpanIntersection({}, {0b1}, 1).empty());
  EXPECT_EQ(UnitComplement({}, 2), (std::vector<uint64_t>{0b01, 0b10}));
}

// Every vector of span(rows), by enumeration (a bit set over 2^cols values).
uint64_t SpanSet(const std::vector<uint64_t>& rows) {
  uint64_t set = 1;  // the zero vector
  for (uint64_t r : rows) {
    uint64_t more = set;
    for (int v = 0; v < 64; ++v) {
      if ((set >> v) & 1) more |= uint64_t{1} << (v ^ r);
    }
    set = more;
  }
  return set;
}

// Over every pair of spanning sets of two vectors in F2^3 (and random
// larger ones): the intersection spans exactly the common vectors, its
// vectors are independent (2^size of them), the top bits increase and
// are set in no other vector; the complement spans everything with the
// rows and adds exactly the missing dimensions.
TEST(F2Test, SubspacesAgainstEnumeration) {
  auto check = [](const std::vector<uint64_t>& a,
                  const std::vector<uint64_t>& b, int cols) {
    const std::vector<uint64_t> both = SpanIntersection(a, b, cols);
    EXPECT_EQ(SpanSet(both), SpanSet(a) & SpanSet(b));
    EXPECT_EQ(__builtin_popcountll(SpanSet(both)), 1 << both.size());
    int last = -1;
    for (uint64_t v : both) {
      const int top = 63 - __builtin_clzll(v);
      EXPECT_GT(top, last);
      last = top;
      for (uint64_t w : both) {
        if (w != v) {
          EXPECT_FALSE((w >> top) & 1);
        }
      }
    }
    EXPECT_EQ(TopBitBasis(both, cols), both);
    const std::vector<uint64_t> comp = UnitComplement(a, cols);
    std::vector<uint64_t> all = a;
    all.insert(all.end(), comp.begin(), comp.end());
    const uint64_t full =
        cols == 6 ? ~uint64_t{0} : (uint64_t{1} << (1 << cols)) - 1;
    EXPECT_EQ(SpanSet(all), full);
    EXPECT_EQ(__builtin_popcountll(SpanSet(a)) << comp.size(), 1 << cols);
  };
  for (uint64_t a0 = 0; a0 < 8; ++a0)
    for (uint64_t a1 = 0; a1 < 8; ++a1)
      for (uint64_t b0 = 0; b0 < 8; ++b0)
        for (uint64_t b1 = 0; b1 < 8; ++b1) check({a0, a1}, {b0, b1}, 3);
  std::mt19937_64 rng(46);
  for (int trial = 0; trial < 500; ++trial) {
    const int cols = 4 + rng() % 3;
    std::vector<uint64_t> a(rng() % 5), b(rng() % 5);
    for (auto& r : a) r = rng() & ((uint64_t{1} << cols) - 1);
    for (auto& r : b) r = rng() & ((uint64_t{1} << cols) - 1);
    check(a, b, cols);
  }
}

// Rank, IntersectionDim and Coordinates against the enumerated spans.
TEST(F2Test, RankIntersectionAndCoordinatesAgainstEnumeration) {
  std::mt19937_64 rng(89);
  for (int trial = 0; trial < 2000; ++trial) {
    const int cols = 1 + rng() % 6;
    const uint64_t mask = (uint64_t{1} << cols) - 1;
    std::vector<uint64_t> a(rng() % 5), b(rng() % 5);
    for (auto& r : a) r = rng() & mask;
    for (auto& r : b) r = rng() & mask;
    const uint64_t sa = SpanSet(a), sb = SpanSet(b);
    EXPECT_EQ(1 << Rank(a, cols), __builtin_popcountll(sa));
    EXPECT_EQ(1 << IntersectionDim(a, b, cols), __builtin_popcountll(sa & sb));
    // Coordinates: a mask whose vectors XOR to x exactly when x is in the
    // span; no zero vector used; a vector dependent on earlier ones unused.
    const uint64_t x = rng() & mask;
    const std::optional<uint64_t> at = Coordinates(a, x, cols);
    ASSERT_EQ(at.has_value(), ((sa >> x) & 1) != 0);
    if (!at.has_value()) continue;
    uint64_t sum = 0;
    std::vector<uint64_t> before;
    for (size_t i = 0; i < a.size(); ++i) {
      if ((*at >> i) & 1) {
        sum ^= a[i];
        EXPECT_NE(a[i], 0u);
        EXPECT_FALSE((SpanSet(before) >> a[i]) & 1) << "dependent used";
      }
      before.push_back(a[i]);
    }
    EXPECT_EQ(sum, x);
  }
}

// The same subspace from different spanning rows gives the same basis.
TEST(F2Test, TopBitBasisIsCanonical) {
  EXPECT_EQ(TopBitBasis({0b1100, 0b0110}, 4),
            TopBitBasis({0b1010, 0b0110, 0}, 4));
  EXPECT_NE(TopBitBasis({0b1100}, 4), TopBitBasis({0b0110}, 4));
}

}  // namespace
}  // namespace hlolayout::triton

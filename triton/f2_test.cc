#include "hlolayout/triton/f2.h"

#include <cstdint>
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

}  // namespace
}  // namespace hlolayout::triton

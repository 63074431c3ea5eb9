#include "hlolayout/cute/swizzle.h"

#include <string>

#include "gtest/gtest.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/cute/print.h"

namespace hlolayout::cute {
namespace {

std::string S(const absl::StatusOr<Swizzle>& s) {
  if (!s.ok()) return "error: " + std::string(s.status().message());
  return ToString(*s);
}

Swizzle Sw(int b, int m, int s) { return *Swizzle::Create(b, m, s); }

// The definition, bit by bit: bit M + max(0,S) + i of x flips bit
// M - min(0,S) + i, for i < B.
int64_t BruteForce(int b, int m, int s, int64_t x) {
  int64_t out = x;
  const int y0 = m + (s > 0 ? s : 0);
  const int z0 = m - (s < 0 ? s : 0);
  for (int i = 0; i < b; ++i) {
    if ((x >> (y0 + i)) & 1) out ^= int64_t{1} << (z0 + i);
  }
  return out;
}

TEST(Swizzle, ExhaustiveSmallSwizzlesAgainstTheBitDefinition) {
  int checked = 0;
  for (int b = 0; b <= 3; ++b) {
    for (int m = 0; m <= 4; ++m) {
      for (int s = -4; s <= 4; ++s) {
        absl::StatusOr<Swizzle> sw = Swizzle::Create(b, m, s);
        if ((s < 0 ? -s : s) < b) {
          EXPECT_FALSE(sw.ok()) << b << m << s;
          continue;
        }
        ASSERT_TRUE(sw.ok()) << sw.status().message();
        const int64_t n = sw->domain_size();
        EXPECT_EQ(n, int64_t{1} << (b + m + (s < 0 ? -s : s)));
        for (int64_t x = 0; x < 2 * n; ++x) {
          ASSERT_EQ((*sw)(x), BruteForce(b, m, s, x)) << ToString(*sw) << x;
          ASSERT_EQ((*sw)((*sw)(x)), x);          // an involution
          ASSERT_EQ((*sw)(x + n), (*sw)(x) + n);  // period n
        }
        EXPECT_EQ(sw->yyy_mask() & sw->zzz_mask(), 0);
        // make_swizzle<Y,Z> gives the swizzle back (B > 0; B == 0 is the
        // identity Sw<0,0,0>).
        absl::StatusOr<Swizzle> back =
            Swizzle::FromMasks(sw->yyy_mask(), sw->zzz_mask());
        ASSERT_TRUE(back.ok()) << back.status().message();
        EXPECT_EQ(*back, b == 0 ? Sw(0, 0, 0) : *sw);
        // Text round trip.
        EXPECT_EQ(S(ParseSwizzle(ToString(*sw))), ToString(*sw));
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 135);
}

TEST(Swizzle, Masks) {
  EXPECT_EQ(Sw(3, 4, 3).yyy_mask(), 0b1110000000);
  EXPECT_EQ(Sw(3, 4, 3).zzz_mask(), 0b0001110000);
  EXPECT_EQ(Sw(2, 0, -3).yyy_mask(), 0b00011);
  EXPECT_EQ(Sw(2, 0, -3).zzz_mask(), 0b11000);
  EXPECT_EQ(Sw(3, 4, 3)(128), 144);
}

TEST(Swizzle, CreateRefusesWhatCuteRefuses) {
  EXPECT_EQ(S(Swizzle::Create(3, 4, 2)),
            "error: swizzle Sw<3,4,2> is invalid: |S| = 2 is less than B = 3 "
            "(CuTe: abs(SShift) must be more than BBits), so the two masks "
            "would overlap");
  EXPECT_EQ(S(Swizzle::Create(-1, 0, 0)),
            "error: swizzle Sw<-1,0,0> is invalid: BBits must be non-negative");
  EXPECT_EQ(S(Swizzle::Create(1, -2, 3)),
            "error: swizzle Sw<1,-2,3> is invalid: MBase must be non-negative");
  EXPECT_EQ(S(Swizzle::Create(3, 20, 10)),
            "error: swizzle Sw<3,20,10> is invalid: B + M + |S| must be at "
            "most 31, so that its masks fit CuTe's 32-bit int");
}

TEST(Swizzle, MakeSwizzleFromMasks) {
  // CuTe's own examples (swizzle.hpp).
  EXPECT_EQ(S(Swizzle::FromMasks(0b1000, 0b0100)), "Sw<1,2,1>");
  EXPECT_EQ(S(Swizzle::FromMasks(0b11000000, 0b00000110)), "Sw<2,1,5>");
  EXPECT_EQ(S(Swizzle::FromMasks(0, 0)), "Sw<0,0,0>");
  EXPECT_EQ(S(Swizzle::FromMasks(0b1100, 0b1)),
            "error: make_swizzle<12,1> (yyy and zzz masks) gives no valid "
            "swizzle: the masks have 2 and 1 bits (CuTe: number of bits in Y "
            "and Z don't match)");
  EXPECT_EQ(S(Swizzle::FromMasks(0b10100, 0b11)),
            "error: make_swizzle<20,3> (yyy and zzz masks) gives no valid "
            "swizzle: the masks are not two contiguous runs of 2 bits that "
            "Sw<2,0,2> would use");
  EXPECT_FALSE(Swizzle::FromMasks(-4, 1).ok());
}

TEST(Swizzle, ComposeMergesMasksOfEqualShift) {
  EXPECT_EQ(S(Compose(Sw(2, 0, 3), Sw(1, 2, 3))), "Sw<3,0,3>");
  EXPECT_EQ(S(Compose(Sw(2, 0, 3), Sw(1, 2, 4))),
            "error: composition Sw<2,0,3> o Sw<1,2,4> fails: only swizzles of "
            "the same shift merge");
}

TEST(Swizzle, UpcastDowncastAsCute) {
  // CuTe's upcast<N>/downcast<N> and recast_layout<Old,New> of swizzles.
  struct Case {
    Swizzle in;
    bool up;
    int n;
    const char* out;
  };
  const Case cases[] = {
      {Sw(3, 4, 3), true, 8, "Sw<3,1,3>"},
      {Sw(3, 4, 3), false, 2, "Sw<3,5,3>"},
      {Sw(3, 4, 3), true, 4, "Sw<3,2,3>"},   // uint8_t -> float
      {Sw(3, 3, 3), true, 16, "Sw<2,0,3>"},  // M goes negative: B shrinks
      {Sw(3, 3, 3), false, 8, "Sw<3,6,3>"},
      {Sw(3, 3, 3), true, 8, "Sw<3,0,3>"},  // uint8_t -> double
      {Sw(2, 5, 2), true, 16, "Sw<2,1,2>"},
      {Sw(2, 5, 2), false, 8, "Sw<2,8,2>"},
      {Sw(1, 0, 1), true, 64, "Sw<0,0,1>"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(S(c.up ? Upcast(c.in, c.n) : Downcast(c.in, c.n)), c.out)
        << ToString(c.in) << (c.up ? " up " : " down ") << c.n;
  }
  EXPECT_EQ(S(Upcast(Sw(3, 4, 3), 3)),
            "error: upcast<3> of Sw<3,4,3> fails: N must be a power of two");
}

TEST(Swizzle, UpcastIsTheSwizzleOnCoarserOffsets) {
  // For offsets that are multiples of n, sw(x) / n == upcast<n>(sw)(x / n)
  // when no swizzled bit falls below log2(n).
  for (int m = 3; m <= 4; ++m) {
    const Swizzle sw = Sw(3, m, 3);
    for (int n : {2, 4, 8}) {
      const Swizzle up = *Upcast(sw, n);
      for (int64_t x = 0; x < sw.domain_size(); x += n) {
        ASSERT_EQ(sw(x) / n, up(x / n)) << ToString(sw) << " " << n;
      }
    }
  }
}

TEST(ParseSwizzle, Errors) {
  EXPECT_EQ(S(ParseSwizzle("Sw<3,4>")),
            "error: 1:7: expected ',', found '>'\nSw<3,4>\n      ^");
  EXPECT_EQ(S(ParseSwizzle("Sw<3,4,2>")),
            "error: 1:1: swizzle Sw<3,4,2> is invalid: |S| = 2 is less than "
            "B = 3 (CuTe: abs(SShift) must be more than BBits), so the two "
            "masks would overlap\nSw<3,4,2>\n^");
  EXPECT_EQ(S(ParseSwizzle("Sx<3,4,3>")),
            "error: 1:1: expected 'Sw<B,M,S>', found 'Sx'\nSx<3,4,3>\n^");
}

}  // namespace
}  // namespace hlolayout::cute

#include "hlolayout/cute/composition.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/cute/coalesce.h"
#include "hlolayout/testing/cute_random_layout.h"
#include "hlolayout/testing/cute_test_util.h"

namespace hlolayout::cute {
namespace {

using internal::L;
using internal::S;
using internal::T;

TEST(Composition, SeedExampleOne) {
  EXPECT_EQ(S(Composition(L("(6,2):(8,2)"), L("(4,3):(3,1)"))),
            "((2,2),3):((24,2),8)");
}

TEST(Composition, SeedExampleValues) {
  // The seed's table R(0..11) for the example above.
  const Layout r = *Composition(L("(6,2):(8,2)"), L("(4,3):(3,1)"));
  const int64_t expected[] = {0, 24, 2, 26, 8, 32, 10, 34, 16, 40, 18, 42};
  for (int i = 0; i < 12; ++i) EXPECT_EQ(r(i), expected[i]) << i;
}

TEST(Composition, SeedRowMajorReinterpretation) {
  EXPECT_EQ(S(Composition(L("20:2"), L("(5,4):(4,1)"))), "(5,4):(8,2)");
  EXPECT_EQ(S(Composition(L("20:2"), L("5:4"))), "5:8");
  EXPECT_EQ(S(Composition(L("20:2"), L("4:1"))), "4:2");
}

TEST(Composition, SeedColumnMajorStaticForm) {
  // All values known: CuTe's static result, not the dynamic
  // ((5,1),(2,2)):((16,4),(80,4)).
  EXPECT_EQ(S(Composition(L("(10,2):(16,4)"), L("(5,4):(1,5)"))),
            "(5,(2,2)):(16,(80,4))");
  EXPECT_EQ(S(Composition(L("(10,2):(16,4)"), L("5:1"))), "5:16");
  EXPECT_EQ(S(Composition(L("(10,2):(16,4)"), L("4:5"))), "(2,2):(80,4)");
}

TEST(Composition, SeedTilerExample) {
  EXPECT_EQ(S(Composition(L("(12,(4,8)):(59,(13,1))"), T("<3:4, 8:2>"))),
            "(3,(2,4)):(236,(26,1))");
}

TEST(Composition, SeedShapeTilerExample) {
  EXPECT_EQ(S(Composition(L("(12,(4,8)):(59,(13,1))"), T("(3,8)"))),
            "(3,(4,2)):(59,(13,1))");
}

TEST(Composition, KeepsRankOneProfileOfB) {
  EXPECT_EQ(S(Composition(L("(4,3):(3,1)"), L("(12):(1)"))), "((4,3)):((3,1))");
}

TEST(Composition, ReadsPastTheEndOfA) {
  EXPECT_EQ(S(Composition(L("(4,3):(3,1)"), L("(24):(1)"))), "((4,6)):((3,1))");
  // A trailing 1:0 caps A: the extension has stride 0 (pycute: 8:1).
  EXPECT_EQ(S(Composition(L("(4,1):(1,0)"), L("8:1"))), "(4,2):(1,0)");
}

TEST(Composition, AcceptsWhatPycuteWronglyRejects) {
  EXPECT_EQ(S(Composition(L("(8,8):(8,1)"), L("3:3"))), "3:24");
  EXPECT_EQ(S(Composition(L("(8,8):(8,1)"), L("2:3"))), "2:24");
}

TEST(Composition, RejectsWhatCuteWronglyAccepts) {
  // CuTe returns (2,2):(3,5), but A(B(2)) = A(6) = 7, not 5.
  EXPECT_EQ(S(Composition(L("(4,3):(1,5)"), L("4:3"))),
            "error: composition (4,3):(1,5) o 4:3 fails at mode 0 of "
            "coalesced A (4:1): stride 3 and size 4 do not divide each other "
            "and the 4 elements of B at stride 3 do not fit inside it");
  // CuTe (dynamic) returns (3,1):(24,1), of size 3.
  EXPECT_EQ(S(Composition(L("(8,8):(8,1)"), L("4:3"))),
            "error: composition (8,8):(8,1) o 4:3 fails at mode 0 of "
            "coalesced A (8:8): stride 3 and size 8 do not divide each other "
            "and the 4 elements of B at stride 3 do not fit inside it");
}

TEST(Composition, RejectsShapeThatDoesNotDivide) {
  // pycute floors this to 4:3.
  EXPECT_EQ(S(Composition(L("(4,3):(3,1)"), L("6:1"))),
            "error: composition (4,3):(3,1) o 6:1 fails at mode 0 of "
            "coalesced A (4:3): the mode holds 4 elements at stride 1, which "
            "does not divide the 6 remaining elements of B");
}

TEST(Composition, RejectsModesOfBThatCarry) {
  // Each leaf alone is fine, but 3 + 3 > 3 in A's first mode.
  EXPECT_EQ(S(Composition(L("(4,4):(1,10)"), L("(2,2):(3,3)"))),
            "error: composition (4,4):(1,10) o (2,2):(3,3) fails at mode 0 "
            "of coalesced A (4:1): the modes of B reach digit 6 in it "
            "together, past its size 4");
  EXPECT_EQ(S(Composition(L("(4,4):(1,10)"), L("(2,2):(1,-2)"))),
            "error: composition (4,4):(1,10) o (2,2):(1,-2) B mixes positive "
            "and negative strides");
}

TEST(Composition, IntegralCases) {
  EXPECT_EQ(S(Composition(L("1:1"), L("1:1"))), "1:1");
  EXPECT_EQ(S(Composition(L("(4,3):(3,1)"), L("5:0"))), "5:0");
  EXPECT_EQ(S(Composition(L("(4,3):(3,1)"), L("4:-1"))), "4:-3");
  EXPECT_EQ(S(Composition(L("(4,3):(3,1)"), L("(2,2):(-1,-4)"))),
            "(2,2):(-3,-1)");
}

TEST(Composition, TilerDropsModesBeyondIt) {
  EXPECT_EQ(S(Composition(L("(4,5,6):(1,4,20)"), T("<2:1>"))), "(2):(1)");
  EXPECT_EQ(S(Composition(L("(4,5,6):(1,4,20)"), T("<_, 2:2>"))),
            "(4,2):(1,8)");
}

TEST(Composition, TilerWithTooManyModes) {
  EXPECT_EQ(S(Composition(L("(4,5):(1,4)"), T("<2,2,2>"))),
            "error: composition (4,5):(1,4) o <2:_1, 2:_1, 2:_1> fails: the "
            "tiler has 3 modes and A only 2");
}

// R(i) == A(B(i)) over B's domain, for every accepted pair; and every
// rejected 1-D pair really has no layout of B's shape with that function
// whenever A has distinct non-zero strides (checked by brute force on a
// narrow family below).
TEST(Composition, PropertyMatchesFunctionComposition) {
  internal::LayoutGenerator gen(20240501);
  int accepted = 0;
  for (int trial = 0; trial < 6000; ++trial) {
    const Layout a = gen.Any(/*negative=*/trial % 3 == 0);
    const Layout b = trial % 2 ? gen.Any(/*negative=*/trial % 5 == 0, 6, 32)
                               : gen.Compact(32);
    absl::StatusOr<Layout> r = Composition(a, b);
    if (!r.ok()) continue;
    ++accepted;
    ASSERT_TRUE(Compatible(b, *r))
        << ToString(a) << " o " << ToString(b) << " = " << ToString(*r);
    ASSERT_EQ(r->size(), b.size());
    for (int64_t i = 0; i < b.size(); ++i) {
      ASSERT_EQ((*r)(i), a(b(i))) << ToString(a) << " o " << ToString(b)
                                  << " = " << ToString(*r) << " at " << i;
    }
  }
  EXPECT_GT(accepted, 1500);
}

// CuTe's composition of A with s:d without any check (docs/cute.md,
// "Composition"): the reference the exact rule is measured against.
std::vector<std::pair<int64_t, int64_t>> UncheckedCompose(
    const std::vector<std::pair<int64_t, int64_t>>& a, int64_t s, int64_t d) {
  std::vector<std::pair<int64_t, int64_t>> out;
  int64_t rest = s;
  for (size_t k = 0; k + 1 < a.size(); ++k) {
    const int64_t n = a[k].first;
    const int64_t next_shape = (n + d - 1) / d;
    const int64_t next_stride = (d + n - 1) / n;
    if (next_shape > 1 && rest > 1) {
      const int64_t m = std::min(next_shape, rest);
      out.push_back({m, d * a[k].second});
      rest = (rest + m - 1) / m;
    }
    d = next_stride;
  }
  if (rest > 1 || out.empty()) out.push_back({rest, d * a.back().second});
  return out;
}

// The exact rule (docs/cute.md, "Composition"): for rank-3 A with increasing
// non-overlapping strides and rank-1 B, a composition is accepted exactly when
// CuTe's unchecked algorithm gives a correct layout (right size, R(i) ==
// A(i*d)).
TEST(Composition, PropertyExactRuleOnRankOneB) {
  internal::LayoutGenerator gen(7);
  int rejected = 0, accepted = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const int64_t n0 = gen.Uniform(2, 6), n1 = gen.Uniform(2, 6),
                  n2 = gen.Uniform(2, 6);
    const int64_t d0 = gen.Uniform(1, 3);
    const int64_t d1 = d0 * n0 * gen.Uniform(1, 2);
    const int64_t d2 = d1 * n1 * gen.Uniform(1, 2);
    const Layout a = Layout::Make(IntTuple::Tuple({n0, n1, n2}),
                                  IntTuple::Tuple({d0, d1, d2}));
    const int64_t s = gen.Uniform(1, 12), d = gen.Uniform(1, 12);
    // The unchecked algorithm works on coalesce_x(A), like CuTe.
    std::vector<std::pair<int64_t, int64_t>> modes;
    for (const internal::Mode& m : internal::CoalesceX(a)) {
      modes.push_back({m.shape.value, m.stride.value});
    }
    const auto ref = UncheckedCompose(modes, s, d);
    int64_t ref_size = 1;
    for (const auto& m : ref) ref_size *= m.first;
    bool ref_correct = ref_size == s;
    for (int64_t i = 0; i < s && ref_correct; ++i) {
      int64_t idx = i, v = 0;
      for (size_t k = 0; k < ref.size(); ++k) {
        const int64_t c = k + 1 == ref.size() ? idx : idx % ref[k].first;
        v += c * ref[k].second;
        idx /= ref[k].first;
      }
      ref_correct = v == a(i * d);
    }
    absl::StatusOr<Layout> r = Composition(a, Layout::Make(s, d));
    ASSERT_EQ(r.ok(), ref_correct)
        << ToString(a) << " o " << s << ":" << d << ": "
        << (r.ok() ? ToString(*r) : std::string(r.status().message()));
    if (r.ok()) {
      ++accepted;
      for (int64_t i = 0; i < s; ++i) ASSERT_EQ((*r)(i), a(i * d));
    } else {
      ++rejected;
    }
  }
  EXPECT_GT(accepted, 3000);
  EXPECT_GT(rejected, 3000);
}

// The rule follows CuTe's algorithm: it rejects compositions whose
// function some other layout happens to express. Pinned so that a change
// of rule is a visible decision.
TEST(Composition, RejectsExpressibleCaseOutsideTheAlgorithm) {
  // i -> A(12 i) is 0, 20, 48, 68, which (2,2):(20,48) expresses.
  EXPECT_FALSE(Composition(L("(4,2,2):(1,4,16)"), L("4:12")).ok());
}

}  // namespace
}  // namespace hlolayout::cute

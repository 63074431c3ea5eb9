#include "hlolayout/cute/inverse.h"

#include <cstdint>
#include <set>

#include "gtest/gtest.h"
#include "hlolayout/testing/cute_random_layout.h"
#include "hlolayout/testing/cute_test_util.h"

namespace hlolayout::cute {
namespace {

using internal::L;
using internal::S;

TEST(RightInverse, SpecExamples) {
  EXPECT_EQ(ToString(RightInverse(L("(2,4,6):(4,1,8)"))), "(4,2,6):(2,_1,8)");
  EXPECT_EQ(ToString(RightInverse(L("(4,2):(1,16)"))), "4:_1");
  // pycute stops at the stride-0 mode and gives 1:0.
  EXPECT_EQ(ToString(RightInverse(L("(3,4):(0,1)"))), "4:3");
  EXPECT_EQ(ToString(RightInverse(L("4:2"))), "_1:_0");
  EXPECT_EQ(ToString(RightInverse(L("(2,2):(-1,1)"))), "2:2");
}

TEST(LeftInverse, SpecExamples) {
  EXPECT_EQ(S(LeftInverse(L("4:2"))), "(2,4):(_0,_1)");
  EXPECT_EQ(S(LeftInverse(L("(4,2):(1,5)"))), "(5,2):(_1,4)");
  EXPECT_EQ(S(LeftInverse(L("(3,4):(0,1)"))), "4:3");
  EXPECT_EQ(S(LeftInverse(L("(2,4,6):(4,1,8)"))), "(4,2,6):(2,_1,8)");
  // CuTe keeps the shape of the largest-stride mode at stride 0.
  EXPECT_EQ(S(LeftInverse(L("5:0"))), "5:_0");
}

TEST(LeftInverse, Errors) {
  EXPECT_EQ(S(LeftInverse(L("(2,3):(2,3)"))),
            "error: left_inverse of (2,3):(2,3) fails at coalesced mode 3:3: "
            "its stride is not a multiple of 2, the next smaller stride");
  EXPECT_EQ(S(LeftInverse(L("(4,2):(1,2)"))),
            "error: left_inverse of (4,2):(1,2) fails at coalesced mode 2:2: "
            "it starts inside mode 4:1, so the layout is not injective");
  EXPECT_EQ(S(LeftInverse(L("4:-1"))),
            "error: left_inverse of 4:-1 fails: stride -1 is negative, and "
            "left_inverse needs non-negative strides");
}

TEST(RightInverse, PropertyPostConditions) {
  internal::LayoutGenerator gen(21);
  int nontrivial = 0;
  for (int trial = 0; trial < 5000; ++trial) {
    const Layout l = trial % 2 ? gen.Any(true, 8) : gen.Injective();
    const Layout r = RightInverse(l);
    ASSERT_LE(r.depth(), 1);
    if (r.size() > 1) ++nontrivial;
    for (int64_t i = 0; i < r.size(); ++i) {
      ASSERT_EQ(l(r(i)), i) << ToString(l) << " -> " << ToString(r);
    }
    // Maximality for injective layouts of compact image: when L is a
    // permutation of 0..size-1, R inverts it entirely.
    if (trial % 2 == 0 && l.cosize() == l.size()) {
      ASSERT_EQ(r.size(), l.size()) << ToString(l);
    }
  }
  EXPECT_GT(nontrivial, 1200);
}

TEST(LeftInverse, PropertyPostConditions) {
  internal::LayoutGenerator gen(22);
  int accepted = 0;
  for (int trial = 0; trial < 5000; ++trial) {
    const Layout l = trial % 2 ? gen.Any(false, 8) : gen.Injective();
    absl::StatusOr<Layout> r = LeftInverse(l);
    if (!r.ok()) {
      ASSERT_EQ(trial % 2, 1) << ToString(l) << ": " << r.status().message();
      continue;
    }
    ++accepted;
    bool injective = true;
    std::set<int64_t> seen;
    for (int64_t i = 0; i < l.size(); ++i) {
      ASSERT_EQ(l((*r)(l(i))), l(i)) << ToString(l) << " -> " << ToString(*r);
      injective = seen.insert(l(i)).second && injective;
    }
    if (injective) {
      for (int64_t i = 0; i < l.size(); ++i) ASSERT_EQ((*r)(l(i)), i);
    }
  }
  EXPECT_GT(accepted, 3000);
}

}  // namespace
}  // namespace hlolayout::cute

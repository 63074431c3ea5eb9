#include "hlolayout/cute/coalesce.h"

#include <cstdint>

#include "gtest/gtest.h"
#include "hlolayout/testing/cute_random_layout.h"
#include "hlolayout/testing/cute_test_util.h"

namespace hlolayout::cute {
namespace {

using internal::I;
using internal::L;
using internal::S;

TEST(Coalesce, SeedExample) {
  EXPECT_EQ(ToString(Coalesce(L("(2,(1,6)):(1,(6,2))"))), "12:1");
}

TEST(Coalesce, SeedByModeExample) {
  EXPECT_EQ(S(Coalesce(L("(2,(1,6)):(1,(6,2))"), I("(1,1)"))), "(2,6):(1,2)");
}

TEST(Coalesce, SpecByModeExample) {
  EXPECT_EQ(S(Coalesce(L("((2,2),(3,2)):((1,2),(4,12))"), I("((1,1),1)"))),
            "((2,2),6):((1,2),4)");
}

TEST(Coalesce, Rules) {
  EXPECT_EQ(ToString(Coalesce(L("1:1"))), "_1:_0");
  EXPECT_EQ(ToString(Coalesce(L("(1,1):(3,5)"))), "_1:_0");
  EXPECT_EQ(ToString(Coalesce(L("(2,3):(0,0)"))), "6:0");
  EXPECT_EQ(ToString(Coalesce(L("(2,2):(-1,-2)"))), "4:-1");
  EXPECT_EQ(ToString(Coalesce(L("(2,4):(1,2)"))), "8:1");
  EXPECT_EQ(ToString(Coalesce(L("(2,4):(1,3)"))), "(2,4):(1,3)");
  EXPECT_EQ(ToString(Coalesce(L("(4):(1)"))), "4:1");
  EXPECT_EQ(ToString(Coalesce(L("()"))), "_1:_0");
}

TEST(Coalesce, ByModeIntegralLayoutIsItsOwnMode) {
  // CuTe's transform_layout (and the CuTe DSL, pycute): the result is a
  // layout of modes, also where a mode was an integral layout.
  EXPECT_EQ(S(Coalesce(L("8:1"), I("(1)"))), "(8):(1)");
  EXPECT_EQ(S(Coalesce(L("(2,4):(1,2)"), I("((1),1)"))), "((2),4):((1),2)");
  EXPECT_EQ(S(Coalesce(L("8:1"), I("(1,1)"))),
            "error: profile has more modes than the layout");
}

TEST(Coalesce, ProfileErrors) {
  EXPECT_EQ(S(Coalesce(L("(2,3):(1,2)"), I("(1,1,1)"))),
            "error: profile has more modes than the layout");
}

TEST(Filter, Examples) {
  EXPECT_EQ(ToString(Filter(L("(2,3,4):(0,1,0)"))), "3:1");
  EXPECT_EQ(ToString(Filter(L("(2,3):(0,0)"))), "_1:_0");
  EXPECT_EQ(ToString(Filter(L("(2,(1,3),4):(1,(7,0),2)"))), "8:1");
  EXPECT_EQ(S(Filter(L("((2,3),(4,5)):((0,1),(3,0))"), I("(1,1)"))),
            "(3,4):(1,3)");
}

TEST(Coalesce, PropertyPostConditions) {
  internal::LayoutGenerator gen(1);
  for (int trial = 0; trial < 5000; ++trial) {
    const Layout l = gen.Any(/*negative=*/trial % 2 == 0);
    const Layout r = Coalesce(l);
    ASSERT_EQ(r.size(), l.size()) << ToString(l);
    ASSERT_LE(r.depth(), 1) << ToString(l);
    for (int64_t i = 0; i < l.size(); ++i) {
      ASSERT_EQ(r(i), l(i)) << ToString(l) << " -> " << ToString(r);
    }
    // No two neighbours left that could merge, and no size-1 mode.
    if (r.shape().is_tuple()) {
      for (int k = 0; k < r.rank(); ++k) {
        ASSERT_NE(r.shape()[k].value(), 1) << ToString(r);
        if (k > 0) {
          ASSERT_NE(r.stride()[k].value(),
                    r.shape()[k - 1].value() * r.stride()[k - 1].value())
              << ToString(r);
        }
      }
    }
  }
}

TEST(Coalesce, PropertyByModeKeepsRankAndFunction) {
  internal::LayoutGenerator gen(2);
  for (int trial = 0; trial < 3000; ++trial) {
    const Layout l = gen.Any(true);
    // Profile: the shape itself cut at depth 1 (integers at each mode).
    std::vector<IntTuple> p(l.rank(), IntTuple(1));
    const IntTuple profile =
        l.shape().is_int() ? IntTuple(1) : IntTuple::Tuple(p);
    absl::StatusOr<Layout> r = Coalesce(l, profile);
    ASSERT_TRUE(r.ok()) << ToString(l);
    ASSERT_EQ(r->rank(), l.rank());
    for (int m = 0; m < l.rank(); ++m) {
      ASSERT_LE(r->mode(m).depth(), 1);
      ASSERT_EQ(r->mode(m).size(), l.mode(m).size());
    }
    for (int64_t i = 0; i < l.size(); ++i) ASSERT_EQ((*r)(i), l(i));
  }
}

TEST(Filter, PropertyPostConditions) {
  internal::LayoutGenerator gen(3);
  for (int trial = 0; trial < 3000; ++trial) {
    const Layout l = gen.Any(true);
    const Layout r = Filter(l);
    int64_t zero_size = 1;
    const std::vector<int64_t> s = Flatten(l.shape()), d = Flatten(l.stride());
    std::vector<IntTuple> zs, ds;
    for (size_t k = 0; k < s.size(); ++k) {
      if (d[k] == 0) zero_size *= s[k];
      zs.emplace_back(d[k] == 0 ? 1 : s[k]);
      ds.emplace_back(d[k]);
    }
    ASSERT_EQ(r.size() * zero_size, l.size()) << ToString(l);
    const Layout z = Layout::Make(IntTuple::Tuple(zs), IntTuple::Tuple(ds));
    for (int64_t i = 0; i < r.size(); ++i) ASSERT_EQ(r(i), z(i));
    if (r.size() > 1) {
      for (int64_t d0 : Flatten(r.stride())) ASSERT_NE(d0, 0) << ToString(l);
    }
  }
}

}  // namespace
}  // namespace hlolayout::cute

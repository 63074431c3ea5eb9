#include "hlolayout/cute/divide.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/cute/coalesce.h"
#include "hlolayout/cute/complement.h"
#include "hlolayout/cute/composition.h"
#include "hlolayout/testing/cute_random_layout.h"
#include "hlolayout/testing/cute_test_util.h"

namespace hlolayout::cute {
namespace {

using internal::L;
using internal::S;
using internal::T;

TEST(LogicalDivide, SeedOneDimensionalExampleCorrected) {
  // The seed states ((2,2),(2,3)):((4,1),(2,8)) for A = (2,4,3):(4,1,8);
  // that result belongs to A = (4,2,3):(2,1,8) (CUTLASS issue #1511).
  EXPECT_EQ(S(LogicalDivide(L("(4,2,3):(2,1,8)"), T("4:2"))),
            "((2,2),(2,3)):((4,1),(2,8))");
  EXPECT_EQ(S(LogicalDivide(L("(2,4,3):(4,1,8)"), T("4:2"))),
            "(4,(2,3)):(1,(4,8))");
}

TEST(LogicalDivide, SeedSteps) {
  EXPECT_EQ(S(Complement(L("4:2"), 24)), "(2,3):(_1,8)");
  EXPECT_EQ(S(Composition(L("(4,2,3):(2,1,8)"), L("(4,(2,3)):(2,(1,8))"))),
            "((2,2),(2,3)):((4,1),(2,8))");
}

TEST(LogicalDivide, SeedTwoDimensionalExample) {
  const Layout a = L("(9,(4,8)):(59,(13,1))");
  const Tiler b = T("<3:3, (2,4):(1,8)>");
  EXPECT_EQ(S(LogicalDivide(a, b)),
            "((3,3),((2,4),(2,2))):((177,59),((13,2),(26,1)))");
  // The seed's shape ((3,3),(8,4)).
  const Layout ld = *LogicalDivide(a, b);
  EXPECT_EQ(ld.mode(0).size(), 9);
  EXPECT_EQ(ld.mode(1).mode(0).size(), 8);
  EXPECT_EQ(ld.mode(1).mode(1).size(), 4);
  // The first mode of each mode is composition(a, b): the seed's text
  // gives (3,(2,4)):(236,(13,52)), which belongs to neither; 236 is the
  // stride of the earlier <3:4, 8:2> example.
  EXPECT_EQ(S(Composition(a, b)), "(3,(2,4)):(177,(13,2))");
}

TEST(ZippedDivide, SeedExample) {
  const Layout a = L("(9,(4,8)):(59,(13,1))");
  const Tiler b = T("<3:3, (2,4):(1,8)>");
  const Layout zd = *ZippedDivide(a, b);
  EXPECT_EQ(ToString(zd), "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))");
  // Shape ((3,8),(3,4)) and layout<0>(zd) == composition(a, b).
  EXPECT_EQ(zd.mode(0).size(), 24);
  EXPECT_EQ(zd.mode(1).size(), 12);
  EXPECT_EQ(zd.mode(0), *Composition(a, b));
  // The offset of tile (1,2) is zd(0, (1,2)): RestM 1 at 59, and RestN 2
  // split over (2,2):(26,1) as (0,1).
  EXPECT_EQ(*zd.Evaluate(internal::I("(0,(1,2))")), 59 + 1);
  // Tile 7 is tile (1,2) in colexicographic order; tile 3 is (0,1).
  EXPECT_EQ(*zd.Evaluate(internal::I("(0,7)")), 60);
  EXPECT_EQ(*zd.Evaluate(internal::I("(0,3)")), 26);
}

TEST(Divide, Regroupings) {
  const Layout a = L("(8,6,5):(1,8,48)");
  const Tiler b = T("<2, 3>");
  EXPECT_EQ(S(LogicalDivide(a, b)), "((2,4),(3,2),5):((1,2),(8,24),48)");
  EXPECT_EQ(S(ZippedDivide(a, b)), "((2,3),(4,2,5)):((1,8),(2,24,48))");
  EXPECT_EQ(S(TiledDivide(a, b)), "((2,3),4,2,5):((1,8),2,24,48)");
  EXPECT_EQ(S(FlatDivide(a, b)), "(2,3,4,2,5):(1,8,2,24,48)");
  // A Layout tiler: zipped is logical.
  EXPECT_EQ(S(ZippedDivide(L("24:1"), T("4:2"))), "(4,(2,3)):(2,(1,8))");
  EXPECT_EQ(S(TiledDivide(L("24:1"), T("4:2"))), "(4,2,3):(2,1,8)");
  EXPECT_EQ(S(FlatDivide(L("24:1"), T("(2,2):(2,4)"))), "(2,2,2,3):(2,4,1,8)");
}

TEST(LogicalDivide, RoundsTheRestUp) {
  EXPECT_EQ(S(LogicalDivide(L("48:1"), T("32:1"))), "(32,2):(1,32)");
  EXPECT_EQ(S(LogicalDivide(L("6:1"), T("4:1"))), "(4,2):(1,4)");
  EXPECT_EQ(S(LogicalDivide(L("32:1"), T("48:1"))), "(48,_1):(1,_0)");
}

TEST(LogicalDivide, UnderscoreAndExtraModes) {
  EXPECT_EQ(S(LogicalDivide(L("(8,6,5):(1,8,48)"), T("<_, 3>"))),
            "(8,(3,2),5):(1,(8,24),48)");
  EXPECT_EQ(S(ZippedDivide(L("(8,6):(1,8)"), T("<_, 3>"))),
            "error: zipped_divide (8,6):(1,8) / <_, 3:_1>: '_' in the tiler "
            "is only supported by composition, logical_divide and "
            "logical_product");
}

TEST(LogicalDivide, Errors) {
  EXPECT_EQ(S(LogicalDivide(L("(4,5):(1,4)"), T("<2,2,2>"))),
            "error: logical_divide (4,5):(1,4) / <2:_1, 2:_1, 2:_1>: the tiler "
            "has 3 modes and A only 2");
  EXPECT_EQ(S(LogicalDivide(L("12:1"), T("(2,2):(1,1)"))),
            "error: logical_divide 12:1 / (2,2):(1,1): complement of "
            "(2,2):(1,1) with cotarget 12 fails at mode 2:1 of filtered A: "
            "its stride is below 2, the end of the modes with smaller "
            "strides, so A is not injective or its modes interleave");
  EXPECT_EQ(S(LogicalDivide(L("(3,5):(1,3)"), T("<2>"))),
            "((2,2),5):((1,2),3)");
}

// R(i) == A(BB*(i)) with BB* = (B, complement(B, shape(coalesce(A)))), and
// the tile mode is composition(A, B).
TEST(LogicalDivide, PropertyPostConditions) {
  internal::LayoutGenerator gen(31);
  int accepted = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const Layout a = trial % 2 ? gen.Compact(64) : gen.Any(false, 12);
    const Layout b = gen.Injective(16);
    absl::StatusOr<Layout> r = LogicalDivide(a, Tiler::Of(b));
    if (!r.ok()) continue;
    ++accepted;
    ASSERT_EQ(r->rank(), 2);
    ASSERT_TRUE(Compatible(b, r->mode(0)));
    const Layout bb = *MakeLayout({b, *Complement(b, Coalesce(a).shape())});
    ASSERT_EQ(r->size(), bb.size());
    for (int64_t i = 0; i < r->size(); ++i) {
      ASSERT_EQ((*r)(i), a(bb(i))) << ToString(a) << " / " << ToString(b);
    }
    const Layout tile = *Composition(a, b);
    const Layout mode0 = r->mode(0);
    for (int64_t i = 0; i < b.size(); ++i) ASSERT_EQ(mode0(i), tile(i));
    // Regroupings keep the leaves.
    for (auto* f : {&ZippedDivide, &TiledDivide, &FlatDivide}) {
      const Layout g = *(*f)(a, Tiler::Of(b));
      std::vector<int64_t> x = Flatten(r->shape()), y = Flatten(g.shape());
      ASSERT_EQ(x, y);
      ASSERT_EQ(Flatten(r->stride()), Flatten(g.stride()));
    }
  }
  EXPECT_GT(accepted, 1500);
}

TEST(ZippedDivide, PropertyTileModeIsComposition) {
  internal::LayoutGenerator gen(32);
  int accepted = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const Layout a = gen.Compact(64);
    if (a.shape().is_int() || a.rank() < 2) continue;
    std::vector<Tiler> parts;
    const int rank = static_cast<int>(gen.Uniform(1, a.rank()));
    for (int i = 0; i < rank; ++i) {
      parts.push_back(
          Tiler::Of(Layout::Make(gen.Uniform(1, 4), gen.Uniform(1, 2))));
    }
    const Tiler t = Tiler::Tuple(parts);
    absl::StatusOr<Layout> z = ZippedDivide(a, t);
    if (!z.ok()) continue;
    ++accepted;
    ASSERT_EQ(z->mode(0), *Composition(a, t));
    const Layout l = *LogicalDivide(a, t);
    ASSERT_EQ(l.rank(), a.rank());
    for (int i = 0; i < rank; ++i) {
      ASSERT_TRUE(Compatible(parts[i].layout(), l.mode(i).mode(0)));
    }
  }
  EXPECT_GT(accepted, 500);
}

}  // namespace
}  // namespace hlolayout::cute

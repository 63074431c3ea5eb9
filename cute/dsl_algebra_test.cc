// CuTe's algebra (cute/coalesce.h, ...) on layouts holding the CuTe DSL's
// `?` (cute/integer.h): each algorithm decides with known integers and
// divisibilities only. Each expected text is what the DSL printed for the
// same call (nvidia-cutlass-dsl 4.8.1 run on the CPU, inside a
// `cute.jit` function with `m = cute.assume(n, divby=8)`, n = 16).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "hlolayout/cute/coalesce.h"
#include "hlolayout/cute/common_layout.h"
#include "hlolayout/cute/complement.h"
#include "hlolayout/cute/composition.h"
#include "hlolayout/cute/divide.h"
#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/cute/integer.h"
#include "hlolayout/cute/internal/regroup.h"
#include "hlolayout/cute/inverse.h"
#include "hlolayout/cute/layout.h"
#include "hlolayout/cute/print.h"
#include "hlolayout/cute/product.h"
#include "hlolayout/cute/recast.h"
#include "hlolayout/cute/tile_to_shape.h"
#include "hlolayout/cute/tiler.h"

namespace hlolayout::cute {
namespace {

// `?{div=8}` standing for 16 (the DSL's m above), and other `?`s.
IntTuple M() { return IntTuple(Int::Unknown(16, 8)); }
IntTuple Q(int64_t v, int64_t div) { return IntTuple(Int::Unknown(v, div)); }
IntTuple S(int64_t v) { return IntTuple::Static(v); }
IntTuple T(std::vector<IntTuple> e) { return IntTuple::Tuple(std::move(e)); }

Layout L(IntTuple shape, IntTuple stride) {
  return Layout::Make(std::move(shape), std::move(stride));
}

TEST(DslCoalesce, MergesOnlyKnownModes) {
  // cute.coalesce((2,m,1,4):(1,2,m,m*2)): 2:1 and m:2 would merge by value.
  EXPECT_EQ(DslText(Coalesce(L(T({S(2), M(), S(1), S(4)}),
                               T({S(1), S(2), M(), Q(32, 16)})))),
            "(2,?{div=8},4):(1,2,?{div=16})");
  // (m,4):(1,m) stays: 4:m follows m:1 by value only.
  EXPECT_EQ(DslText(Coalesce(L(T({M(), S(4)}), T({S(1), M()})))),
            "(?{div=8},4):(1,?{div=8})");
  EXPECT_EQ(DslText(Coalesce(L(T({S(4), M()}), T({S(1), S(4)})))),
            "(4,?{div=8}):(1,4)");
  // Static size-1 modes go whatever their stride.
  EXPECT_EQ(DslText(Coalesce(L(T({M(), S(1)}), T({S(1), M()})))), "?{div=8}:1");
  EXPECT_EQ(DslText(Coalesce(L(T({S(1), M()}), T({S(5), S(1)})))),
            "?{div=8}:1");
}

TEST(DslCoalesce, KeepsAnUnknownThatStandsForOne) {
  // A `?` standing for 1 is no static 1: it stays (and merges with nothing).
  EXPECT_EQ(DslText(Coalesce(L(T({S(2), Q(1, 1)}), T({S(1), S(2)})))),
            "(2,?):(1,2)");
}

TEST(DslFilter, FiltersOnlyStaticZeros) {
  // cute.filter((2,m,3):(0,1,m)): m:1 and 3:m stay apart.
  EXPECT_EQ(DslText(Filter(L(T({S(2), M(), S(3)}), T({S(0), S(1), M()})))),
            "(?{div=8},3):(1,?{div=8})");
  // A `?` stride standing for 0 is not filtered.
  EXPECT_EQ(DslText(Filter(L(T({S(2), S(3)}), T({Q(0, 0), S(1)})))),
            "(2,3):(?{div=0},1)");
}

TEST(DslFilterZeros, SizeOneWhereTheStrideIsAStaticZero) {
  // cute.filter_zeros((m,(4,2)):(0,(0,m))), and a `?` stride for 0 stays.
  EXPECT_EQ(DslText(FilterZeros(
                L(T({M(), T({S(4), S(2)})}), T({S(0), T({S(0), M()})})))),
            "(1,(1,2)):(0,(0,?{div=8}))");
  EXPECT_EQ(DslText(FilterZeros(L(T({S(2), S(3)}), T({Q(0, 0), S(1)})))),
            "(2,3):(?{div=0},1)");
}

// The DSL's complement of `a` up to `cotarget`, printed as the DSL prints
// a layout (sizes of 0 or below included).
std::string DslComplement(const Layout& a, const IntTuple& cotarget) {
  absl::StatusOr<internal::Modes> r =
      internal::DslComplementModes(internal::FilterModes(a), cotarget);
  if (!r.ok()) return std::string(r.status().message());
  if (r->empty()) return "1:0";
  std::vector<IntTuple> sh, st;
  for (const internal::Mode& m : *r) {
    sh.emplace_back(m.shape);
    st.emplace_back(m.stride);
  }
  if (r->size() == 1) return DslText(sh[0]) + ":" + DslText(st[0]);
  return DslText(T(sh)) + ":" + DslText(T(st));
}

TEST(DslComplement, UnknownStridesAndCotargets) {
  // cute.complement(4:m, 64), (4:2, (2,m)), (4:2, (m,m,4)), (m:1, 64).
  EXPECT_EQ(DslComplement(L(S(4), M()), S(64)), "(?{div=8},?):(1,?{div=32})");
  EXPECT_EQ(DslComplement(L(S(4), S(2)), T({S(2), M()})), "(2,?):(1,8)");
  EXPECT_EQ(DslComplement(L(S(4), S(2)), T({M(), M(), S(4)})), "(2,?):(1,8)");
  EXPECT_EQ(DslComplement(L(M(), S(1)), S(64)), "?:?{div=8}");
  // Filtered to nothing: the compact layout of the cotarget, coalesced.
  EXPECT_EQ(DslComplement(L(T({S(4), S(2)}), T({S(0), S(0)})), T({M(), S(2)})),
            "(?{div=8},2):(1,?{div=8})");
  // Two modes with a `?` stride: CuTe's static_assert.
  EXPECT_NE(DslComplement(L(T({S(4), S(2)}), T({M(), S(1)})), S(64))
                .find("dynamic stride"),
            std::string::npos);
}

TEST(DslComplement, UncheckedAsTheDsl) {
  // Interleaving modes and negative strides give what the DSL prints.
  EXPECT_EQ(DslComplement(L(T({S(2), S(2)}), T({S(2), S(3)})), S(24)),
            "(2,0,4):(1,4,6)");
  EXPECT_EQ(DslComplement(L(S(6), S(-1)), S(12)), "(-1,-2):(1,-6)");
  EXPECT_EQ(DslComplement(L(S(6), S(-1)), S(6)), "1:0");
}

TEST(DslRightInverse, SkipsUnknownStrides) {
  // cute.right_inverse((4,2):(m,1)), ((2,4,2):(1,m,2)), ((2,4):(1,m)); m
  // stands for 16, which is no stride the scan looks for, but a `?` for 2
  // would be taken by value.
  EXPECT_EQ(DslText(RightInverse(L(T({S(4), S(2)}), T({M(), S(1)})))), "2:4");
  EXPECT_EQ(
      DslText(RightInverse(L(T({S(2), S(4), S(2)}), T({S(1), M(), S(2)})))),
      "(2,2):(1,8)");
  EXPECT_EQ(DslText(RightInverse(L(T({S(2), S(4)}), T({S(1), Q(2, 2)})))),
            "2:1");
}

TEST(DslLeftInverse, UncheckedAsTheDsl) {
  auto dsl = [](const Layout& l) {
    absl::StatusOr<Layout> r = internal::DslLeftInverse(l);
    return r.ok() ? DslText(*r) : std::string(r.status().message());
  };
  // cute.left_inverse((4,2):(2,4)) (not injective), 4:0, (4,2):(0,0).
  EXPECT_EQ(dsl(L(T({S(4), S(2)}), T({S(2), S(4)}))), "(2,2,2):(0,1,4)");
  EXPECT_EQ(dsl(L(S(4), S(0))), "1:0");
  EXPECT_EQ(dsl(L(T({S(4), S(2)}), T({S(0), S(0)}))), "1:0");
  EXPECT_EQ(dsl(L(T({S(4), S(2)}), T({S(1), S(5)}))), "(5,2):(1,4)");
  // CuTe's divisibility condition holds for the DSL too.
  EXPECT_NE(dsl(L(T({S(4), S(2)}), T({S(2), S(3)}))).find("multiple"),
            std::string::npos);
}

// The DSL's A o B, printed as the DSL prints a layout, or the error.
std::string DslCompose(const Layout& a, const Layout& b) {
  absl::StatusOr<std::pair<IntTuple, IntTuple>> r =
      internal::DslComposition(a.leaf_modes(), b.shape(), b.stride());
  if (!r.ok()) return std::string(r.status().message());
  return DslText(r->first) + ":" + DslText(r->second);
}

TEST(DslComposition, UnknownIntegers) {
  // cute.composition((m,4):(1,m), 16:1): ceil_div(m, 1) is m itself.
  EXPECT_EQ(DslCompose(L(T({M(), S(4)}), T({S(1), M()})), L(S(16), S(1))),
            "(?{div=8},?):(1,?{div=8})");
  // ((4,m):(1,4), k:1), k a ?{div=32}: min(4, k) keeps gcd 4.
  EXPECT_EQ(DslCompose(L(T({S(4), M()}), T({S(1), S(4)})), L(Q(64, 32), S(1))),
            "(?{div=4},?):(1,4)");
  // ((4,m,2):(1,4,4m), k:2).
  EXPECT_EQ(DslCompose(L(T({S(4), M(), S(2)}), T({S(1), S(4), Q(64, 32)})),
                       L(Q(64, 32), S(2))),
            "(?{div=2},?,?):(2,4,?{div=32})");
  // ((8,4):(1,8), (k):(1)): B's profile stays.
  EXPECT_EQ(DslCompose(L(T({S(8), S(4)}), T({S(1), S(8)})),
                       L(T({Q(64, 32)}), T({S(1)}))),
            "(?{div=32}):(1)");
}

TEST(DslComposition, WeakChecksOnStaticIntegersOnly) {
  // CuTe's weak check lets (4,3):(1,5) o 4:3 through, a wrong layout the
  // DSL prints; with a `?` size, the checks are skipped.
  EXPECT_EQ(DslCompose(L(T({S(4), S(3)}), T({S(1), S(5)})), L(S(4), S(3))),
            "(2,2):(3,5)");
  EXPECT_EQ(
      DslCompose(L(T({Q(3, 1), S(4)}), T({S(1), Q(3, 1)})), L(S(4), S(2))),
      "(?,?):(2,?)");
  // Both refused by the DSL too ("unable to compute the following
  // composition"): (2,6):(1,3) o 2:3 (3 % 2 != 0 and 3 >= 2), and
  // (4,8):(1,5) o 3:2 (2 elements of mode 0 do not divide 3).
  EXPECT_NE(DslCompose(L(T({S(2), S(6)}), T({S(1), S(3)})), L(S(2), S(3)))
                .find("Stride Divisibility Condition"),
            std::string::npos);
  EXPECT_NE(DslCompose(L(T({S(4), S(8)}), T({S(1), S(5)})), L(S(3), S(2)))
                .find("Shape Divisibility Condition"),
            std::string::npos);
  // A stride past int64 is refused (the DSL: "unable to compute").
  EXPECT_NE(DslCompose(L(T({S(2), S(2)}), T({S(1), S(int64_t{1} << 40)})),
                       L(S(2), S(int64_t{1} << 30)))
                .find("overflows int64"),
            std::string::npos);
}

TEST(DslCompositionLeaf, FactorsAndSources) {
  // (4,8) o (2,4):(4,1) leaf 2:4 takes mode 1 (factor 1), leaf 4:1 mode 0.
  const Int shapes[] = {Int::Static(4), Int::Static(8)};
  absl::StatusOr<std::vector<internal::SourcedMode>> r =
      internal::DslCompositionLeaf(shapes, Int::Static(2), Int::Static(4));
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->size(), 1u);
  EXPECT_EQ((*r)[0].shape.value, 2);
  EXPECT_EQ((*r)[0].factor.value, 1);
  EXPECT_EQ((*r)[0].source, 1);
  // A stride 0 is its own stride (source -1).
  r = internal::DslCompositionLeaf(shapes, Int::Static(3), Int::Static(0));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[0].source, -1);
}

TEST(DslLogicalDivide, ComplementThenComposition) {
  auto divide = [](const Layout& a, const Layout& t) {
    absl::StatusOr<internal::DslDivision> r =
        internal::DslLogicalDivide(a.leaf_modes(), t.shape(), t.stride());
    if (!r.ok()) return std::string(r.status().message());
    return DslText(r->shape) + ":" + DslText(r->stride) +
           (r->several_modes ? " several" : " one");
  };
  // cute.logical_divide((8,m):(1,8), (2,2):(1,4)) and ((m,4), 4:2).
  EXPECT_EQ(divide(L(T({S(8), M()}), T({S(1), S(8)})),
                   L(T({S(2), S(2)}), T({S(1), S(4)}))),
            "((2,2),(2,?{div=8})):((1,4),(2,8)) several");
  EXPECT_EQ(divide(L(T({M(), S(4)}), T({S(1), M()})), L(S(4), S(2))),
            "((?,?),((?{div=2},?),(?,?))):((2,?{div=8}),((1,?{div=8}),"
            "(8,?{div=8}))) several");
  // One mode: nothing to check. (4,3):(1,5) / 4:3 is the DSL's wrong
  // answer, let through.
  EXPECT_EQ(divide(L(M(), S(1)), L(S(4), S(1))), "(4,?):(1,4) one");
  EXPECT_EQ(divide(L(T({S(4), S(3)}), T({S(1), S(5)})), L(S(4), S(3))),
            "((2,2),3):((3,5),1) several");
}

TEST(DslLogicalProduct, ComplementThenComposition) {
  auto product = [](const Layout& a, const Layout& t, const IntTuple& cot) {
    absl::StatusOr<internal::DslProductParts> r =
        internal::DslLogicalProduct(a.leaf_modes(), t.shape(), t.stride(), cot);
    if (!r.ok()) return std::string(r.status().message());
    return DslText(r->shape) + ":" + DslText(r->stride) +
           (r->several_modes ? " several" : " one");
  };
  // Mode 1 of cute.logical_product((2,2):(4,1), m:1), m a ?{div=2} for 6
  // (cotarget 4 * m), and of ((2,2):(1,2), (k,3):(1,k)), k a ?{div=4} for 8
  // (cotarget 4 * cosize, 4 * (3k - 2)... the caller's: 4 * 24).
  EXPECT_EQ(
      product(L(T({S(2), S(2)}), T({S(4), S(1)})), L(Q(6, 2), S(1)), Q(24, 8)),
      "(?{div=2},?):(2,8) several");
  EXPECT_EQ(product(L(T({S(2), S(2)}), T({S(1), S(2)})),
                    L(T({Q(8, 4), S(3)}), T({S(1), Q(8, 4)})), Q(96, 16)),
            "(?{div=4},3):(4,?{div=16}) one");
  // 4:2 by 3:1: the complement (2,?):(1,8) cannot hold 3 (CuTe's weak
  // shape check; the DSL: "unable to compute product").
  EXPECT_NE(product(L(S(4), S(2)), L(S(3), S(1)), S(24))
                .find("Shape Divisibility Condition"),
            std::string::npos);
}

std::string Text(const absl::StatusOr<Layout>& l) {
  return l.ok() ? DslText(*l) : std::string(l.status().message());
}

TEST(DslRegroup, UnpacksATupleOfOneMode) {
  using internal::Grouping;
  // cute.tiled_divide((8,):(1,), (2,)) is ((2),4):((1),2) and flat_divide
  // (2,4):(1,2): the DSL unpacks the rest (4,) and the tile (2,), which C++
  // CuTe's repeat<1> keeps whole.
  const Layout logical = L(T({T({S(2), S(4)})}), T({T({S(1), S(2)})}));
  const Tiler by_tuple = Tiler::Tuple({Tiler::Of(L(S(2), S(1)))});
  EXPECT_EQ(Text(internal::DslRegroup(logical, by_tuple, Grouping::kTiled)),
            "((2),4):((1),2)");
  EXPECT_EQ(Text(internal::DslRegroup(logical, by_tuple, Grouping::kFlat)),
            "(2,4):(1,2)");
  EXPECT_EQ(Text(internal::Regroup(logical, by_tuple, Grouping::kTiled)),
            "((2),(4)):((1),(2))");
  // cute.zipped_divide((8,4):(1,8), (2,)): the modes past the tiler join
  // the rest.
  const Layout two = L(T({T({S(2), S(4)}), S(4)}), T({T({S(1), S(2)}), S(8)}));
  EXPECT_EQ(Text(internal::DslRegroup(two, by_tuple, Grouping::kZipped)),
            "((2),(4,4)):((1),(2,8))");
  // `_` splits its mode as a layout does; C++ CuTe's Regroup refuses it.
  const Tiler under = Tiler::Tuple({Tiler::Underscore()});
  EXPECT_EQ(Text(internal::DslRegroup(logical, under, Grouping::kZipped)),
            "((2),(4)):((1),(2))");
  EXPECT_FALSE(internal::Regroup(logical, under, Grouping::kZipped).ok());
}

TEST(DslRegroup, RefusesModesThatDoNotSplit) {
  using internal::Grouping;
  // A mode split by a layout has two modes; a tuple of the tiler has no
  // more modes than its mode (the DSL's zip2_by refuses both).
  const Tiler one = Tiler::Of(L(S(2), S(1)));
  EXPECT_NE(
      Text(internal::DslRegroup(L(T({S(2), S(2), S(2)}), T({S(1), S(2), S(4)})),
                                one, Grouping::kZipped))
          .find("of rank 3, not 2"),
      std::string::npos);
  EXPECT_NE(Text(internal::DslRegroup(L(S(8), S(1)), Tiler::Tuple({one, one}),
                                      Grouping::kZipped))
                .find("mismatched ranks"),
            std::string::npos);
}

TEST(DslZipModes, PairsModesAsTheDslDoes) {
  // cute.blocked_product((4,2):(1,4), 3:1) pairs (4,2):(1,4) with its
  // repetitions (3,1):(8,0): ((4,3),(2,1)):((1,8),(4,0)).
  EXPECT_EQ(Text(internal::DslZipModes(L(T({S(4), S(2)}), T({S(1), S(4)})),
                                       L(T({S(3), S(1)}), T({S(8), S(0)})))),
            "((4,3),(2,1)):((1,8),(4,0))");
  // An integral first is one pair (raked_product((4):(1), 3:1) before its
  // coalesce: ((3,(4))):((4,(1)))).
  EXPECT_EQ(Text(internal::DslZipModes(L(S(3), S(4)), L(T({S(4)}), T({S(1)})))),
            "((3,(4))):((4,(1)))");
  // A tuple of one mode and an integral layout do not pair (the DSL:
  // blocked_product((4):(1), 3:1) is "unable to compute product").
  EXPECT_NE(Text(internal::DslZipModes(L(T({S(4)}), T({S(1)})), L(S(3), S(4))))
                .find("does not pair"),
            std::string::npos);
}

TEST(PadRank, AppendsUnitModes) {
  EXPECT_EQ(Text(internal::PadRank(L(S(4), S(1)), 3)), "(4,1,1):(1,0,0)");
  EXPECT_EQ(Text(internal::PadRank(L(T({S(4), M()}), T({S(1), S(4)})), 2)),
            "(4,?{div=8}):(1,4)");
}

TEST(DslRecastLayout, DecidesOnKnownIntegersAndChecksNothing) {
  auto recast = [](const Layout& l, int64_t old_bits, int64_t new_bits) {
    return Text(internal::DslRecastLayout(l, old_bits, new_bits));
  };
  // cute.recast_layout(16, 8, (4,2):(1,?{div=32})) is (2,2):(1,?): a `?`
  // divided by 2 loses its divisibility (the core's Div keeps ?{div=16}).
  EXPECT_EQ(recast(L(T({S(4), S(2)}), T({S(1), Q(32, 32)})), 8, 16),
            "(2,2):(1,?)");
  EXPECT_EQ(recast(L(T({M(), S(2)}), T({S(1), S(64)})), 8, 16), "(?,2):(1,32)");
  // Downcast multiplies a `?` stride; no stride-1 mode is needed.
  EXPECT_EQ(recast(L(T({S(4), S(2)}), T({Q(32, 32), S(1)})), 16, 8),
            "(4,4):(?{div=64},1)");
  EXPECT_EQ(recast(L(T({S(4), S(2)}), T({S(2), S(8)})), 16, 8), "(4,2):(4,16)");
  EXPECT_FALSE(Downcast(L(T({S(4), S(2)}), T({S(2), S(8)})), 2).ok());
  // A stride 3 upcast by 2: the DSL's (4,2):(2,4), which CuTe refuses.
  EXPECT_EQ(recast(L(T({S(4), S(2)}), T({S(3), S(8)})), 8, 16), "(4,2):(2,4)");
  EXPECT_FALSE(Upcast(L(T({S(4), S(2)}), T({S(3), S(8)})), 2).ok());
  // Past int64: refused (the DSL: "unable to recast layout").
  EXPECT_NE(recast(L(T({S(2), S(2)}), T({S(1), S(int64_t{1} << 60)})), 64, 8)
                .find("overflows int64"),
            std::string::npos);
}

TEST(DslTileRepetitions, CountsRoundedUpUnchecked) {
  auto reps = [](const IntTuple& block, const IntTuple& target,
                 const IntTuple& order) {
    absl::StatusOr<internal::DslRepetitions> r =
        internal::DslTileRepetitions(block, target, order);
    if (!r.ok()) return std::string(r.status().message());
    return DslText(r->layout) + (r->divides ? " divides" : " does not");
  };
  // tile_to_shape((2,2):(1,2), (?{div=8},4), (0,1)): (?,2):(1,?{div=8}).
  EXPECT_EQ(reps(T({S(2), S(2)}), T({M(), S(4)}), T({S(0), S(1)})),
            "(?,2):(1,?) divides");
  // (8,6) by (2,4) in order (1,0): 4 and 2 (6/4 rounded up), not dividing.
  EXPECT_EQ(reps(T({S(2), S(4)}), T({S(8), S(6)}), T({S(1), S(0)})),
            "(4,2):(2,1) does not");
}

// cute/common_layout.h, against the DSL's prints (m4, m6 are `?{div=4}`,
// `?{div=6}`; P a plain `?`).
IntTuple M4() { return Q(4, 4); }
IntTuple M6() { return Q(6, 6); }
IntTuple P() { return Q(5, 1); }

std::string Common(const Layout& a, const Layout& b) {
  absl::StatusOr<Layout> r = internal::DslMaxCommonLayout(a, b);
  return r.ok() ? DslText(*r) : std::string(r.status().message());
}

TEST(DslMaxCommon, TheSharedRun) {
  const Layout col = L(T({S(4), S(8)}), T({S(1), S(4)}));
  EXPECT_EQ(Common(col, col), "32:1");
  EXPECT_EQ(*internal::DslMaxCommonVector(col, col), Int::Static(32));
  EXPECT_EQ(Common(col, L(T({S(4), S(8)}), T({S(8), S(1)}))), "1:0");
  const Layout row = L(T({S(4), S(2)}), T({S(2), S(1)}));
  EXPECT_EQ(Common(row, row), "(2,4):(4,1)");
  EXPECT_EQ(Common(L(T({S(4), S(8)}), T({S(8), S(1)})),
                   L(T({S(4), S(8)}), T({S(8), S(1)}))),
            "(8,4):(4,1)");
  EXPECT_EQ(Common(L(T({S(4), S(8)}), T({S(2), S(1)})),
                   L(T({S(4), S(8)}), T({S(2), S(1)}))),
            "8:4");
  // A `?` in a ends the run where it starts: (4,8):(1,m4) shares 4.
  EXPECT_EQ(Common(L(T({S(4), S(8)}), T({S(1), M4()})), col), "4:1");
  EXPECT_EQ(Common(L(T({M(), S(2)}), T({S(1), M()})),
                   L(T({S(4), S(2)}), T({S(1), S(4)}))),
            "1:0");
  EXPECT_EQ(*internal::DslMaxCommonVector(L(T({M(), S(2)}), T({S(1), M()})),
                                          L(T({S(4), S(2)}), T({S(1), S(4)}))),
            Int::Static(1));
  EXPECT_EQ(Common(L(T({S(2), S(2)}), T({S(1), S(-2)})),
                   L(T({S(2), S(2)}), T({S(1), S(2)}))),
            "2:1");
}

std::string Kernel(const Layout& l) {
  return DslText(*internal::DslNullspace(l));
}

TEST(DslNullspace, StrideZeroModesAtTheirCompactStrides) {
  EXPECT_EQ(Kernel(L(T({S(4), S(2), S(3)}), T({S(1), S(0), S(4)}))), "2:4");
  EXPECT_EQ(Kernel(L(T({S(4), T({S(2), S(3)})}), T({S(0), T({S(0), S(4)})}))),
            "(4,2):(1,4)");
  EXPECT_EQ(Kernel(L(T({S(1), S(2), S(3)}), T({S(0), S(1), S(0)}))),
            "(1,3):(1,2)");
  EXPECT_EQ(Kernel(L(T({M(), S(2), S(3)}), T({S(1), S(0), S(0)}))),
            "(2,3):(?{div=8},?{div=16})");
  // A `?` stride is no 0.
  EXPECT_EQ(Kernel(L(T({S(4), S(2)}), T({S(1), M()}))), "1:0");
  EXPECT_EQ(Kernel(L(T({S(2), S(2)}), T({M4(), S(0)}))), "2:2");
}

int64_t Align(const Layout& l) { return *internal::DslMaxAlignment(l); }

TEST(DslMaxAlignment, AsTheDslJudgesIt) {
  EXPECT_EQ(Align(L(T({S(4), S(8)}), T({S(1), S(4)}))), 32);
  EXPECT_EQ(Align(L(T({S(4), S(8)}), T({S(2), S(8)}))), 1);
  EXPECT_EQ(Align(L(T({S(3), S(4)}), T({S(1), S(3)}))), 12);
  EXPECT_EQ(Align(L(T({S(4), S(3)}), T({S(1), S(-6)}))), 2);
  // A `?` size counts as its divisibility (CuTe's C++ takes it as 1), a
  // `?` stride as 0.
  EXPECT_EQ(Align(L(T({S(4), M()}), T({S(1), S(4)}))), 32);
  EXPECT_EQ(Align(L(T({S(4), M6()}), T({S(1), S(4)}))), 24);
  EXPECT_EQ(Align(L(T({S(4), P()}), T({S(1), S(4)}))), 4);
  EXPECT_EQ(Align(L(T({M(), S(4)}), T({S(1), M()}))), 8);
  EXPECT_EQ(Align(L(T({S(4), S(2)}), T({S(1), M4()}))), 4);
  EXPECT_EQ(Align(L(T({S(2), M()}), T({M4(), S(1)}))), 8);
  EXPECT_EQ(Align(L(M(), S(1))), 8);
  EXPECT_EQ(Align(L(M(), S(2))), 1);
  // What is left after the run has several strides: their gcd with it.
  EXPECT_EQ(Align(L(T({S(4), S(2), S(3)}), T({S(1), S(8), S(2)}))), 2);
  EXPECT_EQ(Align(L(T({S(4), S(2), S(3)}), T({S(1), S(8), S(0)}))), 4);
  EXPECT_EQ(Align(L(T({S(2), S(4), S(3)}), T({S(8), S(1), S(2)}))), 2);
  EXPECT_EQ(Align(L(T({S(4), S(2)}), T({S(2), S(0)}))), 1);
  EXPECT_EQ(Align(L(T({S(4), S(2)}), T({S(-1), S(4)}))), 1);
  EXPECT_EQ(Align(L(T({T({S(2), M()}), S(4)}), T({T({S(1), S(2)}), S(0)}))),
            16);
}

}  // namespace
}  // namespace hlolayout::cute

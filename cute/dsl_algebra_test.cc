// CuTe's algebra (cute/coalesce.h, ...) on layouts holding the CuTe DSL's
// `?` (cute/integer.h): each algorithm decides with known integers and
// divisibilities only. Each expected text is what the DSL printed for the
// same call (nvidia-cutlass-dsl 4.8.1 run on the CPU, inside a
// `cute.jit` function with `m = cute.assume(n, divby=8)`, n = 16).
#include <cstdint>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/cute/coalesce.h"
#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/cute/integer.h"
#include "hlolayout/cute/layout.h"
#include "hlolayout/cute/print.h"

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

}  // namespace
}  // namespace hlolayout::cute

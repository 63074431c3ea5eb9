// The CuTe DSL's dynamic integers `?` (cute/integer.h): their arithmetic,
// printing, and how IntTuples and Layouts carry them. Each expected text is
// what the DSL printed for the same computation (nvidia-cutlass-dsl 4.8.1
// run on the CPU, docs/cute-dsl.md "Dynamic integers").
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/cute/dsl_index.h"
#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/cute/integer.h"
#include "hlolayout/cute/layout.h"
#include "hlolayout/cute/print.h"

namespace hlolayout::cute {
namespace {

// `?` standing for v, with the divisibility div (`?{div=div}`).
Int Q(int64_t v, int64_t div = 1) { return Int::Unknown(v, div); }
// A 64-bit one (`?{i64 div=div}`).
Int Q64(int64_t v, int64_t div = 1) { return Int::Unknown(v, div, true); }
Int S(int64_t v) { return Int::Static(v); }

IntTuple T(std::vector<IntTuple> e) { return IntTuple::Tuple(std::move(e)); }

TEST(DslInt, PrintsAsTheDsl) {
  EXPECT_EQ(DslText(Q(8)), "?");
  EXPECT_EQ(DslText(Q(96, 32)), "?{div=32}");
  EXPECT_EQ(DslText(Q64(8)), "?{i64}");
  EXPECT_EQ(DslText(Q64(8, 8)), "?{i64 div=8}");
  EXPECT_EQ(DslText(Q(0, 0)), "?{div=0}");
  EXPECT_EQ(DslText(S(8)), "8");
  // CuTe's notation keeps `_` for a static integer and writes `?` alike.
  EXPECT_EQ(ToString(T({S(4), Q(8, 4)})), "(_4,?{div=4})");
}

TEST(DslInt, ProductsMultiplyDivisibilities) {
  // `?{div=32} * ?{div=6}` is `?{div=192}`; `* -2` is `?{div=64}`.
  EXPECT_EQ(DslText(Mul(Q(96, 32), Q(96, 6))), "?{div=192}");
  EXPECT_EQ(DslText(Mul(Q(96, 32), S(-2))), "?{div=64}");
  EXPECT_EQ(DslText(Mul(Q64(96, 32), Q(3))), "?{i64 div=32}");
  EXPECT_EQ(Mul(Q(96, 32), S(3)).value, 288);
  // CuTe's shortcut: a static 0 times anything is a static 0.
  const Int zero = Mul(S(0), Q(96, 32));
  EXPECT_TRUE(zero.is_static);
  EXPECT_FALSE(zero.unknown);
  // An overflowing divisibility is forgotten, not wrapped.
  EXPECT_EQ(Mul(Q(1, int64_t{1} << 40), Q(1, int64_t{1} << 40)).div, 1);
}

TEST(DslInt, SumsTakeTheGcd) {
  EXPECT_EQ(DslText(Add(Q(96, 32), S(4))), "?{div=4}");
  EXPECT_EQ(DslText(Add(Q(96, 32), Q(96, 48))), "?{div=16}");
  EXPECT_EQ(DslText(Add(Q(96, 32), S(0))), "?{div=32}");
  Int d;
  ASSERT_TRUE(TrySub(Q(96, 32), S(8), &d));
  EXPECT_EQ(DslText(d), "?{div=8}");
  EXPECT_EQ(d.value, 88);
}

TEST(DslInt, Quotients) {
  // A quotient by a known divisor of the divisibility divides it; any other
  // quotient, a ceil_div, a negation has divisibility 1.
  EXPECT_EQ(DslText(Div(Q(96, 32), S(8))), "?{div=4}");
  EXPECT_EQ(DslText(Div(Q(96, 32), S(-8))), "?{div=-4}");
  EXPECT_EQ(DslText(Div(Q(96, 32), S(64))), "?");
  EXPECT_EQ(DslText(Div(Q(96, 32), Q(8, 8))), "?");
  EXPECT_EQ(DslText(CeilDiv(Q(96, 32), S(8))), "?");
  EXPECT_EQ(DslText(Neg(Q(96, 32))), "?");
  EXPECT_EQ(Div(Q(96, 32), S(8)).value, 12);
  EXPECT_TRUE(Div(S(0), Q(8)).is_static);
}

TEST(DslInt, ShapeDivOfAnUnknownIsUnknown) {
  // shape_div((?{div=32},8), 16) is (?,?): the fold's divisor becomes a `?`.
  EXPECT_EQ(DslText(*ShapeDiv(T({Q(96, 32), S(8)}), S(16))), "(?,?)");
  EXPECT_EQ(DslText(*ShapeDiv(T({S(6), Q(8, 8)}), S(12))), "(1,?)");
  EXPECT_EQ(DslText(*ShapeDiv(Q(96, 32), S(1))), "?");
  EXPECT_EQ(ShapeDiv(Q(96, 32), S(32))->value(), 3);
  // Unchecked: 7 and 2 divide neither way, which the DSL cannot see.
  EXPECT_TRUE(ShapeDiv(Q(7), S(2)).ok());
  EXPECT_FALSE(ShapeDiv(IntTuple(Int::Dynamic(7)), S(2)).ok());
}

TEST(DslInt, ProductOfATuple) {
  // size((?{div=32},?{div=6})) is ?{div=192}; a static 0 leaf makes 0.
  EXPECT_EQ(DslText(IntTuple(*Product(T({Q(96, 32), Q(96, 6)})))),
            "?{div=192}");
  EXPECT_EQ(DslText(IntTuple(*Product(T({S(0), Q(3)})))), "0");
  EXPECT_EQ(DslText(IntTuple(*Product(T({Q64(8), S(4)})))), "?{i64 div=4}");
}

TEST(DslInt, CompactLayoutsAsTheDsl) {
  // make_layout((?{div=8},?,2)) and its Int64 forms.
  EXPECT_EQ(DslText(*Layout::Compact(T({Q(8, 8), Q(4), S(2)}))),
            "(?{div=8},?,2):(1,?{div=8},?{div=8})");
  EXPECT_EQ(DslText(*Layout::Compact(T({Q(8, 8), Q64(4), S(2)}))),
            "(?{div=8},?{i64},2):(1,?{div=8},?{i64 div=8})");
  EXPECT_EQ(DslText(*Layout::Compact(T({Q64(8), Q(4), S(2)}))),
            "(?{i64},?,2):(1,?{i64},?{i64})");
  EXPECT_EQ(DslText(*Layout::Compact(T({Q(8, 8), S(1), S(2)}))),
            "(?{div=8},1,2):(1,0,?{div=8})");
  // A dynamic 1 is no static 1: it keeps the running stride.
  EXPECT_EQ(DslText(*Layout::Compact(T({Q(1), S(4)}))), "(?,4):(1,?)");
  EXPECT_EQ(DslText(*Layout::Compact(T({S(4), Q(1), S(8)}))),
            "(4,?,8):(1,4,?{div=4})");
}

TEST(DslInt, Remainders) {
  // idx2crd of `?{div=8}` in (4,2) is (0,?{div=2}); of `?{div=2}`
  // (standing for 4) it is (?{div=2},?); of `?{div=6}` or `?{div=12}` in a
  // mode of 4 or 8 it is `?`.
  EXPECT_EQ(DslText(Mod(Q(8, 8), S(4))), "0");
  EXPECT_TRUE(Mod(Q(8, 8), S(4)).is_static);
  EXPECT_EQ(DslText(Mod(Q(4, 2), S(4))), "?{div=2}");
  EXPECT_EQ(DslText(Mod(Q(6, 6), S(4))), "?");
  EXPECT_EQ(DslText(Mod(Q(12, 12), S(8))), "?");
  EXPECT_EQ(DslText(Mod(Q(8, 8), Q(4, 4))), "?");
  EXPECT_EQ(DslText(Mod(Q(8, 8), S(1))), "0");  // CuTe's x % _1
  EXPECT_EQ(Mod(Q(14, 2), S(4)).value, 2);
}

TEST(DslInt, SizeAndCosize) {
  const Layout l = *Layout::Compact(T({Q64(8), S(4)}));
  EXPECT_EQ(DslText(l.size_int()), "?{i64 div=4}");
  EXPECT_EQ(l.size(), 32);  // the values it stands for
  EXPECT_EQ(DslText(Layout::Compact(T({Q(8, 4), S(4)}))->cosize_int()), "?");
  const Layout strided = *Layout::Create(T({S(1), S(2)}), T({Q(5), S(3)}));
  EXPECT_EQ(DslText(strided.cosize_int()), "4");  // the `?` times a static 0
  EXPECT_EQ(strided.cosize(), 4);
  // The DSL's cosize is the layout at its last index (absolute strides),
  // plus 1: a static one where that coordinate meets only static strides.
  const auto cosize = [](IntTuple shape, IntTuple stride) {
    return DslText(Layout::Create(shape, stride)->cosize_int());
  };
  EXPECT_EQ(cosize(T({S(1), Q64(3), S(1)}), T({S(0), S(0), S(-1)})), "?");
  EXPECT_EQ(cosize(T({S(1), Q(3)}), T({S(5), S(0)})), "1");
  EXPECT_EQ(cosize(T({Q(3), S(1)}), T({S(0), S(7)})), "?");
  EXPECT_EQ(cosize(T({Q(3), S(4)}), T({S(0), S(0)})), "1");
  EXPECT_EQ(cosize(T({S(3), S(4), S(1)}), T({S(1), S(3), Q(5)})), "12");
  EXPECT_EQ(cosize(T({S(3), S(1), S(4)}), T({S(1), Q(5), S(3)})), "12");
  EXPECT_EQ(cosize(T({S(2), S(3)}), T({Q(4, 4), S(8)})), "?");
  EXPECT_EQ(cosize(T({S(2), S(3)}), T({Q64(4), S(8)})), "?");  // 32 bits
}

TEST(DslInt, LayoutsCarryTheirUnknowns) {
  const Layout l = *Layout::Compact(T({Q(8, 8), T({S(2), Q64(3)})}));
  EXPECT_TRUE(l.has_unknown());
  EXPECT_FALSE(Layout::Compact(T({S(2), S(3)}))->has_unknown());
  // leaf_modes and mode() keep widths and divisibilities.
  const internal::Modes m = l.leaf_modes();
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(DslText(m[2].stride), "?{div=16}");  // before the Int64
  EXPECT_EQ(DslText(l.mode(1)), "(2,?{i64}):(?{div=8},?{div=16})");
  EXPECT_EQ(l(5), 5);  // evaluated with the values
  EXPECT_TRUE(Identical(l.shape(), l.shape()));
  EXPECT_FALSE(Identical(IntTuple(Q(8, 8)), IntTuple(Q(8, 4))));
  EXPECT_EQ(IntTuple(Q(8, 8)), IntTuple(Int::Static(8)));  // values equal
}

// idx2crd and crd2idx with the integers' arithmetic (cute/dsl_index.h); each
// expected text is the DSL's for the same call.
TEST(DslInt, Idx2CrdKeepsWhatTheDslKnows) {
  const auto idx2crd = [](IntTuple index, IntTuple shape) {
    return DslText(*IdxToCrdInt(index, shape));
  };
  EXPECT_EQ(idx2crd(Q(8, 8), T({S(4), S(2)})), "(0,?{div=2})");
  EXPECT_EQ(idx2crd(Q(12, 6), T({S(4), S(2)})), "(?,?)");
  EXPECT_EQ(idx2crd(Q(8, 2), T({S(4), S(2)})), "(?{div=2},?)");
  EXPECT_EQ(idx2crd(Q(48, 16), T({T({S(2), S(4)}), S(3)})), "((0,0),?{div=2})");
  EXPECT_EQ(idx2crd(S(7), T({S(2), Q(16, 8)})), "(1,3)");
  EXPECT_EQ(idx2crd(T({Q(8, 8), S(3)}), T({T({S(4), S(2)}), S(4)})),
            "((0,?{div=2}),3)");
  EXPECT_EQ(IdxToCrdInt(*IdxToCrdInt(S(7), T({S(2), S(4)})), T({S(2), S(4)}))
                ->is_static(),
            true);
  EXPECT_FALSE(IdxToCrdInt(T({S(1), S(2)}), S(4)).ok());
  EXPECT_FALSE(IdxToCrdInt(S(3), T({S(0), S(4)})).ok());
  EXPECT_EQ(idx2crd(S(3), T({})), "()");  // the DSL's, as below
}

TEST(DslInt, Crd2IdxKeepsWhatTheDslKnows) {
  const auto crd2idx = [](IntTuple coord, IntTuple shape, IntTuple stride) {
    return DslText(*CrdToIdxInt(coord, shape, stride));
  };
  EXPECT_EQ(crd2idx(Q(12, 4), T({S(4), S(8)}), T({S(3), S(16)})), "?{div=16}");
  EXPECT_EQ(crd2idx(Q(8, 8), T({S(4), S(8)}), T({S(1), S(4)})), "?{div=8}");
  EXPECT_EQ(crd2idx(T({Q(2, 2), S(3)}), T({S(4), S(8)}), T({S(3), S(16)})),
            "?{div=6}");
  EXPECT_EQ(crd2idx(Q(12, 4), T({S(4), Q(16, 8)}), T({Q(16, 8), S(1)})), "?");
  EXPECT_EQ(crd2idx(S(5), T({S(4), Q(16, 8)}), T({S(1), S(4)})), "5");
  EXPECT_EQ(crd2idx(Q64(16, 8), S(8), S(2)), "?{i64 div=16}");
  EXPECT_EQ(crd2idx(Q64(16, 8), T({S(4), S(8)}), T({S(1), S(4)})),
            "?{i64 div=8}");
  EXPECT_FALSE(CrdToIdxInt(T({S(1), S(2)}), S(4), S(1)).ok());
  EXPECT_FALSE(CrdToIdxInt(S(1), T({S(2), S(2)}), S(1)).ok());
  EXPECT_EQ(crd2idx(S(3), T({}), T({})), "0");
  EXPECT_EQ(crd2idx(T({}), T({}), T({})), "0");
}

}  // namespace
}  // namespace hlolayout::cute

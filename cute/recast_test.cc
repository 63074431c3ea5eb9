#include "hlolayout/cute/recast.h"

#include "gtest/gtest.h"
#include "hlolayout/cute/numeric_types.h"
#include "hlolayout/testing/cute_test_util.h"

namespace hlolayout::cute {
namespace {

using internal::L;
using internal::S;

TEST(Recast, UpcastDowncastAsCute) {
  EXPECT_EQ(S(Upcast(L("(_8,_8):(_1,_8)"), 2)), "(_4,_8):(_1,_4)");
  EXPECT_EQ(S(Upcast(L("(_6,_4):(_1,_6)"), 2)), "(_3,_4):(_1,_3)");
  EXPECT_EQ(S(Upcast(L("((_2,_4),_8):((_1,_2),_8)"), 4)),
            "((_1,_2),_8):((_1,_1),_2)");
  EXPECT_EQ(S(Upcast(L("(8,_8):(_1,8)"), 2)), "(4,_8):(_1,4)");
  EXPECT_EQ(S(Upcast(L("(_4,_2):(_0,_1)"), 2)), "(_4,_1):(_0,_1)");
  EXPECT_EQ(S(Downcast(L("(_8,_8):(_8,_1)"), 4)), "(_8,_32):(_32,_1)");
  EXPECT_EQ(S(Downcast(L("(_8,8):(_1,_8)"), 2)), "(_16,8):(_1,_16)");
  EXPECT_EQ(S(Upcast(L("(_8,_8):(_1,_6)"), 4)),
            "error: upcast<4> of (_8,_8):(_1,_6) fails: stride 6 and 4 do not "
            "divide each other (CuTe: Divisibility condition)");
  EXPECT_EQ(
      S(Downcast(L("(_8,_8):(_2,_16)"), 2)),
      "error: downcast<2> of (_8,_8):(_2,_16) fails: no mode has stride 1 "
      "(CuTe: Downcast requires adjacent elements)");
  EXPECT_EQ(S(RecastLayout(L("(_8,_8):(_1,_8)"), 8, 16)), "(_4,_8):(_1,_4)");
  EXPECT_EQ(S(RecastLayout(L("(_8,_8):(_1,_8)"), 16, 8)), "(_16,_8):(_1,_16)");
  EXPECT_EQ(S(RecastLayout(L("(_6,_4):(_1,_6)"), 16, 48)), "(_2,_4):(_1,_2)");
  EXPECT_EQ(S(RecastLayout(L("(_8,_8):(_1,_8)"), 32, 48)),
            "error: upcast<3> of (_8,_8):(_1,_8) fails: stride 8 and 3 do not "
            "divide each other (CuTe: Divisibility condition)");
}

TEST(Recast, UpcastThenDowncastIsTheSameFunctionScaled) {
  // For compact layouts whose stride-1 mode n divides: downcast(upcast(L))
  // addresses the same bytes.
  const Layout l = L("(_8,(_4,_2)):(_1,(_8,_32))");
  const Layout up = *Upcast(l, 4);
  const Layout back = *Downcast(up, 4);
  EXPECT_EQ(back.size(), l.size());
  for (int64_t i = 0; i < l.size(); ++i) EXPECT_EQ(back(i), l(i));
}

TEST(NumericTypes, Widths) {
  EXPECT_EQ(*SizeofBits("half_t"), 16);
  EXPECT_EQ(*SizeofBits("float_e4m3_t"), 8);
  EXPECT_EQ(*SizeofBits("uint4_t"), 4);
  EXPECT_EQ(*SizeofBits("uint_bit_t<24>"), 24);
  EXPECT_EQ(*SizeofBits("24"), 24);
  EXPECT_FALSE(SizeofBits("float4").ok());
  EXPECT_NE(std::string(SizeofBits("float4").status().message())
                .find("unknown element type 'float4' (known: bool, uint1_t"),
            std::string::npos);
}

}  // namespace
}  // namespace hlolayout::cute

#include "hlolayout/cute/composed_layout.h"

#include <string>

#include "gtest/gtest.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/cute/print.h"

namespace hlolayout::cute {
namespace {

std::string S(const absl::StatusOr<AnyLayout>& l) {
  if (!l.ok()) return "error: " + std::string(l.status().message());
  return ToString(*l);
}

AnyLayout A(absl::string_view text) {
  absl::StatusOr<AnyLayout> l = ParseAnyLayout(text);
  EXPECT_TRUE(l.ok()) << text << ": " << l.status().message();
  return l.ok() ? *l : AnyLayout();
}

TEST(ParseAnyLayout, RoundTripsCutesPrints) {
  const char* cases[] = {
      "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)",
      "Sw<3,3,3> o _0 o (8,64):(64,1)",
      "Sw<2,0,3> o _0 o Sw<2,0,3> o _0 o (_8,_8):(_1,_8)",
      "Sw<2,4,3> o smem_ptr[16b](unset) o (_32,_8):(_1,_32)",
      "Sw<0,4,3> o smem_ptr[1b](unset) o (_512,_8):(_1,_512)",
      "Sw<1,0,-2> o _0 o _3:_1",
      "Sw<3,2,-6> o _0 o ((_2,_2),(_8,_64)):((_1,_2),(_256,_4))",
      "(_4,_4):(_4,_1) o 5 o (_2,_2):(_1,_2)",
      "Sw<3,4,3>",
      "(_8,_8):(_8,_1)",
      "(2,3):(_1,2)",
  };
  for (const char* c : cases) EXPECT_EQ(S(ParseAnyLayout(c)), c);
  // Two parts mean offset _0.
  EXPECT_EQ(S(ParseAnyLayout("Sw<3,4,3> o (8,8):(8,1)")),
            "Sw<3,4,3> o _0 o (8,8):(8,1)");
  EXPECT_EQ(S(ParseAnyLayout("Sw<1,0,1> o 4")), "Sw<1,0,1> o _0 o 4:_1");
}

TEST(ParseAnyLayout, Errors) {
  EXPECT_EQ(S(ParseAnyLayout("Sw<3,4,3> o _0 o Sw<1,0,1>")),
            "error: 1:18: the inner part of a composed layout (A o O o B) must "
            "be a layout, not a swizzle\nSw<3,4,3> o _0 o Sw<1,0,1>\n"
            "                 ^");
  EXPECT_EQ(S(ParseAnyLayout("Sw<3,4,3> o smem_ptr[16](unset) o 8:1")),
            "error: 1:24: expected 'b', found ']'\n"
            "Sw<3,4,3> o smem_ptr[16](unset) o 8:1\n"
            "                       ^");
  EXPECT_EQ(S(ParseAnyLayout("Sw<3,4,3> o")),
            "error: 1:12: expected integer or '(', found end of input\n"
            "Sw<3,4,3> o\n           ^");
  EXPECT_EQ(S(ParseAnyLayout("Sw<3,4,3> x (8,8)")),
            "error: 1:11: expected end of input, found 'x'\n"
            "Sw<3,4,3> x (8,8)\n          ^");
}

TEST(AnyLayout, EvaluatesOuterOfOffsetPlusInner) {
  const AnyLayout l = A("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)");
  const Swizzle sw = *Swizzle::Create(3, 4, 3);
  const Layout b = *ParseLayout("(_8,_64):(_64,_1)");
  ASSERT_EQ(l.size(), 512);
  EXPECT_EQ(ToString(l.shape()), "(_8,_64)");
  EXPECT_EQ(l.cosize(), 512);
  for (int64_t i = 0; i < 512; ++i) {
    ASSERT_EQ(*l.TryEvaluate(i), sw(b(i))) << i;
  }
  EXPECT_EQ(*l.Evaluate(*ParseIntTuple("(1,9)")), sw(64 + 9));
  // A layout outer function and a non-zero offset.
  const AnyLayout m = A("(_4,_4):(_4,_1) o 5 o (_2,_2):(_1,_2)");
  const Layout outer = *ParseLayout("(_4,_4):(_4,_1)");
  const Layout inner = *ParseLayout("(_2,_2):(_1,_2)");
  for (int64_t i = 0; i < 4; ++i)
    EXPECT_EQ(*m.TryEvaluate(i), outer(5 + inner(i)));
  // Nested: the inner part is composed again.
  const AnyLayout n = A("Sw<2,0,3> o _0 o Sw<2,0,3> o _0 o (_8,_8):(_1,_8)");
  const Swizzle s2 = *Swizzle::Create(2, 0, 3);
  for (int64_t i = 0; i < 64; ++i) EXPECT_EQ(*n.TryEvaluate(i), s2(s2(i)));
  // The pointer marker evaluates as offset 0.
  const AnyLayout p = A("Sw<1,4,3> o smem_ptr[16b](unset) o (_16,_8):(_1,_16)");
  EXPECT_EQ(*p.TryEvaluate(17), Swizzle::Create(1, 4, 3)->operator()(17));
  EXPECT_EQ(p.composed().offset().smem_bits(), 16);
}

TEST(AnyLayout, SwizzleAlone) {
  const AnyLayout s = A("Sw<1,0,-2>");
  EXPECT_EQ(s.size(), 8);
  EXPECT_EQ(*s.TryEvaluate(1), 5);
  EXPECT_EQ(*s.TryEvaluate(4), 4);
  EXPECT_FALSE(s.Evaluate(*ParseIntTuple("(1,2)")).ok());
}

TEST(MakeComposed, DropsAnIdentitySwizzleAtStaticZero) {
  const Layout b = *ParseLayout("(_8,_8):(_8,_1)");
  const Swizzle id = *Swizzle::Create(0, 4, 3);
  EXPECT_EQ(S(MakeComposed(id, ComposedOffset(), b)), "(_8,_8):(_8,_1)");
  EXPECT_EQ(S(MakeComposed(id, ComposedOffset::Of(Int::Dynamic(0)), b)),
            "Sw<0,4,3> o 0 o (_8,_8):(_8,_1)");
  EXPECT_EQ(S(MakeComposed(id, ComposedOffset::SmemPtr(16), b)),
            "Sw<0,4,3> o smem_ptr[16b](unset) o (_8,_8):(_8,_1)");
  EXPECT_EQ(S(MakeComposed(*Swizzle::Create(1, 0, 1), ComposedOffset(), b)),
            "Sw<1,0,1> o _0 o (_8,_8):(_8,_1)");
}

}  // namespace
}  // namespace hlolayout::cute

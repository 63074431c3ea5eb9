#include "hlolayout/shape/primitive_type.h"

#include <set>
#include <string>

#include "gtest/gtest.h"

namespace hlolayout {
namespace {

struct TypeCase {
  const char* name;
  PrimitiveType type;
  int number;
  int bits;
  int bytes;
};

// The table of docs/xla-shapes.md, "Element types".
constexpr TypeCase kTypeCases[] = {
    {"pred", PRED, 1, 1, 1},
    {"s1", S1, 30, 1, 1},
    {"s2", S2, 26, 2, 1},
    {"s4", S4, 21, 4, 1},
    {"s8", S8, 2, 8, 1},
    {"s16", S16, 3, 16, 2},
    {"s32", S32, 4, 32, 4},
    {"s64", S64, 5, 64, 8},
    {"u1", U1, 31, 1, 1},
    {"u2", U2, 27, 2, 1},
    {"u4", U4, 22, 4, 1},
    {"u8", U8, 6, 8, 1},
    {"u16", U16, 7, 16, 2},
    {"u32", U32, 8, 32, 4},
    {"u64", U64, 9, 64, 8},
    {"f16", F16, 10, 16, 2},
    {"bf16", BF16, 16, 16, 2},
    {"f32", F32, 11, 32, 4},
    {"f64", F64, 12, 64, 8},
    {"f8e5m2", F8E5M2, 19, 8, 1},
    {"f8e4m3", F8E4M3, 28, 8, 1},
    {"f8e4m3fn", F8E4M3FN, 20, 8, 1},
    {"f8e4m3b11fnuz", F8E4M3B11FNUZ, 23, 8, 1},
    {"f8e3m4", F8E3M4, 29, 8, 1},
    {"f8e5m2fnuz", F8E5M2FNUZ, 24, 8, 1},
    {"f8e4m3fnuz", F8E4M3FNUZ, 25, 8, 1},
    {"f4e2m1fn", F4E2M1FN, 32, 4, 1},
    {"f8e8m0fnu", F8E8M0FNU, 33, 8, 1},
    {"f6e3m2fn", F6E3M2FN, 35, 8, 1},
    {"f6e2m3fn", F6E2M3FN, 36, 8, 1},
    {"c64", C64, 15, 64, 8},
    {"c128", C128, 18, 128, 16},
};

class PrimitiveTypeTable : public ::testing::TestWithParam<TypeCase> {};

TEST_P(PrimitiveTypeTable, NameNumberAndWidths) {
  const TypeCase& c = GetParam();
  EXPECT_EQ(static_cast<int>(c.type), c.number);
  EXPECT_EQ(PrimitiveTypeName(c.type), c.name);
  ASSERT_TRUE(PrimitiveTypeFromName(c.name).has_value());
  EXPECT_EQ(*PrimitiveTypeFromName(c.name), c.type);
  EXPECT_EQ(BitWidth(c.type), c.bits);
  EXPECT_EQ(ByteWidth(c.type), c.bytes);
  EXPECT_TRUE(IsArrayType(c.type));
  EXPECT_TRUE(IsKnownPrimitiveType(c.number));
}

INSTANTIATE_TEST_SUITE_P(AllArrayTypes, PrimitiveTypeTable,
                         ::testing::ValuesIn(kTypeCases),
                         [](const ::testing::TestParamInfo<TypeCase>& info) {
                           return std::string(info.param.name);
                         });

TEST(PrimitiveType, NonArrayTypes) {
  EXPECT_EQ(PrimitiveTypeName(OPAQUE_TYPE), "opaque");
  EXPECT_EQ(PrimitiveTypeFromName("opaque"), OPAQUE_TYPE);
  EXPECT_EQ(PrimitiveTypeFromName("token"), TOKEN);
  EXPECT_EQ(static_cast<int>(TUPLE), 13);
  EXPECT_EQ(static_cast<int>(OPAQUE_TYPE), 14);
  EXPECT_EQ(static_cast<int>(TOKEN), 17);
  EXPECT_EQ(static_cast<int>(BUFFER), 34);
  for (PrimitiveType t : {TUPLE, OPAQUE_TYPE, TOKEN, BUFFER}) {
    EXPECT_FALSE(IsArrayType(t));
    EXPECT_EQ(BitWidth(t), 0);
    EXPECT_EQ(ByteWidth(t), 0);
  }
}

TEST(PrimitiveType, RejectedNames) {
  for (const char* name : {"tuple", "buffer", "F32", "opaque_type", "f31", "",
                           "f32 ", "invalid", "b"}) {
    EXPECT_FALSE(PrimitiveTypeFromName(name).has_value()) << name;
  }
}

TEST(PrimitiveType, KnownNumbers) {
  EXPECT_TRUE(IsKnownPrimitiveType(0));
  EXPECT_FALSE(IsKnownPrimitiveType(37));
  EXPECT_FALSE(IsKnownPrimitiveType(-1));
  EXPECT_FALSE(IsKnownPrimitiveType(1LL << 40));
  std::set<int> numbers;
  for (PrimitiveType t : AllPrimitiveTypes()) numbers.insert(t);
  EXPECT_EQ(numbers.size(), 36u);  // 1..36 all used
  EXPECT_EQ(*numbers.begin(), 1);
  EXPECT_EQ(*numbers.rbegin(), 36);
}

TEST(PrimitiveType, PredIsOneBitButNotSubByte) {
  EXPECT_EQ(BitWidth(PRED), 1);
  EXPECT_EQ(ByteWidth(PRED), 1);
  EXPECT_FALSE(IsSubByteType(PRED));
  EXPECT_FALSE(IsIntegralType(PRED));
}

TEST(PrimitiveType, Categories) {
  for (PrimitiveType t : {S1, S2, S4, U1, U2, U4, F4E2M1FN}) {
    EXPECT_TRUE(IsSubByteType(t)) << PrimitiveTypeName(t);
  }
  for (PrimitiveType t : {S8, U8, F8E5M2, F16, F32, C64}) {
    EXPECT_FALSE(IsSubByteType(t)) << PrimitiveTypeName(t);
  }
  EXPECT_TRUE(IsIntegralType(S4));
  EXPECT_TRUE(IsSignedIntegralType(S32));
  EXPECT_FALSE(IsSignedIntegralType(U32));
  EXPECT_TRUE(IsUnsignedIntegralType(U1));
  EXPECT_TRUE(IsFloatingPointType(BF16));
  EXPECT_FALSE(IsFloatingPointType(C64));
  EXPECT_TRUE(IsComplexType(C128));
  EXPECT_TRUE(IsSignedType(F32));
  EXPECT_TRUE(IsSignedType(C64));
  EXPECT_FALSE(IsSignedType(U8));
  EXPECT_FALSE(IsSignedType(PRED));
  EXPECT_TRUE(IsF8Type(F8E8M0FNU));
  EXPECT_FALSE(IsF8Type(F16));
  EXPECT_FALSE(IsF8Type(F4E2M1FN));
  EXPECT_EQ(ComplexComponentType(C64), F32);
  EXPECT_EQ(ComplexComponentType(C128), F64);
}

TEST(PrimitiveTypeDeathTest, ComplexComponentOfRealTypeChecks) {
  EXPECT_DEATH(ComplexComponentType(F32), "check failed");
}

}  // namespace
}  // namespace hlolayout

#include "hlolayout/answers/triton_smem.h"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/smem_twin_inputs.h"
#include "hlolayout/triton/named_layouts.h"
#include "hlolayout/util/fields.h"

namespace hlolayout::triton {
namespace {

using ::testing::HasSubstr;

TEST(SmemTwinAnswer, AtomToTriton) {
  absl::StatusOr<SmemTwinAnswer> a =
      AnswerSmemAtom("GMMA::Layout_K_SW128_Atom<half_t>",
                     StaticTupleOf("(128,64)"), std::nullopt);
  ASSERT_TRUE(a.ok()) << a.status();
  const auto* cute = std::get_if<SmemFromCute>(&*a);
  ASSERT_NE(cute, nullptr);
  EXPECT_EQ(cute->triton, kTestNvmma128B);
  EXPECT_EQ(cute->layout,
            "Sw<3,4,3> o smem_ptr[16b](unset) o "
            "((_8,_16),(_64,_1)):((_64,_512),(_1,_0))");
  EXPECT_EQ(cute->memdesc_shape, (std::vector<int64_t>{128, 64}));
  EXPECT_THAT(AnswerJson(*a), HasSubstr("\"MemdescShape\": [128, 64]}"));
}

TEST(SmemTwinAnswer, AtomWithoutTwin) {
  absl::StatusOr<SmemTwinAnswer> a =
      AnswerSmemAtom("GMMA::Layout_MN_INTER_Atom<half_t>",
                     StaticTupleOf("(64,64)"), std::nullopt);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_FALSE(std::get<SmemFromCute>(*a).memdesc_shape.has_value());
  EXPECT_EQ(std::get<SmemFromCute>(*a).triton, "none");
  EXPECT_THAT(AnswerJson(*a), HasSubstr("\"Triton\": \"none\"}"));
}

TEST(SmemTwinAnswer, TritonToAtom) {
  absl::StatusOr<SmemTwinAnswer> a =
      AnswerNvmmaShared(NvmmaOf(kTestNvmma128B), {128, 64});
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(std::holds_alternative<SmemFromTriton>(*a));
  EXPECT_EQ(std::get<SmemFromTriton>(*a).atom,
            "GMMA::Layout_K_SW128_Atom<half_t>");
  EXPECT_EQ(std::get<SmemFromTriton>(*a).shape, "(_128,_64)");
  EXPECT_EQ(std::get<SmemFromTriton>(*a).order, "none");
  EXPECT_THAT(AnswerJson(*a),
              HasSubstr("{\"Triton\": \"" + std::string(kTestNvmma128B) +
                        "\", \"MemdescShape\": [128, 64], \"Atom\": "
                        "\"GMMA::Layout_K_SW128_Atom<half_t>\""));
}

TEST(SmemTwinAnswer, TritonKeysInTheOrderTheyWereWritten) {
  absl::StatusOr<SmemTwinAnswer> a = AnswerNvmmaShared(
      NvmmaOf("#ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, "
              "elementBitWidth = 16}>"),
      {8, 8});
  ASSERT_TRUE(a.ok()) << a.status();
  const std::string json = AnswerJson(*a);
  EXPECT_THAT(json, HasSubstr("\"MemdescShape\": [8, 8], \"Atom\": "));
}

TEST(SmemTwinAnswer, BadNamesAndShapes) {
  EXPECT_FALSE(
      AnswerSmemAtom("GMMA::Nope<half_t>", std::nullopt, std::nullopt).ok());
  // 8 rows do not hold a 128-byte swizzle atom of 64 halves twice over.
  EXPECT_FALSE(AnswerSmemAtom("GMMA::Layout_K_SW128_Atom<half_t>",
                              StaticTupleOf("(8,8)"), std::nullopt)
                   .ok());
}

}  // namespace
}  // namespace hlolayout::triton

#include "hlolayout/views/triton_smem_text.h"

#include <optional>
#include <string>

#include "gtest/gtest.h"
#include "hlolayout/answers/triton_smem.h"
#include "hlolayout/testing/smem_twin_inputs.h"
#include "hlolayout/triton/named_layouts.h"

namespace hlolayout::triton {
namespace {

TEST(SmemTwinText, AtomToTriton) {
  absl::StatusOr<SmemTwinAnswer> a =
      AnswerSmemAtom("GMMA::Layout_K_SW128_Atom<half_t>",
                     StaticTupleOf("(128,64)"), std::nullopt);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(SmemTwinText(*a),
            "Layout: Sw<3,4,3> o smem_ptr[16b](unset) o "
            "((_8,_16),(_64,_1)):((_64,_512),(_1,_0))\n"
            "LayoutElements: Sw<3,3,3> o _0 o "
            "((_8,_16),(_64,_1)):((_64,_512),(_1,_0))\n"
            "Triton: " +
                std::string(kTestNvmma128B) + " on memdesc shape [128, 64]\n");
}

TEST(SmemTwinText, AtomWithoutTwin) {
  absl::StatusOr<SmemTwinAnswer> a =
      AnswerSmemAtom("GMMA::Layout_MN_INTER_Atom<half_t>",
                     StaticTupleOf("(64,64)"), std::nullopt);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(SmemTwinText(*a),
            "Layout: Sw<0,4,3> o smem_ptr[16b](unset) o "
            "((_8,_8),(_8,_8)):((_1,_64),(_8,_512))\n"
            "LayoutElements: ((_8,_8),(_8,_8)):((_1,_64),(_8,_512))\n"
            "Triton: none\n");
}

TEST(SmemTwinText, TritonToAtom) {
  absl::StatusOr<SmemTwinAnswer> a =
      AnswerNvmmaShared(NvmmaOf(kTestNvmma128B), {128, 64});
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(SmemTwinText(*a),
            "Atom: GMMA::Layout_K_SW128_Atom<half_t>\n"
            "Shape: (_128,_64)\n"
            "Order: none\n"
            "Layout: Sw<3,4,3> o smem_ptr[16b](unset) o "
            "((_8,_16),(_64,_1)):((_64,_512),(_1,_0))\n"
            "LayoutElements: Sw<3,3,3> o _0 o "
            "((_8,_16),(_64,_1)):((_64,_512),(_1,_0))\n");
}

TEST(SmemTwinText, TritonWithoutAtom) {
  const std::string attr =
      "#ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = true, "
      "elementBitWidth = 8}>";
  absl::StatusOr<SmemTwinAnswer> a = AnswerNvmmaShared(NvmmaOf(attr), {8, 8});
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(SmemTwinText(*a), "Triton: " + attr + "\nAtom: none\n");
}

}  // namespace
}  // namespace hlolayout::triton

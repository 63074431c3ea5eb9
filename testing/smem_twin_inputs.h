// testing/smem_twin_inputs.h: the inputs of `cute smem`'s tests (its answers
// and its text): a 128-byte-swizzled #ttg.nvmma_shared layout and static
// CuTe tuples.
//
//   AnswerSmemAtom("GMMA::Layout_K_SW128_Atom<half_t>",
//                  StaticTupleOf("(128,64)"), std::nullopt);
//   AnswerSmemNvmma(NvmmaOf(kTestNvmma128B), ...);
#ifndef HLOLAYOUT_TESTING_SMEM_TWIN_INPUTS_H_
#define HLOLAYOUT_TESTING_SMEM_TWIN_INPUTS_H_

#include <string>

#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/triton/named_layouts.h"

namespace hlolayout::triton {

// f16 elements, 128-byte swizzle, not transposed.
inline constexpr char kTestNvmma128B[] =
    "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, "
    "elementBitWidth = 16}>";

// `text` read as a CuTe IntTuple whose integers are all static (`_N`).
// CHECK-fails when it does not read: the text is the test's.
cute::IntTuple StaticTupleOf(const std::string& text);

// `text` read as a Triton layout that must be #ttg.nvmma_shared (CHECK).
NvmmaSharedLayout NvmmaOf(const std::string& text);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TESTING_SMEM_TWIN_INPUTS_H_

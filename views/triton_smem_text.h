// views/triton_smem_text.h: the text `hlolayout cute smem` prints, a view
// of its answer (answers/triton_smem.h), "Key: value" lines.
//
//   SmemTwinAnswer a = *AnswerSmemAtom("GMMA::Layout_K_SW128_Atom<half_t>",
//                                      (_128,_64), std::nullopt);
//   SmemTwinText(a);
//   // Layout: Sw<3,4,3> o smem_ptr[16b](unset) o ((_8,_16),(_64,_1)):...
//   // LayoutElements: Sw<3,3,3> o _0 o ...
//   // Triton: #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed =
//   //   false, elementBitWidth = 16}> on memdesc shape [128, 64]
//   SmemTwinText(*AnswerNvmmaShared(layout, {128, 64}));
//   // Atom: GMMA::Layout_K_SW128_Atom<half_t>
//   // Shape: (_128,_64)
//   // Order: none ...
#ifndef HLOLAYOUT_VIEWS_TRITON_SMEM_TEXT_H_
#define HLOLAYOUT_VIEWS_TRITON_SMEM_TEXT_H_

#include <string>

#include "hlolayout/answers/triton_smem.h"

namespace hlolayout::triton {

// The answer as `cute smem` prints it ("Key: value" lines).
std::string SmemTwinText(const SmemTwinAnswer& a);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_VIEWS_TRITON_SMEM_TEXT_H_

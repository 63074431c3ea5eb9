// answers/smem_by_name.h: a shared-memory layout named the way kernel
// authors name it, for bank-conflict counts (cute/atom/bank_conflicts.h)
// over an access tile of `rows` x `cols` elements:
//
//   - CuTe layout text, plain, swizzled or composed: '(32,16):(16,1)',
//     'Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)';
//   - a GMMA/UMMA shared-memory atom by its CuTe name,
//     'GMMA::Layout_K_SW128_Atom<half_t>', tiled to the tile with
//     tile_to_shape (modes filled column-major, as a kernel's
//     tile_to_shape(atom, make_shape(M, K)) does);
//   - a Triton shared layout, '#ttg.nvmma_shared<{swizzlingByteWidth = 128,
//     transposed = false, elementBitWidth = 16}>' (also swizzled_shared,
//     shared_linear and the older #triton_gpu.shared), as Triton converts
//     it for a memdesc of shape [rows, cols]: tile coordinate (m, n) is
//     (dim0, dim1).
//
//   NamedSmem s = *SmemLayoutByName("GMMA::Layout_K_SW128_Atom<half_t>",
//                                   32, 64, 16);
//   s.element_bits == 16;  s.description == "GMMA::Layout_K_SW128_Atom<
//   half_t> tiled to (_32,_64): Sw<3,4,3> o smem_ptr[16b](unset) o ..."
#ifndef HLOLAYOUT_ANSWERS_SMEM_BY_NAME_H_
#define HLOLAYOUT_ANSWERS_SMEM_BY_NAME_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/cute/atom/bank_conflicts.h"

namespace hlolayout::triton {

struct NamedSmem {
  cute::SmemLayout layout;
  // The element width the name gives (the atom's type, the Triton layout's
  // elementBitWidth); 0 for CuTe layout text, which says none.
  int element_bits = 0;
  // What the layout is, for reports: the name and what it became.
  std::string description;
};

// SmemLayoutByName
//
// `text` as above, for a rows x cols tile. `bits` is the element width of
// an older #triton_gpu.shared NVMMA spelling, which has none. Errors: bad
// text (located), an unknown atom (the nearest known ones), a _Bits atom
// (its offsets are bits: name the typed atom), a tile the atom does not
// divide, a Triton layout that is not a shared one or that does not give
// every element of the tile one offset of the first CTA.
absl::StatusOr<NamedSmem> SmemLayoutByName(absl::string_view text, int64_t rows,
                                           int64_t cols, int bits);

// SmemForAccess
//
// SmemLayoutByName for an access that moves `bits`-bit values; `bits` 0
// means unknown: then the layout must name its element width, and `bits`
// is set to it. Errors as SmemLayoutByName (prefixed "SMEM: "), a named
// width other than `bits` ("SMEM holds 32-bit elements but the access
// moves 16-bit values"), and no width at all (FailedPrecondition).
absl::StatusOr<NamedSmem> SmemForAccess(absl::string_view text, int64_t rows,
                                        int64_t cols, int& bits);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_ANSWERS_SMEM_BY_NAME_H_

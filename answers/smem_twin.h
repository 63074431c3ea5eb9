// answers/smem_twin.h: CuTe's GMMA/UMMA shared-memory tiles and Triton's
// #ttg.nvmma_shared layouts that are the same function, both ways.
//
//   SmemAtom a = *cute::FindSmemAtom("GMMA::Layout_K_SW128_Atom<half_t>");
//   SmemTile t = *cute::TileSmemAtom(a, (_128,_64), none);
//   NvmmaTwinOf(a, t)->attr ==
//       "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, "
//       "elementBitWidth = 16}>"   on memdesc shape [128, 64]
//   CuteTwinOf(that layout, {128, 64})->atom ==
//       "GMMA::Layout_K_SW128_Atom<half_t>", shape (_128,_64)
//
// The correspondence: K-major SW32/SW64/SW128 atoms are `transposed =
// false`, MN-major ones `transposed = true`, the K-major INTER atom is
// swizzle 0 on one 8 x 16-byte tile; the memdesc shape is the CuTe tile's
// (dim0 = CuTe's mode 0, M or N; dim1 = mode 1, K). A twin is claimed only
// when it is checked: for every shared-memory offset o, Triton's
// LinearLayout (triton/named_layouts.h) gives the coordinate c, and the
// CuTe tile's element layout at c gives o back. No twin otherwise (for
// example MN-major INTER, the UMMA 32-byte-atom swizzle, 3-D shapes, and
// tiles whose two modes both repeat the atom in an order Triton does not
// use).
#ifndef HLOLAYOUT_ANSWERS_SMEM_TWIN_H_
#define HLOLAYOUT_ANSWERS_SMEM_TWIN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/optional.h"
#include "absl/types/span.h"
#include "hlolayout/cute/composed_layout.h"
#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/cute/smem_atoms.h"
#include "hlolayout/triton/named_layouts.h"

namespace hlolayout::triton {

struct NvmmaTwin {
  NvmmaSharedLayout layout;
  std::vector<int64_t> memdesc_shape;
  // "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false,
  // elementBitWidth = 16}>"
  std::string attr;
};

// NvmmaTwinOf
//
// The Triton layout equal to `tile` (a tiling of `atom`), or nullopt.
// Errors only for internal failures (a tile that cannot be evaluated).
absl::StatusOr<absl::optional<NvmmaTwin>> NvmmaTwinOf(
    const cute::SmemAtom& atom, const cute::SmemTile& tile);

struct CuteSmemTwin {
  // "GMMA::Layout_K_SW128_Atom<half_t>": the element type named by width
  // (8 bits int8_t, 16 half_t, 32 float, 64 double).
  std::string atom;
  cute::IntTuple shape;
  // The Step that tile_to_shape needs; nullopt for the default.
  absl::optional<cute::IntTuple> order;
  cute::SmemTile tile;
};

// CuteTwinOf
//
// The CuTe tile equal to `layout` on `memdesc_shape`, or nullopt (rank
// other than 2, fp4 padding, several CTAs, no matching atom or order).
absl::StatusOr<absl::optional<CuteSmemTwin>> CuteTwinOf(
    const NvmmaSharedLayout& layout, absl::Span<const int64_t> memdesc_shape);

// NvmmaAttr
//
// The TTGIR attribute text of `layout` as above.
std::string NvmmaAttr(const NvmmaSharedLayout& layout);

// SameFunction
//
// True when `elements` (a CuTe layout over (dim0, dim1)) maps Triton's
// coordinate of every offset back to that offset.
absl::StatusOr<bool> SameFunction(const cute::AnyLayout& elements,
                                  const NvmmaSharedLayout& layout,
                                  absl::Span<const int64_t> memdesc_shape);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_ANSWERS_SMEM_TWIN_H_

// triton/smem_twin_answer.h: the answer of `hlolayout cute smem`, both ways
// between CuTe's GMMA/UMMA shared-memory atoms and Triton's
// #ttg.nvmma_shared layouts (the twins of triton/smem_twin.h), with its
// text and JSON; the CLI parses the name and the flags and prints.
//
//   SmemTwinAnswer a = *AnswerSmemAtom("GMMA::Layout_K_SW128_Atom<half_t>",
//                                      (_128,_64), std::nullopt);
//   SmemTwinAnswerText(a);
//   // Layout: Sw<3,4,3> o smem_ptr[16b](unset) o ((_8,_16),(_64,_1)):...
//   // LayoutElements: Sw<3,3,3> o _0 o ...
//   // Triton: #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed =
//   //   false, elementBitWidth = 16}> on memdesc shape [128, 64]
//   SmemTwinAnswer b = *AnswerNvmmaShared(layout, {128, 64});
//   // Triton: #ttg.nvmma_shared<...>  Atom: GMMA::Layout_K_SW128_Atom<half_t>
#ifndef HLOLAYOUT_TRITON_SMEM_TWIN_ANSWER_H_
#define HLOLAYOUT_TRITON_SMEM_TWIN_ANSWER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/cute/smem_atoms.h"
#include "hlolayout/triton/named_layouts.h"
#include "hlolayout/triton/smem_twin.h"

namespace hlolayout::triton {

// One of the two directions.
struct SmemTwinAnswer {
  // From a Triton layout: its attribute, the memdesc shape and its CuTe
  // twin, if any.
  std::optional<std::string> triton_attr;
  std::vector<int64_t> memdesc_shape;
  std::optional<CuteSmemTwin> cute_twin;
  // From a CuTe atom: the tile and its Triton twin, if any.
  std::optional<cute::SmemTile> tile;
  std::optional<NvmmaTwin> nvmma_twin;
};

// AnswerSmemAtom
//
// The atom named `name` tiled to `shape` in `order` (static tuples; none:
// the atom itself, column-major), and its Triton twin. Errors: an unknown
// name (the nearest known ones), a shape the atom does not divide, an
// order without a shape.
absl::StatusOr<SmemTwinAnswer> AnswerSmemAtom(
    absl::string_view name, const std::optional<cute::IntTuple>& shape,
    const std::optional<cute::IntTuple>& order);

// AnswerNvmmaShared
//
// The CuTe twin of `layout` on a memdesc of `dims` (rank 2).
absl::StatusOr<SmemTwinAnswer> AnswerNvmmaShared(
    const NvmmaSharedLayout& layout, std::vector<int64_t> dims);

// The answer as `cute smem` prints it ("Key: value" lines), and as one JSON
// object on one line (keys Triton, MemdescShape, Atom, Shape, Order,
// Layout, LayoutElements as they apply).
std::string SmemTwinAnswerText(const SmemTwinAnswer& a);
std::string SmemTwinAnswerJson(const SmemTwinAnswer& a);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_SMEM_TWIN_ANSWER_H_

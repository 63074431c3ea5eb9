// answers/triton_smem.h: the answer of `hlolayout cute smem`, both ways
// between CuTe's GMMA/UMMA shared-memory atoms and Triton's
// #ttg.nvmma_shared layouts (the twins of answers/smem_twin.h), as values
// with one field list each (util/fields.h): the CLI's --json is
// AnswerJson(answer), its text the view SmemTwinText(answer)
// (views/triton_smem_text.h).
//
//   SmemTwinAnswer a = *AnswerSmemAtom("GMMA::Layout_K_SW128_Atom<half_t>",
//                                      (_128,_64), std::nullopt);
//   std::get<SmemFromCute>(a).triton;
//   // #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false,
//   //   elementBitWidth = 16}>
//   SmemTwinAnswer b = *AnswerNvmmaShared(layout, {128, 64});
//   std::get<SmemFromTriton>(b).atom;  // GMMA::Layout_K_SW128_Atom<half_t>
#ifndef HLOLAYOUT_ANSWERS_TRITON_SMEM_H_
#define HLOLAYOUT_ANSWERS_TRITON_SMEM_H_

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/triton/named_layouts.h"
#include "hlolayout/util/fields.h"

namespace hlolayout::triton {

// From a Triton layout: its attribute, the memdesc shape and its CuTe twin
// (atom "none" and the rest absent when it has none).
struct SmemFromTriton {
  std::string triton;
  std::vector<int64_t> memdesc_shape;
  std::string atom;
  Omit<std::string> shape, order, layout, layout_elements;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const SmemFromTriton& a) {
    f.Type("SmemFromTriton",
           "A #ttg.nvmma_shared layout and its CuTe shared-memory atom.");
    const FieldOptions camel = FieldOptions().CamelKey();  // "MemdescShape"
    f("triton", a.triton, "The Triton attribute.", camel);
    f("memdesc_shape", a.memdesc_shape, "The memdesc's shape.", camel);
    f("atom", a.atom, "The CuTe atom, or none.", camel);
    f("shape", a.shape, "The tile's shape.", camel);
    f("order", a.order, "The tile's order, or none.", camel);
    f("layout", a.layout, "The tile's layout (bytes).", camel);
    f("layout_elements", a.layout_elements, "The tile's layout (elements).",
      camel);
  }
};

// From a CuTe atom: the tile and its Triton twin ("none", no memdesc shape,
// when it has none).
struct SmemFromCute {
  std::string layout, layout_elements;
  std::string triton;
  Omit<std::vector<int64_t>> memdesc_shape;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const SmemFromCute& a) {
    f.Type("SmemFromCute",
           "A CuTe shared-memory atom's tile and its Triton layout.");
    const FieldOptions camel = FieldOptions().CamelKey();  // "MemdescShape"
    f("layout", a.layout, "The tile's layout (bytes).", camel);
    f("layout_elements", a.layout_elements, "The tile's layout (elements).",
      camel);
    f("triton", a.triton, "The Triton attribute, or none.", camel);
    f("memdesc_shape", a.memdesc_shape, "The memdesc's shape.", camel);
  }
};

// One of the two directions.
using SmemTwinAnswer = std::variant<SmemFromTriton, SmemFromCute>;

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

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_ANSWERS_TRITON_SMEM_H_

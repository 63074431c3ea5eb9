#include "hlolayout/answers/triton_smem.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/answers/smem_twin.h"
#include "hlolayout/cute/print.h"
#include "hlolayout/cute/smem_atoms.h"

namespace hlolayout::triton {
namespace {

std::string FromTritonText(const SmemFromTriton& a) {
  if (!a.layout.has_value()) {
    return absl::StrCat("Triton: ", a.triton, "\nAtom: ", a.atom, "\n");
  }
  return absl::StrCat(
      "Atom: ", a.atom, "\nShape: ", a.shape.value_or(""),
      "\nOrder: ", a.order.value_or(""), "\nLayout: ", *a.layout,
      "\nLayoutElements: ", a.layout_elements.value_or(""), "\n");
}

std::string FromCuteText(const SmemFromCute& a) {
  std::string text = absl::StrCat("Layout: ", a.layout,
                                  "\nLayoutElements: ", a.layout_elements,
                                  "\nTriton: ", a.triton);
  if (a.memdesc_shape.has_value()) {
    absl::StrAppend(&text, " on memdesc shape [",
                    absl::StrJoin(*a.memdesc_shape, ", "), "]");
  }
  return text + "\n";
}

}  // namespace

absl::StatusOr<SmemTwinAnswer> AnswerSmemAtom(
    absl::string_view name, const std::optional<cute::IntTuple>& shape,
    const std::optional<cute::IntTuple>& order) {
  absl::StatusOr<cute::SmemAtom> atom = cute::FindSmemAtom(name);
  if (!atom.ok()) return atom.status();
  absl::StatusOr<cute::SmemTile> tile = cute::TileSmemAtom(
      *atom, shape ? absl::make_optional(*shape) : absl::nullopt,
      order ? absl::make_optional(*order) : absl::nullopt);
  if (!tile.ok()) return tile.status();
  absl::StatusOr<absl::optional<NvmmaTwin>> twin = NvmmaTwinOf(*atom, *tile);
  if (!twin.ok()) return twin.status();
  SmemFromCute a;
  a.layout = cute::ToString(tile->layout);
  a.layout_elements = cute::ToString(tile->elements);
  a.triton = "none";
  if (twin->has_value()) {
    a.triton = (*twin)->attr;
    a.memdesc_shape = (*twin)->memdesc_shape;
  }
  return SmemTwinAnswer(std::move(a));
}

absl::StatusOr<SmemTwinAnswer> AnswerNvmmaShared(
    const NvmmaSharedLayout& layout, std::vector<int64_t> dims) {
  absl::StatusOr<absl::optional<CuteSmemTwin>> twin = CuteTwinOf(layout, dims);
  if (!twin.ok()) return twin.status();
  SmemFromTriton a;
  a.triton = NvmmaAttr(layout);
  a.memdesc_shape = std::move(dims);
  a.atom = "none";
  if (twin->has_value()) {
    const CuteSmemTwin& t = **twin;
    a.atom = t.atom;
    a.shape = cute::ToString(t.shape);
    a.order = t.order ? cute::ToString(*t.order) : "none";
    a.layout = cute::ToString(t.tile.layout);
    a.layout_elements = cute::ToString(t.tile.elements);
  }
  return SmemTwinAnswer(std::move(a));
}

std::string SmemTwinText(const SmemTwinAnswer& a) {
  if (const auto* t = std::get_if<SmemFromTriton>(&a))
    return FromTritonText(*t);
  return FromCuteText(std::get<SmemFromCute>(a));
}

}  // namespace hlolayout::triton

#include "hlolayout/views/triton_smem_text.h"

#include <string>
#include <variant>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

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

std::string SmemTwinText(const SmemTwinAnswer& a) {
  if (const auto* t = std::get_if<SmemFromTriton>(&a))
    return FromTritonText(*t);
  return FromCuteText(std::get<SmemFromCute>(a));
}

}  // namespace hlolayout::triton

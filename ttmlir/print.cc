#include "hlolayout/ttmlir/print.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "hlolayout/ttmlir/element_type.h"

namespace hlolayout::grid {
namespace {

// "53x63x" for a shape, "" for rank 0.
std::string DimsPrefix(absl::Span<const int64_t> dims) {
  std::string out;
  for (int64_t d : dims) absl::StrAppend(&out, d, "x");
  return out;
}

}  // namespace

std::string MemrefToString(const MetalLayout& layout) {
  const std::string element = layout.tile()
                                  ? TileTypeToString(*layout.tile())
                                  : ScalarTypeName(layout.element_type());
  return absl::StrCat("memref<", DimsPrefix(layout.memref_shape()), element,
                      ", #tt.memory_space<",
                      MemorySpaceName(layout.memory_space()), ">>");
}

std::string MetalLayoutAttrToString(const MetalLayout& layout) {
  return absl::StrCat("#tt.metal_layout<", layout.linear().ToString(), ", ",
                      OobValName(layout.oob_val()), ", <",
                      DimsToString(layout.grid()), ">, ",
                      MemrefToString(layout), ">");
}

std::string TensorTypeToString(const MetalLayout& layout) {
  return absl::StrCat("tensor<", DimsPrefix(layout.logical_shape()),
                      ScalarTypeName(layout.element_type()), ", ",
                      MetalLayoutAttrToString(layout), ">");
}

}  // namespace hlolayout::grid

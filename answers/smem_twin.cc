// answers/smem_twin.cc: CuTe smem tiles <-> #ttg.nvmma_shared, checked.
#include "hlolayout/answers/smem_twin.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::triton {

namespace {

bool IsPowerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// The element type CuTe twins are named with, by width.
const char* TypeOfWidth(int bits) {
  switch (bits) {
    case 8:
      return "int8_t";
    case 16:
      return "half_t";
    case 32:
      return "float";
    case 64:
      return "double";
    default:
      return nullptr;
  }
}

}  // namespace

std::string NvmmaAttr(const NvmmaSharedLayout& layout) {
  return absl::StrCat(
      "#ttg.nvmma_shared<{swizzlingByteWidth = ", layout.swizzle_bytes,
      ", transposed = ", layout.transposed ? "true" : "false",
      ", elementBitWidth = ", layout.element_bits, "}>");
}

absl::StatusOr<bool> SameFunction(const cute::AnyLayout& elements,
                                  const NvmmaSharedLayout& layout,
                                  absl::Span<const int64_t> memdesc_shape) {
  if (memdesc_shape.size() != 2 || !IsPowerOfTwo(memdesc_shape[0]) ||
      !IsPowerOfTwo(memdesc_shape[1])) {
    return false;
  }
  if (elements.rank() != 2 ||
      elements.size() != memdesc_shape[0] * memdesc_shape[1]) {
    return false;
  }
  absl::StatusOr<LinearLayout> l =
      ToLinearLayout(Layout(layout), memdesc_shape);
  if (!l.ok()) return false;  // Triton refuses this layout on this shape.
  const int64_t n = memdesc_shape[0] * memdesc_shape[1];
  if (l->num_in_dims() < 1 || l->InDimSize(0) != n) return false;
  std::vector<int32_t> ins(l->num_in_dims(), 0);
  std::vector<int32_t> out(l->num_out_dims(), 0);
  for (int64_t o = 0; o < n; ++o) {
    ins[0] = static_cast<int32_t>(o);
    l->ApplyIndexed(ins, absl::MakeSpan(out));
    absl::StatusOr<int64_t> back =
        elements.Evaluate(cute::IntTuple::Tuple({out[0], out[1]}));
    if (!back.ok()) return back.status();
    if (*back != o) return false;
  }
  return true;
}

absl::StatusOr<absl::optional<NvmmaTwin>> NvmmaTwinOf(
    const cute::SmemAtom& atom, const cute::SmemTile& tile) {
  const cute::IntTuple shape = tile.elements.shape();
  if (cute::Rank(shape) != 2 || atom.atom_32b) return absl::nullopt;
  if (atom.value_bits != 8 && atom.value_bits != 16 && atom.value_bits != 32) {
    return absl::nullopt;
  }
  if (atom.swizzle_bytes == 0 && !atom.k_major) return absl::nullopt;
  NvmmaTwin twin;
  twin.layout.swizzle_bytes = atom.swizzle_bytes;
  twin.layout.transposed = !atom.k_major;
  twin.layout.element_bits = atom.value_bits;
  for (int i = 0; i < 2; ++i) {
    absl::StatusOr<int64_t> s = cute::Size(shape[i]);
    if (!s.ok()) return absl::nullopt;
    twin.memdesc_shape.push_back(*s);
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(
      bool same, SameFunction(tile.elements, twin.layout, twin.memdesc_shape));
  if (!same) return absl::nullopt;
  twin.attr = NvmmaAttr(twin.layout);
  return twin;
}

absl::StatusOr<absl::optional<CuteSmemTwin>> CuteTwinOf(
    const NvmmaSharedLayout& layout, absl::Span<const int64_t> memdesc_shape) {
  if (memdesc_shape.size() != 2 || layout.fp4_padded || !layout.cga.empty()) {
    return absl::nullopt;
  }
  const char* type = TypeOfWidth(layout.element_bits);
  if (type == nullptr) return absl::nullopt;
  std::string kind = layout.transposed ? "MN_" : "K_";
  if (layout.swizzle_bytes == 0) {
    absl::StrAppend(&kind, "INTER");
  } else {
    absl::StrAppend(&kind, "SW", layout.swizzle_bytes);
  }
  const std::string name =
      absl::StrCat("GMMA::Layout_", kind, "_Atom<", type, ">");
  absl::StatusOr<cute::SmemAtom> atom = cute::FindSmemAtom(name);
  if (!atom.ok()) return absl::nullopt;
  const cute::IntTuple shape =
      cute::IntTuple::Tuple({cute::IntTuple::Static(memdesc_shape[0]),
                             cute::IntTuple::Static(memdesc_shape[1])});
  const absl::optional<cute::IntTuple> orders[] = {
      absl::nullopt, cute::IntTuple::Tuple({cute::IntTuple::Static(2),
                                            cute::IntTuple::Static(1)})};
  for (const absl::optional<cute::IntTuple>& order : orders) {
    absl::StatusOr<cute::SmemTile> tile =
        cute::TileSmemAtom(*atom, shape, order);
    if (!tile.ok()) continue;  // The atom does not divide the shape.
    HLOLAYOUT_ASSIGN_OR_RETURN(
        bool same, SameFunction(tile->elements, layout, memdesc_shape));
    if (same) {
      return CuteSmemTwin{name, shape, order, *std::move(tile)};
    }
  }
  return absl::nullopt;
}

}  // namespace hlolayout::triton

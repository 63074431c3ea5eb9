#include "hlolayout/answers/triton_smem.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "hlolayout/answers/smem_twin.h"
#include "hlolayout/cute/print.h"
#include "hlolayout/cute/smem_atoms.h"

namespace hlolayout::triton {
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

}  // namespace hlolayout::triton

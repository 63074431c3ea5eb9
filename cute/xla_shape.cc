#include "hlolayout/cute/xla_shape.h"

#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/cute/xla_bridge.h"
#include "hlolayout/shape/printer.h"

namespace hlolayout::cute {

absl::StatusOr<Layout> XlaShapeToCute(const hlolayout::Shape& shape) {
  if (!shape.IsArray() || !shape.has_layout()) {
    return absl::InvalidArgumentError(
        absl::StrCat("from_xla needs an array shape with a layout, got ",
                     HumanStringWithLayout(shape)));
  }
  if (!shape.is_static()) {
    return absl::InvalidArgumentError(
        absl::StrCat("from_xla needs static dimensions, got ",
                     HumanStringWithLayout(shape)));
  }
  std::vector<std::vector<int64_t>> tiles;
  for (const Tile& tile : shape.layout().tiles()) {
    tiles.emplace_back(tile.dimensions().begin(), tile.dimensions().end());
  }
  static_assert(kCombineDim == hlolayout::Tile::kCombineDimension);
  return XlaTiledLayoutToCute(shape.dimensions(),
                              shape.layout().minor_to_major(), tiles);
}

}  // namespace hlolayout::cute

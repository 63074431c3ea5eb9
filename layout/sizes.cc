#include "hlolayout/layout/sizes.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "hlolayout/layout/tiling.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout {

absl::StatusOr<ArraySizes> ComputeArraySizes(const Shape& array_shape) {
  absl::StatusOr<TilingModel> model = BuildTilingModel(array_shape);
  if (!model.ok()) return model.status();
  ArraySizes s;
  s.logical_elements = model->logical_elements;
  s.tiled_elements = model->tiled_elements;
  s.padded_elements = model->padded_elements;
  s.element_bits = model->element_bits;
  s.packed = model->packed;
  // BuildTilingModel checked padded_elements * element_bits fits in int64,
  // and logical <= tiled <= padded, so these cannot fail.
  s.logical_bytes =
      *BytesForElements(s.logical_elements, s.element_bits, s.packed);
  s.tiled_bytes = *BytesForElements(s.tiled_elements, s.element_bits, s.packed);
  s.padded_bytes =
      *BytesForElements(s.padded_elements, s.element_bits, s.packed);
  s.expansion = s.logical_bytes == 0 ? 1.0
                                     : static_cast<double>(s.padded_bytes) /
                                           static_cast<double>(s.logical_bytes);
  return s;
}

std::string FormatExpansion(double expansion) {
  return absl::StrFormat("%.1fx", expansion);
}

absl::StatusOr<std::vector<TilePadding>> ExplainTilePadding(
    const Shape& array_shape) {
  absl::StatusOr<TilingModel> model = BuildTilingModel(array_shape);
  if (!model.ok()) return model.status();
  std::string all_tiles = "T";
  for (const TileLevel& l : model->levels) {
    absl::StrAppend(&all_tiles, l.tile.ToString());
  }
  const bool single = model->levels.size() == 1;
  // Past a few levels the whole T(...) list is not repeated in every reason
  // (that made the text quadratic in the number of levels).
  const bool many = model->levels.size() > 4;
  std::vector<TilePadding> result;
  for (const TileLevel& l : model->levels) {
    const int64_t p = l.prefix_rank();
    for (int64_t i = 0; i < static_cast<int64_t>(l.tile_sizes.size()); ++i) {
      const TilingDim& d = l.combined[p + i];
      const int64_t t = l.tile_sizes[i];
      if (d.size % t == 0) continue;
      TilePadding pad;
      pad.dimension = d.logical_dimension;
      pad.size = d.size;
      pad.tile_size = t;
      pad.padded_size = l.padded[p + i];
      pad.tile_level = static_cast<int>(l.level);
      const auto& from = l.combined_from[p + i];
      const bool combined = from.first != from.second;
      pad.reason = absl::StrCat(
          CombinedDimLabel(*model, l.level, p + i),
          combined ? " (combined size " : " (size ", d.size,
          ") is not a multiple of tile ", t, " of ",
          single ? all_tiles
          : many ? absl::StrCat("tile level ", l.level, " ", l.tile.ToString(),
                                " of ", model->levels.size())
                 : absl::StrCat("tile level ", l.level, " ", l.tile.ToString(),
                                " in ", all_tiles),
          ": padded to ", pad.padded_size);
      result.push_back(std::move(pad));
    }
  }
  return result;
}

}  // namespace hlolayout

#include "hlolayout/layout/sizes.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "hlolayout/layout/tiling.h"
#include "hlolayout/shape/primitive_type.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout {

namespace {

// The element counts and width of ComputeArraySizes without building a
// TilingModel (whose per-level vectors cost more than the arithmetic), for
// the usual layouts: no `*`, at most kFastMaxRank dims at every level and
// kFastMaxLevels levels, nothing out of range. Returns false for anything
// else; BuildTilingModel then answers, with its error messages. Follows
// BuildTilingModel step by step (tiling.cc: physical order, then per tile
// leading ones, counts = ceil(size / tile), output prefix + counts + tile).
constexpr int64_t kFastMaxRank = 24;
constexpr size_t kFastMaxLevels = 64;

bool FastElementCounts(const Shape& shape, ArraySizes* s) {
  if (!shape.IsArray()) return false;
  const int64_t rank = shape.rank();
  if (rank > kFastMaxRank) return false;
  int64_t logical = 1;
  for (int64_t i = 0; i < rank; ++i) {
    if (shape.is_unbounded_dynamic_dimension(i)) return false;
    const int64_t d = shape.dimension(i);
    if (d < 0 || __builtin_mul_overflow(logical, d, &logical)) return false;
  }
  static const Layout* const kDefaultLayout = new Layout();
  const Layout& layout = shape.has_layout() ? shape.layout() : *kDefaultLayout;
  if (layout.tiles().size() > kFastMaxLevels) return false;
  int64_t dims[kFastMaxRank];
  int64_t r = rank;
  if (shape.has_layout()) {
    absl::Span<const int64_t> m2m = layout.minor_to_major();
    if (static_cast<int64_t>(m2m.size()) != rank) return false;
    bool seen[kFastMaxRank] = {};
    for (int64_t d : m2m) {
      if (d < 0 || d >= rank || seen[d]) return false;
      seen[d] = true;
    }
    for (int64_t i = 0; i < rank; ++i) {
      dims[i] = shape.dimension(m2m[rank - 1 - i]);
    }
  } else {
    for (int64_t i = 0; i < rank; ++i) dims[i] = shape.dimension(i);
  }
  for (const Tile& tile : layout.tiles()) {
    const int64_t k = tile.rank();
    if (k == 0) return false;
    const int64_t lead = k > r ? k - r : 0;
    if (r + lead + k > kFastMaxRank) return false;
    int64_t work[kFastMaxRank];
    for (int64_t i = 0; i < lead; ++i) work[i] = 1;
    for (int64_t i = 0; i < r; ++i) work[lead + i] = dims[i];
    const int64_t prefix = r + lead - k;
    int64_t n = 0;
    for (int64_t i = 0; i < prefix; ++i) dims[n++] = work[i];
    for (int64_t j = 0; j < k; ++j) {
      const int64_t t = tile.dimension(j);  // `*` is negative
      if (t <= 0) return false;
      const int64_t size = work[prefix + j];
      const int64_t count = size / t + (size % t != 0 ? 1 : 0);
      int64_t padded;
      if (__builtin_mul_overflow(count, t, &padded)) return false;
      dims[n++] = count;
    }
    for (int64_t j = 0; j < k; ++j) dims[n++] = tile.dimension(j);
    r = n;
  }
  int64_t tiled = 1;
  for (int64_t i = 0; i < r; ++i) {
    if (__builtin_mul_overflow(tiled, dims[i], &tiled)) return false;
  }
  const int64_t alignment = layout.tail_padding_alignment_in_elements();
  if (alignment <= 0) return false;
  int64_t padded = tiled;
  const int64_t rem = tiled % alignment;
  if (rem != 0 && __builtin_add_overflow(tiled, alignment - rem, &padded)) {
    return false;
  }
  const int64_t e = layout.element_size_in_bits();
  if (e < 0) return false;
  s->logical_elements = logical;
  s->tiled_elements = tiled;
  s->padded_elements = padded;
  s->packed = e != 0;
  s->element_bits =
      s->packed ? e : 8 * int64_t{ByteWidth(shape.element_type())};
  return true;
}

}  // namespace

absl::StatusOr<ArraySizes> ComputeArraySizes(const Shape& array_shape) {
  ArraySizes s;
  if (!FastElementCounts(array_shape, &s)) {
    absl::StatusOr<TilingModel> model = BuildTilingModel(array_shape);
    if (!model.ok()) return model.status();
    s.logical_elements = model->logical_elements;
    s.tiled_elements = model->tiled_elements;
    s.padded_elements = model->padded_elements;
    s.element_bits = model->element_bits;
    s.packed = model->packed;
  }
  // Bytes in 128-bit arithmetic: ceil(n * bits / 8). Only the byte size
  // must fit in int64 (s8[9223372036854775807] is 2^63-1 bytes though its
  // bit size is not); logical <= tiled <= padded, so checking the padded
  // size checks all three.
  absl::StatusOr<int64_t> padded =
      BytesForElements(s.padded_elements, s.element_bits, s.packed);
  if (!padded.ok()) return padded.status();
  s.padded_bytes = *padded;
  s.logical_bytes =
      *BytesForElements(s.logical_elements, s.element_bits, s.packed);
  s.tiled_bytes = *BytesForElements(s.tiled_elements, s.element_bits, s.packed);
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

#include "hlolayout/layout/reference_index.h"

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "hlolayout/layout/offset_kind.h"
#include "hlolayout/layout/tiling.h"

namespace hlolayout {

absl::StatusOr<int64_t> ReferenceOffset(const TilingModel& m,
                                        absl::Span<const int64_t> index) {
  absl::Status s = CheckIndexInBounds(m.logical_dims, index);
  if (!s.ok()) return s;
  // Physical coordinates, major to minor.
  std::vector<int64_t> x;
  for (const TilingDim& d : m.physical) x.push_back(index[d.logical_dimension]);
  for (const TileLevel& l : m.levels) {
    std::vector<int64_t> work(l.leading_ones, 0);
    std::vector<int64_t> sizes(l.leading_ones, 1);
    work.insert(work.end(), x.begin(), x.end());
    for (const TilingDim& d : l.input) sizes.push_back(d.size);
    std::vector<int64_t> combined;
    for (const auto& [first, last] : l.combined_from) {
      int64_t v = 0;
      for (int64_t i = first; i <= last; ++i) v = v * sizes[i] + work[i];
      combined.push_back(v);
    }
    const int64_t p = l.prefix_rank();
    std::vector<int64_t> counts, insides;
    for (size_t i = 0; i < l.tile_sizes.size(); ++i) {
      counts.push_back(combined[p + i] / l.tile_sizes[i]);
      insides.push_back(combined[p + i] % l.tile_sizes[i]);
    }
    x.assign(combined.begin(), combined.begin() + p);
    x.insert(x.end(), counts.begin(), counts.end());
    x.insert(x.end(), insides.begin(), insides.end());
  }
  int64_t offset = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    offset = offset * m.final_dims[i] + x[i];
  }
  return offset;
}

absl::StatusOr<int64_t> ReferenceOffset(const Shape& array_shape,
                                        absl::Span<const int64_t> index) {
  absl::StatusOr<TilingModel> m = BuildTilingModel(array_shape);
  if (!m.ok()) return m.status();
  return ReferenceOffset(*m, index);
}

absl::StatusOr<ElementAtOffset> ReferenceElementAt(const TilingModel& m,
                                                   int64_t offset) {
  if (offset < 0 || offset >= m.padded_elements) {
    return absl::OutOfRangeError(
        absl::StrCat("offset ", offset, " is past the end of the buffer (",
                     m.padded_elements, " elements)"));
  }
  ElementAtOffset result;
  if (offset >= m.tiled_elements) {
    result.kind = OffsetKind::kTailPadding;
    return result;
  }
  std::vector<int64_t> x(m.final_dims.size());
  for (size_t i = x.size(); i-- > 0;) {
    x[i] = offset % m.final_dims[i];
    offset /= m.final_dims[i];
  }
  for (size_t li = m.levels.size(); li-- > 0;) {
    const TileLevel& l = m.levels[li];
    const int64_t p = l.prefix_rank();
    const int64_t k = static_cast<int64_t>(l.tile_sizes.size());
    std::vector<int64_t> combined(x.begin(), x.begin() + p);
    for (int64_t i = 0; i < k; ++i) {
      const int64_t v = x[p + i] * l.tile_sizes[i] + x[p + k + i];
      if (v >= l.combined[p + i].size) {
        result.kind = OffsetKind::kTilePadding;
        return result;
      }
      combined.push_back(v);
    }
    std::vector<int64_t> sizes(l.leading_ones, 1);
    for (const TilingDim& d : l.input) sizes.push_back(d.size);
    std::vector<int64_t> work(sizes.size());
    for (size_t c = 0; c < combined.size(); ++c) {
      int64_t v = combined[c];
      const auto& [first, last] = l.combined_from[c];
      for (int64_t i = last; i >= first; --i) {
        if (i == first) {
          work[i] = v;
        } else {
          work[i] = v % sizes[i];
          v /= sizes[i];
        }
      }
    }
    x.assign(work.begin() + l.leading_ones, work.end());
  }
  result.index.resize(m.logical_dims.size());
  for (size_t i = 0; i < x.size(); ++i) {
    result.index[m.physical[i].logical_dimension] = x[i];
  }
  return result;
}

absl::StatusOr<ElementAtOffset> ReferenceElementAt(const Shape& array_shape,
                                                   int64_t offset) {
  absl::StatusOr<TilingModel> m = BuildTilingModel(array_shape);
  if (!m.ok()) return m.status();
  return ReferenceElementAt(*m, offset);
}

}  // namespace hlolayout

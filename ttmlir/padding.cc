#include "hlolayout/ttmlir/padding.h"

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/util/check.h"

namespace hlolayout::grid {
namespace {

int64_t SaturatingMul(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}

int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_add_overflow(a, b, &r) ? INT64_MAX : r;
}

absl::Status CheckStoragePosition(const MetalLayout& layout,
                                  absl::Span<const int64_t> core,
                                  absl::Span<const int64_t> offset) {
  const int64_t g = layout.grid_rank();
  if (static_cast<int64_t>(core.size()) != g) {
    return absl::InvalidArgumentError(absl::StrCat(
        "core has ", core.size(), " values but the grid has rank ", g));
  }
  if (static_cast<int64_t>(offset.size()) != g) {
    return absl::InvalidArgumentError(absl::StrCat(
        "offset has ", offset.size(), " values but the shard has rank ", g));
  }
  for (int64_t i = 0; i < g; ++i) {
    if (core[i] < 0 || core[i] >= layout.grid()[i]) {
      return absl::InvalidArgumentError(
          absl::StrCat("core ", core[i], " is out of range for grid dim ", i,
                       " of size ", layout.grid()[i]));
    }
    if (offset[i] < 0 || offset[i] >= layout.physical_shard_shape()[i]) {
      return absl::InvalidArgumentError(
          absl::StrCat("offset ", offset[i], " is out of range for shard dim ",
                       i, " of size ", layout.physical_shard_shape()[i]));
    }
  }
  return absl::OkStatus();
}

// Image values of result i inside core c's window along dim i.
int64_t CountInWindow(const MetalLayout& layout, int64_t i, int64_t c) {
  const int64_t shard = layout.shard_shape()[i];
  const int64_t begin = SaturatingMul(c, shard);
  const int64_t end = SaturatingAdd(begin, shard);
  const auto& map = layout.linear();
  const auto& shape = layout.logical_shape();
  return CountImageBelow(map, shape, i, end) -
         CountImageBelow(map, shape, i, begin);
}

}  // namespace

absl::StatusOr<absl::optional<std::vector<int64_t>>> ElementAt(
    const MetalLayout& layout, absl::Span<const int64_t> core,
    absl::Span<const int64_t> offset) {
  absl::Status valid = CheckStoragePosition(layout, core, offset);
  if (!valid.ok()) return valid;
  const int64_t g = layout.grid_rank();
  std::vector<int64_t> collapsed(g);
  for (int64_t i = 0; i < g; ++i) {
    // Tile padding: past the scalar shard.
    if (offset[i] >= layout.shard_shape()[i])
      return absl::optional<std::vector<int64_t>>();
    // Grid remainder: past the collapsed extent.
    if (layout.ValidExtent(i, core[i]) <= offset[i])
      return absl::optional<std::vector<int64_t>>();
    collapsed[i] = core[i] * layout.shard_shape()[i] + offset[i];  // < E_i
  }
  absl::optional<std::vector<int64_t>> index =
      InvertLayoutMap(layout.linear(), layout.logical_shape(), collapsed);
  if (index) {
    // The inverse must map back exactly; anything else is a bug here.
    absl::StatusOr<std::vector<int64_t>> back =
        layout.linear().Evaluate(*index);
    HLOLAYOUT_CHECK(back.ok() && *back == collapsed) << "bad inverse";
  }
  return index;
}

absl::StatusOr<bool> IsPadding(const MetalLayout& layout,
                               absl::Span<const int64_t> core,
                               absl::Span<const int64_t> offset) {
  absl::StatusOr<absl::optional<std::vector<int64_t>>> element =
      ElementAt(layout, core, offset);
  if (!element.ok()) return element.status();
  return !element->has_value();
}

absl::optional<std::vector<std::vector<int64_t>>> PaddingPerDim(
    const MetalLayout& layout) {
  if (!IsSeparable(layout.linear(), layout.logical_shape())) {
    return absl::nullopt;
  }
  std::vector<std::vector<int64_t>> pads(layout.grid_rank());
  for (int64_t i = 0; i < layout.grid_rank(); ++i) {
    for (int64_t c = 0; c < layout.grid()[i]; ++c) {
      pads[i].push_back(layout.physical_shard_shape()[i] -
                        CountInWindow(layout, i, c));
    }
  }
  return pads;
}

absl::StatusOr<std::vector<int64_t>> ValidElementsPerCore(
    const MetalLayout& layout, int64_t max_cores, int64_t max_enumeration) {
  if (layout.num_cores() > max_cores) {
    return absl::ResourceExhaustedError(
        absl::StrCat("grid has ", layout.num_cores(),
                     " cores; per-core counts are limited to ", max_cores));
  }
  const int64_t g = layout.grid_rank();
  const std::vector<int64_t>& grid = layout.grid();
  std::vector<int64_t> counts(layout.num_cores(), 0);
  if (IsSeparable(layout.linear(), layout.logical_shape())) {
    std::vector<std::vector<int64_t>> per_dim(g);
    for (int64_t i = 0; i < g; ++i) {
      for (int64_t c = 0; c < grid[i]; ++c) {
        per_dim[i].push_back(CountInWindow(layout, i, c));
      }
    }
    std::vector<int64_t> core(g, 0);
    for (int64_t n = 0; n < layout.num_cores(); ++n) {
      int64_t product = 1;  // <= shard volume, no overflow
      for (int64_t i = 0; i < g; ++i) product *= per_dim[i][core[i]];
      counts[n] = product;
      for (int64_t i = g - 1; i >= 0 && ++core[i] == grid[i]; --i) core[i] = 0;
    }
    return counts;
  }
  if (layout.logical_volume() > max_enumeration) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "counting padding for this map needs ", layout.logical_volume(),
        " elements; limit is ", max_enumeration));
  }
  const std::vector<int64_t>& shape = layout.logical_shape();
  std::vector<int64_t> index(shape.size(), 0);
  for (int64_t n = 0; n < layout.logical_volume(); ++n) {
    const ElementLocation loc = layout.Locate(index);
    int64_t core = 0;
    for (int64_t i = 0; i < g; ++i) core = core * grid[i] + loc.core[i];
    ++counts[core];
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1;
         d >= 0 && ++index[d] == shape[d]; --d) {
      index[d] = 0;
    }
  }
  return counts;
}

int64_t TotalPadding(const MetalLayout& layout) {
  // Create checked shard_volume * num_cores; each element takes one slot.
  return layout.shard_volume() * layout.num_cores() - layout.logical_volume();
}

}  // namespace hlolayout::grid

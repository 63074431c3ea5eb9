#include "hlolayout/ttmlir/explain.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "hlolayout/ttmlir/element_type.h"
#include "hlolayout/ttmlir/padding.h"
#include "hlolayout/ttmlir/print.h"

namespace hlolayout::grid {
GridExplanation ExplainGridLayout(const MetalLayout& layout,
                                  int64_t max_cores) {
  GridExplanation e;
  e.tensor = TensorTypeToString(layout);
  e.map = layout.linear().ToString();
  e.logical_shape = layout.logical_shape();
  e.element_type = ScalarTypeName(layout.element_type());
  e.element_bytes = ScalarTypeBytes(layout.element_type());
  e.logical_elements = layout.logical_volume();
  e.collapsed_extent = layout.collapsed_extent();
  e.grid = layout.grid();
  e.cores = layout.num_cores();
  e.device_grid = layout.device_grid();
  e.core_grid = layout.core_grid();
  e.shard_shape = layout.shard_shape();
  e.physical_shard_shape = layout.physical_shard_shape();
  e.memref_shape = layout.memref_shape();
  e.memref = MemrefToString(layout);
  if (layout.tile()) {
    e.tile = TileTypeToString(*layout.tile());
    e.tile_bytes = TileBytes(*layout.tile());
    e.tiles_per_shard = layout.tiles_per_shard();
  }
  e.memory_space = std::string(MemorySpaceName(layout.memory_space()));
  e.memory_space_title = std::string(MemorySpaceTitle(layout.memory_space()));
  e.oob_val = std::string(OobValName(layout.oob_val()));
  constexpr int64_t kMaxGridDim = 65536;
  if (std::any_of(layout.grid().begin(), layout.grid().end(),
                  [](int64_t g) { return g > kMaxGridDim; })) {
    e.padding_per_dim_note =
        absl::StrCat("not computed: a grid dim exceeds ", kMaxGridDim);
  } else {
    e.padding_per_dim = PaddingPerDim(layout);
    if (!e.padding_per_dim) {
      e.padding_per_dim_note =
          "n/a (a dim feeds several map results; see per core)";
    }
  }
  absl::StatusOr<std::vector<int64_t>> counts =
      ValidElementsPerCore(layout, max_cores);
  if (counts.ok()) {
    e.padding_only_cores = 0;
    std::vector<int64_t> core(layout.grid_rank(), 0);
    for (int64_t valid : *counts) {
      e.per_core.push_back({core, valid, layout.shard_volume() - valid});
      if (valid == 0) ++e.padding_only_cores;
      for (int64_t i = layout.grid_rank() - 1;
           i >= 0 && ++core[i] == layout.grid()[i]; --i) {
        core[i] = 0;
      }
    }
  } else {
    e.per_core_note = std::string(counts.status().message());
  }
  e.storage_positions = layout.shard_volume() * layout.num_cores();
  e.total_padding = TotalPadding(layout);
  e.shard_bytes = layout.shard_bytes();
  e.total_bytes = layout.total_bytes();
  return e;
}

absl::StatusOr<std::vector<int64_t>> ParseIndexList(absl::string_view text) {
  std::vector<int64_t> index;
  if (absl::StripAsciiWhitespace(text).empty()) return index;
  for (absl::string_view part : absl::StrSplit(text, ',')) {
    int64_t value;
    if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(part), &value)) {
      return absl::InvalidArgumentError(
          absl::StrCat("bad index value '", part, "'"));
    }
    index.push_back(value);
  }
  return index;
}

absl::StatusOr<std::vector<CollapseInterval>> ParseCollapseIntervals(
    absl::string_view text) {
  text = absl::StripAsciiWhitespace(text);
  if (text.empty()) return DefaultCollapseIntervals();
  if (text == "none") return std::vector<CollapseInterval>();
  const absl::Status bad = absl::InvalidArgumentError(absl::StrCat(
      "bad collapse intervals '", text, "'; expected e.g. (0,3),(-3,-1)"));
  std::vector<CollapseInterval> out;
  absl::string_view rest = text;
  while (!rest.empty()) {
    if (!absl::ConsumePrefix(&rest, "(")) return bad;
    const size_t close = rest.find(')');
    if (close == absl::string_view::npos) return bad;
    std::vector<absl::string_view> bounds =
        absl::StrSplit(rest.substr(0, close), ',');
    CollapseInterval interval;
    if (bounds.size() != 2 ||
        !absl::SimpleAtoi(absl::StripAsciiWhitespace(bounds[0]),
                          &interval.begin) ||
        !absl::SimpleAtoi(absl::StripAsciiWhitespace(bounds[1]),
                          &interval.end)) {
      return bad;
    }
    out.push_back(interval);
    rest = absl::StripLeadingAsciiWhitespace(rest.substr(close + 1));
    if (!rest.empty() && !absl::ConsumePrefix(&rest, ",")) return bad;
    rest = absl::StripLeadingAsciiWhitespace(rest);
    if (rest.empty() && text.back() == ',') return bad;
  }
  return out;
}

namespace {

// "53x63" -> {53, 63}; `what` names the argument in errors.
absl::StatusOr<std::vector<int64_t>> ParseDims(absl::string_view text,
                                               absl::string_view what) {
  std::vector<int64_t> dims;
  if (text.empty()) return dims;
  for (absl::string_view part : absl::StrSplit(text, 'x')) {
    int64_t value;
    if (!absl::SimpleAtoi(part, &value) || value < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("bad ", what, " dim '", part, "'"));
    }
    dims.push_back(value);
  }
  return dims;
}

}  // namespace

absl::StatusOr<MetalLayout> BuildCollapsedLayout(absl::string_view tensor,
                                                 absl::string_view grid_text,
                                                 absl::string_view intervals,
                                                 absl::string_view tile_text) {
  const size_t split = tensor.rfind('x');
  const absl::string_view element_name =
      split == absl::string_view::npos ? tensor : tensor.substr(split + 1);
  absl::optional<ScalarType> element = ScalarTypeFromName(element_name);
  if (!element) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown element type '", element_name, "'"));
  }
  absl::StatusOr<std::vector<int64_t>> shape =
      ParseDims(split == absl::string_view::npos ? "" : tensor.substr(0, split),
                "tensor");
  if (!shape.ok()) return shape.status();
  absl::StatusOr<std::vector<int64_t>> grid = ParseDims(grid_text, "grid");
  if (!grid.ok()) return grid.status();
  absl::StatusOr<std::vector<CollapseInterval>> list =
      ParseCollapseIntervals(intervals);
  if (!list.ok()) return list.status();
  absl::StatusOr<AffineMap> map =
      CollapsedLinearMap(*shape, grid->size(), *list);
  if (!map.ok()) return map.status();
  absl::optional<TileType> tile;
  if (!tile_text.empty()) {
    int64_t height = 32, width = 32;
    absl::string_view dtype_name = tile_text;
    const size_t comma = tile_text.find(',');
    if (comma != absl::string_view::npos) {
      absl::StatusOr<std::vector<int64_t>> dims =
          ParseDims(tile_text.substr(0, comma), "tile");
      if (!dims.ok()) return dims.status();
      if (dims->size() != 2) {
        return absl::InvalidArgumentError("a tile shape has two dims");
      }
      height = (*dims)[0];
      width = (*dims)[1];
      dtype_name = tile_text.substr(comma + 1);
    }
    absl::optional<TileDataType> dtype = TileDataTypeFromName(dtype_name);
    if (!dtype) {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown tile data type '", dtype_name, "'"));
    }
    absl::StatusOr<TileType> made = MakeTileType(height, width, *dtype);
    if (!made.ok()) return made.status();
    tile = *made;
  }
  return MetalLayout::Create(*std::move(shape), *element, *std::move(map),
                             OobVal::kUndef, *std::move(grid), tile,
                             MemorySpace::kDeviceL1);
}

}  // namespace hlolayout::grid

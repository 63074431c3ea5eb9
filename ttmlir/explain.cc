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
namespace {

std::string Comma(absl::Span<const int64_t> values) {
  return absl::StrJoin(values, ",");
}

std::string Plural(int64_t n, absl::string_view word) {
  return absl::StrCat(n, " ", word, n == 1 ? "" : "s");
}

}  // namespace

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

std::string FormatGridExplanation(const GridExplanation& e,
                                  int64_t max_core_lines) {
  std::string out;
  auto line = [&out](absl::string_view name, absl::string_view value) {
    // Values start at column 18; a long name gets one space.
    const size_t pad = name.size() < 16 ? 16 - name.size() : 1;
    absl::StrAppend(&out, name, ":", value.empty() ? "" : std::string(pad, ' '),
                    value, "\n");
  };
  line("tensor", e.tensor);
  line("logical shape",
       absl::StrCat(DimsToString(e.logical_shape),
                    e.logical_shape.empty() ? "(scalar)" : "", " ",
                    e.element_type, " (", Plural(e.logical_elements, "element"),
                    ", ", e.element_bytes, " bytes each)"));
  line("map", e.map);
  line("collapsed", absl::StrCat(DimsToString(e.collapsed_extent),
                                 " (map at the last index, plus 1)"));
  line("grid",
       absl::StrCat(DimsToString(e.grid), " (", Plural(e.cores, "core"), ")"));
  if (!e.device_grid.empty()) {
    line("devices",
         absl::StrCat(DimsToString(e.device_grid), " (outer grid dims), ",
                      DimsToString(e.core_grid), " cores each"));
  }
  line("shard", absl::StrCat(DimsToString(e.shard_shape),
                             " scalars (ceilDiv of the collapsed shape by the "
                             "grid)"));
  if (e.tile) {
    line("tile", absl::StrCat(*e.tile, ", ", e.tile_bytes, " bytes"));
    line("physical shard",
         absl::StrCat(DimsToString(e.physical_shard_shape),
                      " scalars (shard padded to whole tiles), ",
                      Plural(e.tiles_per_shard, "tile"), " per shard"));
  }
  line("memref", e.memref);
  line("memory space",
       absl::StrCat(e.memory_space, " (", e.memory_space_title, ")"));
  line("oob_val", e.oob_val);
  if (e.padding_per_dim) {
    std::vector<std::string> dims;
    for (size_t i = 0; i < e.padding_per_dim->size(); ++i) {
      dims.push_back(absl::StrCat("dim ", i, ": ",
                                  absl::StrJoin((*e.padding_per_dim)[i], ",")));
    }
    line("padding by dim",
         absl::StrCat(absl::StrJoin(dims, "; "),
                      " (positions per core, by core index along the dim)"));
  } else {
    line("padding by dim", e.padding_per_dim_note);
  }
  if (e.per_core.empty()) {
    line("padding per core", absl::StrCat("not computed: ", e.per_core_note));
  } else {
    line("padding per core", "");
    int64_t shown = 0;
    for (const CorePadding& c : e.per_core) {
      if (shown++ == max_core_lines) {
        absl::StrAppend(&out, "  ... (", e.per_core.size() - max_core_lines,
                        " more cores)\n");
        break;
      }
      absl::StrAppend(&out, "  core ", Comma(c.core), ": ",
                      Plural(c.elements, "element"), ", ", c.padding,
                      " padding\n");
    }
    line("padding-only", Plural(e.padding_only_cores, "core"));
  }
  line("padding total", absl::StrCat(e.total_padding, " of ",
                                     e.storage_positions, " positions"));
  line("bytes",
       absl::StrCat(e.shard_bytes, " per shard, ", e.total_bytes, " total"));
  return out;
}

std::string FormatElementLocation(const MetalLayout& layout,
                                  absl::Span<const int64_t> index,
                                  const ElementLocation& loc) {
  std::string out;
  auto line = [&out](absl::string_view name, absl::string_view value) {
    absl::StrAppend(&out, name, ":", std::string(13 - name.size(), ' '), value,
                    "\n");
  };
  line("index", Comma(index));
  line("collapsed", Comma(loc.collapsed));
  std::string core = Comma(loc.core);
  if (!layout.device_grid().empty()) {
    const size_t devices = layout.device_grid().size();
    absl::StrAppend(&core, " (device ",
                    Comma(absl::MakeConstSpan(loc.core).subspan(0, devices)),
                    ", core ",
                    Comma(absl::MakeConstSpan(loc.core).subspan(devices)), ")");
  }
  line("core", core);
  line("offset", absl::StrCat(Comma(loc.offset), " (in the ",
                              DimsToString(layout.shard_shape()), " shard)"));
  if (layout.tile()) {
    line("tile", absl::StrCat(Comma(loc.tile), " (memref index, of ",
                              DimsToString(layout.memref_shape()), ")"));
    line("in tile",
         absl::StrCat(Comma(loc.in_tile), " (in ", layout.tile()->height, "x",
                      layout.tile()->width, ")"));
    line("byte offset",
         absl::StrCat(loc.byte_offset, " (start of the tile in the shard)"));
  } else {
    line("byte offset", absl::StrCat(loc.byte_offset, " (in the shard)"));
  }
  return out;
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

std::string GridShardAnswer(const MetalLayout& layout) {
  return DimsToString(layout.memref_shape());
}

absl::StatusOr<std::string> GridLocateAnswer(const MetalLayout& layout,
                                             absl::string_view index_text) {
  absl::StatusOr<std::vector<int64_t>> index = ParseIndexList(index_text);
  if (!index.ok()) return index.status();
  absl::StatusOr<ElementLocation> loc = layout.TryLocate(*index);
  if (!loc.ok()) return loc.status();
  std::string out =
      absl::StrCat("core=", Comma(loc->core), " offset=", Comma(loc->offset));
  if (layout.tile()) {
    absl::StrAppend(&out, " tile=", Comma(loc->tile),
                    " in_tile=", Comma(loc->in_tile));
  }
  return out;
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

std::string FormatCollapse(const MetalLayout& layout,
                           absl::string_view intervals) {
  std::string out;
  absl::StatusOr<std::vector<CollapseInterval>> list =
      ParseCollapseIntervals(intervals);
  if (list.ok()) {
    absl::StatusOr<std::vector<CollapseInterval>> groups =
        CollapseGroups(layout.rank(), *list);
    if (groups.ok()) {
      absl::StrAppend(&out, "joined:  ", JoinNotation(layout.rank(), *groups),
                      "\n");
    }
  }
  absl::StrAppend(&out, "map:     ", layout.linear().ToString(), "\n");
  absl::StrAppend(&out, "tensor:  ", TensorTypeToString(layout), "\n");
  return out;
}

}  // namespace hlolayout::grid

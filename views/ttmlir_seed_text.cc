#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/ttmlir/collapse.h"
#include "hlolayout/ttmlir/explain.h"
#include "hlolayout/ttmlir/metal_layout.h"
#include "hlolayout/ttmlir/print.h"
#include "hlolayout/views/ttmlir_text.h"

// The seed form's texts (were in ttmlir/explain.cc).
namespace hlolayout::grid {
namespace {

std::string Comma(absl::Span<const int64_t> values) {
  return absl::StrJoin(values, ",");
}

std::string Plural(int64_t n, absl::string_view word) {
  return absl::StrCat(n, " ", word, n == 1 ? "" : "s");
}

}  // namespace

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

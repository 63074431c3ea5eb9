#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/ttmlir/metal_layout.h"
#include "hlolayout/ttmlir/ttmlir_explain.h"
#include "hlolayout/views/ttmlir_text.h"

// The texts of the current forms, #ttnn.ttnn_layout and the reworked
// #ttcore.metal_layout (were in ttmlir/ttmlir_explain.cc).
namespace hlolayout::grid {
namespace {

std::string Dims(absl::Span<const int64_t> dims) {
  return dims.empty() ? "()" : DimsToString(dims);
}

std::string Commas(absl::Span<const int64_t> v) {
  return v.empty() ? "()" : absl::StrJoin(v, ",");
}

int64_t Product(absl::Span<const int64_t> v) {
  int64_t p = 1;
  for (int64_t x : v) p *= x;
  return p;
}

void Line(std::string* out, absl::string_view name, absl::string_view value) {
  absl::StrAppend(out, name, ":");
  for (size_t i = name.size() + 1; i < 16; ++i) out->push_back(' ');
  absl::StrAppend(out, " ", value, "\n");
}

// Notes (warnings go to standard error, see the CLI).
void Lists(std::string* out, const GridAnalysis& a) {
  for (const std::string& n : a.notes) absl::StrAppend(out, "note: ", n, "\n");
}

std::string CoreText(const tenstorrent::CoreCoord& c) {
  return absl::StrCat("(", c.x, ",", c.y, ")");
}

}  // namespace

std::string CoreRangesShort(absl::Span<const tenstorrent::CoreRange> ranges) {
  std::vector<std::string> parts;
  for (const tenstorrent::CoreRange& r : ranges) {
    parts.push_back(r.start == r.end ? CoreText(r.start)
                                     : absl::StrCat(CoreText(r.start), "-",
                                                    CoreText(r.end)));
  }
  return parts.empty() ? "none" : absl::StrJoin(parts, ", ");
}

std::string FormatTtnnExplanation(const GridAnalysis& a,
                                  int64_t max_shard_lines) {
  const TtnnLayoutAttr& l = *a.ttnn;
  std::string out;
  Line(&out, "tensor", a.text.text);
  const std::string where = absl::StrCat(
      BufferTypeMlirName(l.buffer_type()),
      l.mem_layout() ? absl::StrCat(", ", MemoryLayoutMlirName(*l.mem_layout()))
                     : "");
  Line(&out, "layout", absl::StrCat("#ttnn.ttnn_layout, ", where));
  Line(&out, "logical shape",
       absl::StrCat(Dims(l.logical_shape()), " ",
                    MlirElementToString(a.text.element), " (",
                    l.padding().logical, " elements)"));
  Line(&out, "element",
       l.tiled()
           ? absl::StrCat(MlirElementToString(l.element()), ", ",
                          MlirElementBytes(l.element()), " bytes")
           : absl::StrCat(MlirElementToString(l.element()), ", ",
                          MlirElementBytes(l.element()), " bytes (row-major)"));
  Line(&out, "physical shape",
       absl::StrCat(Dims(l.physical_shape()),
                    l.tiled() ? " (last two dims padded to 32)" : ""));
  Line(&out, "map", l.linear().ToString());
  Line(&out, "collapsed", Dims(l.collapsed_shape()));
  Line(&out, "grid",
       absl::StrCat(DimsToString(l.grid()), " (", l.num_shards(),
                    l.sharded() ? " shards)" : " cores)"));
  std::string shard = absl::StrCat(DimsToString(l.shard_shape()), " scalars");
  if (l.tiled()) {
    absl::StrAppend(&shard, ", memref ", DimsToString(l.memref_shape()),
                    " tiles = ", DimsToString(l.physical_shard_shape()));
  }
  absl::StrAppend(&shard, ", ", l.shard_bytes(), " bytes");
  Line(&out, "shard", shard);
  Line(&out, "memref", l.MemrefText());
  if (l.sharded()) {
    std::string placement =
        l.core_ranges().empty() ? "none" : CoreRangesShort(l.core_ranges());
    if (l.written_core_ranges()) {
      absl::StrAppend(&placement, " (written)");
    } else if (!l.core_ranges().empty()) {
      absl::StrAppend(&placement, " (canonical)");
    }
    Line(&out, IsDram(l.buffer_type()) ? "dram banks" : "cores", placement);
    Line(&out, "canonical",
         l.canonical_core_ranges()
             ? absl::StrCat(CoreRangesShort(*l.canonical_core_ranges()),
                            " on a ", l.device().worker_rows, "x",
                            l.device().worker_cols, " worker grid, ",
                            l.device().dram_banks, " DRAM banks")
             : absl::StrCat("none: ", l.placement_error()));
  } else {
    Line(&out, "pages",
         absl::StrCat(l.num_pages(), " of ", l.page_bytes(), " bytes (",
                      l.tiled() ? "tiles" : "rows", ", row-major)",
                      IsDram(l.buffer_type())
                          ? absl::StrCat(", page k in DRAM bank k mod ",
                                         l.device().dram_banks)
                          : ""));
  }
  const TtnnPadding& p = l.padding();
  Line(&out, "padding",
       absl::StrCat(p.tile_padding, " tile padding + ", p.shard_padding,
                    " shard padding = ", p.total, " of ", p.allocated,
                    " allocated positions"));
  if (l.sharded()) {
    out += "elements per shard:\n";
    const int64_t shown = std::min(l.num_shards(), max_shard_lines);
    const int64_t cap =
        l.physical_shard_shape()[0] * l.physical_shard_shape()[1];
    for (int64_t k = 0; k < shown; ++k) {
      const int64_t y = k / l.grid()[1], x = k % l.grid()[1];
      const int64_t n = *l.ShardElements(y, x);
      absl::optional<tenstorrent::CoreCoord> c =
          CoreOfRanges(l.core_ranges(), k);
      std::string on;
      if (c) {
        on = IsDram(l.buffer_type())
                 ? absl::StrCat(" (bank ", c->x + c->y * l.device().dram_banks,
                                ")")
                 : absl::StrCat(" (core ", CoreText(*c), ")");
      }
      absl::StrAppend(&out, "  shard ", y, ",", x, on, ": ", n, " elements, ",
                      cap - n, " padding\n");
    }
    if (shown < l.num_shards()) {
      absl::StrAppend(&out, "  ... (", l.num_shards() - shown, " more)\n");
    }
  }
  Line(&out, "builder writes", l.LayoutText());
  Lists(&out, a);
  return out;
}

std::string FormatMetalExplanation(const GridAnalysis& a,
                                   int64_t max_shard_lines) {
  const TtcoreMetalLayout& l = *a.metal;
  std::string out;
  Line(&out, "tensor", a.text.text);
  Line(&out, "layout",
       absl::StrCat("#ttcore.metal_layout, ",
                    MemorySpaceName(l.text().memory_space), ", ",
                    MetalMemoryLayoutName(l.text().memory_layout)));
  Line(&out, "logical shape",
       absl::StrCat(Dims(l.logical_shape()), " (", l.padding().logical,
                    " elements)"));
  Line(&out, "alignments",
       absl::StrCat(Dims(l.dim_alignments()),
                    l.default_tile_alignments()
                        ? absl::StrCat(" (tile default ",
                                       Dims(*l.default_tile_alignments()), ")")
                        : ""));
  std::vector<std::string> iv;
  for (const auto& i : l.normalized_intervals()) {
    iv.push_back(absl::StrCat("[", i[0], ",", i[1], ")"));
  }
  Line(&out, "intervals", absl::StrJoin(iv, " "));
  Line(&out, "physical shape",
       absl::StrCat(
           Dims(l.physical_shape()),
           l.tiled()
               ? absl::StrCat(" = ", Dims(l.physical_shape_units()), " tiles")
               : ""));
  Line(&out, "map", l.LogicalToPhysicalText());
  Line(&out, "inverse", l.PhysicalToLogicalText());
  Line(&out, "element",
       absl::StrCat(MlirElementToString(l.element()), ", ",
                    MlirElementBytes(l.element()), " bytes"));
  Line(&out, "grid",
       absl::StrCat(Dims(l.grid()), " (", Product(l.grid()), " shards)"));
  Line(&out, "shard",
       absl::StrCat(Dims(l.shard_shape()), " scalars",
                    l.tiled() ? absl::StrCat(" = ", Dims(l.shard_shape_units()),
                                             " tiles")
                              : ""));
  Line(&out, "device shape", Dims(l.device_shape()));
  Line(&out, "memref", l.MemrefText());
  Line(&out, "host strides",
       absl::StrCat(Commas(l.host_strides()), " (volume ", l.host_volume(),
                    ")"));
  const MetalPadding& p = l.padding();
  Line(&out, "padding",
       absl::StrCat(p.total, " of ", p.physical,
                    " physical positions (alignment padding)"));
  const std::vector<int64_t>& g = l.grid();
  const int64_t shards = Product(g);
  out += "elements per shard:\n";
  std::vector<int64_t> shard(g.size(), 0);
  int64_t cap = Product(l.shard_shape());
  for (int64_t k = 0; k < shards; ++k) {
    if (k == max_shard_lines) {
      absl::StrAppend(&out, "  ... (", shards - max_shard_lines, " more)\n");
      break;
    }
    int64_t rest = k;
    for (size_t i = g.size(); i-- > 0;) {
      shard[i] = rest % g[i];
      rest /= g[i];
    }
    const int64_t n = l.ShardElements(shard);
    absl::StrAppend(&out, "  shard ", absl::StrJoin(shard, ","), ": ", n,
                    " elements, ", cap - n, " padding\n");
  }
  Line(&out, "builder writes", l.TensorText());
  Lists(&out, a);
  return out;
}

std::string FormatTtnnLocation(const TtnnLayoutAttr& l,
                               absl::Span<const int64_t> index,
                               const TtnnAttrLocation& loc) {
  std::string out;
  Line(&out, "index", Commas(index));
  Line(&out, "collapsed", Commas(loc.physical));
  if (l.tiled()) {
    Line(&out, "tile",
         absl::StrCat(Commas(loc.tile), " (of the collapsed tensor)"));
    Line(&out, "in tile", Commas(loc.in_tile));
  }
  if (l.sharded()) {
    Line(&out, "shard",
         absl::StrCat(Commas(loc.shard), " (number ", loc.shard_index, ")"));
    Line(&out, "offset",
         absl::StrCat(Commas(loc.offset), " (in the ",
                      DimsToString(l.physical_shard_shape()), " shard)"));
    if (l.tiled()) {
      Line(&out, "offset tile", Commas(loc.offset_tile));
      Line(&out, "offset in tile", Commas(loc.offset_in_tile));
    }
    if (loc.core)
      Line(&out, "core", absl::StrCat(loc.core->x, ",", loc.core->y, " (x,y)"));
    if (loc.dram_bank) Line(&out, "dram bank", absl::StrCat(*loc.dram_bank));
    if (!loc.core && !loc.dram_bank)
      Line(&out, "core", "unknown (no placement)");
  } else if (loc.page) {
    Line(&out, "page", absl::StrCat(*loc.page));
    if (loc.dram_bank) {
      Line(&out, "dram bank",
           absl::StrCat(*loc.dram_bank, " (page ", *loc.page_in_bank,
                        " of that bank)"));
    }
  }
  return out;
}

std::string FormatMetalLocation(const TtcoreMetalLayout& l,
                                absl::Span<const int64_t> index,
                                const MetalLocation& loc) {
  std::string out;
  Line(&out, "index", Commas(index));
  Line(&out, "physical", Commas(loc.physical));
  Line(&out, "shard", Commas(loc.shard));
  Line(&out, "offset",
       absl::StrCat(Commas(loc.offset), " (in the ", Dims(l.shard_shape()),
                    " shard)"));
  if (l.tiled()) {
    Line(&out, "offset tile", Commas(loc.offset_tile));
    Line(&out, "offset in tile", Commas(loc.offset_in_tile));
  }
  if (loc.core)
    Line(&out, "core", absl::StrCat(loc.core->x, ",", loc.core->y, " (x,y)"));
  return out;
}

}  // namespace hlolayout::grid

#include "hlolayout/grid/answers.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "hlolayout/grid/metal_layout.h"
#include "hlolayout/grid/print.h"
#include "hlolayout/parser/diagnostic.h"
#include "hlolayout/util/json_writer.h"

namespace hlolayout::grid {
namespace {

void Strings(JsonWriter& json, absl::string_view key,
             const std::vector<std::string>& values) {
  json.Key(key).BeginArray();
  for (const std::string& v : values) json.String(v);
  json.EndArray();
}

void Ranges(JsonWriter& json, absl::Span<const ttnn::CoreRange> ranges) {
  json.BeginArray();
  for (const ttnn::CoreRange& r : ranges) {
    json.BeginArray()
        .IntArray({r.start.x, r.start.y})
        .IntArray({r.end.x, r.end.y})
        .EndArray();
  }
  json.EndArray();
}

void OptionalRanges(JsonWriter& json, absl::string_view key,
                    const absl::optional<std::vector<ttnn::CoreRange>>& r) {
  json.Key(key);
  if (r) {
    Ranges(json, *r);
  } else {
    json.Null();
  }
}

std::string SeedText(const grid::GridAnalysis& a, std::string text) {
  // The seed printer writes `tt`; a `ttcore` text is answered in its names.
  if (a.text.seed_dialect != "ttcore") return text;
  return absl::StrReplaceAll(text,
                             {{"#tt.", "#ttcore."}, {"!tt.", "!ttcore."}});
}

std::string Commas(absl::Span<const int64_t> v) {
  return absl::StrJoin(v, ",");
}

}  // namespace

std::string ExplainText(const GridAnalysis& a) {
  if (a.ttnn) return FormatTtnnExplanation(a);
  if (a.metal) return FormatMetalExplanation(a);
  return FormatGridExplanation(ExplainGridLayout(*a.text.seed));
}

std::string ExplainJson(const GridAnalysis& a) {
  if (a.ttnn) return TtnnExplainJson(a);
  if (a.metal) return MetalExplainJson(a);
  return SeedExplainJson(ExplainGridLayout(*a.text.seed), a);
}

absl::StatusOr<std::string> LocateText(const GridAnalysis& a,
                                       absl::Span<const int64_t> index) {
  if (a.ttnn) {
    absl::StatusOr<TtnnAttrLocation> loc = a.ttnn->Locate(index);
    if (!loc.ok()) return loc.status();
    return FormatTtnnLocation(*a.ttnn, index, *loc);
  }
  if (a.metal) {
    absl::StatusOr<MetalLocation> loc = a.metal->Locate(index);
    if (!loc.ok()) return loc.status();
    return FormatMetalLocation(*a.metal, index, *loc);
  }
  absl::StatusOr<ElementLocation> loc = a.text.seed->TryLocate(index);
  if (!loc.ok()) return loc.status();
  return FormatElementLocation(*a.text.seed, index, *loc);
}

absl::StatusOr<std::string> LocateJson(const GridAnalysis& a,
                                       absl::Span<const int64_t> index) {
  if (a.ttnn) {
    absl::StatusOr<TtnnAttrLocation> loc = a.ttnn->Locate(index);
    if (!loc.ok()) return loc.status();
    return TtnnLocateJson(a, index, *loc);
  }
  if (a.metal) {
    absl::StatusOr<MetalLocation> loc = a.metal->Locate(index);
    if (!loc.ok()) return loc.status();
    return MetalLocateJson(a, index, *loc);
  }
  absl::StatusOr<ElementLocation> loc = a.text.seed->TryLocate(index);
  if (!loc.ok()) return loc.status();
  return SeedLocateJson(a, index, *loc);
}

namespace {

// The padding of a TTNN layout: "padding": {logical_elems, ...}.
void TtnnPaddingJson(JsonWriter& json, const grid::TtnnPadding& p) {
  json.Key("padding").BeginObject();
  json.Key("logical_elems").Int(p.logical);
  json.Key("physical_elems").Int(p.physical);
  json.Key("tile_padding").Int(p.tile_padding);
  json.Key("allocated_elems").Int(p.allocated);
  json.Key("shard_padding").Int(p.shard_padding);
  json.Key("total").Int(p.total);
  json.EndObject();
}

// Each shard's core (or DRAM bank), elements and padding: "per_shard",
// null for an interleaved layout or more than 4,096 shards.
void TtnnPerShardJson(JsonWriter& json, const grid::TtnnLayoutAttr& l) {
  json.Key("per_shard");
  if (l.sharded() && l.num_shards() <= 4096) {
    json.BeginArray();
    const int64_t cap =
        l.physical_shard_shape()[0] * l.physical_shard_shape()[1];
    for (int64_t y = 0; y < l.grid()[0]; ++y) {
      for (int64_t x = 0; x < l.grid()[1]; ++x) {
        const int64_t n = *l.ShardElements(y, x);
        json.BeginObject();
        json.Key("shard").IntArray({y, x});
        absl::optional<ttnn::CoreCoord> c =
            grid::CoreOfRanges(l.core_ranges(), y * l.grid()[1] + x);
        if (grid::IsDram(l.buffer_type())) {
          json.Key("dram_bank");
          c ? json.Int(c->x + c->y * l.device().dram_banks) : json.Null();
        } else {
          json.Key("core");
          c ? json.IntArray({c->x, c->y}) : json.Null();
        }
        json.Key("elements").Int(n);
        json.Key("padding").Int(cap - n);
        json.EndObject();
      }
    }
    json.EndArray();
  } else {
    json.Null();
  }
}

}  // namespace

std::string TtnnExplainJson(const grid::GridAnalysis& a) {
  const grid::TtnnLayoutAttr& l = *a.ttnn;
  JsonWriter json(/*pretty=*/true);
  json.BeginObject();
  json.Key("kind").String("ttnn_layout");
  json.Key("tensor").String(a.text.text);
  json.Key("layout").String(l.LayoutText());
  json.Key("builder_tensor").String(l.TensorText(a.text.element));
  json.Key("logical_shape").IntArray(l.logical_shape());
  json.Key("element_type").String(grid::MlirElementToString(a.text.element));
  json.Key("memref_element").String(grid::MlirElementToString(l.element()));
  json.Key("tiled").Bool(l.tiled());
  json.Key("element_bytes").Int(grid::MlirElementBytes(l.element()));
  json.Key("buffer_type").String(BufferTypeMlirName(l.buffer_type()));
  json.Key("mem_layout");
  l.mem_layout() ? json.String(MemoryLayoutMlirName(*l.mem_layout()))
                 : json.Null();
  json.Key("physical_shape").IntArray(l.physical_shape());
  json.Key("linear").String(l.linear().ToString());
  json.Key("collapsed_shape").IntArray(l.collapsed_shape());
  json.Key("grid").IntArray(l.grid());
  json.Key("shard_shape").IntArray(l.shard_shape());
  json.Key("physical_shard_shape").IntArray(l.physical_shard_shape());
  json.Key("shard_shape_tiles");
  l.tiled() ? json.IntArray(l.memref_shape()) : json.Null();
  json.Key("memref_shape").IntArray(l.memref_shape());
  json.Key("memref").String(l.MemrefText());
  json.Key("shard_bytes").Int(l.shard_bytes());
  json.Key("core_ranges");
  if (l.sharded() && l.canonical_core_ranges()) {
    Ranges(json, *l.canonical_core_ranges());
  } else {
    json.Null();
  }
  OptionalRanges(json, "core_ranges_written", l.written_core_ranges());
  json.Key("placement");
  if (l.sharded()) {
    Ranges(json, l.core_ranges());
  } else {
    json.Null();
  }
  json.Key("placement_error");
  l.placement_error().empty() ? json.Null() : json.String(l.placement_error());
  json.Key("device").BeginObject();
  json.Key("worker_grid")
      .IntArray({l.device().worker_rows, l.device().worker_cols});
  json.Key("dram_banks").Int(l.device().dram_banks);
  json.EndObject();
  json.Key("pages");
  if (l.sharded()) {
    json.Null();
  } else {
    json.BeginObject();
    json.Key("count").Int(l.num_pages());
    json.Key("bytes").Int(l.page_bytes());
    json.Key("unit").String(l.tiled() ? "tile" : "row");
    json.EndObject();
  }
  TtnnPaddingJson(json, l.padding());
  TtnnPerShardJson(json, l);
  Strings(json, "warnings", a.warnings);
  Strings(json, "notes", a.notes);
  json.EndObject();
  return json.str();
}

std::string MetalExplainJson(const grid::GridAnalysis& a) {
  const grid::TtcoreMetalLayout& l = *a.metal;
  JsonWriter json(/*pretty=*/true);
  json.BeginObject();
  json.Key("kind").String("metal_layout");
  json.Key("tensor").String(a.text.text);
  json.Key("builder_tensor").String(l.TensorText());
  json.Key("logical_shape").IntArray(l.logical_shape());
  json.Key("dim_alignments").IntArray(l.dim_alignments());
  json.Key("collapsed_intervals").BeginArray();
  const std::vector<int64_t>& iv = l.text().intervals;
  for (size_t i = 0; i + 1 < iv.size(); i += 2) {
    json.IntArray({iv[i], iv[i + 1]});
  }
  json.EndArray();
  json.Key("normalized_intervals").BeginArray();
  for (const auto& n : l.normalized_intervals()) json.IntArray({n[0], n[1]});
  json.EndArray();
  json.Key("default_tile_alignments");
  l.default_tile_alignments() ? json.IntArray(*l.default_tile_alignments())
                              : json.Null();
  json.Key("memory_space").String(grid::MemorySpaceName(l.text().memory_space));
  json.Key("memory_layout")
      .String(grid::MetalMemoryLayoutName(l.text().memory_layout));
  json.Key("element_type").String(grid::MlirElementToString(l.element()));
  json.Key("tiled").Bool(l.tiled());
  json.Key("element_bytes").Int(grid::MlirElementBytes(l.element()));
  json.Key("physical_shape").IntArray(l.physical_shape());
  json.Key("collapsed_shape").IntArray(l.physical_shape());
  json.Key("physical_shape_tiles");
  l.tiled() ? json.IntArray(l.physical_shape_units()) : json.Null();
  json.Key("grid").IntArray(l.grid());
  json.Key("device_shape").IntArray(l.device_shape());
  json.Key("shard_shape").IntArray(l.shard_shape());
  json.Key("shard_shape_tiles");
  l.tiled() ? json.IntArray(l.shard_shape_units()) : json.Null();
  json.Key("memref_shape").IntArray(l.shard_shape_units());
  json.Key("memref").String(l.MemrefText());
  json.Key("host_strides").IntArray(l.host_strides());
  json.Key("host_volume").Int(l.host_volume());
  json.Key("logical_to_physical").String(l.LogicalToPhysicalText());
  json.Key("physical_to_logical").String(l.PhysicalToLogicalText());
  const grid::MetalPadding& p = l.padding();
  json.Key("padding").BeginObject();
  json.Key("logical_elems").Int(p.logical);
  json.Key("physical_elems").Int(p.physical);
  json.Key("total").Int(p.total);
  json.Key("allocated_elems").Int(p.allocated);
  json.EndObject();
  json.Key("per_shard");
  int64_t shards = 1;
  for (int64_t g : l.grid()) shards *= g;
  if (shards <= 4096) {
    json.BeginArray();
    int64_t cap = 1;
    for (int64_t s : l.shard_shape()) cap *= s;
    std::vector<int64_t> shard(l.grid().size(), 0);
    for (int64_t k = 0; k < shards; ++k) {
      int64_t rest = k;
      for (size_t i = shard.size(); i-- > 0;) {
        shard[i] = rest % l.grid()[i];
        rest /= l.grid()[i];
      }
      const int64_t n = l.ShardElements(shard);
      json.BeginObject();
      json.Key("shard").IntArray(shard);
      json.Key("elements").Int(n);
      json.Key("padding").Int(cap - n);
      json.EndObject();
    }
    json.EndArray();
  } else {
    json.Null();
  }
  Strings(json, "warnings", a.warnings);
  json.EndObject();
  return json.str();
}

std::string SeedExplainJson(const grid::GridExplanation& e,
                            const grid::GridAnalysis& a) {
  JsonWriter json(/*pretty=*/true);
  json.BeginObject();
  json.Key("kind").String("seed_metal_layout");
  json.Key("tensor").String(SeedText(a, e.tensor));
  json.Key("map").String(e.map);
  json.Key("logical_shape").IntArray(e.logical_shape);
  json.Key("element_type").String(e.element_type);
  json.Key("element_bytes").Int(e.element_bytes);
  json.Key("elements").Int(e.logical_elements);
  json.Key("collapsed_shape").IntArray(e.collapsed_extent);
  json.Key("grid").IntArray(e.grid);
  json.Key("cores").Int(e.cores);
  json.Key("device_grid").IntArray(e.device_grid);
  json.Key("core_grid").IntArray(e.core_grid);
  json.Key("shard_shape").IntArray(e.shard_shape);
  json.Key("physical_shard_shape").IntArray(e.physical_shard_shape);
  json.Key("memref_shape").IntArray(e.memref_shape);
  json.Key("memref").String(SeedText(a, e.memref));
  json.Key("tile");
  e.tile ? json.String(SeedText(a, *e.tile)) : json.Null();
  json.Key("tile_bytes").Int(e.tile_bytes);
  json.Key("tiles_per_shard").Int(e.tiles_per_shard);
  json.Key("memory_space").String(e.memory_space);
  json.Key("oob_val").String(e.oob_val);
  json.Key("padding_per_dim");
  if (e.padding_per_dim) {
    json.BeginArray();
    for (const std::vector<int64_t>& dim : *e.padding_per_dim) {
      json.IntArray(dim);
    }
    json.EndArray();
  } else {
    json.Null();
  }
  json.Key("per_core");
  if (e.per_core.empty()) {
    json.Null();
  } else {
    json.BeginArray();
    for (const grid::CorePadding& c : e.per_core) {
      json.BeginObject();
      json.Key("core").IntArray(c.core);
      json.Key("elements").Int(c.elements);
      json.Key("padding").Int(c.padding);
      json.EndObject();
    }
    json.EndArray();
  }
  json.Key("padding_only_cores");
  e.padding_only_cores < 0 ? json.Null() : json.Int(e.padding_only_cores);
  json.Key("storage_positions").Int(e.storage_positions);
  json.Key("total_padding").Int(e.total_padding);
  json.Key("shard_bytes").Int(e.shard_bytes);
  json.Key("total_bytes").Int(e.total_bytes);
  Strings(json, "warnings", a.warnings);
  json.EndObject();
  return json.str();
}

std::string TtnnLocateJson(const grid::GridAnalysis& a,
                           absl::Span<const int64_t> index,
                           const grid::TtnnAttrLocation& loc) {
  JsonWriter json(/*pretty=*/true);
  json.BeginObject();
  json.Key("tensor").String(a.text.text);
  json.Key("index").IntArray(index);
  json.Key("physical").IntArray(loc.physical);
  if (!loc.tile.empty()) {
    json.Key("tile").IntArray(loc.tile);
    json.Key("in_tile").IntArray(loc.in_tile);
  }
  if (!loc.shard.empty()) {
    json.Key("shard").IntArray(loc.shard);
    json.Key("shard_index").Int(loc.shard_index);
    json.Key("offset").IntArray(loc.offset);
    if (!loc.offset_tile.empty()) {
      json.Key("offset_tile").IntArray(loc.offset_tile);
      json.Key("offset_in_tile").IntArray(loc.offset_in_tile);
    }
  }
  if (loc.core) json.Key("core").IntArray({loc.core->x, loc.core->y});
  if (loc.dram_bank) json.Key("dram_bank").Int(*loc.dram_bank);
  if (loc.page) json.Key("page").Int(*loc.page);
  if (loc.page_in_bank) json.Key("page_in_bank").Int(*loc.page_in_bank);
  Strings(json, "warnings", a.warnings);
  json.EndObject();
  return json.str();
}

std::string MetalLocateJson(const grid::GridAnalysis& a,
                            absl::Span<const int64_t> index,
                            const grid::MetalLocation& loc) {
  JsonWriter json(/*pretty=*/true);
  json.BeginObject();
  json.Key("tensor").String(a.text.text);
  json.Key("index").IntArray(index);
  json.Key("physical").IntArray(loc.physical);
  json.Key("shard").IntArray(loc.shard);
  json.Key("offset").IntArray(loc.offset);
  if (!loc.offset_tile.empty()) {
    json.Key("offset_tile").IntArray(loc.offset_tile);
    json.Key("offset_in_tile").IntArray(loc.offset_in_tile);
  }
  if (loc.core) json.Key("core").IntArray({loc.core->x, loc.core->y});
  Strings(json, "warnings", a.warnings);
  json.EndObject();
  return json.str();
}

std::string SeedLocateJson(const grid::GridAnalysis& a,
                           absl::Span<const int64_t> index,
                           const grid::ElementLocation& loc) {
  const grid::MetalLayout& layout = *a.text.seed;
  JsonWriter json(/*pretty=*/true);
  json.BeginObject();
  json.Key("tensor").String(SeedText(a, grid::TensorTypeToString(layout)));
  json.Key("index").IntArray(index);
  json.Key("collapsed").IntArray(loc.collapsed);
  json.Key("core").IntArray(loc.core);
  json.Key("shard").IntArray(loc.core);
  json.Key("offset").IntArray(loc.offset);
  json.Key("tile");
  layout.tile() ? json.IntArray(loc.tile) : json.Null();
  json.Key("in_tile");
  layout.tile() ? json.IntArray(loc.in_tile) : json.Null();
  json.Key("byte_offset").Int(loc.byte_offset);
  Strings(json, "warnings", a.warnings);
  json.EndObject();
  return json.str();
}

absl::StatusOr<std::string> LocateAnswer(const grid::GridAnalysis& a,
                                         absl::Span<const int64_t> index) {
  std::vector<std::string> parts;
  if (a.ttnn) {
    absl::StatusOr<grid::TtnnAttrLocation> loc = a.ttnn->Locate(index);
    if (!loc.ok()) return loc.status();
    if (!loc->shard.empty()) {
      parts.push_back(absl::StrCat("shard=", Commas(loc->shard)));
      parts.push_back(absl::StrCat("offset=", Commas(loc->offset)));
    }
    if (!loc->tile.empty()) {
      parts.push_back(absl::StrCat("tile=", Commas(loc->tile)));
      parts.push_back(absl::StrCat("in_tile=", Commas(loc->in_tile)));
    }
    if (loc->core) {
      parts.push_back(absl::StrCat("core=", loc->core->x, ",", loc->core->y));
    }
    if (loc->page) parts.push_back(absl::StrCat("page=", *loc->page));
    if (loc->dram_bank) {
      parts.push_back(absl::StrCat("dram_bank=", *loc->dram_bank));
    }
  } else {
    absl::StatusOr<grid::MetalLocation> loc = a.metal->Locate(index);
    if (!loc.ok()) return loc.status();
    parts.push_back(absl::StrCat("shard=", Commas(loc->shard)));
    parts.push_back(absl::StrCat("offset=", Commas(loc->offset)));
    if (!loc->offset_tile.empty()) {
      parts.push_back(absl::StrCat("offset_tile=", Commas(loc->offset_tile)));
    }
    if (loc->core) {
      parts.push_back(absl::StrCat("core=", loc->core->x, ",", loc->core->y));
    }
  }
  return absl::StrJoin(parts, " ");
}

GridReport BuildGridReport(const grid::MlirFileScan& scan,
                           absl::string_view text, absl::string_view file,
                           const grid::TtnnDevice& device) {
  GridReport r;
  r.file = std::string(file);
  r.sections = scan.sections;
  r.aliases = scan.aliases;
  OffsetLocator locator(text);  // the types come in text order
  for (size_t i = 0; i < scan.types.size(); ++i) {
    const grid::MlirFileType& t = scan.types[i];
    GridReportType out;
    out.number = static_cast<int64_t>(i) + 1;
    out.line = t.line;
    out.column = t.column;
    out.uses = t.uses;
    out.written = t.written;
    out.tensor = t.text;
    // A message's first line, without the source echo.
    auto first_line = [](absl::string_view m) {
      return std::string(m.substr(0, m.find('\n')));
    };
    if (!t.parsed.ok()) {
      out.status = "unread";
      out.error = first_line(t.parsed.status().message());
      ++r.unread;
      r.types.push_back(std::move(out));
      continue;
    }
    switch (t.parsed->kind) {
      case grid::GridEncodingKind::kTtnnLayout:
        out.kind = "ttnn_layout";
        break;
      case grid::GridEncodingKind::kMetalLayout:
        out.kind = "metal_layout";
        break;
      case grid::GridEncodingKind::kSeedMetalLayout:
        out.kind = "seed_metal_layout";
        break;
    }
    absl::StatusOr<grid::GridAnalysis> a =
        grid::AnalyzeGridTensor(*t.parsed, device);
    if (!a.ok()) {
      out.status = "refused";
      const SourceLocation loc = locator.Locate(t.parsed->encoding_offset);
      out.error =
          absl::StrCat(loc.line, ":", loc.column, ": ", a.status().message());
      ++r.refused;
      r.types.push_back(std::move(out));
      continue;
    }
    out.warnings = a->warnings;
    out.status = a->warnings.empty() ? "ok" : "warnings";
    ++(a->warnings.empty() ? r.ok : r.warned);
    if (a->ttnn) {
      const grid::TtnnLayoutAttr& l = *a->ttnn;
      out.grid = l.grid();
      out.memref_shape = l.memref_shape();
      out.memref = l.MemrefText();
      out.summary = absl::StrCat(
          BufferTypeMlirName(l.buffer_type()),
          l.mem_layout()
              ? absl::StrCat(" ", MemoryLayoutMlirName(*l.mem_layout()))
              : "",
          l.tiled() ? ", tiled" : ", row-major");
    } else if (a->metal) {
      const grid::TtcoreMetalLayout& l = *a->metal;
      out.grid = l.grid();
      out.memref_shape = l.shard_shape_units();
      out.memref = l.MemrefText();
      out.summary =
          absl::StrCat(grid::MemorySpaceName(l.text().memory_space), " ",
                       grid::MetalMemoryLayoutName(l.text().memory_layout),
                       l.tiled() ? ", tiled" : ", row-major");
    } else {
      const grid::MetalLayout& l = *a->text.seed;
      out.grid = l.grid();
      out.memref_shape = l.memref_shape();
      out.memref = SeedText(*a, grid::MemrefToString(l));
      out.summary =
          absl::StrCat("2024 form, ", grid::MemorySpaceName(l.memory_space()));
    }
    r.types.push_back(std::move(out));
  }
  return r;
}

absl::StatusOr<GridReport> ReadGridReport(absl::string_view text,
                                          absl::string_view file,
                                          const TtnnDevice& device) {
  absl::StatusOr<MlirFileScan> scan = ScanMlirFile(text);
  if (!scan.ok()) {
    return absl::Status(scan.status().code(),
                        absl::StrCat(file, ": ", scan.status().message()));
  }
  return BuildGridReport(*scan, text, file, device);
}

std::string GridReportJson(const GridReport& r) {
  JsonWriter json(/*pretty=*/true);
  json.BeginObject();
  json.Key("file").String(r.file);
  json.Key("sections").Int(r.sections);
  json.Key("aliases").Int(r.aliases);
  json.Key("counts").BeginObject();
  json.Key("types").Int(static_cast<int64_t>(r.types.size()));
  json.Key("ok").Int(r.ok);
  json.Key("warnings").Int(r.warned);
  json.Key("refused").Int(r.refused);
  json.Key("unread").Int(r.unread);
  json.EndObject();
  json.Key("types").BeginArray();
  for (const GridReportType& t : r.types) {
    json.BeginObject();
    json.Key("number").Int(t.number);
    json.Key("line").Int(t.line);
    json.Key("column").Int(t.column);
    json.Key("uses").Int(t.uses);
    json.Key("written").String(t.written);
    json.Key("tensor").String(t.tensor);
    json.Key("kind");
    t.kind.empty() ? json.Null() : json.String(t.kind);
    json.Key("status").String(t.status);
    const bool built = t.status == "ok" || t.status == "warnings";
    json.Key("grid");
    built ? json.IntArray(t.grid) : json.Null();
    json.Key("memref_shape");
    built ? json.IntArray(t.memref_shape) : json.Null();
    json.Key("memref");
    built ? json.String(t.memref) : json.Null();
    Strings(json, "warnings", t.warnings);
    json.Key("error");
    t.error.empty() ? json.Null() : json.String(t.error);
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
  return json.str();
}

std::string FormatGridReport(const GridReport& r) {
  std::string out = absl::StrCat(
      "file: ", r.file, "\n", r.types.size(), " tensor types with a layout (",
      r.sections, r.sections == 1 ? " section, " : " sections, ", r.aliases,
      " alias definitions): ", r.ok, " as written, ", r.warned,
      " with warnings, ", r.refused, " refused, ", r.unread, " unread\n");
  for (const GridReportType& t : r.types) {
    absl::StrAppend(&out, "\n", t.number, ". line ", t.line, ": ", t.written,
                    t.uses > 1 ? absl::StrCat(" (", t.uses, " uses)") : "",
                    "\n");
    if (t.status == "unread") {
      absl::StrAppend(&out, "   not read: ", t.error, "\n");
      continue;
    }
    if (t.status == "refused") {
      absl::StrAppend(&out, "   refused: ", t.error, "\n");
      continue;
    }
    absl::StrAppend(&out, "   ", t.kind, ", ", t.summary, ", grid ",
                    grid::DimsToString(t.grid), ": ", t.memref,
                    t.status == "ok" ? " (as written)" : "", "\n");
    for (const std::string& w : t.warnings) {
      absl::StrAppend(&out, "   warning: ", w, "\n");
    }
  }
  return out;
}

}  // namespace hlolayout::grid

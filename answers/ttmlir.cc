#include "hlolayout/answers/ttmlir.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "hlolayout/parser/diagnostic.h"
#include "hlolayout/tenstorrent/core.h"
#include "hlolayout/ttmlir/explain.h"
#include "hlolayout/ttmlir/metal_layout.h"
#include "hlolayout/ttmlir/print.h"

namespace hlolayout::grid {
namespace {

std::vector<CoreRangeCorners> Corners(
    absl::Span<const tenstorrent::CoreRange> ranges) {
  std::vector<CoreRangeCorners> out;
  out.reserve(ranges.size());
  for (const tenstorrent::CoreRange& r : ranges) {
    out.push_back({Pair{r.start.x, r.start.y}, Pair{r.end.x, r.end.y}});
  }
  return out;
}

template <typename T>
std::optional<T> Optional(const absl::optional<T>& v) {
  return v ? std::optional<T>(*v) : std::nullopt;
}

std::string SeedText(const grid::GridAnalysis& a, std::string text) {
  // The seed printer writes `tt`; a `ttcore` text is answered in its names.
  if (a.text.seed_dialect != "ttcore") return text;
  return absl::StrReplaceAll(text,
                             {{"#tt.", "#ttcore."}, {"!tt.", "!ttcore."}});
}

// Each shard's core (or DRAM bank), elements and padding: null for an
// interleaved layout or more than 4,096 shards.
std::optional<std::vector<TtnnLayoutShard>> TtnnShards(
    const TtnnLayoutAttr& l) {
  if (!l.sharded() || l.num_shards() > 4096) return std::nullopt;
  std::vector<TtnnLayoutShard> out;
  const int64_t cap = l.physical_shard_shape()[0] * l.physical_shard_shape()[1];
  for (int64_t y = 0; y < l.grid()[0]; ++y) {
    for (int64_t x = 0; x < l.grid()[1]; ++x) {
      TtnnLayoutShard s;
      s.shard = {y, x};
      const int64_t n = *l.ShardElements(y, x);
      absl::optional<tenstorrent::CoreCoord> c =
          CoreOfRanges(l.core_ranges(), y * l.grid()[1] + x);
      if (IsDram(l.buffer_type())) {
        s.dram_bank =
            c ? std::optional<int64_t>(c->x + c->y * l.device().dram_banks)
              : std::nullopt;
      } else {
        s.core = c ? std::optional<Pair>(Pair{c->x, c->y}) : std::nullopt;
      }
      s.elements = n;
      s.padding = cap - n;
      out.push_back(std::move(s));
    }
  }
  return out;
}

TtnnLayoutExplain ExplainTtnn(const GridAnalysis& a) {
  const TtnnLayoutAttr& l = *a.ttnn;
  TtnnLayoutExplain e;
  e.tensor = a.text.text;
  e.layout = l.LayoutText();
  e.builder_tensor = l.TensorText(a.text.element);
  e.logical_shape = l.logical_shape();
  e.element_type = std::string(MlirElementToString(a.text.element));
  e.memref_element = std::string(MlirElementToString(l.element()));
  e.tiled = l.tiled();
  e.element_bytes = MlirElementBytes(l.element());
  e.buffer_type = std::string(BufferTypeMlirName(l.buffer_type()));
  if (l.mem_layout())
    e.mem_layout = std::string(MemoryLayoutMlirName(*l.mem_layout()));
  e.physical_shape = l.physical_shape();
  e.linear = l.linear().ToString();
  e.collapsed_shape = l.collapsed_shape();
  e.grid = l.grid();
  e.shard_shape = l.shard_shape();
  e.physical_shard_shape = l.physical_shard_shape();
  if (l.tiled()) e.shard_shape_tiles = l.memref_shape();
  e.memref_shape = l.memref_shape();
  e.memref = l.MemrefText();
  e.shard_bytes = l.shard_bytes();
  if (l.sharded() && l.canonical_core_ranges()) {
    e.core_ranges = Corners(*l.canonical_core_ranges());
  }
  if (l.written_core_ranges()) {
    e.core_ranges_written = Corners(*l.written_core_ranges());
  }
  if (l.sharded()) e.placement = Corners(l.core_ranges());
  if (!l.placement_error().empty()) e.placement_error = l.placement_error();
  e.device.worker_grid = {l.device().worker_rows, l.device().worker_cols};
  e.device.dram_banks = l.device().dram_banks;
  if (!l.sharded()) {
    e.pages = TtnnLayoutPages{l.num_pages(), l.page_bytes(),
                              l.tiled() ? "tile" : "row"};
  }
  const TtnnPadding& p = l.padding();
  e.padding = {p.logical,   p.physical,      p.tile_padding,
               p.allocated, p.shard_padding, p.total};
  e.per_shard = TtnnShards(l);
  e.warnings = a.warnings;
  e.notes = a.notes;
  return e;
}

// Each shard's elements and padding: null above 4,096 shards.
std::optional<std::vector<MetalLayoutShard>> MetalShards(
    const TtcoreMetalLayout& l) {
  int64_t shards = 1;
  for (int64_t g : l.grid()) shards *= g;
  if (shards > 4096) return std::nullopt;
  int64_t cap = 1;
  for (int64_t s : l.shard_shape()) cap *= s;
  std::vector<MetalLayoutShard> out;
  std::vector<int64_t> shard(l.grid().size(), 0);
  for (int64_t k = 0; k < shards; ++k) {
    int64_t rest = k;
    for (size_t i = shard.size(); i-- > 0;) {
      shard[i] = rest % l.grid()[i];
      rest /= l.grid()[i];
    }
    const int64_t n = l.ShardElements(shard);
    out.push_back(MetalLayoutShard{shard, n, cap - n});
  }
  return out;
}

MetalLayoutExplain ExplainMetal(const GridAnalysis& a) {
  const TtcoreMetalLayout& l = *a.metal;
  MetalLayoutExplain e;
  e.tensor = a.text.text;
  e.builder_tensor = l.TensorText();
  e.logical_shape = l.logical_shape();
  e.dim_alignments = l.dim_alignments();
  const std::vector<int64_t>& iv = l.text().intervals;
  for (size_t i = 0; i + 1 < iv.size(); i += 2) {
    e.collapsed_intervals.push_back({iv[i], iv[i + 1]});
  }
  for (const auto& n : l.normalized_intervals()) {
    e.normalized_intervals.push_back({n[0], n[1]});
  }
  e.default_tile_alignments = Optional(l.default_tile_alignments());
  e.memory_space = std::string(MemorySpaceName(l.text().memory_space));
  e.memory_layout = std::string(MetalMemoryLayoutName(l.text().memory_layout));
  e.element_type = std::string(MlirElementToString(l.element()));
  e.tiled = l.tiled();
  e.element_bytes = MlirElementBytes(l.element());
  e.physical_shape = l.physical_shape();
  if (l.tiled()) e.physical_shape_tiles = l.physical_shape_units();
  e.grid = l.grid();
  e.device_shape = l.device_shape();
  e.shard_shape = l.shard_shape();
  if (l.tiled()) e.shard_shape_tiles = l.shard_shape_units();
  e.memref_shape = l.shard_shape_units();
  e.memref = l.MemrefText();
  e.host_strides = l.host_strides();
  e.host_volume = l.host_volume();
  e.logical_to_physical = l.LogicalToPhysicalText();
  e.physical_to_logical = l.PhysicalToLogicalText();
  const MetalPadding& p = l.padding();
  e.padding = {p.logical, p.physical, p.total, p.allocated};
  e.per_shard = MetalShards(l);
  e.warnings = a.warnings;
  return e;
}

SeedLayoutExplain ExplainSeed(const GridExplanation& x, const GridAnalysis& a) {
  SeedLayoutExplain e;
  e.tensor = SeedText(a, x.tensor);
  e.map = x.map;
  e.logical_shape = x.logical_shape;
  e.element_type = x.element_type;
  e.element_bytes = x.element_bytes;
  e.elements = x.logical_elements;
  e.collapsed_shape = x.collapsed_extent;
  e.grid = x.grid;
  e.cores = x.cores;
  e.device_grid = x.device_grid;
  e.core_grid = x.core_grid;
  e.shard_shape = x.shard_shape;
  e.physical_shard_shape = x.physical_shard_shape;
  e.memref_shape = x.memref_shape;
  e.memref = SeedText(a, x.memref);
  if (x.tile) e.tile = SeedText(a, *x.tile);
  e.tile_bytes = x.tile_bytes;
  e.tiles_per_shard = x.tiles_per_shard;
  e.memory_space = x.memory_space;
  e.oob_val = x.oob_val;
  e.padding_per_dim = Optional(x.padding_per_dim);
  if (!x.per_core.empty()) {
    e.per_core.emplace();
    for (const CorePadding& c : x.per_core) {
      e.per_core->push_back(SeedLayoutCore{c.core, c.elements, c.padding});
    }
  }
  if (x.padding_only_cores >= 0) e.padding_only_cores = x.padding_only_cores;
  e.storage_positions = x.storage_positions;
  e.total_padding = x.total_padding;
  e.shard_bytes = x.shard_bytes;
  e.total_bytes = x.total_bytes;
  e.warnings = a.warnings;
  return e;
}

TtnnLayoutLocation LocateTtnn(const GridAnalysis& a,
                              absl::Span<const int64_t> index,
                              const TtnnAttrLocation& loc) {
  TtnnLayoutLocation l;
  l.tensor = a.text.text;
  l.index.assign(index.begin(), index.end());
  l.physical = loc.physical;
  if (!loc.tile.empty()) {
    l.tile = loc.tile;
    l.in_tile = loc.in_tile;
  }
  if (!loc.shard.empty()) {
    l.shard = loc.shard;
    l.shard_index = loc.shard_index;
    l.offset = loc.offset;
    if (!loc.offset_tile.empty()) {
      l.offset_tile = loc.offset_tile;
      l.offset_in_tile = loc.offset_in_tile;
    }
  }
  if (loc.core) l.core = Pair{loc.core->x, loc.core->y};
  if (loc.dram_bank) l.dram_bank = *loc.dram_bank;
  if (loc.page) l.page = *loc.page;
  if (loc.page_in_bank) l.page_in_bank = *loc.page_in_bank;
  l.warnings = a.warnings;
  return l;
}

MetalLayoutLocation LocateMetal(const GridAnalysis& a,
                                absl::Span<const int64_t> index,
                                const MetalLocation& loc) {
  MetalLayoutLocation l;
  l.tensor = a.text.text;
  l.index.assign(index.begin(), index.end());
  l.physical = loc.physical;
  l.shard = loc.shard;
  l.offset = loc.offset;
  if (!loc.offset_tile.empty()) {
    l.offset_tile = loc.offset_tile;
    l.offset_in_tile = loc.offset_in_tile;
  }
  if (loc.core) l.core = Pair{loc.core->x, loc.core->y};
  l.warnings = a.warnings;
  return l;
}

SeedLayoutLocation LocateSeed(const GridAnalysis& a,
                              absl::Span<const int64_t> index,
                              const ElementLocation& loc) {
  const MetalLayout& layout = *a.text.seed;
  SeedLayoutLocation l;
  l.tensor = SeedText(a, TensorTypeToString(layout));
  l.index.assign(index.begin(), index.end());
  l.collapsed = loc.collapsed;
  l.core = loc.core;
  l.shard = loc.core;
  l.offset = loc.offset;
  if (layout.tile()) {
    l.tile = loc.tile;
    l.in_tile = loc.in_tile;
  }
  l.byte_offset = loc.byte_offset;
  l.warnings = a.warnings;
  return l;
}

}  // namespace

ExplainAnswer AnswerExplain(const GridAnalysis& a) {
  if (a.ttnn) return ExplainTtnn(a);
  if (a.metal) return ExplainMetal(a);
  return ExplainSeed(ExplainGridLayout(*a.text.seed), a);
}

absl::StatusOr<LocationAnswer> AnswerLocate(const GridAnalysis& a,
                                            absl::Span<const int64_t> index) {
  if (a.ttnn) {
    absl::StatusOr<TtnnAttrLocation> loc = a.ttnn->Locate(index);
    if (!loc.ok()) return loc.status();
    return LocateTtnn(a, index, *loc);
  }
  if (a.metal) {
    absl::StatusOr<MetalLocation> loc = a.metal->Locate(index);
    if (!loc.ok()) return loc.status();
    return LocateMetal(a, index, *loc);
  }
  absl::StatusOr<ElementLocation> loc = a.text.seed->TryLocate(index);
  if (!loc.ok()) return loc.status();
  return LocateSeed(a, index, *loc);
}

GridReport BuildGridReport(const grid::MlirFileScan& scan,
                           absl::string_view text, absl::string_view file,
                           const grid::TtnnDevice& device) {
  GridReport r;
  GridReportCounts& counts = r.counts;
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
      std::string error = first_line(t.parsed.status().message());
      if (!error.empty()) out.error = std::move(error);
      ++counts.unread;
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
      ++counts.refused;
      r.types.push_back(std::move(out));
      continue;
    }
    out.warnings = a->warnings;
    out.status = a->warnings.empty() ? "ok" : "warnings";
    ++(a->warnings.empty() ? counts.ok : counts.warned);
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
  counts.types = static_cast<int64_t>(r.types.size());
  return r;
}

absl::StatusOr<GridAnalysis> AnalyzeGridRequest(absl::string_view text,
                                                const GridRequest& request) {
  if (IsSingleTensorText(text)) {
    if (request.type.has_value()) {
      return absl::InvalidArgumentError(
          "--type picks one of a file's tensor types; this is a single type");
    }
    return AnalyzeGridText(text, request.device);
  }
  absl::StatusOr<MlirFileScan> scan = ScanMlirFile(text);
  if (!scan.ok()) return scan.status();
  const int64_t n = static_cast<int64_t>(scan->types.size());
  const std::string& file = request.file;
  const std::string name = file.empty() ? "the input" : file;
  if (n == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, " holds no tensor type with a tt-mlir layout"));
  }
  int64_t k = 1;
  if (request.type.has_value()) {
    if (!absl::SimpleAtoi(*request.type, &k) || k < 1 || k > n) {
      return absl::InvalidArgumentError(
          absl::StrCat("bad --type '", *request.type, "': ", name, " has ", n,
                       " tensor types with a layout"));
    }
  } else if (n > 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        name, " holds ", n,
        " tensor types with a layout; pick one with --type=K ('hlolayout "
        "grid report ",
        file.empty() ? "-" : file, "' numbers them)"));
  }
  const MlirFileType& t = scan->types[k - 1];
  if (!t.parsed.ok()) return t.parsed.status();
  absl::StatusOr<GridAnalysis> a = AnalyzeGridTensor(*t.parsed, request.device);
  if (!a.ok()) {
    return ParseError(text, t.parsed->encoding_offset, a.status().message());
  }
  return a;
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

}  // namespace hlolayout::grid

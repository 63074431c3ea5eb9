// answers/ttmlir.h: the answers of `hlolayout grid explain/locate/report`
// for tt-mlir's three layout forms (#ttnn.ttnn_layout, the reworked
// #ttcore.metal_layout and the 2024 #tt.metal_layout), as values with one
// field list each (util/fields.h). The CLI's --json is AnswerJson(answer,
// kIndented); Python's hlolayout.grid returns to_dict() of the same value.
//
//   absl::StatusOr<GridAnalysis> a = AnalyzeGridText(text, device);
//   ExplainAnswer e = AnswerExplain(*a);   // a TtnnLayoutExplain, ...
//   AnswerJson(e, RecordJsonWriter::Style::kIndented)
//   // {"kind": "ttnn_layout", "tensor": "...", "grid": [1, 8], ...}
//   AnswerLocate(*a, {2, 1541})  // TtnnLayoutLocation: core (3, 0), ...
//   ReadGridReport(file_text, "model.mlir", device)->types.size()
//
// The keys are listed in the subcommands' --help and in docs/tt-mlir.md.
// The texts (ExplainText, LocateText, FormatGridReport, the batch
// LocateAnswer) are views of these answers: views/ttmlir_text.h.
#ifndef HLOLAYOUT_ANSWERS_TTMLIR_H_
#define HLOLAYOUT_ANSWERS_TTMLIR_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "hlolayout/ttmlir/ttmlir_explain.h"
#include "hlolayout/ttmlir/ttmlir_parse.h"
#include "hlolayout/util/fields.h"

namespace hlolayout::grid {

using Pair = std::array<int64_t, 2>;
// A core range as [[x0, y0], [x1, y1]].
using CoreRangeCorners = std::array<Pair, 2>;

struct TtnnLayoutDevice {
  Pair worker_grid{};  // rows, columns
  int64_t dram_banks = 0;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const TtnnLayoutDevice& d) {
    f.Type("TtnnLayoutDevice", "The device cores are placed on.");
    f("worker_grid", d.worker_grid, "Worker cores (rows, columns).");
    f("dram_banks", d.dram_banks, "DRAM banks.");
  }
};

struct TtnnLayoutPages {
  int64_t count = 0;
  int64_t bytes = 0;
  std::string unit;  // "tile" or "row"

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const TtnnLayoutPages& p) {
    f.Type("TtnnLayoutPages", "The pages of an interleaved layout.");
    f("count", p.count, "The pages.");
    f("bytes", p.bytes, "A page's bytes.");
    f("unit", p.unit, "'tile' or 'row'.");
  }
};

struct TtnnLayoutPadding {
  int64_t logical = 0;
  int64_t physical = 0;
  int64_t tile_padding = 0;
  int64_t allocated = 0;
  int64_t shard_padding = 0;
  int64_t total = 0;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const TtnnLayoutPadding& p) {
    f.Type("TtnnLayoutPadding", "A TTNN layout's padding, in elements.");
    f("logical_elems", p.logical, "The tensor's elements.");
    f("physical_elems", p.physical, "Positions of the tile-padded shape.");
    f("tile_padding", p.tile_padding, "physical - logical.");
    f("allocated_elems", p.allocated, "What the shards (or buffer) hold.");
    f("shard_padding", p.shard_padding, "allocated - physical.");
    f("total", p.total, "allocated - logical.");
  }
};

// One shard of a sharded TTNN layout: its core (L1) or DRAM bank.
struct TtnnLayoutShard {
  Pair shard{};
  Omit<std::optional<int64_t>> dram_bank;  // DRAM only; null: not placed
  Omit<std::optional<Pair>> core;          // L1 only; null: not placed
  int64_t elements = 0;
  int64_t padding = 0;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const TtnnLayoutShard& s) {
    f.Type("TtnnLayoutShard", "One shard and where it is placed.");
    f("shard", s.shard, "The shard (grid coordinate).");
    f("dram_bank", s.dram_bank, "Its DRAM bank (DRAM layouts).");
    f("core", s.core, "Its core (x, y) (L1 layouts).");
    f("elements", s.elements, "Logical elements it holds.");
    f("padding", s.padding, "Positions holding padding.");
  }
};

// `grid explain` of a #ttnn.ttnn_layout.
struct TtnnLayoutExplain {
  std::string tensor;
  std::string layout;
  std::string builder_tensor;
  std::vector<int64_t> logical_shape;
  std::string element_type;
  std::string memref_element;
  bool tiled = false;
  int64_t element_bytes = 0;
  std::string buffer_type;
  std::optional<std::string> mem_layout;
  std::vector<int64_t> physical_shape;
  std::string linear;
  std::vector<int64_t> collapsed_shape;
  std::vector<int64_t> grid;
  std::vector<int64_t> shard_shape;
  std::vector<int64_t> physical_shard_shape;
  std::optional<std::vector<int64_t>> shard_shape_tiles;
  std::vector<int64_t> memref_shape;
  std::string memref;
  int64_t shard_bytes = 0;
  std::optional<std::vector<CoreRangeCorners>> core_ranges;
  std::optional<std::vector<CoreRangeCorners>> core_ranges_written;
  std::optional<std::vector<CoreRangeCorners>> placement;
  std::optional<std::string> placement_error;
  TtnnLayoutDevice device;
  std::optional<TtnnLayoutPages> pages;
  TtnnLayoutPadding padding;
  std::optional<std::vector<TtnnLayoutShard>> per_shard;
  std::vector<std::string> warnings;
  std::vector<std::string> notes;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const TtnnLayoutExplain& e);
};

struct MetalLayoutPadding {
  int64_t logical = 0;
  int64_t physical = 0;
  int64_t total = 0;
  int64_t allocated = 0;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const MetalLayoutPadding& p) {
    f.Type("MetalLayoutPadding", "A metal layout's padding, in elements.");
    f("logical_elems", p.logical, "The logical shape's elements.");
    f("physical_elems", p.physical, "Positions of the physical shape.");
    f("total", p.total, "physical - logical.");
    f("allocated_elems", p.allocated, "What the tensor type holds.");
  }
};

struct MetalLayoutShard {
  std::vector<int64_t> shard;
  int64_t elements = 0;
  int64_t padding = 0;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const MetalLayoutShard& s) {
    f.Type("MetalLayoutShard", "One shard of a metal layout.");
    f("shard", s.shard, "The shard (grid coordinate).");
    f("elements", s.elements, "Logical elements it holds.");
    f("padding", s.padding, "Positions holding padding.");
  }
};

// `grid explain` of a reworked #ttcore.metal_layout.
struct MetalLayoutExplain {
  std::string tensor;
  std::string builder_tensor;
  std::vector<int64_t> logical_shape;
  std::vector<int64_t> dim_alignments;
  std::vector<Pair> collapsed_intervals;
  std::vector<Pair> normalized_intervals;
  std::optional<std::vector<int64_t>> default_tile_alignments;
  std::string memory_space;
  std::string memory_layout;
  std::string element_type;
  bool tiled = false;
  int64_t element_bytes = 0;
  std::vector<int64_t> physical_shape;
  std::optional<std::vector<int64_t>> physical_shape_tiles;
  std::vector<int64_t> grid;
  std::vector<int64_t> device_shape;
  std::vector<int64_t> shard_shape;
  std::optional<std::vector<int64_t>> shard_shape_tiles;
  std::vector<int64_t> memref_shape;
  std::string memref;
  std::vector<int64_t> host_strides;
  int64_t host_volume = 0;
  std::string logical_to_physical;
  std::string physical_to_logical;
  MetalLayoutPadding padding;
  std::optional<std::vector<MetalLayoutShard>> per_shard;
  std::vector<std::string> warnings;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const MetalLayoutExplain& e);
};

struct SeedLayoutCore {
  std::vector<int64_t> core;
  int64_t elements = 0;
  int64_t padding = 0;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const SeedLayoutCore& c) {
    f.Type("SeedLayoutCore", "One core of a 2024 metal layout.");
    f("core", c.core, "The core (grid coordinate).");
    f("elements", c.elements, "Logical elements it holds.");
    f("padding", c.padding, "Positions holding oob_val.");
  }
};

// `grid explain` of a 2024 #tt.metal_layout (or #ttcore. of that form).
struct SeedLayoutExplain {
  std::string tensor;
  std::string map;
  std::vector<int64_t> logical_shape;
  std::string element_type;
  int64_t element_bytes = 0;
  int64_t elements = 0;
  std::vector<int64_t> collapsed_shape;
  std::vector<int64_t> grid;
  int64_t cores = 0;
  std::vector<int64_t> device_grid;
  std::vector<int64_t> core_grid;
  std::vector<int64_t> shard_shape;
  std::vector<int64_t> physical_shard_shape;
  std::vector<int64_t> memref_shape;
  std::string memref;
  std::optional<std::string> tile;
  int64_t tile_bytes = 0;
  int64_t tiles_per_shard = 0;
  std::string memory_space;
  std::string oob_val;
  std::optional<std::vector<std::vector<int64_t>>> padding_per_dim;
  std::optional<std::vector<SeedLayoutCore>> per_core;
  std::optional<int64_t> padding_only_cores;
  int64_t storage_positions = 0;
  int64_t total_padding = 0;
  int64_t shard_bytes = 0;
  int64_t total_bytes = 0;
  std::vector<std::string> warnings;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const SeedLayoutExplain& e);
};

using ExplainAnswer =
    std::variant<TtnnLayoutExplain, MetalLayoutExplain, SeedLayoutExplain>;

// AnswerExplain
//
// `grid explain`'s answer for the analysis's form.
ExplainAnswer AnswerExplain(const GridAnalysis& analysis);

// Where one element of a TTNN layout lives (`grid locate`). What does not
// apply to the layout is absent: the tile (untiled), the shard fields
// (interleaved), core or DRAM bank, page.
struct TtnnLayoutLocation {
  std::string tensor;
  std::vector<int64_t> index;
  std::vector<int64_t> physical;
  Omit<std::vector<int64_t>> tile;
  Omit<std::vector<int64_t>> in_tile;
  Omit<std::vector<int64_t>> shard;
  Omit<int64_t> shard_index;
  Omit<std::vector<int64_t>> offset;
  Omit<std::vector<int64_t>> offset_tile;
  Omit<std::vector<int64_t>> offset_in_tile;
  Omit<Pair> core;
  Omit<int64_t> dram_bank;
  Omit<int64_t> page;
  Omit<int64_t> page_in_bank;
  std::vector<std::string> warnings;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const TtnnLayoutLocation& l);
};

struct MetalLayoutLocation {
  std::string tensor;
  std::vector<int64_t> index;
  std::vector<int64_t> physical;
  std::vector<int64_t> shard;
  std::vector<int64_t> offset;
  Omit<std::vector<int64_t>> offset_tile;
  Omit<std::vector<int64_t>> offset_in_tile;
  Omit<Pair> core;
  std::vector<std::string> warnings;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const MetalLayoutLocation& l) {
    f.Type("MetalLayoutLocation", "Where one element of a metal layout is.");
    f("tensor", l.tensor, "The tensor type.");
    f("index", l.index, "The element's index.");
    f("physical", l.physical, "Its physical coordinate.");
    f("shard", l.shard, "Its shard (grid coordinate).");
    f("offset", l.offset, "Its offset in the shard, in scalars.");
    f("offset_tile", l.offset_tile, "Tiled: the tile of the offset.");
    f("offset_in_tile", l.offset_in_tile, "Tiled: the offset in the tile.");
    f("core", l.core, "The core (x, y), L1 on a 2-D grid.");
    f("warnings", l.warnings, "Where the text differs from the builder's.");
  }
};

struct SeedLayoutLocation {
  std::string tensor;
  std::vector<int64_t> index;
  std::vector<int64_t> collapsed;
  std::vector<int64_t> core;
  std::vector<int64_t> shard;
  std::vector<int64_t> offset;
  std::optional<std::vector<int64_t>> tile;
  std::optional<std::vector<int64_t>> in_tile;
  int64_t byte_offset = 0;
  std::vector<std::string> warnings;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const SeedLayoutLocation& l) {
    f.Type("SeedLayoutLocation",
           "Where one element of a 2024 metal layout is.");
    f("tensor", l.tensor, "The tensor type.");
    f("index", l.index, "The element's index.");
    f("collapsed", l.collapsed, "Its collapsed coordinate.");
    f("core", l.core, "Its core (grid coordinate).");
    f("shard", l.shard, "Its shard (the core's coordinate).");
    f("offset", l.offset, "Its offset in the shard, in scalars.");
    f("tile", l.tile, "Tilized: the memref index of its tile.");
    f("in_tile", l.in_tile, "Tilized: its position in the tile.");
    f("byte_offset", l.byte_offset, "Byte offset in the shard.");
    f("warnings", l.warnings, "Where the text differs from the builder's.");
  }
};

using LocationAnswer =
    std::variant<TtnnLayoutLocation, MetalLayoutLocation, SeedLayoutLocation>;

// AnswerLocate
//
// `grid locate`'s answer for element `index`. Errors: an index that does
// not fit the tensor ("index 40 out of range ...").
absl::StatusOr<LocationAnswer> AnswerLocate(const GridAnalysis& analysis,
                                            absl::Span<const int64_t> index);

// One tensor type of `grid report`. A type that is not built (status
// "refused" or "unread") has no grid, memref shape or memref.
struct GridReportType {
  int64_t number = 0;  // 1-based, as --type numbers them
  int64_t line = 0;
  int64_t column = 0;
  int64_t uses = 0;
  std::string written;
  std::string tensor;
  std::optional<std::string> kind;  // "ttnn_layout", ...; null: unread
  std::string status;               // "ok", "warnings", "refused", "unread"
  std::optional<std::vector<int64_t>> grid;
  std::optional<std::vector<int64_t>> memref_shape;
  std::optional<std::string> memref;
  std::string summary;  // "dram interleaved, tiled"; the text only
  std::vector<std::string> warnings;
  std::optional<std::string> error;  // refused or unread: the reason

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const GridReportType& t);
};

struct GridReportCounts {
  int64_t types = 0;
  int64_t ok = 0;
  int64_t warned = 0;
  int64_t refused = 0;
  int64_t unread = 0;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const GridReportCounts& c) {
    f.Type("GridReportCounts", "How many types, by status.");
    f("types", c.types, "Tensor types with a layout.");
    f("ok", c.ok, "As written.");
    f("warnings", c.warned, "With warnings.");
    f("refused", c.refused, "Refused by tt-mlir's verifier.");
    f("unread", c.unread, "Not read.");
  }
};

// `grid report`: every tensor type with a layout in an .mlir file.
struct GridReport {
  std::string file;
  int64_t sections = 0;
  int64_t aliases = 0;
  GridReportCounts counts;
  std::vector<GridReportType> types;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const GridReport& r) {
    f.Type("GridReport", "Every tensor type with a layout in an .mlir file.");
    f("file", r.file, "The file's name.");
    f("sections", r.sections, "Its sections.");
    f("aliases", r.aliases, "Its alias definitions.");
    f("counts", r.counts, "How many types, by status.");
    f("types", r.types, "Each type, in the file's order.");
  }
};

// Analyses every type of `scan` (of `text`, named `file` in messages).
GridReport BuildGridReport(const grid::MlirFileScan& scan,
                           absl::string_view text, absl::string_view file,
                           const grid::TtnnDevice& device);

// What `grid explain`, `grid locate` and `grid draw` ask (their flags,
// checked by the CLI): one tensor type, or one of a file's.
struct GridRequest {
  TtnnDevice device;
  // The file the text came from, for messages ("<stdin>"); empty when the
  // text is the type itself.
  std::string file;
  // --type's value as given (the K-th of the file's tensor types with a
  // layout, from 1), or nullopt.
  std::optional<std::string> type;
};

// AnalyzeGridRequest
//
// The analysis `request` asks of `text`: the tensor type itself (after
// alias lines), or the request's `type`-th of the file's tensor types with
// a layout (without `type`, the only one). A refusal says which to pick.
//   AnalyzeGridRequest(file_text, {device, "model.mlir", "2"})->ttnn
absl::StatusOr<GridAnalysis> AnalyzeGridRequest(absl::string_view text,
                                                const GridRequest& request);

// Scans an .mlir file's `text` (named `file` in messages) and analyses every
// type: the error of a file that cannot be scanned starts with `file: `.
absl::StatusOr<GridReport> ReadGridReport(absl::string_view text,
                                          absl::string_view file,
                                          const TtnnDevice& device);

// The long field lists, out of the types' declarations.

template <typename Fields>
void HlolayoutFields(Fields& f, const TtnnLayoutExplain& e) {
  f.Type("TtnnLayoutExplain", "`grid explain` of a #ttnn.ttnn_layout.");
  f("kind", "ttnn_layout", "'ttnn_layout'.");
  f("tensor", e.tensor, "The tensor type as written.");
  f("layout", e.layout, "The layout as tt-mlir's builder writes it.");
  f("builder_tensor", e.builder_tensor, "The builder's tensor type.");
  f("logical_shape", e.logical_shape, "The tensor's shape.");
  f("element_type", e.element_type, "The tensor's element type.");
  f("memref_element", e.memref_element, "The memref's element (a tile).");
  f("tiled", e.tiled, "Whether the memref holds tiles.");
  f("element_bytes", e.element_bytes, "Bytes of a memref element.");
  f("buffer_type", e.buffer_type, "dram, l1, system_memory, ...");
  f("mem_layout", e.mem_layout, "The memory layout, or None.");
  f("physical_shape", e.physical_shape, "The tile-padded collapsed shape.");
  f("linear", e.linear, "The linear map.");
  f("collapsed_shape", e.collapsed_shape, "The collapsed 2-D shape.");
  f("grid", e.grid, "The grid (rows, columns).");
  f("shard_shape", e.shard_shape, "A shard, in scalars.");
  f("physical_shard_shape", e.physical_shard_shape, "A shard, padded.");
  f("shard_shape_tiles", e.shard_shape_tiles, "Tiled: a shard in tiles.");
  f("memref_shape", e.memref_shape, "The memref's shape.");
  f("memref", e.memref, "The memref type.");
  f("shard_bytes", e.shard_bytes, "A shard's bytes.");
  f("core_ranges", e.core_ranges, "Sharded: the canonical core ranges.");
  f("core_ranges_written", e.core_ranges_written, "The ranges written.");
  f("placement", e.placement, "Sharded: the ranges the shards are on.");
  f("placement_error", e.placement_error, "Why placing failed, or None.");
  f("device", e.device, "The device.");
  f("pages", e.pages, "Interleaved: the pages.");
  f("padding", e.padding, "The padding.");
  f("per_shard", e.per_shard, "Each shard (sharded, at most 4,096).");
  f("warnings", e.warnings, "Where the text differs from the builder's.");
  f("notes", e.notes, "Notes on the answer.");
}

template <typename Fields>
void HlolayoutFields(Fields& f, const MetalLayoutExplain& e) {
  f.Type("MetalLayoutExplain", "`grid explain` of a #ttcore.metal_layout.");
  f("kind", "metal_layout", "'metal_layout'.");
  f("tensor", e.tensor, "The tensor type as written.");
  f("builder_tensor", e.builder_tensor, "The builder's tensor type.");
  f("logical_shape", e.logical_shape, "The tensor's shape.");
  f("dim_alignments", e.dim_alignments, "Each dim's alignment.");
  f("collapsed_intervals", e.collapsed_intervals, "The intervals written.");
  f("normalized_intervals", e.normalized_intervals, "Normalized.");
  f("default_tile_alignments", e.default_tile_alignments, "Or None.");
  f("memory_space", e.memory_space, "The memory space.");
  f("memory_layout", e.memory_layout, "The memory layout.");
  f("element_type", e.element_type, "The element type.");
  f("tiled", e.tiled, "Whether the tensor holds tiles.");
  f("element_bytes", e.element_bytes, "Bytes of an element.");
  f("physical_shape", e.physical_shape, "The physical shape.");
  f("collapsed_shape", e.physical_shape, "The same (its older name).");
  f("physical_shape_tiles", e.physical_shape_tiles, "Tiled: in tiles.");
  f("grid", e.grid, "The grid.");
  f("device_shape", e.device_shape, "The device tensor's shape.");
  f("shard_shape", e.shard_shape, "A shard, in scalars.");
  f("shard_shape_tiles", e.shard_shape_tiles, "Tiled: a shard in tiles.");
  f("memref_shape", e.memref_shape, "The memref's shape.");
  f("memref", e.memref, "The memref type.");
  f("host_strides", e.host_strides, "The host tensor's strides.");
  f("host_volume", e.host_volume, "The host tensor's elements.");
  f("logical_to_physical", e.logical_to_physical, "The map.");
  f("physical_to_logical", e.physical_to_logical, "Its inverse.");
  f("padding", e.padding, "The padding.");
  f("per_shard", e.per_shard, "Each shard (at most 4,096).");
  f("warnings", e.warnings, "Where the text differs from the builder's.");
}

template <typename Fields>
void HlolayoutFields(Fields& f, const SeedLayoutExplain& e) {
  f.Type("SeedLayoutExplain", "`grid explain` of a 2024 #tt.metal_layout.");
  f("kind", "seed_metal_layout", "'seed_metal_layout'.");
  f("tensor", e.tensor, "The tensor type.");
  f("map", e.map, "The affine map.");
  f("logical_shape", e.logical_shape, "The tensor's shape.");
  f("element_type", e.element_type, "The element type.");
  f("element_bytes", e.element_bytes, "Bytes of an element.");
  f("elements", e.elements, "The tensor's elements.");
  f("collapsed_shape", e.collapsed_shape, "The collapsed shape.");
  f("grid", e.grid, "The grid.");
  f("cores", e.cores, "The cores.");
  f("device_grid", e.device_grid, "The device grid (grid rank > 2).");
  f("core_grid", e.core_grid, "The core grid.");
  f("shard_shape", e.shard_shape, "A shard.");
  f("physical_shard_shape", e.physical_shard_shape, "A shard, padded.");
  f("memref_shape", e.memref_shape, "The memref's shape.");
  f("memref", e.memref, "The memref type.");
  f("tile", e.tile, "The tile type, or None.");
  f("tile_bytes", e.tile_bytes, "A tile's bytes (0: not tilized).");
  f("tiles_per_shard", e.tiles_per_shard, "Tiles per shard.");
  f("memory_space", e.memory_space, "The memory space.");
  f("oob_val", e.oob_val, "The padding's value.");
  f("padding_per_dim", e.padding_per_dim, "Padding by grid dim, or None.");
  f("per_core", e.per_core, "Each core, or None.");
  f("padding_only_cores", e.padding_only_cores, "Cores of padding only.");
  f("storage_positions", e.storage_positions, "Positions stored.");
  f("total_padding", e.total_padding, "Positions of padding.");
  f("shard_bytes", e.shard_bytes, "A shard's bytes.");
  f("total_bytes", e.total_bytes, "All shards' bytes.");
  f("warnings", e.warnings, "Where the text differs from the builder's.");
}

template <typename Fields>
void HlolayoutFields(Fields& f, const TtnnLayoutLocation& l) {
  f.Type("TtnnLayoutLocation", "Where one element of a TTNN layout is.");
  f("tensor", l.tensor, "The tensor type.");
  f("index", l.index, "The element's index.");
  f("physical", l.physical, "Its collapsed coordinate.");
  f("tile", l.tile, "Tiled: its tile.");
  f("in_tile", l.in_tile, "Tiled: its position in the tile.");
  f("shard", l.shard, "Sharded: its shard.");
  f("shard_index", l.shard_index, "Sharded: the shard's number.");
  f("offset", l.offset, "Sharded: its offset in the shard.");
  f("offset_tile", l.offset_tile, "Sharded and tiled: the offset's tile.");
  f("offset_in_tile", l.offset_in_tile, "... and the offset in it.");
  f("core", l.core, "L1 sharded: the core (x, y).");
  f("dram_bank", l.dram_bank, "DRAM: the bank.");
  f("page", l.page, "Interleaved: the page.");
  f("page_in_bank", l.page_in_bank, "DRAM interleaved: the bank's page.");
  f("warnings", l.warnings, "Where the text differs from the builder's.");
}

template <typename Fields>
void HlolayoutFields(Fields& f, const GridReportType& t) {
  f.Type("GridReportType", "One tensor type of `grid report`.");
  f("number", t.number, "Its number, from 1.");
  f("line", t.line, "Its line.");
  f("column", t.column, "Its column.");
  f("uses", t.uses, "How often the file uses it.");
  f("written", t.written, "As written.");
  f("tensor", t.tensor, "The tensor type.");
  f("kind", t.kind, "The layout's form, or None when not read.");
  f("status", t.status, "'ok', 'warnings', 'refused' or 'unread'.");
  f("grid", t.grid, "The grid, or None.");
  f("memref_shape", t.memref_shape, "The memref's shape, or None.");
  f("memref", t.memref, "The memref type, or None.");
  f("summary", t.summary, "The layout in words.",
    FieldOptions().Json(FieldJson::kLeftOut));
  f("warnings", t.warnings, "Where the text differs from the builder's.");
  f("error", t.error, "Why it was refused or not read, or None.");
}

}  // namespace hlolayout::grid

#endif  // HLOLAYOUT_ANSWERS_TTMLIR_H_

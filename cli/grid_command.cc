// `hlolayout grid`: grid-sharded tt-mlir tensor layouts (#tt.metal_layout).
//
//   hlolayout grid explain 'tensor<53x63xf32, #tt.metal_layout<...>>'
//   hlolayout grid locate 'tensor<...>' 20,40
//   printf 'grid-shard\ttensor<...>\n' | hlolayout batch      # -> 18x32
//
// The logic lives in //grid (grid/explain.h); this file reads arguments and
// prints.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/node_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/command.h"
#include "hlolayout/cli/input.h"
#include "hlolayout/cli/json.h"
#include "hlolayout/cli/picture_commands.h"
#include "hlolayout/grid/explain.h"
#include "hlolayout/grid/metal_layout.h"
#include "hlolayout/grid/parse.h"
#include "hlolayout/grid/print.h"

namespace hlolayout::cli {
namespace {

constexpr absl::string_view kGridHelp =
    R"(usage: hlolayout grid SUBCOMMAND [--json] ARGS...

Grid-sharded tensor layouts from tt-mlir's tensor layout spec: a tensor type
with a #tt.metal_layout<linear map, oob_val, <grid>, memref> encoding. The
map collapses the logical dims, the grid splits the collapsed shape into
shards (ceilDiv), and a !tt.tile memref pads each shard to whole tiles.

subcommands:
  explain TENSOR          map, grid, shard and tile shapes, padding per
                          dim and per core, bytes
  locate TENSOR I,J,...   core, offset in the shard, tile and position in
                          the tile of one logical element
  collapse SHAPE GRID [INTERVALS]
                          build the layout from collapseIntervals and print
                          its map and tensor type
  draw TENSOR [--svg F]   a picture: shards coloured by core, tiles, padding

TENSOR may be '-' to read it from standard input (it may span lines).
'hlolayout grid SUBCOMMAND --help' explains a subcommand.

batch ops (hlolayout batch):
  grid-shard<TAB>TENSOR          -> 18x32 (the memref shape of one shard)
  grid-locate<TAB>TENSOR<TAB>I,J -> core=C0,C1 offset=O0,O1
                                    [tile=T0,T1 in_tile=E0,E1]
)";

constexpr absl::string_view kExplainHelp =
    R"(usage: hlolayout grid explain [--json] TENSOR|-

Explains a tt-mlir tensor type with a #tt.metal_layout encoding: logical
shape, the linear map and the collapsed shape it gives, the grid (and its
device dims when the grid has rank > 2), the scalar shard, the tile and the
tile-padded physical shard, the memref, memory space and oob_val, padding
positions per dim (by core index) and per core, total padding and bytes.

flags:
  --json   one JSON object (keys: tensor, map, logical_shape, element_type,
           element_bytes, elements, collapsed_shape, grid, cores,
           device_grid, core_grid, shard_shape, physical_shard_shape,
           memref_shape, memref, tile, tile_bytes, tiles_per_shard,
           memory_space, oob_val, padding_per_dim, per_core,
           padding_only_cores, storage_positions, total_padding,
           shard_bytes, total_bytes)
  --help   this text

example:
  hlolayout grid explain 'tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, memref<1x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>>>'
)";

constexpr absl::string_view kLocateHelp =
    R"(usage: hlolayout grid locate [--json] TENSOR|- I,J,...

Where logical element [I,J,...] of the tensor is stored: its collapsed
coordinate, the core holding it (device and core when the grid has rank > 2),
the offset inside the shard in scalars, and when the memref is tilized the
memref index of its tile and its row and column in the tile; then its byte
offset in the shard (of the tile start when tilized).

flags:
  --json   one JSON object (keys: tensor, index, collapsed, core, offset,
           tile, in_tile, byte_offset)
  --help   this text

example:
  hlolayout grid locate 'tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, memref<1x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>>>' 20,40
)";

constexpr absl::string_view kCollapseHelp =
    R"(usage: hlolayout grid collapse [--tile=DTYPE|HxW,DTYPE] SHAPE GRID [INTERVALS]

Builds a #tt.metal_layout from the seed's collapseIntervals: SHAPE is the
tensor as MLIR writes it (2x3x64x128xf32), GRID the grid (2x2x4), INTERVALS
a list of half-open dim ranges, negative bounds counting from the end
(default (0,-1); 'none' for no collapse). Dims outside every interval stay
as their own physical dim; a grid rank above the collapsed rank prepends
constant-0 results. Prints the join in the seed's <> notation, the affine
map, and the whole tensor type (oob_val undef, memory space l1), which
'hlolayout grid explain' reads.

flags:
  --tile=DTYPE       tilize with 32x32 tiles of DTYPE (bfp_bf8, f32, ...)
  --tile=HxW,DTYPE   tilize with HxW tiles
  --help             this text

example:
  hlolayout grid collapse 2x3x4x5x6x7x8xf32 2x1x3x2 '(0,3),(-3,-1)'
)";

// The tensor text of an argument: itself, or standard input for "-".
absl::StatusOr<std::string> TensorText(const std::string& arg, IoContext& io) {
  if (arg != "-") return arg;
  absl::StatusOr<std::string> text = ReadInput("-", io);
  if (!text.ok()) return text.status();
  return std::string(absl::StripAsciiWhitespace(*text));
}

// The layout of TENSOR, given inline or as '-'.
absl::StatusOr<grid::MetalLayout> LoadTensor(const std::string& arg,
                                             IoContext& io) {
  absl::StatusOr<std::string> text = TensorText(arg, io);
  if (!text.ok()) return text.status();
  return grid::ParseTensorType(*text);
}

void ExplainJson(const grid::GridExplanation& e, JsonWriter& json) {
  json.BeginObject();
  json.Key("tensor").String(e.tensor);
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
  json.Key("memref").String(e.memref);
  json.Key("tile");
  e.tile ? json.String(*e.tile) : json.Null();
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
  json.EndObject();
}

int RunExplain(const std::vector<std::string>& raw_args, IoContext& io) {
  absl::StatusOr<Args> args = ParseArgs(raw_args, {"json", "help"}, {});
  if (!args.ok() || args->positional.size() != 1) {
    io.err << "hlolayout grid explain: "
           << (args.ok() ? "expects one TENSOR (or '-')"
                         : args.status().message())
           << "\n";
    return 2;
  }
  absl::StatusOr<grid::MetalLayout> layout =
      LoadTensor(args->positional[0], io);
  if (!layout.ok()) {
    io.err << "hlolayout grid explain: " << layout.status().message() << "\n";
    return 1;
  }
  const grid::GridExplanation e = grid::ExplainGridLayout(*layout);
  if (args->Has("json")) {
    JsonWriter json(/*pretty=*/true);
    ExplainJson(e, json);
    io.out << json.str() << "\n";
  } else {
    io.out << grid::FormatGridExplanation(e);
  }
  return 0;
}

int RunLocate(const std::vector<std::string>& raw_args, IoContext& io) {
  absl::StatusOr<Args> args = ParseArgs(raw_args, {"json", "help"}, {});
  if (!args.ok() || args->positional.size() != 2) {
    io.err << "hlolayout grid locate: "
           << (args.ok() ? "expects TENSOR (or '-') and an index I,J,..."
                         : args.status().message())
           << "\n";
    return 2;
  }
  absl::StatusOr<grid::MetalLayout> layout =
      LoadTensor(args->positional[0], io);
  if (!layout.ok()) {
    io.err << "hlolayout grid locate: " << layout.status().message() << "\n";
    return 1;
  }
  absl::StatusOr<std::vector<int64_t>> index =
      grid::ParseIndexList(args->positional[1]);
  absl::StatusOr<grid::ElementLocation> loc =
      index.ok() ? layout->TryLocate(*index) : index.status();
  if (!loc.ok()) {
    io.err << "hlolayout grid locate: " << loc.status().message() << "\n";
    return 1;
  }
  if (args->Has("json")) {
    JsonWriter json(/*pretty=*/true);
    json.BeginObject();
    json.Key("tensor").String(grid::TensorTypeToString(*layout));
    json.Key("index").IntArray(*index);
    json.Key("collapsed").IntArray(loc->collapsed);
    json.Key("core").IntArray(loc->core);
    json.Key("offset").IntArray(loc->offset);
    json.Key("tile");
    layout->tile() ? json.IntArray(loc->tile) : json.Null();
    json.Key("in_tile");
    layout->tile() ? json.IntArray(loc->in_tile) : json.Null();
    json.Key("byte_offset").Int(loc->byte_offset);
    json.EndObject();
    io.out << json.str() << "\n";
  } else {
    io.out << grid::FormatElementLocation(*layout, *index, *loc);
  }
  return 0;
}

int RunCollapse(const std::vector<std::string>& raw_args, IoContext& io) {
  absl::StatusOr<Args> args = ParseArgs(raw_args, {"help"}, {"tile"});
  if (!args.ok() || args->positional.size() < 2 ||
      args->positional.size() > 3) {
    io.err << "hlolayout grid collapse: "
           << (args.ok() ? "expects SHAPE, GRID and optional INTERVALS"
                         : args.status().message())
           << "\n";
    return 2;
  }
  const std::string intervals =
      args->positional.size() == 3 ? args->positional[2] : "";
  absl::StatusOr<grid::MetalLayout> layout =
      grid::BuildCollapsedLayout(args->positional[0], args->positional[1],
                                 intervals, args->Value("tile", ""));
  if (!layout.ok()) {
    io.err << "hlolayout grid collapse: " << layout.status().message() << "\n";
    return 1;
  }
  io.out << grid::FormatCollapse(*layout, intervals);
  return 0;
}

int RunGrid(const std::vector<std::string>& args, IoContext& io) {
  if (args.empty()) {
    io.err
        << "hlolayout grid: expects a subcommand (explain, locate, collapse); "
           "'hlolayout grid --help' explains them\n";
    return 2;
  }
  const std::string& sub = args[0];
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  const bool help = [&rest] {
    for (const std::string& a : rest) {
      if (a == "--") return false;
      if (a == "--help" || a == "-h") return true;
    }
    return false;
  }();
  if (sub == "explain") {
    if (help) {
      io.out << kExplainHelp;
      return 0;
    }
    return RunExplain(rest, io);
  }
  if (sub == "locate") {
    if (help) {
      io.out << kLocateHelp;
      return 0;
    }
    return RunLocate(rest, io);
  }
  if (sub == "collapse") {
    if (help) {
      io.out << kCollapseHelp;
      return 0;
    }
    return RunCollapse(rest, io);
  }
  if (sub == "draw") {  // cli/picture_commands.cc
    if (help) {
      io.out << kGridDrawHelp;
      return 0;
    }
    return RunGridDraw(rest, io, LoadTensor);
  }
  if (sub == "help") {
    io.out << kGridHelp;
    return 0;
  }
  io.err << "hlolayout grid: unknown subcommand '" << sub
         << "'; 'hlolayout grid --help' lists them\n";
  return 2;
}

// Parsed tensor types of the batch ops, keyed by text (errors too).
const absl::StatusOr<grid::MetalLayout>& CachedLayout(absl::string_view text) {
  static auto* cache =
      new absl::node_hash_map<std::string, absl::StatusOr<grid::MetalLayout>>;
  auto it = cache->find(text);
  if (it != cache->end()) return it->second;
  if (cache->size() >= 1024) cache->clear();
  return cache->emplace(std::string(text), grid::ParseTensorType(text))
      .first->second;
}

absl::StatusOr<std::string> BatchGridShard(
    absl::Span<const absl::string_view> args, BatchCache&) {
  const absl::StatusOr<grid::MetalLayout>& layout = CachedLayout(args[0]);
  if (!layout.ok()) return layout.status();
  return grid::GridShardAnswer(*layout);
}

absl::StatusOr<std::string> BatchGridLocate(
    absl::Span<const absl::string_view> args, BatchCache&) {
  const absl::StatusOr<grid::MetalLayout>& layout = CachedLayout(args[0]);
  if (!layout.ok()) return layout.status();
  return grid::GridLocateAnswer(*layout, args[1]);
}

}  // namespace

extern const Command kGridCommand;
const Command kGridCommand = {
    "grid",
    "grid-sharded tt-mlir tensor layouts: explain, locate, collapse",
    kGridHelp,
    RunGrid,
    /*help_builder=*/nullptr,
    /*has_subcommands=*/true,
};

extern const BatchOp kGridShardBatchOp;
const BatchOp kGridShardBatchOp = {
    "grid-shard", 1, 1,
    "grid-shard<TAB>TENSOR        -> memref shape of one shard (18x32)",
    BatchGridShard};

extern const BatchOp kGridLocateBatchOp;
const BatchOp kGridLocateBatchOp = {"grid-locate", 2, 2,
                                    "grid-locate<TAB>TENSOR<TAB>I,J -> "
                                    "core=C0,C1 offset=O0,O1 [tile= in_tile=]",
                                    BatchGridLocate};

}  // namespace hlolayout::cli

// `hlolayout grid`: tt-mlir tensor layouts: `#ttnn.ttnn_layout`, the
// reworked `#ttcore.metal_layout`, and the 2024 `#tt.metal_layout` seed.
//
//   hlolayout grid explain 'tensor<32x32xf32, #ttnn.ttnn_layout<...>>'
//   hlolayout grid locate 'tensor<...>' 20,40
//   hlolayout grid report model.mlir
//   printf 'grid-shard\ttensor<...>\n' | hlolayout batch      # -> 18x32
//
// The logic lives in //ttmlir (ttmlir/explain.h, ttmlir/ttmlir_explain.h); this
// file reads arguments and prints the answers of answers/ttmlir.h through
// their views (views/ttmlir_text.h).
#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/node_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "hlolayout/answers/ttmlir.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/command.h"
#include "hlolayout/cli/input.h"
#include "hlolayout/cli/picture_commands.h"
#include "hlolayout/ttmlir/explain.h"
#include "hlolayout/ttmlir/metal_layout.h"
#include "hlolayout/ttmlir/ttmlir_explain.h"
#include "hlolayout/util/fields.h"
#include "hlolayout/util/record.h"
#include "hlolayout/views/ttmlir_text.h"

namespace hlolayout::cli {
namespace {

constexpr absl::string_view kGridHelp =
    R"(usage: hlolayout grid SUBCOMMAND [--json] ARGS...

Tenstorrent tensor layouts as tt-mlir writes them: a tensor type with a
#ttnn.ttnn_layout<map, <grid>, memref<...>, <memory layout>, core_ranges>
encoding (TTNN), a reworked #ttcore.metal_layout<logical_shape = ...,
dim_alignments = ..., collapsed_intervals = ..., l1|dram, sharded|interleaved>
(D2M/TTMetal), or the 2024 #tt.metal_layout<map, oob, <grid>, memref> of
tt-mlir's specification. Answers are those of tt-mlir's builder; where the
text differs (a stale test, an alias written for another shape) a warning
says so on standard error, and what tt-mlir's verifier refuses is refused.

subcommands:
  explain TENSOR          shapes, map, grid, shard, memref, core placement,
                          pages, padding per shard and in total
  locate TENSOR I,J,...   shard, offset, core or DRAM bank, page, tile of
                          one element
  report FILE.mlir        every tensor type with a layout in a file
  collapse SHAPE GRID [INTERVALS]
                          build a 2024-form layout from collapseIntervals
  draw TENSOR [--svg F]   a picture: shards coloured by core, tiles, padding

TENSOR is the type, optionally after alias definitions ('#l1 = ...' lines),
or '-' (standard input), or an .mlir file holding one tensor type with a
layout (--type=K picks the K-th of several, as 'grid report' numbers them).
'hlolayout grid SUBCOMMAND --help' explains a subcommand.

batch ops (hlolayout batch):
  grid-shard<TAB>TENSOR          -> 18x32 (the memref shape of one shard)
  grid-locate<TAB>TENSOR<TAB>I,J -> core=C0,C1 offset=O0,O1 ... (seed form)
                                    shard=Y,X offset=.. [core=X,Y|page=P]
)";

constexpr absl::string_view kDeviceFlags =
    R"(  --worker-grid=RxC   the device's worker grid, rows x columns (default
                      8x8, Wormhole) for canonical core placement
  --dram-banks=N      DRAM banks (default 12)
  --type=K            in a file with several tensor types, the K-th
)";

constexpr absl::string_view kExplainHelp =
    R"(usage: hlolayout grid explain [--json] TENSOR|FILE|- [flags]

Explains a tensor type with a tt-mlir layout. TTNN: the tile-padded
physical shape, the collapse map, the collapsed shape, the grid (1x1 for
DRAM-interleaved and system memory), the shard (L1 interleaved spreads
every tile over all cores), the memref, the core ranges (canonical on the
device, and as written), pages of interleaved layouts, padding per shard
and in total. Reworked metal layout: normalized intervals, physical shape
(cumulative alignments), grid and shard from the tensor's shape, device
shape, index maps, host strides, padding. Seed form: map, grid, shard,
tile, padding per dim and core. Warnings on standard error.

flags:
  --json   one JSON object; every form has kind, tensor, grid, shard_shape
           (scalars), memref_shape, memref, warnings. TTNN adds
           logical_shape, physical_shape, linear, collapsed_shape,
           shard_shape_tiles, physical_shard_shape, buffer_type, mem_layout,
           core_ranges (canonical, [[x0,y0],[x1,y1]]), core_ranges_written,
           placement, pages, padding, per_shard, layout, notes. Metal adds
           logical_shape, dim_alignments, normalized_intervals,
           physical_shape, physical_shape_tiles, collapsed_shape,
           device_shape, shard_shape_tiles, logical_to_physical,
           physical_to_logical, host_strides, host_volume, padding,
           per_shard. Seed: see docs/tt-mlir.md.
)"
    "$DEVICE"
    R"(  --help   this text

example:
  hlolayout grid explain 'tensor<32x4096xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x8>, memref<1x16x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>, <width_sharded>, core_ranges = <[#ttnn.core_range<(0,0), (7,0)>]>>>'
)";

constexpr absl::string_view kLocateHelp =
    R"(usage: hlolayout grid locate [--json] TENSOR|FILE|- I,J,... [flags]

Where logical element [I,J,...] is stored. TTNN: its collapsed coordinate,
tile and position in the tile; sharded: the shard (grid coordinate), the
offset in it (and its tile), the core (x,y) or DRAM bank; interleaved and
system memory: the page (row-major tile, or row) and its DRAM bank (page
mod banks). Metal: the physical coordinate, shard, offset (tile and
position in it), core (L1 grids that fit the worker grid). Seed form: the
collapsed coordinate, core, offset, tile, byte offset.

flags:
  --json   one JSON object with the keys that apply: index, physical, tile,
           in_tile, shard, shard_index, offset, offset_tile, offset_in_tile,
           core, dram_bank, page, page_in_bank, warnings (seed form: index,
           collapsed, core, offset, tile, in_tile, byte_offset)
)"
    "$DEVICE"
    R"(  --help   this text

example:
  hlolayout grid locate 'tensor<32x4096xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x8>, memref<1x16x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>, <width_sharded>, core_ranges = <[#ttnn.core_range<(0,0), (7,0)>]>>>' 2,1541
)";

constexpr absl::string_view kReportHelp =
    R"(usage: hlolayout grid report [--json] FILE.mlir|- [flags]

Lists every distinct tensor type with a tt-mlir layout in an .mlir file
(aliases resolved per '// -----' section; comment lines skipped), each with
its line, uses, grid and builder's memref, and whether tt-mlir's builder
writes it as written, writes something else (with the warnings), or
refuses it (with the reason); then the counts.

flags:
  --json   one JSON object (keys: file, sections, aliases, counts, types;
           each type: number, line, column, uses, written, tensor, kind,
           status (ok, warnings, refused, unread), grid, memref_shape,
           memref, warnings, error)
  --worker-grid=RxC, --dram-banks=N   the device (see 'grid explain')
  --help   this text

example:
  hlolayout grid report ttmlir/testdata/ttnn_example.mlir
)";

constexpr absl::string_view kCollapseHelp =
    R"(usage: hlolayout grid collapse [--tile=DTYPE|HxW,DTYPE] SHAPE GRID [INTERVALS]

Builds a 2024-form #tt.metal_layout from the seed's collapseIntervals:
SHAPE is the tensor as MLIR writes it (2x3x64x128xf32), GRID the grid
(2x2x4), INTERVALS a list of half-open dim ranges, negative bounds counting
from the end (default (0,-1); 'none' for no collapse). Dims outside every
interval stay as their own physical dim; a grid rank above the collapsed
rank prepends constant-0 results. Prints the join in the seed's <>
notation, the affine map, and the whole tensor type (oob_val undef, memory
space l1), which 'hlolayout grid explain' reads.

flags:
  --tile=DTYPE       tilize with 32x32 tiles of DTYPE (bfp_bf8, f32, ...)
  --tile=HxW,DTYPE   tilize with HxW tiles
  --help             this text

example:
  hlolayout grid collapse 2x3x4x5x6x7x8xf32 2x1x3x2 '(0,3),(-3,-1)'
)";

std::string WithDeviceFlags(absl::string_view help) {
  std::string s(help);
  const size_t at = s.find("$DEVICE");
  if (at != std::string::npos) s.replace(at, 7, std::string(kDeviceFlags));
  return s;
}

// The device of --worker-grid and --dram-banks.
absl::StatusOr<grid::TtnnDevice> DeviceFromArgs(const Args& args) {
  const std::string spec =
      absl::StrCat(args.Value("worker-grid", "8x8"),
                   ",dram=", args.Value("dram-banks", "12"));
  absl::StatusOr<grid::TtnnDevice> d = grid::ParseTtnnDevice(spec);
  if (!d.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad --worker-grid '", args.Value("worker-grid", "8x8"),
                     "' or --dram-banks '", args.Value("dram-banks", "12"),
                     "': expected ROWSxCOLS and a count, 1 to 1024"));
  }
  return d;
}

// True when the argument is the type itself rather than a file name.
bool LooksLikeTypeText(absl::string_view arg) {
  absl::string_view s = absl::StripLeadingAsciiWhitespace(arg);
  return absl::StartsWith(s, "tensor") || absl::StartsWith(s, "#") ||
         absl::StartsWith(s, "!") || absl::StartsWith(s, "//");
}

// The text of TENSOR|FILE|-, and a name for messages about a file.
absl::StatusOr<std::string> ArgumentText(const std::string& arg, IoContext& io,
                                         std::string* file) {
  if (arg == "-") {
    *file = "<stdin>";
    return ReadInput("-", io);
  }
  if (LooksLikeTypeText(arg)) return arg;
  *file = arg;
  return ReadInput(arg, io);
}

// The analysis of TENSOR|FILE|-: flags -> GridRequest -> its answer.
absl::StatusOr<grid::GridAnalysis> LoadGrid(const std::string& arg,
                                            const Args& args, IoContext& io) {
  absl::StatusOr<grid::TtnnDevice> device = DeviceFromArgs(args);
  if (!device.ok()) return device.status();
  grid::GridRequest request;
  request.device = *device;
  absl::StatusOr<std::string> text = ArgumentText(arg, io, &request.file);
  if (!text.ok()) return text.status();
  if (args.Has("type")) request.type = args.Value("type", "");
  return grid::AnalyzeGridRequest(*text, request);
}

void PrintWarnings(absl::string_view who, const grid::GridAnalysis& a,
                   IoContext& io) {
  for (const std::string& w : a.warnings) {
    io.err << who << ": warning: " << w << "\n";
  }
}

constexpr absl::string_view kLoadFlags[] = {"worker-grid", "dram-banks",
                                            "type"};

int RunExplain(const std::vector<std::string>& raw_args, IoContext& io) {
  constexpr absl::string_view kWho = "hlolayout grid explain";
  absl::StatusOr<Args> args = ParseArgs(raw_args, {"json", "help"}, kLoadFlags);
  if (!args.ok() || args->positional.size() != 1) {
    io.err << kWho << ": "
           << (args.ok() ? "expects one TENSOR (or FILE, or '-')"
                         : args.status().message())
           << "\n";
    return 2;
  }
  absl::StatusOr<grid::GridAnalysis> a =
      LoadGrid(args->positional[0], *args, io);
  if (!a.ok()) {
    io.err << kWho << ": " << a.status().message() << "\n";
    return 1;
  }
  PrintWarnings(kWho, *a, io);
  io.out << (args->Has("json")
                 ? AnswerJson(grid::AnswerExplain(*a),
                              RecordJsonWriter::Style::kIndented) +
                       "\n"
                 : grid::ExplainText(*a));
  return 0;
}

// `grid locate`'s answer as JSON or text.
absl::StatusOr<std::string> LocateOutput(const grid::GridAnalysis& a,
                                         absl::Span<const int64_t> index,
                                         const Args& args) {
  if (!args.Has("json")) return grid::LocateText(a, index);
  absl::StatusOr<grid::LocationAnswer> located = grid::AnswerLocate(a, index);
  if (!located.ok()) return located.status();
  return AnswerJson(*located, RecordJsonWriter::Style::kIndented);
}

int RunLocate(const std::vector<std::string>& raw_args, IoContext& io) {
  constexpr absl::string_view kWho = "hlolayout grid locate";
  absl::StatusOr<Args> args = ParseArgs(raw_args, {"json", "help"}, kLoadFlags);
  if (!args.ok() || args->positional.size() != 2) {
    io.err << kWho << ": "
           << (args.ok() ? "expects TENSOR (or FILE, or '-') and an index "
                           "I,J,..."
                         : args.status().message())
           << "\n";
    return 2;
  }
  absl::StatusOr<grid::GridAnalysis> a =
      LoadGrid(args->positional[0], *args, io);
  if (!a.ok()) {
    io.err << kWho << ": " << a.status().message() << "\n";
    return 1;
  }
  absl::StatusOr<std::vector<int64_t>> index =
      grid::ParseIndexList(args->positional[1]);
  if (!index.ok()) {
    io.err << kWho << ": " << index.status().message() << "\n";
    return 1;
  }
  absl::StatusOr<std::string> out = LocateOutput(*a, *index, *args);
  if (!out.ok()) {
    io.err << kWho << ": " << out.status().message() << "\n";
    return 1;
  }
  PrintWarnings(kWho, *a, io);
  io.out << (args->Has("json") ? *out + "\n" : *out);
  return 0;
}

int RunReport(const std::vector<std::string>& raw_args, IoContext& io) {
  constexpr absl::string_view kWho = "hlolayout grid report";
  absl::StatusOr<Args> args =
      ParseArgs(raw_args, {"json", "help"}, {"worker-grid", "dram-banks"});
  if (!args.ok() || args->positional.size() != 1) {
    io.err << kWho << ": "
           << (args.ok() ? "expects one FILE.mlir (or '-')"
                         : args.status().message())
           << "\n";
    return 2;
  }
  absl::StatusOr<grid::TtnnDevice> device = DeviceFromArgs(*args);
  if (!device.ok()) {
    io.err << kWho << ": " << device.status().message() << "\n";
    return 2;
  }
  const std::string& path = args->positional[0];
  absl::StatusOr<std::string> text = ReadInput(path, io);
  if (!text.ok()) {
    io.err << kWho << ": " << text.status().message() << "\n";
    return 1;
  }
  absl::StatusOr<grid::GridReport> report =
      grid::ReadGridReport(*text, path == "-" ? "<stdin>" : path, *device);
  if (!report.ok()) {
    io.err << kWho << ": " << report.status().message() << "\n";
    return 1;
  }
  io.out << (args->Has("json")
                 ? AnswerJson(*report, RecordJsonWriter::Style::kIndented) +
                       "\n"
                 : grid::FormatGridReport(*report));
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

int RunGridDrawSub(const std::vector<std::string>& args, IoContext& io) {
  return RunGridDraw(args, io, LoadGrid);  // cli/picture_commands.cc
}

struct GridSub {
  absl::string_view name;
  std::string help;
  int (*run)(const std::vector<std::string>&, IoContext&);
};

// Every subcommand, in the order the help lists them.
const std::vector<GridSub>& GridSubs() {
  static const auto* subs = new std::vector<GridSub>{
      {"explain", WithDeviceFlags(kExplainHelp), RunExplain},
      {"locate", WithDeviceFlags(kLocateHelp), RunLocate},
      {"report", std::string(kReportHelp), RunReport},
      {"collapse", std::string(kCollapseHelp), RunCollapse},
      {"draw", std::string(kGridDrawHelp), RunGridDrawSub},
  };
  return *subs;
}

std::vector<std::string> GridSubcommands() {
  std::vector<std::string> out;
  for (const GridSub& s : GridSubs()) out.emplace_back(s.name);
  return out;
}

int RunGrid(const std::vector<std::string>& args, IoContext& io) {
  if (args.empty()) {
    io.err << "hlolayout grid: expects a subcommand (explain, locate, report, "
              "collapse, draw); 'hlolayout grid --help' explains them\n";
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
  for (const GridSub& s : GridSubs()) {
    if (sub != s.name) continue;
    if (help) {
      io.out << s.help;
      return 0;
    }
    return s.run(rest, io);
  }
  if (sub == "help") {
    io.out << kGridHelp;
    return 0;
  }
  return UnknownSubcommand(io.err, "grid", "subcommand", sub,
                           GridSubcommands());
}

// Analysed tensor types of the batch ops, keyed by text (errors too).
const absl::StatusOr<grid::GridAnalysis>& CachedAnalysis(
    absl::string_view text) {
  static auto* cache =
      new absl::node_hash_map<std::string, absl::StatusOr<grid::GridAnalysis>>;
  auto it = cache->find(text);
  if (it != cache->end()) return it->second;
  if (cache->size() >= 1024) cache->clear();
  return cache->emplace(std::string(text), grid::AnalyzeGridText(text))
      .first->second;
}

absl::StatusOr<std::string> BatchGridShard(
    absl::Span<const absl::string_view> args, BatchCache&) {
  const absl::StatusOr<grid::GridAnalysis>& a = CachedAnalysis(args[0]);
  if (!a.ok()) return a.status();
  return grid::ShardBatchText(*a);
}

absl::StatusOr<std::string> BatchGridLocate(
    absl::Span<const absl::string_view> args, BatchCache&) {
  const absl::StatusOr<grid::GridAnalysis>& a = CachedAnalysis(args[0]);
  if (!a.ok()) return a.status();
  absl::StatusOr<std::vector<int64_t>> index = grid::ParseIndexList(args[1]);
  if (!index.ok()) return index.status();
  absl::StatusOr<grid::LocationAnswer> answer = grid::AnswerLocate(*a, *index);
  if (!answer.ok()) return answer.status();
  return grid::LocateBatchText(*answer);
}

}  // namespace

extern const Command kGridCommand;
const Command kGridCommand = {
    "grid",
    "tt-mlir tensor layouts (TTNN, metal): explain, locate, report, draw",
    kGridHelp,
    RunGrid,
    /*help_builder=*/nullptr,
    /*has_subcommands=*/true,
    GridSubcommands,
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

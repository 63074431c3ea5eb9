// `hlolayout ttnn`: TTNN tensors as tt-metal computes them (docs/ttnn.md).
// Dispatches to the subcommands in cli/ttnn_*_command.cc.
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/command.h"
#include "hlolayout/cli/ttnn_commands.h"

namespace hlolayout::cli {
namespace {

constexpr char kTtnnHelp[] =
    R"(usage: hlolayout ttnn SUBCOMMAND [FLAGS]

TTNN tensors (tt-metal's ttnn package) as tt-metal's own layout code
computes them: a TensorSpec of a shape, dtype, layout (ROW_MAJOR or TILE)
and MemoryConfig (interleaved over DRAM or L1 banks, 2-D or ND sharded).

subcommands:
  spec     padded and physical shapes, pages, sizes, strides, bytes per bank,
           the resolved shard specs and which core holds which pages
  locate   where an element lives: page, byte, bank or core and offset
  draw     the shards over the core grid and the pages on a core (text, SVG)
  mesh     the slice each device of a mesh holds (TTNN's mesh mappers)

examples:
  hlolayout ttnn spec --shape 272,58 --memory-layout HEIGHT_SHARDED \
      --buffer-type L1 --grid 0,0-2,0 --shard-shape 96,64
  hlolayout ttnn locate --shape 64,64 --dtype bfloat8_b 40,17
  hlolayout ttnn mesh --shape 4,6,8 --mesh 2x3 --placements S0,S1

'hlolayout ttnn SUBCOMMAND --help' explains a subcommand.
)";

struct Sub {
  absl::string_view name;
  std::string (*help)();
  int (*run)(const std::vector<std::string>&, IoContext&);
};

// Every subcommand, in the order the help lists them.
constexpr Sub kSubs[] = {
    {"spec", TtnnSpecHelp, RunTtnnSpec},
    {"locate", TtnnLocateHelp, RunTtnnLocate},
    {"draw", TtnnDrawHelp, RunTtnnDraw},
    {"mesh", TtnnMeshHelp, RunTtnnMesh},
};

std::vector<std::string> TtnnSubcommands() {
  std::vector<std::string> out;
  for (const Sub& s : kSubs) out.emplace_back(s.name);
  return out;
}

int RunTtnn(const std::vector<std::string>& args, IoContext& io) {
  if (args.empty()) {
    io.err << "hlolayout ttnn: expects a subcommand (spec, locate, draw, "
              "mesh); 'hlolayout ttnn --help' explains them\n";
    return 2;
  }
  const std::string& sub = args[0];
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  bool help = false;
  for (const std::string& a : rest) {
    if (a == "--") break;
    if (a == "--help" || a == "-h") help = true;
  }
  for (const Sub& s : kSubs) {
    if (sub != s.name) continue;
    if (help) {
      io.out << s.help();
      return 0;
    }
    return s.run(rest, io);
  }
  if (sub == "help") {
    io.out << kTtnnHelp;
    return 0;
  }
  return UnknownSubcommand(io.err, "ttnn", "subcommand", sub,
                           TtnnSubcommands());
}

}  // namespace

extern const Command kTtnnCommand;
const Command kTtnnCommand = {
    "ttnn",
    "TTNN tensors as tt-metal computes them: specs, pages, sharding, meshes",
    kTtnnHelp,
    RunTtnn,
    /*help_builder=*/nullptr,
    /*has_subcommands=*/true,
    TtnnSubcommands,
};

}  // namespace hlolayout::cli

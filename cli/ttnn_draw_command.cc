// `hlolayout ttnn draw`: a TTNN tensor's pages over cores or banks.
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/draw_output.h"
#include "hlolayout/cli/ttnn_commands.h"
#include "hlolayout/cli/ttnn_input.h"
#include "hlolayout/draw/ttnn_picture.h"

namespace hlolayout::cli {
namespace {

constexpr char kDrawHelp[] =
    R"(usage: hlolayout ttnn draw [--svg FILE|-] [--core X,Y] --shape SHAPE [FLAGS]
       hlolayout ttnn draw [--svg FILE|-] [--core X,Y] --spec FILE|-
       hlolayout ttnn draw [--svg FILE|-] [--core X,Y] SPEC|-

Pictures of a TTNN tensor: its pages (tiles or row segments) labelled and
coloured by the core holding them (sharded) or the bank (interleaved);
the core grid with the shards on each core (or the banks with their page
counts); and the device pages on one core, each labelled with the host
page it holds (padding hatched). Text on the terminal, or SVG.

flags:
  --core X,Y               the core whose pages to show (default: the first)
  --svg FILE|-             write SVG to FILE ('-': standard output)
  --color WHEN             auto (default), always or never: ANSI colours
  --ascii                  + - | instead of box-drawing characters
)";

}  // namespace

std::string TtnnDrawHelp() {
  return absl::StrCat(kDrawHelp, kTtnnSpecFlagsHelp);
}

int RunTtnnDraw(const std::vector<std::string>& raw, IoContext& io) {
  constexpr absl::string_view kWho = "hlolayout ttnn draw";
  std::vector<absl::string_view> valued(TtnnSpecFlags().begin(),
                                        TtnnSpecFlags().end());
  valued.insert(valued.end(), {"svg", "color", "core"});
  absl::StatusOr<Args> args = ParseArgs(raw, {"ascii", "help"}, valued);
  if (!args.ok() || args->positional.size() > 1) {
    io.err << kWho << ": "
           << (args.ok() ? "expects at most one SPEC argument"
                         : args.status().message())
           << "\n";
    return 2;
  }
  const std::string* spec_arg =
      args->positional.empty() ? nullptr : &args->positional[0];
  absl::StatusOr<TtnnInputs> inputs = ReadTtnnInputs(*args, spec_arg, io);
  if (!inputs.ok() || inputs->specs.size() != 1) {
    io.err << kWho << ": "
           << (inputs.ok() ? "expects one spec" : inputs.status().message())
           << "\n";
    return 2;
  }
  absl::StatusOr<bool> colour = ShouldColour(args->Value("color", "auto"), io);
  if (!colour.ok()) {
    io.err << kWho << ": " << colour.status().message() << "\n";
    return 2;
  }
  absl::StatusOr<ttnn::TensorSpec> spec =
      ttnn::TensorSpec::Make(inputs->specs[0], inputs->device);
  if (!spec.ok()) {
    io.err << kWho << ": " << TtnnInputSummary(inputs->specs[0]) << ": "
           << spec.status().message() << "\n";
    return 1;
  }
  int64_t core_index = 0;
  if (args->Has("core")) {
    std::vector<absl::string_view> xy =
        absl::StrSplit(args->values.at("core"), ',');
    ttnn::CoreCoord c;
    if (xy.size() != 2 || !absl::SimpleAtoi(xy[0], &c.x) ||
        !absl::SimpleAtoi(xy[1], &c.y)) {
      io.err << kWho << ": bad --core '" << args->values.at("core")
             << "' (X,Y)\n";
      return 2;
    }
    core_index = -1;
    if (spec->distribution()) {
      const auto& cores = spec->distribution()->cores();
      for (size_t i = 0; i < cores.size(); ++i) {
        if (cores[i] == c) core_index = static_cast<int64_t>(i);
      }
    }
    if (core_index < 0) {
      io.err << kWho << ": core " << ttnn::CoreName(c)
             << " holds no shard of this tensor\n";
      return 1;
    }
  }
  std::vector<draw::CellGrid> grids;
  absl::StatusOr<draw::CellGrid> g = draw::TtnnPagesGrid(*spec);
  if (g.ok()) grids.push_back(*std::move(g));
  absl::StatusOr<draw::CellGrid> cores = draw::TtnnCoresGrid(*spec);
  if (!cores.ok()) g = cores.status();
  if (cores.ok()) grids.push_back(*std::move(cores));
  if (g.ok() && spec->distribution() && spec->distribution()->num_cores() > 0) {
    absl::StatusOr<draw::CellGrid> core =
        draw::TtnnCorePagesGrid(*spec, core_index);
    if (!core.ok()) g = core.status();
    if (core.ok()) grids.push_back(*std::move(core));
  }
  if (!g.ok()) {
    io.err << kWho << ": " << g.status().message() << "\n";
    return 1;
  }
  const std::string title = TtnnInputSummary(inputs->specs[0]);
  if (args->Has("svg")) {
    absl::Status s =
        WriteSvg(args->Value("svg", "-"), draw::GridsToSvg(grids, title), io);
    if (!s.ok()) {
      io.err << kWho << ": " << s.message() << "\n";
      return 1;
    }
    return 0;
  }
  io.out << title << "\n\n"
         << draw::GridsToText(grids,
                              draw::TextStyle{*colour, args->Has("ascii")});
  return 0;
}

}  // namespace hlolayout::cli

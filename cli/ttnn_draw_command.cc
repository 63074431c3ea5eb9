// `hlolayout ttnn draw`: a TTNN tensor's pages over cores or banks.
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/types/optional.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/draw_output.h"
#include "hlolayout/cli/ttnn_commands.h"
#include "hlolayout/cli/ttnn_input.h"
#include "hlolayout/ttnn/spec_text.h"
#include "hlolayout/views/ttnn_drawing.h"

namespace hlolayout::cli {
namespace {

constexpr char kDrawHelp[] =
    R"(usage: hlolayout ttnn draw [--svg FILE|-] [--core X,Y] --shape SHAPE [FLAGS]
       hlolayout ttnn draw [--svg FILE|-] [--core X,Y] --spec FILE|-
       hlolayout ttnn draw [--svg FILE|-] [--core X,Y] SPEC|-

Pictures of any TTNN tensor: the core grid with each core's shards and
the bytes of data it holds (interleaved: the banks with their pages and
bytes); the tensor's pages (tiles or row segments) labelled and coloured by
the core (or bank) holding each, or, when there are more than 16,384, the
tensor in shards, each labelled by its core; and on request (--core) the
device pages on one core, each labelled with the host page it holds
(padding hatched), as ttnn-visualizer zooms into a core. Text on the
terminal, or SVG.

flags:
  --core X,Y               also draw the pages on core (X,Y)
  --svg FILE|-             write SVG to FILE ('-': standard output)
  --color WHEN             auto (default), always or never: ANSI colours
  --ascii                  + - | instead of box-drawing characters
)";

// --core X,Y. Errors: bad text (InvalidArgument).
absl::StatusOr<ttnn::CoreCoord> ParseCore(absl::string_view text) {
  std::vector<absl::string_view> xy = absl::StrSplit(text, ',');
  ttnn::CoreCoord c;
  if (xy.size() != 2 || !absl::SimpleAtoi(xy[0], &c.x) ||
      !absl::SimpleAtoi(xy[1], &c.y)) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad --core '", text, "' (X,Y)"));
  }
  return c;
}

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
  const ttnn::TensorSpecInput& in = inputs->specs[0];
  absl::StatusOr<ttnn::TensorSpec> spec =
      ttnn::TensorSpec::Make(in, inputs->device.params);
  if (!spec.ok()) {
    io.err << kWho << ": " << ttnn::SpecSummary(in) << ": "
           << spec.status().message() << "\n";
    return 1;
  }
  absl::optional<ttnn::CoreCoord> core;
  if (args->Has("core")) {
    absl::StatusOr<ttnn::CoreCoord> c = ParseCore(args->values.at("core"));
    if (!c.ok()) {
      io.err << kWho << ": " << c.status().message() << "\n";
      return 2;
    }
    core = *c;
  }
  absl::StatusOr<draw::TtnnDrawing> drawing =
      draw::DrawTtnnSpec(in, *spec, inputs->device, core);
  if (!drawing.ok()) {
    io.err << kWho << ": " << drawing.status().message() << "\n";
    return 1;
  }
  for (const std::string& w : drawing->warnings) {
    io.err << kWho << ": warning: " << w << "\n";
  }
  if (args->Has("svg")) {
    absl::Status s =
        WriteSvg(args->Value("svg", "-"),
                 draw::GridsToSvg(drawing->grids, drawing->title), io);
    if (!s.ok()) {
      io.err << kWho << ": " << s.message() << "\n";
      return 1;
    }
    return 0;
  }
  io.out << drawing->title << "\n"
         << ttnn::DeviceLine(inputs->device) << "\n\n"
         << draw::GridsToText(drawing->grids,
                              draw::TextStyle{*colour, args->Has("ascii")});
  return 0;
}

}  // namespace hlolayout::cli

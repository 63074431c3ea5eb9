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
#include "hlolayout/draw/ttnn_picture.h"
#include "hlolayout/ttnn/device.h"

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

// The index into the distribution's cores of --core X,Y. Errors: bad text
// (InvalidArgument), a core holding no shard (NotFound).
absl::StatusOr<int64_t> CoreIndex(const ttnn::TensorSpec& spec,
                                  absl::string_view text) {
  std::vector<absl::string_view> xy = absl::StrSplit(text, ',');
  ttnn::CoreCoord c;
  if (xy.size() != 2 || !absl::SimpleAtoi(xy[0], &c.x) ||
      !absl::SimpleAtoi(xy[1], &c.y)) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad --core '", text, "' (X,Y)"));
  }
  if (spec.distribution()) {
    const auto& cores = spec.distribution()->cores();
    for (size_t i = 0; i < cores.size(); ++i) {
      if (cores[i] == c) return static_cast<int64_t>(i);
    }
  }
  return absl::NotFoundError(absl::StrCat(
      "core ", ttnn::CoreName(c),
      spec.distribution()
          ? " holds no shard of this tensor"
          : ": an interleaved tensor lies in banks, not on cores"));
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
  // A spec the device cannot hold is drawn too, saying so: the picture is
  // how one finds a cut that fits.
  absl::StatusOr<ttnn::TensorSpec> made =
      ttnn::TensorSpec::Make(inputs->specs[0], inputs->device);
  if (!made.ok()) {
    io.err << kWho << ": " << TtnnInputSummary(inputs->specs[0]) << ": "
           << made.status().message() << "\n";
    return 1;
  }
  absl::StatusOr<ttnn::FitReport> fit =
      ttnn::CheckFit(*made, *inputs->device_info);
  std::vector<std::string> problems =
      !inputs->check_fit ? std::vector<std::string>{}
      : fit.ok()         ? fit->warnings
                         : std::vector<std::string>{
                               absl::StrCat("does not fit ", inputs->device_info->name,
                                            ": ", fit.status().message())};
  const ttnn::TensorSpec& spec = *made;
  absl::optional<int64_t> core_index;
  if (args->Has("core")) {
    absl::StatusOr<int64_t> i = CoreIndex(spec, args->values.at("core"));
    if (!i.ok()) {
      io.err << kWho << ": " << i.status().message() << "\n";
      return absl::IsInvalidArgument(i.status()) ? 2 : 1;
    }
    core_index = *i;
  }
  absl::StatusOr<std::vector<draw::CellGrid>> grids =
      draw::TtnnPicture(spec, core_index);
  if (!grids.ok()) {
    io.err << kWho << ": " << grids.status().message() << "\n";
    return 1;
  }
  std::string title = absl::StrCat(TtnnInputSummary(inputs->specs[0]), " on ",
                                   inputs->device_info->name);
  if (spec.shard_shape_derived()) {
    absl::StrAppend(&title, "; shard shape derived: ",
                    spec.memory_config().shard_spec->shape[0], "x",
                    spec.memory_config().shard_spec->shape[1]);
  }
  for (const std::string& w : problems) {
    io.err << kWho << ": warning: " << w << "\n";
    (*grids)[0].notes.push_back(absl::StrCat("warning: ", w));
  }
  if (args->Has("svg")) {
    absl::Status s =
        WriteSvg(args->Value("svg", "-"), draw::GridsToSvg(*grids, title), io);
    if (!s.ok()) {
      io.err << kWho << ": " << s.message() << "\n";
      return 1;
    }
    return 0;
  }
  io.out << title << "\n"
         << TtnnDeviceLine(*inputs) << "\n\n"
         << draw::GridsToText(*grids,
                              draw::TextStyle{*colour, args->Has("ascii")});
  return 0;
}

}  // namespace hlolayout::cli

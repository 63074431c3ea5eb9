// `hlolayout ttnn spec`: a TTNN TensorSpec as tt-metal computes it.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "hlolayout/answers/ttnn.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/ttnn_commands.h"
#include "hlolayout/cli/ttnn_input.h"
#include "hlolayout/ttnn/spec_text.h"
#include "hlolayout/ttnn/tensor_spec.h"
#include "hlolayout/util/fields.h"

namespace hlolayout::cli {
namespace {

constexpr char kSpecHelp[] =
    R"(usage: hlolayout ttnn spec [--json] [--full] --shape SHAPE [FLAGS]
       hlolayout ttnn spec [--json] [--full] --spec FILE|-
       hlolayout ttnn spec [--json] [--full] SPEC|-

A TTNN TensorSpec as tt-metal's layout code computes it: the alignment,
padded, logical 2-D and physical shapes, the page (a tile or a row
segment) and its bytes, the page count, the packed buffer size, the
strides, the bytes one bank or core holds at most, the memory config after
TensorSpec resolves a 2-D shard spec to ND and back, and for sharded
tensors which core holds which shards and pages (-1 or '.': a padding
page). Inputs tt-metal refuses are refused with the rule in words (exit
status 1). SPEC is a JSON object or JSON lines, inline or in a file; with
JSON lines each spec is answered on its own line (--json) or block.

flags:
  --json                   the fields of the TTNN test data's "output", with
                           tt-metal's names: {"alignment": ..., "distribution":
                           ..., "padded_shape": ...}; a refusal is {"error":
                           ..., "rule": ...}
  --full                   every core and every page, not the first 64 cores,
                           16 mapped cores and 8 pages (text: 16 cores, 12
                           pages)
)";
}  // namespace

std::string TtnnSpecHelp() {
  return absl::StrCat(kSpecHelp, kTtnnSpecFlagsHelp);
}

int RunTtnnSpec(const std::vector<std::string>& raw, IoContext& io) {
  std::vector<absl::string_view> valued(TtnnSpecFlags().begin(),
                                        TtnnSpecFlags().end());
  absl::StatusOr<Args> args = ParseArgs(raw, {"json", "full", "help"}, valued);
  if (!args.ok()) {
    io.err << "hlolayout ttnn spec: " << args.status().message() << "\n";
    return 2;
  }
  if (args->positional.size() > 1) {
    io.err << "hlolayout ttnn spec: expects at most one SPEC argument\n";
    return 2;
  }
  const std::string* spec_arg =
      args->positional.empty() ? nullptr : &args->positional[0];
  absl::StatusOr<TtnnInputs> inputs = ReadTtnnInputs(*args, spec_arg, io);
  if (!inputs.ok()) {
    io.err << "hlolayout ttnn spec: " << inputs.status().message() << "\n";
    return 2;
  }
  const bool json = args->Has("json"), full = args->Has("full");
  ttnn::JsonLimits limits;
  if (full) limits = {-1, -1, -1};
  int status = 0;
  bool first = true;
  for (const ttnn::TensorSpecInput& in : inputs->specs) {
    absl::StatusOr<ttnn::CheckedSpec> spec =
        ttnn::CheckSpec(in, inputs->device);
    if (json) {
      ttnn::SpecNotes notes;
      if (spec.ok()) {
        notes.device = inputs->device.check_fit
                           ? std::string(inputs->device.device->name)
                           : "none";
        notes.warnings = spec->warnings;
      }
      io.out << (spec.ok()
                     ? AnswerJson(ttnn::AnswerSpec(spec->spec, limits, &notes))
                     : AnswerJson(ttnn::AnswerRefusal(spec.status())))
             << "\n";
    } else if (spec.ok()) {
      if (!first) io.out << "\n";
      io.out << ttnn::SpecText(in, *spec, inputs->device, full);
    } else {
      io.err << "hlolayout ttnn spec: " << ttnn::SpecSummary(in) << ": "
             << spec.status().message() << "\n";
    }
    if (!spec.ok()) status = 1;
    first = false;
  }
  return status;
}

}  // namespace hlolayout::cli

// `hlolayout ttnn spec`: a TTNN TensorSpec as tt-metal computes it.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/ttnn_commands.h"
#include "hlolayout/cli/ttnn_input.h"
#include "hlolayout/cli/ttnn_json.h"
#include "hlolayout/ttnn/tensor_spec.h"

namespace hlolayout::cli {
namespace {

std::string Dims(absl::Span<const int64_t> d) {
  return absl::StrCat("[", absl::StrJoin(d, ", "), "]");
}
std::string Dims2(const std::array<int64_t, 2>& d) { return Dims(d); }

std::string ShardLine(const ttnn::ShardSpec& s) {
  return absl::StrCat(Dims2(s.shape), " on ", s.grid.ToString(), " ",
                      ttnn::OrientationName(s.orientation));
}

void DistributionText(const ttnn::BufferDistribution& d, bool full,
                      std::string* out) {
  absl::StrAppend(out, "distribution      ", d.num_shards(), " shards of ",
                  Dims(d.shard_shape_in_pages()), " pages over ",
                  Dims(d.tensor_shape_in_pages()), ", on ", d.num_cores(),
                  " cores (", d.num_cores_with_data(), " with data), at most ",
                  d.max_shards_per_core(), " per core (",
                  d.max_dev_pages_per_core(), " pages)\n");
  const int64_t cores =
      full ? d.num_cores() : std::min<int64_t>(16, d.num_cores());
  const int64_t pages = d.host_pages() == 0 ? 0 : d.max_dev_pages_per_core();
  for (int64_t i = 0; i < cores; ++i) {
    std::string line = absl::StrCat("  core ", ttnn::CoreName(d.cores()[i]));
    line.resize(std::max<size_t>(line.size() + 1, 18), ' ');
    absl::StrAppend(&line, d.ShardsOnCore(i), " shard",
                    d.ShardsOnCore(i) == 1 ? "" : "s", ": host pages");
    const int64_t shown = full ? pages : std::min<int64_t>(pages, 12);
    for (int64_t p = 0; p < shown; ++p) {
      const int64_t h = d.HostPage(i, p);
      absl::StrAppend(&line, " ", h < 0 ? std::string(".") : absl::StrCat(h));
    }
    if (shown < pages)
      absl::StrAppend(&line, " ... (", pages, " device pages)");
    absl::StrAppend(out, line, "\n");
  }
  if (cores < d.num_cores()) {
    absl::StrAppend(out, "  ... ", d.num_cores() - cores,
                    " more cores (--full lists them)\n");
  }
}

std::string SpecText(const ttnn::TensorSpecInput& in, const TtnnChecked& c,
                     const TtnnInputs& inputs, bool full) {
  const ttnn::TensorSpec& s = c.spec;
  const ttnn::MemoryConfig& m = s.memory_config();
  std::string out = absl::StrCat(TtnnInputSummary(in), "\n");
  absl::StrAppend(&out, "device            ", TtnnDeviceLine(inputs), "\n");
  for (const std::string& w : c.warnings) {
    absl::StrAppend(&out, "warning           ", w, "\n");
  }
  absl::StrAppend(&out, "memory layout     ", ttnn::MemoryLayoutName(m.layout),
                  m.layout != in.memory.layout ? " (resolved)" : "", "\n");
  absl::StrAppend(&out, "alignment         ", Dims(s.alignment()), "\n");
  absl::StrAppend(&out, "padded shape      ", Dims(s.padded_shape()), "\n");
  absl::StrAppend(&out, "logical 2-D       ", Dims2(s.logical_2d_shape()),
                  "\n");
  absl::StrAppend(&out, "physical shape    ", Dims2(s.physical_shape()), "\n");
  absl::StrAppend(&out, "page              ", s.page_shape()[0], "x",
                  s.page_shape()[1], ", ", s.page_size_bytes(), " bytes; ",
                  s.num_pages(), " pages, ", s.packed_buffer_size_bytes(),
                  " bytes packed\n");
  absl::StrAppend(&out, "strides           ", Dims(s.strides()), "\n");
  absl::StrAppend(&out, "per bank          ", s.ConsumedBytesPerBank(),
                  " bytes at most (", s.num_banks(), " ",
                  ttnn::BufferTypeName(s.buffer_type()),
                  " banks, pages aligned to ", s.page_alignment(), " bytes)\n");
  if (!m.sharded()) {
    absl::StrAppend(&out, "banks             page p in bank p mod ",
                    s.num_banks(), ", at (p div ", s.num_banks(), ") * ",
                    s.AlignedPageSize(s.page_alignment()), " bytes\n");
    return out;
  }
  if (m.shard_spec) {
    absl::StrAppend(&out, "shard spec        ", ShardLine(*m.shard_spec),
                    s.shard_shape_derived()
                        ? " (shard shape derived: ttnn.create_sharded_memory_"
                          "config's rule)"
                        : "",
                    "\n");
    const ttnn::ShardSpecBuffer& b = *s.shard_spec_buffer();
    absl::StrAppend(&out, "  in pages        ", Dims2(b.shard_shape_in_pages),
                    " of ", Dims2(b.tensor2d_shape_in_pages), ", ",
                    b.num_pages_per_shard, " per shard\n");
  }
  if (m.nd_shard_spec) {
    const ttnn::NdShardSpec& nd = *m.nd_shard_spec;
    absl::StrAppend(&out, "nd shard spec     ", Dims(nd.shard_shape), " on ",
                    nd.grid.ToString(), " ",
                    ttnn::OrientationName(nd.orientation), " ",
                    ttnn::DistributionName(nd.distribution), "\n");
  }
  DistributionText(*s.distribution(), full, &out);
  return out;
}

}  // namespace

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
  TtnnJsonLimits limits;
  if (full) limits = {-1, -1, -1};
  int status = 0;
  bool first = true;
  for (const ttnn::TensorSpecInput& in : inputs->specs) {
    absl::StatusOr<TtnnChecked> spec = MakeTtnnSpec(in, *inputs);
    if (json) {
      TtnnSpecNotes notes;
      if (spec.ok()) {
        notes.device =
            inputs->check_fit ? std::string(inputs->device_info->name) : "none";
        notes.warnings = spec->warnings;
      }
      io.out << (spec.ok() ? TtnnSpecJson(spec->spec, limits, &notes)
                           : TtnnRefusalJson(spec.status()))
             << "\n";
    } else if (spec.ok()) {
      if (!first) io.out << "\n";
      io.out << SpecText(in, *spec, *inputs, full);
    } else {
      io.err << "hlolayout ttnn spec: " << TtnnInputSummary(in) << ": "
             << spec.status().message() << "\n";
    }
    if (!spec.ok()) status = 1;
    first = false;
  }
  return status;
}

}  // namespace hlolayout::cli

// `hlolayout ttnn mesh`: the slice each device of a mesh holds.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/answers/ttnn.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/ttnn_commands.h"
#include "hlolayout/cli/ttnn_input.h"
#include "hlolayout/ttnn/mesh.h"
#include "hlolayout/ttnn/spec_text.h"
#include "hlolayout/util/fields.h"

namespace hlolayout::cli {
namespace {

constexpr char kMeshHelp[] =
    R"(usage: hlolayout ttnn mesh [--json] --mesh MESH --placements PLACEMENTS --shape SHAPE [FLAGS]
       hlolayout ttnn mesh [--json] --mesh MESH --placements PLACEMENTS --spec FILE|-
       hlolayout ttnn mesh [--json] --mesh MESH --placements PLACEMENTS SPEC|-

A tensor distributed over a mesh of devices as TTNN's mesh mappers do it
(ttnn.create_mesh_mapper with a MeshMapperConfig): one placement per mesh
dim, Shard(d) cutting tensor dim d into chunks of ceil(size / devices), or
Replicate; which device holds which slice, and that slice's own spec
(every slice has the same shape). ShardTensorToMesh(dim) is --mesh N
--placements S<dim>; ReplicateTensorToMesh is --placements R;
ShardTensor2dMesh(dims=(r, c)) is --mesh RxC --placements S<r>,S<c> (R for
None).

flags:
  --mesh MESH              the mesh shape: N, RxC, ... (needed)
  --placements PLACEMENTS  one per mesh dim: S<dim> (Shard) or R (Replicate),
                           e.g. S0,R (needed)
  --mesh-shape-override DIST  distribute over this shape instead (SUBMESH when
                           it fits in the mesh, else devices in row-major order)
  --json                   {"mesh_shape", "distribution_shape", "placements",
                           "mode", "slice_shape", "devices": [{"device",
                           "holds_data", "begin", "end"}], "slice_spec"}
)";

std::string Slice(const ttnn::MeshSlice& s) {
  if (!s.holds_data) return "nothing";
  std::vector<std::string> parts;
  for (size_t i = 0; i < s.begin.size(); ++i) {
    parts.push_back(absl::StrCat(s.begin[i], ":", s.end[i]));
  }
  return absl::StrCat("[", absl::StrJoin(parts, ", "), "]");
}

}  // namespace

std::string TtnnMeshHelp() {
  return absl::StrCat(kMeshHelp, kTtnnSpecFlagsHelp);
}

int RunTtnnMesh(const std::vector<std::string>& raw, IoContext& io) {
  std::vector<absl::string_view> valued(TtnnSpecFlags().begin(),
                                        TtnnSpecFlags().end());
  valued.insert(valued.end(), {"mesh", "placements", "mesh-shape-override"});
  absl::StatusOr<Args> args = ParseArgs(raw, {"json", "help"}, valued);
  if (!args.ok()) {
    io.err << "hlolayout ttnn mesh: " << args.status().message() << "\n";
    return 2;
  }
  if (!args->Has("mesh") || !args->Has("placements")) {
    io.err << "hlolayout ttnn mesh: expects --mesh and --placements\n";
    return 2;
  }
  absl::StatusOr<std::vector<int64_t>> mesh =
      ParseDims(args->values.at("mesh"), "--mesh");
  absl::optional<std::vector<ttnn::MeshPlacement>> placements =
      ttnn::PlacementsFromString(args->values.at("placements"));
  if (!mesh.ok() || !placements) {
    io.err << "hlolayout ttnn mesh: "
           << (mesh.ok() ? absl::StrCat("bad --placements '",
                                        args->values.at("placements"),
                                        "' (S<dim> or R, comma-separated)")
                         : std::string(mesh.status().message()))
           << "\n";
    return 2;
  }
  ttnn::MeshMapperConfig config{*placements, absl::nullopt};
  if (args->Has("mesh-shape-override")) {
    absl::StatusOr<std::vector<int64_t>> o = ParseDims(
        args->values.at("mesh-shape-override"), "--mesh-shape-override");
    if (!o.ok()) {
      io.err << "hlolayout ttnn mesh: " << o.status().message() << "\n";
      return 2;
    }
    config.mesh_shape_override = *o;
  }
  if (args->positional.size() > 1) {
    io.err << "hlolayout ttnn mesh: expects at most one SPEC argument\n";
    return 2;
  }
  const std::string* spec_arg =
      args->positional.empty() ? nullptr : &args->positional[0];
  absl::StatusOr<TtnnInputs> inputs = ReadTtnnInputs(*args, spec_arg, io);
  if (!inputs.ok()) {
    io.err << "hlolayout ttnn mesh: " << inputs.status().message() << "\n";
    return 2;
  }
  int status = 0;
  for (const ttnn::TensorSpecInput& in : inputs->specs) {
    absl::StatusOr<ttnn::MeshDistribution> d =
        ttnn::DistributeOverMesh(in.shape, *mesh, config);
    if (!d.ok()) {
      if (args->Has("json"))
        io.out << AnswerJson(ttnn::AnswerRefusal(d.status())) << "\n";
      io.err << "hlolayout ttnn mesh: " << d.status().message() << "\n";
      status = 1;
      continue;
    }
    ttnn::TensorSpecInput slice = in;
    slice.shape = d->slice_shape;
    // Each device of the mesh is one chip of --device: the slice is checked
    // against it.
    absl::StatusOr<ttnn::CheckedSpec> checked =
        ttnn::CheckSpec(slice, inputs->device);
    absl::StatusOr<ttnn::TensorSpec> spec =
        checked.ok() ? absl::StatusOr<ttnn::TensorSpec>(checked->spec)
                     : absl::StatusOr<ttnn::TensorSpec>(checked.status());
    if (checked.ok()) {
      for (const std::string& w : checked->warnings) {
        io.err << "hlolayout ttnn mesh: warning: " << w << "\n";
      }
    }
    if (args->Has("json")) {
      io.out << AnswerJson(ttnn::AnswerMesh(*d, *placements, spec)) << "\n";
      continue;
    }
    io.out << ttnn::SpecSummary(in) << "\nover mesh ["
           << absl::StrJoin(*mesh, ", ") << "], placements "
           << ttnn::PlacementsToString(*placements) << " ("
           << (d->submesh ? "SUBMESH" : "devices in row-major order") << ")\n";
    for (const ttnn::MeshSlice& s : d->slices) {
      io.out << "  device (" << absl::StrJoin(s.device, ",") << ")  "
             << Slice(s) << "\n";
    }
    io.out << "each slice [" << absl::StrJoin(d->slice_shape, ", ") << "]: ";
    if (spec.ok()) {
      io.out << "padded [" << absl::StrJoin(spec->padded_shape(), ", ") << "], "
             << ttnn::MemoryLayoutName(spec->memory_config().layout) << ", "
             << spec->num_pages() << " pages of " << spec->page_size_bytes()
             << " bytes, " << spec->ConsumedBytesPerBank()
             << " bytes per bank at most\n";
    } else {
      io.out << "refused: " << spec.status().message() << "\n";
      status = 1;
    }
  }
  return status;
}

}  // namespace hlolayout::cli

#include "hlolayout/ttnn/mesh.h"

#include <algorithm>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "hlolayout/ttnn/refusal.h"
#include "hlolayout/util/int_math.h"

namespace hlolayout::ttnn {
namespace {

std::string Dims(absl::Span<const int64_t> dims) {
  return absl::StrCat("[", absl::StrJoin(dims, ", "), "]");
}

// Steps `index` to the next coordinate of `shape` in row-major order;
// false after the last one.
bool Next(absl::Span<const int64_t> shape, std::vector<int64_t>* index) {
  for (int i = static_cast<int>(index->size()) - 1; i >= 0; --i) {
    if (++(*index)[i] < shape[i]) return true;
    (*index)[i] = 0;
  }
  return false;
}

int64_t RowMajor(absl::Span<const int64_t> shape,
                 absl::Span<const int64_t> index) {
  int64_t r = 0;
  for (size_t i = 0; i < shape.size(); ++i) r = r * shape[i] + index[i];
  return r;
}

// One sharded mesh dim: the tensor dim it cuts and the chunks.
struct Cut {
  int64_t mesh_dim;
  int64_t tensor_dim;
  int64_t devices;
  std::vector<std::pair<int64_t, int64_t>> chunks;  // [begin, end)
};

absl::StatusOr<std::vector<Cut>> Cuts(absl::Span<const int64_t> tensor,
                                      absl::Span<const int64_t> dist,
                                      const MeshMapperConfig& config) {
  std::vector<Cut> cuts;
  const int64_t rank = static_cast<int64_t>(tensor.size());
  // chunk_ndim: every dim is checked before any is cut.
  for (size_t m = 0; m < dist.size(); ++m) {
    const MeshPlacement& p = config.placements[m];
    if (!p.shard) continue;
    const int64_t d = p.dim < 0 ? p.dim + rank : p.dim;
    if (d < 0 || d >= rank) {
      return Refused(
          rule::kMeshDim,
          absl::StrCat("Shard(", p.dim, ") names no dim of a rank-", rank,
                       " tensor (TTNN: \"Invalid dimension "
                       "index\")"));
    }
    cuts.push_back(Cut{static_cast<int64_t>(m), d, dist[m], {}});
  }
  for (size_t i = 0; i < cuts.size(); ++i) {
    for (size_t j = i + 1; j < cuts.size(); ++j) {
      if (cuts[i].tensor_dim == cuts[j].tensor_dim) {
        return Refused(
            rule::kMeshDim,
            absl::StrCat("two placements shard dim ", cuts[i].tensor_dim,
                         " (TTNN: \"dims must be unique\")"));
      }
    }
  }
  for (Cut& c : cuts) {
    const int64_t size = tensor[c.tensor_dim];
    const int64_t chunk = CeilDiv(size, c.devices);
    for (int64_t start = 0;
         start < size && static_cast<int64_t>(c.chunks.size()) < c.devices;
         start += chunk) {
      c.chunks.push_back({start, std::min(size, start + chunk)});
    }
  }
  return cuts;
}

// Every device shares one spec, so every chunk must have the same shape.
absl::Status CheckChunkShapes(absl::Span<const int64_t> tensor,
                              const std::vector<Cut>& cuts) {
  for (const Cut& c : cuts) {
    const int64_t size = tensor[c.tensor_dim];
    const int64_t chunk = c.chunks.front().second - c.chunks.front().first;
    if (c.chunks.size() > 1 && size % chunk != 0) {
      return Refused(
          rule::kMeshShardShape,
          absl::StrCat("dim ", c.tensor_dim, " of size ", size,
                       " cut into chunks of ", chunk,
                       " leaves a last chunk of ", size % chunk,
                       ": every device must hold the same shape (TTNN: "
                       "\"Shard shape mismatch\")"));
    }
  }
  return absl::OkStatus();
}

// Whether the distribution keeps its coordinates on the mesh (SUBMESH) or
// takes the mesh's devices in row-major order.
bool IsSubmesh(absl::Span<const int64_t> mesh, const MeshMapperConfig& config) {
  if (!config.mesh_shape_override) return true;
  const std::vector<int64_t>& o = *config.mesh_shape_override;
  if (o.size() != mesh.size()) return false;
  for (size_t i = 0; i < o.size(); ++i) {
    if (o[i] > mesh[i]) return false;
  }
  return true;
}

absl::Status CheckShapes(absl::Span<const int64_t> tensor,
                         absl::Span<const int64_t> mesh,
                         absl::Span<const int64_t> dist,
                         const MeshMapperConfig& config) {
  for (absl::Span<const int64_t> s : {mesh, dist}) {
    if (s.empty()) {
      return Refused(rule::kMeshSize, "a mesh shape needs at least one dim");
    }
    for (int64_t d : s) {
      if (d < 1 || d > 4096) {
        return Refused(
            rule::kMeshSize,
            absl::StrCat("mesh shape ", Dims(s), " has a dim outside 1..4096"));
      }
    }
  }
  for (int64_t d : tensor) {
    if (d < 0 || d > (int64_t{1} << 32) - 1) {
      return Refused(rule::kDimRange,
                     absl::StrCat("the shape ", Dims(tensor),
                                  " has a dim outside 0..2^32-1"));
    }
  }
  if (dist.size() != config.placements.size()) {
    return Refused(rule::kMeshPlacements,
                   absl::StrCat("the distribution shape ", Dims(dist), " has ",
                                dist.size(), " dims but there are ",
                                config.placements.size(),
                                " placements (TTNN: one placement per mesh "
                                "dim)"));
  }
  // Device counts, stopped past the largest mesh (dims are 1..4096, their
  // number is not bounded: eight of 4096 would pass int64). Past here,
  // products of these dims fit.
  constexpr int64_t kMostDevices = 65536;
  const auto devices = [](absl::Span<const int64_t> dims) {
    int64_t n = 1;
    for (int64_t d : dims) n = std::min(n * d, kMostDevices + 1);
    return n;
  };
  const int64_t mesh_devices = devices(mesh), dist_devices = devices(dist);
  if (mesh_devices > kMostDevices) {
    return Refused(rule::kMeshSize,
                   absl::StrCat("the mesh ", Dims(mesh), " has more than ",
                                kMostDevices, " devices"));
  }
  if (dist_devices > mesh_devices) {
    return Refused(
        rule::kMeshSize,
        absl::StrCat("the distribution shape ", Dims(dist),
                     " has more devices than the mesh ", Dims(mesh)));
  }
  return absl::OkStatus();
}

// Checks that the cuts give one chunk per device of the sharded mesh dims
// (TTNN's "No chunks were produced" and ND-sharding chunk-count checks).
absl::Status CheckChunkCount(absl::Span<const int64_t> dist,
                             const std::vector<Cut>& cuts) {
  int64_t total = 1, wanted = 1;
  for (const Cut& c : cuts) {
    total *= static_cast<int64_t>(c.chunks.size());
    wanted *= c.devices;
  }
  if (total == 0) {
    return Refused(rule::kMeshChunks,
                   "a dim of size 0 gives no chunk (TTNN: \"No chunks were "
                   "produced\")");
  }
  if (dist.size() > 1 && total != wanted) {
    return Refused(rule::kMeshChunks,
                   absl::StrCat("the sharded mesh dims have ", wanted,
                                " devices but the tensor gives ", total,
                                " chunks (TTNN: \"ND sharding requires the "
                                "number of chunks to match the mesh dimension "
                                "size\")"));
  }
  return absl::OkStatus();
}

// The slice at each distribution coordinate (row-major), or none: the
// chunk sources (replicated dims at 0) take their chunks from the cuts,
// then every coordinate copies its source along the replicated mesh dims.
std::vector<absl::optional<MeshSlice>> SlicesByDistributionCoord(
    absl::Span<const int64_t> tensor_shape, absl::Span<const int64_t> dist,
    const MeshMapperConfig& config, const std::vector<Cut>& cuts) {
  int64_t dist_devices = 1;
  for (int64_t d : dist) dist_devices *= d;
  std::vector<absl::optional<MeshSlice>> at(dist_devices);
  std::vector<int64_t> coord(dist.size(), 0);
  do {
    // Only coordinates whose replicated dims are 0 are chunk sources.
    bool source = true;
    for (size_t m = 0; m < dist.size(); ++m) {
      if (!config.placements[m].shard && coord[m] != 0) source = false;
    }
    if (!source) continue;
    MeshSlice slice;
    slice.begin.assign(tensor_shape.size(), 0);
    slice.end.assign(tensor_shape.begin(), tensor_shape.end());
    bool has = true;
    for (const Cut& c : cuts) {
      const int64_t k = coord[c.mesh_dim];
      if (k >= static_cast<int64_t>(c.chunks.size())) {
        has = false;
        break;
      }
      slice.begin[c.tensor_dim] = c.chunks[k].first;
      slice.end[c.tensor_dim] = c.chunks[k].second;
    }
    if (has) at[RowMajor(dist, coord)] = slice;
  } while (Next(dist, &coord));
  // Copy along the replicated mesh dims.
  coord.assign(dist.size(), 0);
  do {
    std::vector<int64_t> src = coord;
    for (size_t m = 0; m < dist.size(); ++m) {
      if (!config.placements[m].shard) src[m] = 0;
    }
    at[RowMajor(dist, coord)] = at[RowMajor(dist, src)];
  } while (Next(dist, &coord));
  return at;
}

// Gives every device of `out->mesh_shape` its slot in `out->slices`, then
// puts the distribution's slices on the devices: at the same coordinate on a
// submesh, else in row-major order of the distribution; sets the slice shape.
void PlaceSlicesOnMesh(absl::Span<const int64_t> dist,
                       const std::vector<absl::optional<MeshSlice>>& at,
                       MeshDistribution* out) {
  const std::vector<int64_t>& mesh_shape = out->mesh_shape;
  int64_t mesh_devices = 1;
  for (int64_t d : mesh_shape) mesh_devices *= d;
  out->slices.resize(mesh_devices);
  std::vector<int64_t> m(mesh_shape.size(), 0);
  for (int64_t i = 0; i < mesh_devices; ++i) {
    out->slices[i].device = m;
    Next(mesh_shape, &m);
  }
  int64_t next_row_major = 0;
  std::vector<int64_t> coord(dist.size(), 0);
  do {
    const absl::optional<MeshSlice>& s = at[RowMajor(dist, coord)];
    if (!s) continue;
    const int64_t dst =
        out->submesh ? RowMajor(mesh_shape, coord) : next_row_major++;
    MeshSlice& d = out->slices[dst];
    d.holds_data = true;
    d.begin = s->begin;
    d.end = s->end;
    if (out->slice_shape.empty()) {
      for (size_t i = 0; i < s->begin.size(); ++i) {
        out->slice_shape.push_back(s->end[i] - s->begin[i]);
      }
    }
  } while (Next(dist, &coord));
}

}  // namespace

absl::StatusOr<MeshDistribution> DistributeOverMesh(
    absl::Span<const int64_t> tensor_shape,
    absl::Span<const int64_t> mesh_shape, const MeshMapperConfig& config) {
  const std::vector<int64_t> dist =
      config.mesh_shape_override
          ? *config.mesh_shape_override
          : std::vector<int64_t>(mesh_shape.begin(), mesh_shape.end());
  if (absl::Status s = CheckShapes(tensor_shape, mesh_shape, dist, config);
      !s.ok()) {
    return s;
  }
  absl::StatusOr<std::vector<Cut>> cuts = Cuts(tensor_shape, dist, config);
  if (!cuts.ok()) return cuts.status();
  if (absl::Status s = CheckChunkCount(dist, *cuts); !s.ok()) return s;
  if (absl::Status s = CheckChunkShapes(tensor_shape, *cuts); !s.ok()) return s;
  MeshDistribution out;
  out.mesh_shape.assign(mesh_shape.begin(), mesh_shape.end());
  out.distribution_shape = dist;
  out.submesh = IsSubmesh(mesh_shape, config);
  PlaceSlicesOnMesh(
      dist, SlicesByDistributionCoord(tensor_shape, dist, config, *cuts), &out);
  if (out.slice_shape.empty() && tensor_shape.empty()) out.slice_shape = {};
  return out;
}

std::string PlacementsToString(absl::Span<const MeshPlacement> placements) {
  std::vector<std::string> parts;
  for (const MeshPlacement& p : placements) {
    parts.push_back(p.shard ? absl::StrCat("Shard(", p.dim, ")")
                            : std::string("Replicate"));
  }
  return absl::StrCat("[", absl::StrJoin(parts, ", "), "]");
}

absl::optional<std::vector<MeshPlacement>> PlacementsFromString(
    absl::string_view text) {
  std::vector<MeshPlacement> out;
  for (absl::string_view part : absl::StrSplit(text, ',')) {
    std::string p = absl::AsciiStrToLower(absl::StripAsciiWhitespace(part));
    absl::string_view v = p;
    absl::ConsumePrefix(&v, "ttnn.");
    absl::ConsumePrefix(&v, "placement");
    if (v == "r" || v == "replicate" || v == "replicate()") {
      out.push_back(MeshPlacement::Replicate());
      continue;
    }
    if (!absl::ConsumePrefix(&v, "shard") && !absl::ConsumePrefix(&v, "s")) {
      return absl::nullopt;
    }
    if (absl::ConsumePrefix(&v, "(")) {
      if (!absl::ConsumeSuffix(&v, ")")) return absl::nullopt;
    } else {
      absl::ConsumePrefix(&v, ":");
    }
    int64_t dim;
    if (!absl::SimpleAtoi(v, &dim)) return absl::nullopt;
    out.push_back(MeshPlacement::Shard(dim));
  }
  if (out.empty()) return absl::nullopt;
  return out;
}

}  // namespace hlolayout::ttnn

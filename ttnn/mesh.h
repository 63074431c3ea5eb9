// ttnn/mesh.h: a tensor spread over a mesh of devices, as TTNN's mesh
// mappers do it (ttnn/distributed/distributed_tensor.cpp, NdTensorToMesh;
// xtensor's chunk_ndim in partition.cpp).
//
// A mapper has one placement per mesh dim: Shard(d) cuts tensor dim d into
// as many chunks as that mesh dim has devices, Replicate copies. Chunks are
// ceil(size / n) long; the last may be shorter and there may be fewer than
// n of them (6 over 4 devices: three chunks of 2). Every chunk must have
// the same shape, since all devices share one spec ("Shard shape
// mismatch"); on a mesh of rank > 1 there must be a chunk for every device
// of the sharded mesh dims. Chunk k of the sharded dims (row-major over
// them) goes to the device whose sharded coordinates are k's, then is
// copied along the replicated mesh dims; devices of a 1-D mesh left
// without a chunk hold nothing. With a distribution shape other than the
// mesh's (mesh_shape_override), devices are taken in row-major order of
// the mesh when that shape has another rank or does not fit in it, else at
// the same coordinates (SUBMESH).
//
// TTNN's named mappers are such placements: ReplicateTensorToMesh is
// [Replicate] over the devices as a 1-D mesh, ShardTensorToMesh(dim) is
// [Shard(dim)] over them, ShardTensor2dMesh(dims=(r, c)) is [Shard(r) or
// Replicate, Shard(c) or Replicate] over the 2-D mesh.
//
//   // f32[4, 6, 8] over a 2x3 mesh, [Shard(0), Shard(1)]:
//   device (0, 0) holds [0:2, 0:2, 0:8], device (1, 2) [2:4, 4:6, 0:8];
//   every slice has the shape [2, 2, 8] and the spec of that shape.
#ifndef HLOLAYOUT_TTNN_MESH_H_
#define HLOLAYOUT_TTNN_MESH_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/optional.h"
#include "absl/types/span.h"

namespace hlolayout::ttnn {

struct MeshPlacement {
  bool shard = false;  // false: Replicate
  int64_t dim = 0;     // the tensor dim a Shard cuts (negative from the end)

  static MeshPlacement Replicate() { return {false, 0}; }
  static MeshPlacement Shard(int64_t dim) { return {true, dim}; }
};

struct MeshMapperConfig {
  std::vector<MeshPlacement> placements;  // one per distribution mesh dim
  // The shape to distribute over, when not the mesh's own.
  absl::optional<std::vector<int64_t>> mesh_shape_override;
};

// The slice one device holds.
struct MeshSlice {
  std::vector<int64_t> device;  // mesh coordinate
  bool holds_data = false;
  std::vector<int64_t> begin;  // per tensor dim, inclusive
  std::vector<int64_t> end;    // exclusive
};

struct MeshDistribution {
  std::vector<int64_t> mesh_shape;
  std::vector<int64_t> distribution_shape;
  bool submesh = true;  // devices at their distribution coordinates
  // Every device's slice, in row-major order of mesh_shape.
  std::vector<MeshSlice> slices;
  // The shape of every slice that holds data.
  std::vector<int64_t> slice_shape;
};

// DistributeOverMesh
//
// Refused as TTNN refuses it: placements not matching the distribution
// shape's rank, a distribution shape with more devices than the mesh, a
// Shard dim outside the tensor ("Invalid dimension index") or twice the same
// dim ("dims must be unique"), chunks of different shapes, too few chunks on
// a mesh of rank > 1. Also refused: a mesh dim below 1.
absl::StatusOr<MeshDistribution> DistributeOverMesh(
    absl::Span<const int64_t> tensor_shape,
    absl::Span<const int64_t> mesh_shape, const MeshMapperConfig& config);

// "[Shard(0), Replicate]"
std::string PlacementsToString(absl::Span<const MeshPlacement> placements);

// Reads "shard:0,replicate" / "S0,R" / "Shard(0), Replicate()". nullopt for
// anything else.
absl::optional<std::vector<MeshPlacement>> PlacementsFromString(
    absl::string_view text);

}  // namespace hlolayout::ttnn

#endif  // HLOLAYOUT_TTNN_MESH_H_

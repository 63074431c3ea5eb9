#include "hlolayout/ttnn/mesh.h"

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "hlolayout/ttnn/refusal.h"

namespace hlolayout::ttnn {
namespace {

using V = std::vector<int64_t>;

// "(0,1) [0:2, 2:4, 0:8]" per device holding data.
std::vector<std::string> Slices(const MeshDistribution& d) {
  std::vector<std::string> out;
  for (const MeshSlice& s : d.slices) {
    if (!s.holds_data) continue;
    std::vector<std::string> r;
    for (size_t i = 0; i < s.begin.size(); ++i) {
      r.push_back(absl::StrCat(s.begin[i], ":", s.end[i]));
    }
    out.push_back(absl::StrCat("(", absl::StrJoin(s.device, ","), ") [",
                               absl::StrJoin(r, ", "), "]"));
  }
  return out;
}

MeshDistribution Map(V shape, V mesh, std::vector<MeshPlacement> p,
                     absl::optional<V> override_shape = absl::nullopt) {
  absl::StatusOr<MeshDistribution> d = DistributeOverMesh(
      shape, mesh, {std::move(p), std::move(override_shape)});
  EXPECT_TRUE(d.ok()) << d.status().message();
  return d.ok() ? *std::move(d) : MeshDistribution{};
}

// ttnn.ShardTensorToMesh(mesh_device, dim=3) on 8 devices (as in TTNN's
// multi-device docs: a [1, 1, 32, 256] tensor, 32 columns each).
TEST(MeshTest, ShardTensorToMesh) {
  const MeshDistribution d =
      Map({1, 1, 32, 256}, {8}, {MeshPlacement::Shard(3)});
  ASSERT_EQ(Slices(d).size(), 8u);
  EXPECT_EQ(Slices(d)[1], "(1) [0:1, 0:1, 0:32, 32:64]");
  EXPECT_EQ(d.slice_shape, (V{1, 1, 32, 32}));
}

// ttnn.ReplicateTensorToMesh: every device holds the whole tensor.
TEST(MeshTest, ReplicateTensorToMesh) {
  const MeshDistribution d = Map(
      {4, 8}, {2, 4}, {MeshPlacement::Replicate(), MeshPlacement::Replicate()});
  ASSERT_EQ(Slices(d).size(), 8u);
  for (const std::string& s : Slices(d))
    EXPECT_TRUE(absl::EndsWith(s, "[0:4, 0:8]"));
}

// ttnn.ShardTensor2dMesh(mesh_shape=(2, 4), dims=(0, 1)) and dims=(None, 1).
TEST(MeshTest, ShardTensor2dMesh) {
  const MeshDistribution d = Map(
      {4, 6, 8}, {2, 3}, {MeshPlacement::Shard(0), MeshPlacement::Shard(1)});
  EXPECT_EQ(Slices(d), (std::vector<std::string>{
                           "(0,0) [0:2, 0:2, 0:8]", "(0,1) [0:2, 2:4, 0:8]",
                           "(0,2) [0:2, 4:6, 0:8]", "(1,0) [2:4, 0:2, 0:8]",
                           "(1,1) [2:4, 2:4, 0:8]", "(1,2) [2:4, 4:6, 0:8]"}));
  const MeshDistribution r = Map(
      {6, 8}, {2, 4}, {MeshPlacement::Replicate(), MeshPlacement::Shard(-1)});
  EXPECT_EQ(Slices(r)[0], "(0,0) [0:6, 0:2]");
  EXPECT_EQ(Slices(r)[4], "(1,0) [0:6, 0:2]");
}

// A 1-D mesh may get fewer chunks than devices (6 rows over 4: chunks of
// 2, three of them); the fourth device holds nothing.
TEST(MeshTest, FewerChunksThanDevicesOnOneDimension) {
  const MeshDistribution d = Map({6, 8}, {4}, {MeshPlacement::Shard(0)});
  EXPECT_EQ(Slices(d).size(), 3u);
  EXPECT_FALSE(d.slices[3].holds_data);
}

// mesh_shape_override: [4] over a 2x2 mesh has another rank, so devices
// are taken in row-major order.
TEST(MeshTest, OverrideTakesDevicesInRowMajorOrder) {
  const MeshDistribution d =
      Map({6, 8}, {2, 2}, {MeshPlacement::Shard(1)}, V{4});
  EXPECT_FALSE(d.submesh);
  EXPECT_EQ(Slices(d)[2], "(1,0) [0:6, 4:6]");
}

TEST(MeshTest, RefusalsCarryTheirRule) {
  auto rule = [](V shape, V mesh, std::vector<MeshPlacement> p) {
    absl::StatusOr<MeshDistribution> d =
        DistributeOverMesh(shape, mesh, {p, {}});
    return d.ok() ? std::string("ok") : *RefusalRule(d.status());
  };
  EXPECT_EQ(rule({6, 8}, {2, 2}, {MeshPlacement::Shard(0)}), "mesh-placements");
  EXPECT_EQ(rule({6, 8}, {4}, {MeshPlacement::Shard(2)}), "mesh-dim");
  EXPECT_EQ(
      rule({6, 8}, {2, 2}, {MeshPlacement::Shard(0), MeshPlacement::Shard(-2)}),
      "mesh-dim");
  EXPECT_EQ(rule({10, 8}, {4}, {MeshPlacement::Shard(0)}), "mesh-shard-shape");
  EXPECT_EQ(rule({3, 8}, {4, 2},
                 {MeshPlacement::Shard(0), MeshPlacement::Replicate()}),
            "mesh-chunks");
  EXPECT_EQ(rule({0, 8}, {4}, {MeshPlacement::Shard(0)}), "mesh-chunks");
  // Eight dims of 4096 devices each: 2^96 devices, counted without
  // overflow and refused as more than 65536.
  EXPECT_EQ(rule({6, 8}, V(8, 4096),
                 std::vector<MeshPlacement>(8, MeshPlacement::Replicate())),
            "mesh-size");
}

TEST(MeshTest, PlacementsReadAndPrint) {
  EXPECT_EQ(PlacementsToString(*PlacementsFromString("S0,R")),
            "[Shard(0), Replicate]");
  EXPECT_EQ(PlacementsToString(*PlacementsFromString("shard:-1, replicate")),
            "[Shard(-1), Replicate]");
  EXPECT_EQ(PlacementsToString(*PlacementsFromString("PlacementShard(2)")),
            "[Shard(2)]");
  EXPECT_FALSE(PlacementsFromString("x").has_value());
  EXPECT_FALSE(PlacementsFromString("S").has_value());
}

}  // namespace
}  // namespace hlolayout::ttnn

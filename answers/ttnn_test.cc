// The TTNN model's answers and their JSON (the fields `hlolayout ttnn spec
// --json` prints), pinned on small specs.
#include "hlolayout/answers/ttnn.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/ttnn/locate.h"
#include "hlolayout/ttnn/mesh.h"
#include "hlolayout/ttnn/refusal.h"
#include "hlolayout/ttnn/tensor_spec.h"
#include "hlolayout/util/fields.h"
#include "hlolayout/util/record.h"

namespace hlolayout::ttnn {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string SpecJson(const TensorSpec& spec, const JsonLimits& limits = {},
                     const SpecNotes* notes = nullptr) {
  return AnswerJson(AnswerSpec(spec, limits, notes));
}

TensorSpecInput Interleaved64() {
  TensorSpecInput in;
  in.shape = {64, 64};
  return in;
}

// bfloat16[272, 58] TILE, L1 HEIGHT_SHARDED on cores (0,0)-(2,0), shards
// of 96x64, COL_MAJOR: the test data's first sharded example.
TensorSpecInput HeightSharded() {
  TensorSpecInput in;
  in.shape = {272, 58};
  ShardSpec shard;
  shard.grid = *CoreRangeSet::Make({{{0, 0}, {2, 0}}});
  shard.shape = {96, 64};
  shard.orientation = ShardOrientation::kColMajor;
  in.memory = MemoryConfig::Sharded(TensorMemoryLayout::kHeightSharded,
                                    BufferType::kL1, shard);
  return in;
}

TEST(TtnnAnswersTest, InterleavedSpecIsItsFieldsInOrder) {
  const TensorSpec s = *TensorSpec::Make(Interleaved64());
  EXPECT_EQ(SpecJson(s),
            "{\"alignment\": [32, 32], \"consumed_bytes_per_bank\": "
            "{\"bytes\": 2048, \"num_banks\": 12, \"page_alignment\": 32}, "
            "\"logical_2d_shape\": [64, 64], \"memory_layout\": "
            "\"INTERLEAVED\", \"num_pages\": 4, \"packed_buffer_size_bytes\": "
            "8192, \"padded_shape\": [64, 64], \"page_shape\": [32, 32], "
            "\"page_size_bytes\": 2048, \"physical_shape\": [64, 64], "
            "\"strides\": [64, 1]}");
}

TEST(TtnnAnswersTest, NotesAddTheDeviceAndItsWarnings) {
  const TensorSpec s = *TensorSpec::Make(Interleaved64());
  SpecNotes notes{"wormhole_n150", {}};
  EXPECT_THAT(SpecJson(s, {}, &notes),
              HasSubstr("\"device\": \"wormhole_n150\", \"logical_2d_shape\""));
  EXPECT_THAT(SpecJson(s, {}, &notes), Not(HasSubstr("warnings")));
  notes.warnings = {"close to full"};
  EXPECT_THAT(SpecJson(s, {}, &notes),
              HasSubstr("\"warnings\": [\"close to full\"]}"));
}

TEST(TtnnAnswersTest, ShardedSpecHasItsDistributionWithinLimits) {
  const TensorSpec s = *TensorSpec::Make(HeightSharded());
  const std::string all = SpecJson(s, {-1, -1, -1});
  EXPECT_THAT(all, HasSubstr("\"resolved_shard_spec\": {\"grid\": [[[0, 0], "
                             "[2, 0]]], \"orientation\": \"COL_MAJOR\", "
                             "\"shape\": [96, 64]}"));
  EXPECT_THAT(all, HasSubstr("\"cores\": [[0, 0], [1, 0], [2, 0]]"));
  EXPECT_THAT(SpecJson(s, {1, 1, 1}), HasSubstr("\"cores\": [[0, 0]], "));
  EXPECT_THAT(SpecJson(s, {1, 1, 1}),
              HasSubstr("\"first_host_pages\": [0], \"num_dev_pages\": 6"));
}

TEST(TtnnAnswersTest, PlaceNamesTheCoreAndOffset) {
  const TensorSpec s = *TensorSpec::Make(HeightSharded());
  EXPECT_EQ(AnswerJson(AnswerPlace(s, *Locate(s, {100, 20}))),
            "{\"index\": [100, 20], \"host_page\": 6, \"in_page\": [4, 20], "
            "\"byte_in_page\": 648, \"buffer_type\": \"L1\", \"shard\": 1, "
            "\"core\": [1, 0], \"device_page\": 0, \"offset\": 648, "
            "\"aligned_page_size\": 2048}");
}

TEST(TtnnAnswersTest, RefusalCarriesItsRuleWhenItHasOne) {
  EXPECT_EQ(AnswerJson(AnswerRefusal(Refused("grid2d-shard-rank", "no"))),
            "{\"error\": \"no\", \"rule\": \"grid2d-shard-rank\"}");
  EXPECT_EQ(AnswerJson(AnswerRefusal(absl::InvalidArgumentError("bad"))),
            "{\"error\": \"bad\"}");
}

TEST(TtnnAnswersTest, MeshListsEachDeviceAndTheSliceSpec) {
  MeshMapperConfig config;
  config.placements = {MeshPlacement::Shard(0), MeshPlacement::Replicate()};
  const MeshDistribution d = *DistributeOverMesh({64, 64}, {2, 2}, config);
  const std::string j =
      AnswerJson(AnswerMesh(d, config.placements,
                            TensorSpec::Make(Interleaved64())));  // any spec
  EXPECT_THAT(j, HasSubstr("\"mesh_shape\": [2, 2]"));
  EXPECT_THAT(j, HasSubstr("\"slice_shape\": [32, 64]"));
  EXPECT_THAT(j, HasSubstr("{\"device\": [1, 1], \"holds_data\": true, "
                           "\"begin\": [32, 0], \"end\": [64, 64]}"));
  EXPECT_THAT(AnswerJson(AnswerMesh(d, config.placements,
                                    absl::InvalidArgumentError("x"))),
              HasSubstr("\"slice_spec\": {\"error\": \"x\"}}"));
}

// The JSON keys are in alphabetical order, as the TTNN test data's, and
// the record classes are those ttnn.pyi names.
TEST(TtnnAnswersTest, SpecKeysAreInAlphabeticalOrder) {
  for (const RecordSpec* spec :
       {&SpecOf<SpecAnswer>(), &SpecOf<BankBytes>(),
        &SpecOf<SpecDistribution>(), &SpecOf<CorePages>(),
        &SpecOf<ResolvedNdShardSpec>(), &SpecOf<ResolvedShardSpec>(),
        &SpecOf<ShardSpecBufferAnswer>()}) {
    for (size_t i = 1; i < spec->fields.size(); ++i) {
      EXPECT_LT(std::string(spec->fields[i - 1].key()),
                std::string(spec->fields[i].key()))
          << spec->name;
    }
  }
  EXPECT_STREQ(SpecOf<ShardSpecBufferAnswer>().name, "ShardSpecBuffer");
  EXPECT_STREQ(SpecOf<SpecAnswer>().fields[3].type,
               "Optional[SpecDistribution]");
}

TEST(TtnnAnswersTest, ShardedSpecHasItsPageMapping) {
  const std::string json = SpecJson(*TensorSpec::Make(HeightSharded()));
  EXPECT_THAT(
      json, HasSubstr("{\"core\": [1, 0], \"first_host_pages\": [6, 7, 8, "
                      "9, 10, 11], \"num_dev_pages\": 6, \"num_shards\": 1}"));
  EXPECT_THAT(json,
              HasSubstr("\"distribution\": {\"cores\": [[0, 0], [1, "
                        "0], [2, 0]], \"max_num_dev_pages_per_core\": 6"));
}

// The requests of --spec: one per JSON line, errors located and named.
TEST(TtnnAnswersTest, SpecRequestsFromJsonLines) {
  absl::StatusOr<std::vector<TensorSpecInput>> in = SpecRequestsFromText(
      "{\"shape\": [272, 58]}\n{\"shape\": [4, 8], \"layout\": "
      "\"ROW_MAJOR\"}\n");
  ASSERT_TRUE(in.ok()) << in.status();
  ASSERT_EQ(in->size(), 2u);
  EXPECT_EQ((*in)[0].shape, (std::vector<int64_t>{272, 58}));
  EXPECT_EQ((*in)[1].shape, (std::vector<int64_t>{4, 8}));
  in = SpecRequestsFromText("{\"shape\": \"x\"}", "s.json");
  ASSERT_FALSE(in.ok());
  EXPECT_EQ(in.status().message().substr(0, 7), "s.json:");
}

}  // namespace
}  // namespace hlolayout::ttnn

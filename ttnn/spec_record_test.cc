#include "hlolayout/ttnn/spec_record.h"

#include <string>

#include "gtest/gtest.h"
#include "hlolayout/ttnn/tensor_spec.h"
#include "hlolayout/util/record.h"

namespace hlolayout::ttnn {
namespace {

std::string Json(const TensorSpec& spec, const SpecNotes* notes) {
  std::string out;
  RecordJsonWriter w(&out);
  EmitSpecAnswer(spec, JsonLimits{}, notes, w);
  EXPECT_TRUE(w.done());
  return out;
}

TEST(SpecRecordTest, InterleavedSpecLeavesOutWhatDoesNotApply) {
  TensorSpecInput in;
  in.shape = {64, 64};
  EXPECT_EQ(Json(*TensorSpec::Make(in), nullptr),
            "{\"alignment\": [32, 32], \"consumed_bytes_per_bank\": "
            "{\"bytes\": 2048, \"num_banks\": 12, \"page_alignment\": 32}, "
            "\"logical_2d_shape\": [64, 64], \"memory_layout\": "
            "\"INTERLEAVED\", \"num_pages\": 4, \"packed_buffer_size_bytes\": "
            "8192, \"padded_shape\": [64, 64], \"page_shape\": [32, 32], "
            "\"page_size_bytes\": 2048, \"physical_shape\": [64, 64], "
            "\"strides\": [64, 1]}");
  SpecNotes notes{"none", {"borderline"}};
  const std::string with_notes = Json(*TensorSpec::Make(in), &notes);
  EXPECT_NE(with_notes.find("\"device\": \"none\", \"logical_2d_shape\""),
            std::string::npos);
  EXPECT_NE(with_notes.find("\"strides\": [64, 1], \"warnings\": "
                            "[\"borderline\"]}"),
            std::string::npos);
}

TEST(SpecRecordTest, ShardedSpecHasItsDistribution) {
  TensorSpecInput in;
  in.shape = {272, 58};
  in.memory =
      MemoryConfig::Sharded(TensorMemoryLayout::kHeightSharded, BufferType::kL1,
                            {*CoreRangeSet::Make({{{0, 0}, {2, 0}}}),
                             {96, 64},
                             ShardOrientation::kColMajor});
  const std::string json = Json(*TensorSpec::Make(in), nullptr);
  EXPECT_NE(json.find("\"distribution\": {\"cores\": [[0, 0], [1, 0], [2, "
                      "0]], \"max_num_dev_pages_per_core\": 6"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("{\"core\": [1, 0], \"first_host_pages\": [6, 7, 8, 9, "
                      "10, 11], \"num_dev_pages\": 6, \"num_shards\": 1}"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"resolved_shard_spec\": {\"grid\": [[[0, 0], [2, "
                      "0]]], \"orientation\": \"COL_MAJOR\", \"shape\": [96, "
                      "64]}"),
            std::string::npos)
      << json;
}

// The JSON keys are in alphabetical order, as the TTNN test data's.
TEST(SpecRecordTest, KeysAreInAlphabeticalOrder) {
  for (const RecordSpec* spec : SpecRecordSpecs()) {
    for (size_t i = 1; i < spec->fields.size(); ++i) {
      EXPECT_LT(std::string(spec->fields[i - 1].key()),
                std::string(spec->fields[i].key()))
          << spec->name;
    }
  }
  EXPECT_EQ(SpecRecordSpecs().back(), &SpecAnswerSpec());
}

}  // namespace
}  // namespace hlolayout::ttnn

#include "hlolayout/ttnn/spec_json.h"

#include "gtest/gtest.h"
#include "hlolayout/ttnn/refusal.h"

namespace hlolayout::ttnn {
namespace {

TEST(SpecJsonTest, ReadsTheTestDataFields) {
  absl::StatusOr<std::vector<TensorSpecInput>> in = SpecInputsFromText(
      R"({"input": {"buffer_type": "L1", "dtype": "bfloat8_b", "layout": "TILE",
      "memory_layout": "WIDTH_SHARDED", "shape": [24, 264],
      "shard_spec": {"grid": [[[0, 0], [7, 0]]], "orientation": "ROW_MAJOR",
      "shape": [32, 64]}, "tile": [32, 32]}, "id": 124, "output": {}})");
  ASSERT_TRUE(in.ok()) << in.status().message();
  ASSERT_EQ(in->size(), 1u);
  const TensorSpecInput& s = (*in)[0];
  EXPECT_EQ(s.dtype, DataType::kBfloat8B);
  EXPECT_EQ(s.memory.layout, TensorMemoryLayout::kWidthSharded);
  EXPECT_EQ(s.memory.shard_spec->shape, (std::array<int64_t, 2>{32, 64}));
  EXPECT_EQ(s.memory.shard_spec->grid.num_cores(), 8);
}

TEST(SpecJsonTest, JsonLinesAndDefaults) {
  absl::StatusOr<std::vector<TensorSpecInput>> in = SpecInputsFromText(
      "{\"shape\": [64, 64]}\n\n{\"shape\": [8], \"nd_shard_spec\": "
      "{\"shard_shape\": [4], \"grid\": [[[0, 0], [1, 0]]]}}\n");
  ASSERT_TRUE(in.ok()) << in.status().message();
  ASSERT_EQ(in->size(), 2u);
  EXPECT_EQ((*in)[0].layout, Layout::kTile);
  EXPECT_EQ((*in)[0].memory.layout, TensorMemoryLayout::kInterleaved);
  EXPECT_EQ((*in)[1].memory.layout, TensorMemoryLayout::kNdSharded);
  EXPECT_TRUE((*in)[1].memory.created_with_nd_shard_spec);
}

TEST(SpecJsonTest, ErrorsPointIntoTheText) {
  absl::StatusOr<std::vector<TensorSpecInput>> bad = SpecInputsFromText(
      "{\"shape\": [64, 64]}\n{\"shape\": [64], \"dtpye\": 1}\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(std::string(bad.status().message()),
            "2:26: unknown key 'dtpye' in a tensor spec\n"
            "{\"shape\": [64], \"dtpye\": 1}\n"
            "                         ^");  // at the key's value
  absl::StatusOr<std::vector<TensorSpecInput>> tile =
      SpecInputsFromText("{\"shape\": [4], \"tile\": [8, 8]}");
  ASSERT_FALSE(tile.ok());
  EXPECT_EQ(RefusalRule(tile.status()), "tile-shape");
  EXPECT_FALSE(SpecInputsFromText("{\"shape\": [4], \"dtype\": \"f32\"}").ok());
  EXPECT_FALSE(SpecInputsFromText("{\"dtype\": \"float32\"}").ok());
  EXPECT_FALSE(SpecInputsFromText("{\"shape\": [4]").ok());
  EXPECT_FALSE(SpecInputsFromText("").ok());
}

}  // namespace
}  // namespace hlolayout::ttnn

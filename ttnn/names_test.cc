#include "hlolayout/ttnn/names.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/ttnn/memory_config.h"

namespace hlolayout::ttnn {
namespace {

using ::testing::HasSubstr;

std::string Message(NameKind kind, absl::string_view name) {
  return std::string(CheckName(kind, name).message());
}

TEST(Names, KnownNamesPass) {
  EXPECT_TRUE(CheckName(NameKind::kDataType, "bfloat8_b").ok());
  EXPECT_TRUE(CheckName(NameKind::kDataType, "ttnn.DataType.BFLOAT16").ok());
  EXPECT_TRUE(CheckName(NameKind::kMemoryLayout, "HEIGHT_SHARDED").ok());
  EXPECT_TRUE(CheckName(NameKind::kLayout, "TILE_LAYOUT").ok());
  EXPECT_TRUE(CheckName(NameKind::kBufferType, "l1").ok());
  // A TensorSpec lives in DRAM or L1: the reader takes no other buffer type
  // (tt-mlir's text names the others: ttmlir/ttmlir_attrs.h).
  EXPECT_FALSE(BufferTypeFromName("SYSTEM_MEMORY").has_value());
  EXPECT_EQ(BufferTypeFromName("ttnn.BufferType.DRAM"), BufferType::kDram);
}

// Every enum value a user might misspell gets the nearest names (issue 47
// item 4).
TEST(Names, MisspellingsGetTheNearestNames) {
  EXPECT_EQ(Message(NameKind::kDataType, "bfloat8"),
            "unknown dtype 'bfloat8'; did you mean 'bfloat8_b'? (bfloat16, "
            "float32, uint32, bfloat8_b, bfloat4_b, uint8, uint16, int32, "
            "fp8_e4m3, int8)");
  EXPECT_THAT(Message(NameKind::kMemoryLayout, "HEIGHT_SHARD"),
              HasSubstr("did you mean 'HEIGHT_SHARDED'?"));
  EXPECT_THAT(Message(NameKind::kOrientation, "ROWMAJOR"),
              HasSubstr("unknown shard orientation 'ROWMAJOR'; did you mean "
                        "'ROW_MAJOR'?"));
  EXPECT_THAT(Message(NameKind::kLayout, "TILED"),
              HasSubstr("did you mean 'TILE'?"));
  EXPECT_THAT(Message(NameKind::kBufferType, "SRAM"),
              HasSubstr("did you mean 'DRAM'?"));
  EXPECT_THAT(Message(NameKind::kDistribution, "GRID2D"),
              HasSubstr("did you mean 'GRID_2D'?"));
  // Nothing near: the list only.
  EXPECT_EQ(Message(NameKind::kBufferType, "flash"),
            "unknown buffer type 'flash' (DRAM, L1)");
}

}  // namespace
}  // namespace hlolayout::ttnn

#include "hlolayout/views/allocation_text.h"

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/testing/test_data.h"

namespace hlolayout {
namespace {

TEST(AllocationText, BytesWithUnit) {
  EXPECT_EQ(BytesWithUnit(0), "0 bytes");
  EXPECT_EQ(BytesWithUnit(1023), "1,023 bytes");
  EXPECT_EQ(BytesWithUnit(-1023), "-1,023 bytes");
  EXPECT_EQ(BytesWithUnit(1024), "1.00 KiB (1,024 bytes)");
  EXPECT_EQ(BytesWithUnit(22056980), "21.04 MiB (22,056,980 bytes)");
  EXPECT_EQ(BytesWithUnit(int64_t{3} << 40),
            "3.00 TiB (3,298,534,883,328 bytes)");
}

TEST(AllocationText, XlasFiguresOfTheMlpStep) {
  std::ifstream in(TestDataPath(
      "memory/testdata/module_105197.jit_mlp_step.sm_9.0a_gpu_after_"
      "optimizations.txt"));
  std::stringstream text;
  text << in.rdbuf();
  const std::string dump = text.str();
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(dump);
  ASSERT_TRUE(modules.ok()) << modules.status();
  absl::StatusOr<ModuleMemory> memory =
      AnalyzeModuleMemory((*modules)[0], BufferAssignmentOptions());
  ASSERT_TRUE(memory.ok()) << memory.status();
  const std::string lines = XlaAllocationText(*memory, "  ");
  EXPECT_EQ(lines.substr(0, lines.find("compiled")),
            "  XLA:GPU will allocate 26.56 MiB (27,850,866 bytes)\n"
            "    = arguments 6.53 MiB (6,847,508 bytes)\n"
            "    + temp 14.00 MiB (14,685,184 bytes)\n"
            "    + outputs 6.03 MiB (6,318,174 bytes)\n"
            "    - aliases 0 bytes\n  ");
  EXPECT_NE(lines.find("  compiled.memory_analysis(): argument_size_in_bytes="
                       "6847508 output_size_in_bytes=6318174 "
                       "alias_size_in_bytes=0 temp_size_in_bytes=14685184 "
                       "peak_memory_in_bytes=27850866\n"),
            std::string::npos)
      << lines;
  EXPECT_NE(lines.find("21.04 MiB (22,056,980 bytes) at time 27\n"),
            std::string::npos)
      << lines;
  // Every line indented.
  for (size_t at = 0; at < lines.size(); at = lines.find('\n', at) + 1) {
    EXPECT_EQ(lines.substr(at, 2), "  ");
  }
}

}  // namespace
}  // namespace hlolayout

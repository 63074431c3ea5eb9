#include "hlolayout/memory/memory_record.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/memory/dump_memory.h"
#include "hlolayout/testing/test_data.h"
#include "hlolayout/util/record.h"

namespace hlolayout {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr char kMlpStep[] =
    "memory/testdata/"
    "module_105197.jit_mlp_step.sm_9.0a_gpu_after_optimizations.txt";

std::string JsonOf(const HloModule& module, DumpPlatform platform,
                   const MemoryRecordOptions& options) {
  absl::StatusOr<DumpModuleMemory> m = AnalyzeDumpModule(module, platform);
  EXPECT_TRUE(m.ok()) << m.status();
  std::string json;
  RecordJsonWriter writer(&json);
  EmitModuleMemory(*m, options, writer);
  EXPECT_TRUE(writer.done());
  return json;
}

TEST(MemoryRecordTest, GpuModuleInTheSpecsOrder) {
  const std::string text = ReadTestData(kMlpStep);
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text, {});
  ASSERT_TRUE(modules.ok()) << modules.status();
  MemoryRecordOptions options;
  options.top = 1;
  const std::string json =
      JsonOf(modules->front(), DumpPlatform::kGpu, options);
  EXPECT_THAT(json, StartsWith("{\"module\": \"jit_mlp_step\", "
                               "\"schedule_end\": "));
  // memory_analysis() as XLA's figures; the heap's peak with one value
  // (top=1); the values that set each allocation's size, the cuBLAS
  // temp allocation's are the heap's at its peak.
  EXPECT_THAT(json, HasSubstr("\"platform\": \"gpu\", \"memory_analysis\": "
                              "{\"argument_size_in_bytes\": "));
  EXPECT_THAT(json, HasSubstr("\"peak_value_count\": "));
  EXPECT_THAT(json, HasSubstr("\"size_set_by\": [\"gemm_fusion_dot{}\"]"));
  const size_t heap = json.find("\"peak_values\": [");
  ASSERT_NE(heap, std::string::npos);
  const std::string peak_values =
      json.substr(heap, json.find(']', heap) - heap);
  EXPECT_THAT(peak_values, StartsWith("\"peak_values\": [{\"name\": "
                                      "\"gemm_fusion_dot.4{}\""));
  EXPECT_EQ(peak_values.find("}, {"), std::string::npos) << "top=1";
  // An allocation's values: id, then the defining instruction.
  EXPECT_THAT(json, HasSubstr("\"values\": [{\"id\": 0, \"instruction\": "));
  EXPECT_THAT(json, HasSubstr("\"size_set_by\": [\"gemm_fusion_dot.4{}\", "
                              "\"gemm_fusion_dot.5{}\""));
  // generated_code_size_in_bytes is Python's only.
  EXPECT_THAT(json, ::testing::Not(HasSubstr("generated_code")));
}

TEST(MemoryRecordTest, TpuModuleHasNoAllocations) {
  const std::string text = ReadTestData(kMlpStep);
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text, {});
  ASSERT_TRUE(modules.ok()) << modules.status();
  MemoryRecordOptions options;
  options.space = 7;  // no such space: no peak listed
  const std::string json =
      JsonOf(modules->front(), DumpPlatform::kTpu, options);
  EXPECT_THAT(json, HasSubstr("\"peaks\": [], \"platform\": \"tpu\", "
                              "\"memory_analysis\": null}"));
}

TEST(MemoryRecordTest, EverySpecNamesItsFieldsOnce) {
  for (const RecordSpec* spec : MemoryRecordSpecs()) {
    std::vector<std::string> keys;
    for (const FieldSpec& f : spec->fields) {
      EXPECT_NE(std::string(f.type), "") << spec->name << "." << f.name;
      for (const std::string& k : keys) EXPECT_NE(k, f.key()) << spec->name;
      keys.push_back(f.key());
    }
  }
}

}  // namespace
}  // namespace hlolayout

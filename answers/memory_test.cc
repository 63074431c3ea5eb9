#include "hlolayout/answers/memory.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/memory/dump_memory.h"
#include "hlolayout/testing/test_data.h"
#include "hlolayout/util/fields.h"

namespace hlolayout {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr char kMlpStep[] =
    "memory/testdata/"
    "module_105197.jit_mlp_step.sm_9.0a_gpu_after_optimizations.txt";

std::string JsonOf(const HloModule& module, DumpPlatform platform, int64_t top,
                   int64_t space) {
  absl::StatusOr<DumpModuleMemory> m = AnalyzeDumpModule(module, platform);
  EXPECT_TRUE(m.ok()) << m.status();
  return AnswerJson(answers::ModuleMemoryOf(*m, std::nullopt, top, space));
}

TEST(MemoryAnswerTest, GpuModuleInTheSpecsOrder) {
  const std::string text = ReadTestData(kMlpStep);
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text, {});
  ASSERT_TRUE(modules.ok()) << modules.status();
  const std::string json = JsonOf(modules->front(), DumpPlatform::kGpu,
                                  /*top=*/1, /*space=*/-1);
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

TEST(MemoryAnswerTest, TpuModuleHasNoAllocations) {
  const std::string text = ReadTestData(kMlpStep);
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text, {});
  ASSERT_TRUE(modules.ok()) << modules.status();
  // No space 7: no peak listed.
  const std::string json = JsonOf(modules->front(), DumpPlatform::kTpu,
                                  /*top=*/20, /*space=*/7);
  EXPECT_THAT(json, HasSubstr("\"peaks\": [], \"platform\": \"tpu\", "
                              "\"memory_analysis\": null}"));
}

TEST(MemoryAnswerTest, AnswerMemoryOwnsItsStrings) {
  // The text is gone when the answer is read.
  absl::StatusOr<answers::MemoryAnswer> a;
  {
    const std::string text =
        "HloModule a, is_scheduled=true\n"
        "ENTRY %main (p: f32[256]) -> f32[256] {\n"
        "  %p = f32[256]{0} parameter(0)\n"
        "  ROOT %x = f32[256]{0} exponential(%p)\n"
        "}\n";
    answers::MemoryRequest request;
    request.platform = XlaPlatform::kCpu;
    a = answers::AnswerMemory(text, request);
  }
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_EQ(a->modules.size(), 1u);
  const answers::ModuleMemory& m = a->modules[0];
  EXPECT_EQ(m.module, "a");
  EXPECT_EQ(m.platform, "cpu");
  ASSERT_TRUE(m.memory_analysis.has_value());
  EXPECT_EQ(m.memory_analysis->argument_size_in_bytes, 1024);
  ASSERT_TRUE(m.allocations.has_value());
  EXPECT_EQ(m.allocations->back().kind, "parameter");
  ASSERT_FALSE(m.peaks.empty());
  ASSERT_FALSE(m.peaks[0].live.empty());
  EXPECT_EQ(m.peaks[0].live[0].instruction.size(), 1u);
}

TEST(MemoryAnswerTest, LiveRangesPartHasPeaksOnly) {
  const std::string text = ReadTestData(kMlpStep);
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text, {});
  ASSERT_TRUE(modules.ok()) << modules.status();
  absl::StatusOr<DumpModuleMemory> m =
      AnalyzeDumpModule(modules->front(), DumpPlatform::kGpu);
  ASSERT_TRUE(m.ok()) << m.status();
  const answers::ModuleMemory all = answers::ModuleMemoryOf(*m, {}, 2, -1);
  const answers::ModuleMemory part =
      answers::ModuleMemoryOf(*m, {}, 2, -1, answers::MemoryParts::kLiveRanges);
  EXPECT_EQ(part.platform, "gpu");
  EXPECT_FALSE(part.allocations.has_value());
  EXPECT_FALSE(part.memory_analysis.has_value());
  ASSERT_EQ(part.peaks.size(), all.peaks.size());
  const answers::MemoryPeak& p = part.peaks[0];
  EXPECT_EQ(p.live.size(), 2u);
  EXPECT_GT(p.live_count, 2);
  int64_t by_prefix = 0;
  for (const auto& [prefix, bytes] : p.by_op_name_prefix) by_prefix += bytes;
  EXPECT_EQ(by_prefix, p.bytes);
  EXPECT_EQ(AnswerJson(p), AnswerJson(all.peaks[0]));
  EXPECT_EQ(AnswerJson(p).find("computation"), std::string::npos);
}

TEST(MemoryAnswerTest, RefusesAnUnscheduledModule) {
  absl::StatusOr<answers::MemoryAnswer> a = answers::AnswerMemory(
      "HloModule a\nENTRY %main (p: f32[2]) -> f32[2] {\n"
      "  ROOT %p = f32[2]{0} parameter(0)\n}\n",
      answers::MemoryRequest());
  EXPECT_FALSE(a.ok());
}

TEST(MemoryAnswerTest, GeneratedCodeSizesArePythonsNone) {
  const RecordSpec& spec = SpecOf<answers::CompiledMemoryStats>();
  ASSERT_EQ(spec.fields.size(), 11u);
  EXPECT_STREQ(spec.fields[9].type, "None");
  EXPECT_EQ(spec.fields[9].json, FieldJson::kLeftOut);
  EXPECT_STREQ(SpecOf<answers::ModuleMemory>().fields[2].key(), "values");
}

}  // namespace
}  // namespace hlolayout

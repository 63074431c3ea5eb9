#include "hlolayout/memory/allocation_sizes.h"

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/testing/test_data.h"
#include "hlolayout/views/allocation_text.h"

namespace hlolayout {
namespace {

struct Analysed {
  std::string text;
  std::vector<HloModule> modules;
  ModuleMemory memory;
};

// Reads `text` (kept alive in the result: the module points into it).
std::unique_ptr<Analysed> Analyse(std::string text) {
  auto out = std::make_unique<Analysed>();
  out->text = std::move(text);
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(out->text);
  EXPECT_TRUE(modules.ok()) << modules.status();
  if (!modules.ok() || modules->empty()) return nullptr;
  out->modules = *std::move(modules);
  absl::StatusOr<ModuleMemory> m =
      AnalyzeModuleMemory(out->modules[0], BufferAssignmentOptions());
  EXPECT_TRUE(m.ok()) << m.status();
  if (!m.ok()) return nullptr;
  out->memory = *std::move(m);
  return out;
}

std::string ReadTestFile(const std::string& path) {
  std::ifstream in(TestDataPath(path));
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// XLA:GPU's MLP step (jaxlib 0.11.2): the heap's peak, 14,685,184 bytes as
// memory_analysis() counts, is first reached at time 31, with the three
// 4 MiB activations and five smaller values in the heap.
TEST(AllocationSizes, TheMlpStepsHeapPeak) {
  std::unique_ptr<Analysed> a = Analyse(ReadTestFile(
      "memory/testdata/"
      "module_105197.jit_mlp_step.sm_9.0a_gpu_after_optimizations.txt"));
  ASSERT_NE(a, nullptr);
  const AllocationSizes s = ExplainAllocationSizes(a->memory);
  EXPECT_EQ(s.alignment, 256);
  EXPECT_EQ(s.heap.allocation, 53);
  EXPECT_EQ(s.heap.bytes, 14685184);
  EXPECT_EQ(s.heap.bytes, a->memory.buffers.heap_peak);
  EXPECT_EQ(s.heap.time, 31);
  EXPECT_EQ(s.heap.instruction, "loop_add_fusion.1");
  ASSERT_EQ(s.heap.values.size(), 8u);
  EXPECT_EQ(s.heap.values[0].name, "gemm_fusion_dot.4{}");
  EXPECT_EQ(s.heap.values[0].bytes, 4194304);
  // Every listed value is live at the peak's step, and their places (each
  // counted once) add up to the peak's bytes.
  int64_t sum = 0;
  std::vector<int64_t> offsets;
  for (const SizingValue& v : s.heap.values) {
    EXPECT_LE(v.start, s.heap.time) << v.name;
    EXPECT_GE(v.end, s.heap.time) << v.name;
    if (std::find(offsets.begin(), offsets.end(), v.offset) == offsets.end()) {
      offsets.push_back(v.offset);
      sum += v.bytes;
    }
  }
  EXPECT_EQ(sum, s.heap.bytes);
  // The allocations of their own, largest first; a parameter's size is its
  // parameter's.
  ASSERT_FALSE(s.own.empty());
  for (size_t k = 1; k < s.own.size(); ++k) {
    EXPECT_GE(s.own[k - 1].size, s.own[k].size);
  }
  for (const OwnAllocationSizing& o : s.own) {
    ASSERT_FALSE(o.values.empty()) << o.allocation;
    EXPECT_EQ(o.values[0].bytes, o.size) << o.allocation;
  }
  EXPECT_EQ(s.rounding_bytes, 9250);
}

// A cuBLAS GEMM's workspace (the custom call's second result) is what the
// heap holds most of at its peak: the text names it.
TEST(AllocationSizes, NamesACublasWorkspace) {
  std::unique_ptr<Analysed> a = Analyse(R"(HloModule gemm, is_scheduled=true

ENTRY main {
  a = f32[256,256]{1,0} parameter(0)
  b = f32[256,256]{1,0} parameter(1)
  neg = f32[256,256]{1,0} negate(a)
  custom-call.1 = (f32[256,256]{1,0}, s8[4194304]{0}) custom-call(neg, b), custom_call_target="__cublas$gemm", backend_config={"gemm_backend_config":{"alpha_real":1,"beta":0}}
  gte = f32[256,256]{1,0} get-tuple-element(custom-call.1), index=0
  ROOT out = f32[256,256]{1,0} add(gte, a)
}
)");
  ASSERT_NE(a, nullptr);
  const AllocationSizes s = ExplainAllocationSizes(a->memory);
  ASSERT_GE(s.heap.allocation, 0);
  ASSERT_FALSE(s.heap.values.empty());
  EXPECT_EQ(s.heap.values[0].name, "custom-call.1{1}");
  EXPECT_EQ(s.heap.values[0].bytes, 4194304);
  EXPECT_EQ(s.heap.instruction, "custom-call.1");
  const std::string text = AllocationSizesText(s, 2);
  EXPECT_NE(text.find("custom-call.1{1}  s8[4194304]{0}  4194304 B  offset "),
            std::string::npos)
      << text;
  EXPECT_NE(
      text.find("at time " + std::to_string(s.heap.time) + " (custom-call.1)"),
      std::string::npos)
      << text;
}

// A module whose every value has an allocation of its own has no heap.
TEST(AllocationSizes, NoHeap) {
  std::unique_ptr<Analysed> a = Analyse(R"(HloModule one, is_scheduled=true

ENTRY main {
  p = f32[7]{0} parameter(0)
  ROOT n = f32[7]{0} negate(p)
}
)");
  ASSERT_NE(a, nullptr);
  const AllocationSizes s = ExplainAllocationSizes(a->memory);
  EXPECT_EQ(s.heap.allocation, -1);
  EXPECT_TRUE(s.heap.values.empty());
  ASSERT_EQ(s.own.size(), 2u);
  EXPECT_EQ(s.rounding_bytes, 2 * (256 - 28));
  EXPECT_EQ(AllocationSizesText(s, 20).find("temp allocation"),
            std::string::npos);
}

}  // namespace
}  // namespace hlolayout

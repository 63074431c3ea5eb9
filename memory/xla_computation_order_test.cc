// XLA:CPU's computation order, from which its value ids follow
// (memory/xla_computation_order.cc; docs/memory.md, "Value ids"): XLA's
// online topological order of the call graph, replayed over the order the
// computations were created in. Given that order
// (BufferAssignmentOptions::xla_creation_order), the ids are XLA's; without
// it the order is guessed from the names.
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/testing/test_data.h"

namespace hlolayout {
namespace {

std::string ReadFile(const std::string& repo_relative) {
  std::ifstream in(TestDataPath(repo_relative), std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> NonEmptyLines(const std::string& text) {
  std::vector<std::string> out;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (!line.empty()) out.emplace_back(line);
  }
  return out;
}

absl::StatusOr<ModuleMemory> Analyze(const HloModule& module,
                                     std::vector<std::string> created) {
  BufferAssignmentOptions options;
  options.platform = XlaPlatform::kCpu;
  options.xla_creation_order = std::move(created);
  return AnalyzeModuleMemory(module, options);
}

// XLA's value id of each value, by its instruction's name.
std::map<std::string, int64_t> IdsByName(const BufferAssignment& b) {
  std::map<std::string, int64_t> ids;
  for (const BufferAllocation& a : b.allocations) {
    for (const AssignedValue& v : a.values) ids[std::string(v.name)] = v.id;
  }
  return ids;
}

// A mixed-precision MLP's training step (jaxlib 0.10.2, XLA:CPU, the zoo's
// mlp_bf16_mixed.s.step). XLA cloned the reducers region_7.13 before
// region_5.11 (and removed the originals); the names put region_5 first,
// so the guessed creation order, and the ids, differ from XLA's (this
// module is in differential/xla/value_id_modules.txt). Given the order XLA
// created the computations in, every allocation, value and id is XLA's.
TEST(XlaComputationOrder, GivenXlasCreationOrderTheIdsAreXlas) {
  const std::string base =
      "memory/testdata_jaxlib_0.10.2/"
      "module_0054.jit_step.cpu_after_optimizations";
  const std::string text = ReadFile(base + ".txt");  // the module points in
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
  ASSERT_TRUE(modules.ok()) << modules.status();
  const std::string xla = ReadFile(base + "-buffer-assignment.txt");
  const std::vector<std::string> created =
      NonEmptyLines(ReadFile(base + "-creation-order.txt"));
  ASSERT_EQ(created.size(), 51u);

  absl::StatusOr<ModuleMemory> given = Analyze((*modules)[0], created);
  ASSERT_TRUE(given.ok()) << given.status();
  EXPECT_EQ(absl::StrReplaceAll(XlaBufferAssignmentText(given->buffers),
                                {{", page 0", ""}}),
            xla);

  absl::StatusOr<ModuleMemory> guessed = Analyze((*modules)[0], {});
  ASSERT_TRUE(guessed.ok()) << guessed.status();
  EXPECT_NE(absl::StrReplaceAll(XlaBufferAssignmentText(guessed->buffers),
                                {{", page 0", ""}}),
            xla);
}

// Five computations made in the order c0, c1, c2, c3, main; c0 and c1
// call c3, c2 calls c0, main calls c1 and c2. When c3 arrives, its call
// from c0 moves c0 and its caller c2 to the front of XLA's order, then its
// call from c1 moves c1 there: XLA numbers c3, c0, c2, c1, main. Taking
// the earliest made computation whose callees are placed (the rule before)
// numbers c1 before c2.
constexpr char kLateCallee[] = R"(HloModule late_callee, is_scheduled=true

%c3 (p3: f32[4]) -> f32[4] {
  %p3 = f32[4]{0} parameter(0)
  ROOT %n3 = f32[4]{0} negate(%p3)
}

%c0 (p0: f32[4]) -> f32[4] {
  %p0 = f32[4]{0} parameter(0)
  %call0 = f32[4]{0} call(%p0), to_apply=%c3
  ROOT %n0 = f32[4]{0} negate(%call0)
}

%c1 (p1: f32[4]) -> f32[4] {
  %p1 = f32[4]{0} parameter(0)
  %call1 = f32[4]{0} call(%p1), to_apply=%c3
  ROOT %n1 = f32[4]{0} negate(%call1)
}

%c2 (p2: f32[4]) -> f32[4] {
  %p2 = f32[4]{0} parameter(0)
  %call2 = f32[4]{0} call(%p2), to_apply=%c0
  ROOT %n2 = f32[4]{0} negate(%call2)
}

ENTRY %main (x: f32[4]) -> (f32[4], f32[4]) {
  %x = f32[4]{0} parameter(0)
  %a = f32[4]{0} call(%x), to_apply=%c1
  %b = f32[4]{0} call(%x), to_apply=%c2
  ROOT %t = (f32[4]{0}, f32[4]{0}) tuple(%a, %b)
}
)";

TEST(XlaComputationOrder, ALateCalleeMovesItsCallersInTheOrderTheirCallsCome) {
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(kLateCallee);
  ASSERT_TRUE(modules.ok()) << modules.status();
  absl::StatusOr<ModuleMemory> m =
      Analyze((*modules)[0], {"c0", "c1", "c2", "c3", "main"});
  ASSERT_TRUE(m.ok()) << m.status();
  std::map<std::string, int64_t> ids = IdsByName(m->buffers);
  ASSERT_EQ(
      ids.count("n0") + ids.count("n1") + ids.count("n2") + ids.count("n3"),
      4u);
  EXPECT_LT(ids["n3"], ids["n0"]);
  EXPECT_LT(ids["n0"], ids["n2"]);
  EXPECT_LT(ids["n2"], ids["n1"]);
}

TEST(XlaComputationOrder, ACreationOrderMustNameEveryComputationOnce) {
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(kLateCallee);
  ASSERT_TRUE(modules.ok()) << modules.status();
  const HloModule& module = (*modules)[0];
  absl::StatusOr<ModuleMemory> m =
      Analyze(module, {"c0", "c1", "c2", "c3"});  // no main
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().message(), "creation order lacks computation 'main'");
  m = Analyze(module, {"c0", "c1", "c2", "c3", "main", "c0"});
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().message(), "creation order names 'c0' twice");
  m = Analyze(module, {"c0", "c1", "c2", "c3", "main", "c9"});
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().message(),
            "creation order names 'c9', not a computation here");
  BufferAssignmentOptions gpu;
  gpu.platform = XlaPlatform::kGpu;
  gpu.xla_creation_order = {"c0", "c1", "c2", "c9", "main"};
  m = AnalyzeModuleMemory(module, gpu);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().message(),
            "creation order names 'c9', not a computation here");
}

// The online order is the module's (HloModule), not a platform's: XLA:GPU
// given a creation order numbers the values in its replay too, as XLA:CPU
// does (it refused the order before).
TEST(XlaComputationOrder, XlaGpuReplaysAGivenCreationOrderToo) {
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(kLateCallee);
  ASSERT_TRUE(modules.ok()) << modules.status();
  BufferAssignmentOptions gpu;
  gpu.platform = XlaPlatform::kGpu;
  gpu.xla_creation_order = {"c0", "c1", "c2", "c3", "main"};
  absl::StatusOr<ModuleMemory> m = AnalyzeModuleMemory((*modules)[0], gpu);
  ASSERT_TRUE(m.ok()) << m.status();
  std::map<std::string, int64_t> ids = IdsByName(m->buffers);
  ASSERT_EQ(
      ids.count("n0") + ids.count("n1") + ids.count("n2") + ids.count("n3"),
      4u);
  EXPECT_LT(ids["n3"], ids["n0"]);
  EXPECT_LT(ids["n0"], ids["n2"]);
  EXPECT_LT(ids["n2"], ids["n1"]);
}

}  // namespace
}  // namespace hlolayout

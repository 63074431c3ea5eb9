// XLA:CPU's computation order, from which its value ids follow
// (memory/xla_computation_order.cc; docs/memory.md, "Value ids"): XLA's
// online topological order of the call graph, replayed over the order the
// computations were created in. Given that order
// (BufferAssignmentOptions::xla_creation_order), the ids are XLA's; without
// it the order is guessed from the names.
#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/memory/buffer_assignment_internal.h"
#include "hlolayout/memory/live_range.h"
#include "hlolayout/testing/test_data.h"
#include "hlolayout/views/buffer_assignment_text.h"

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

// XLA:CPU dumps with XLA's recorded creation order
// (memory/testdata_jaxlib_0.10.2/*-creation-order.txt).
constexpr const char* kCpuRecorded[] = {
    "module_0054.jit_step.cpu_after_optimizations",
    "module_0394.jit_f.cpu_after_optimizations",
    "module_0400.jit__lambda.cpu_after_optimizations",
    "module_0454.jit_collatz_like.cpu_after_optimizations",
};
// Those of them whose value ids show the fused computations' order.
constexpr const char* kCpuBodiesShow[] = {
    "module_0394.jit_f.cpu_after_optimizations",
    "module_0400.jit__lambda.cpu_after_optimizations",
    "module_0454.jit_collatz_like.cpu_after_optimizations",
};

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

// The guessed order against XLA's, on XLA's dumps whose creation order
// compile_zoo.py recorded (`-creation-order.txt`, HloModule::computations()
// of the compiled module; replayed, it gives XLA's order on every module of
// differential/xla). The fusion bodies' place in the order is the guess's
// most of the time: these pin it where it shows.

// A module's computation order three ways, as names: XLA's (its recorded
// creation order replayed), the library's guess without it, and XLA's with
// the computations of `group` made in the reverse order among themselves
// (what a guess that made them in reverse would give).
struct Orders {
  std::vector<std::string> xlas, guessed, group_reversed;
  absl::flat_hash_set<std::string> bodies;  // every fusion body
  absl::flat_hash_set<std::string> group;
};

// The group: on XLA:CPU the fused computations the guess orders by number
// ("fused_computation", "fused_computation.N"; docs/memory.md, "Value ids",
// step 3), on XLA:GPU every fusion body (each fusion pass's).
Orders OrdersOf(const std::string& base, XlaPlatform platform) {
  Orders o;
  const std::string text = ReadFile(base + ".txt");
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
  EXPECT_TRUE(modules.ok()) << base << ": " << modules.status();
  if (!modules.ok()) return o;
  const HloModule& module = (*modules)[0];
  MemoryAnalysisOptions options;
  options.keep_dataflow = true;
  absl::StatusOr<MemoryAnalysis> analysis = AnalyzeMemory(module, options);
  EXPECT_TRUE(analysis.ok()) << base << ": " << analysis.status();
  if (!analysis.ok()) return o;
  const buffer_internal::ModuleGraph g(module, *analysis);
  auto name = [&](int64_t c) {
    return std::string(module.computations[c].header.name);
  };
  for (size_t c = 0; c < module.computations.size(); ++c) {
    if (g.kind[c] != buffer_internal::CompKind::kFusion) continue;
    o.bodies.insert(name(c));
    if (platform == XlaPlatform::kGpu ||
        absl::StartsWith(name(c), "fused_computation")) {
      o.group.insert(name(c));
    }
  }
  const std::vector<std::string> created =
      NonEmptyLines(ReadFile(base + "-creation-order.txt"));
  std::vector<std::string> reversed = created;
  std::vector<size_t> slots;
  for (size_t i = 0; i < created.size(); ++i) {
    if (o.group.contains(created[i])) slots.push_back(i);
  }
  for (size_t k = 0; k < slots.size(); ++k) {
    reversed[slots[k]] = created[slots[slots.size() - 1 - k]];
  }
  auto names = [&](const std::vector<int64_t>& order) {
    std::vector<std::string> out;
    for (int64_t c : order) out.push_back(name(c));
    return out;
  };
  o.xlas = names(buffer_internal::XlaCpuComputationOrder(g, created));
  o.group_reversed =
      names(buffer_internal::XlaCpuComputationOrder(g, reversed));
  o.guessed = names(platform == XlaPlatform::kCpu
                        ? buffer_internal::XlaCpuComputationOrder(g, {})
                        : buffer_internal::XlaGpuComputationOrder(g));
  return o;
}

// The computations of the group in `order`, in order.
std::vector<std::string> GroupOf(const std::vector<std::string>& order,
                                 const Orders& o) {
  std::vector<std::string> out;
  for (const std::string& c : order) {
    if (o.group.contains(c)) out.push_back(c);
  }
  return out;
}

// What the value ids see of `order`: every computation but the fusion
// bodies, in order, and the bodies between each two of them as a set (XLA
// numbers the values computation by computation in this order; no
// fusion body's value is printed, so only how many come before each other
// computation shows). One line, each run of bodies sorted.
std::string WhatIdsSee(const std::vector<std::string>& order, const Orders& o) {
  std::vector<std::string> out, run;
  auto end_run = [&] {
    std::sort(run.begin(), run.end());
    if (!run.empty()) out.push_back("{" + absl::StrJoin(run, " ") + "}");
    run.clear();
  };
  for (const std::string& c : order) {
    if (o.bodies.contains(c)) {
      run.push_back(c);
    } else {
      end_run();
      out.push_back(c);
    }
  }
  end_run();
  return absl::StrJoin(out, " ");
}

// XLA:CPU makes fused_computation, fused_computation.1, ... in the order of
// their numbers (docs/memory.md, "Value ids", step 3 of the guess), and the
// guessed order holds them in XLA's order (on all 473 modules of the
// XLA:CPU zoo, jaxlib 0.10.2). Reversing the guess's fused computations
// fails here, whether the ids show it or not.
TEST(XlaComputationOrder, TheGuessedOrderOfCpuFusedComputationsIsXlas) {
  for (const char* name : kCpuRecorded) {
    const Orders o =
        OrdersOf(absl::StrCat("memory/testdata_jaxlib_0.10.2/", name),
                 XlaPlatform::kCpu);
    ASSERT_GT(GroupOf(o.xlas, o).size(), 1u) << name;
    EXPECT_EQ(GroupOf(o.guessed, o), GroupOf(o.xlas, o)) << name;
  }
}

// Where the fused computations' order shows in the value ids (a
// conditional's branches or a while loop's body among them: each fused
// computation's caller moves behind it as it is made): the guess puts every
// fusion body between the same other computations as XLA, and XLA's order
// with its fused computations made in reverse would not. A lax.cond
// (module_0394, cond_branches.s.cond), its gradient (module_0400,
// cond_branches.s.cond_grad) and a while loop with a cond in its body
// (module_0454, while_with_cond.s.loop).
TEST(XlaComputationOrder, CpuFusionBodiesSitWhereXlasDoWhereIdsShowIt) {
  for (const char* name : kCpuBodiesShow) {
    const Orders o =
        OrdersOf(absl::StrCat("memory/testdata_jaxlib_0.10.2/", name),
                 XlaPlatform::kCpu);
    EXPECT_NE(WhatIdsSee(o.group_reversed, o), WhatIdsSee(o.xlas, o))
        << name << ": the bodies' order does not show here";
    EXPECT_EQ(WhatIdsSee(o.guessed, o), WhatIdsSee(o.xlas, o)) << name;
  }
}

// XLA:GPU's fusion passes make their bodies computation by computation
// (docs/memory.md, "Value ids"); XLA's order of the bodies themselves is
// not the guess's, but each sits between the same other computations as in
// XLA's order, which the ids show: a cumulative scan (module_86804,
// scan_cumulative.s.scan) and an SPMD 2-D MLP's training step
// (module_0001, spmd_mlp_2d.s.train_step).
TEST(XlaComputationOrder, GpuFusionBodiesSitWhereXlasDoWhereIdsShowIt) {
  for (const char* name :
       {"module_86804.jit_f.sm_9.0a_gpu_after_optimizations",
        "module_0001.jit_step.sm_9.0a_gpu_after_optimizations"}) {
    const Orders o = OrdersOf(absl::StrCat("memory/testdata_xla_gpu/", name),
                              XlaPlatform::kGpu);
    EXPECT_NE(WhatIdsSee(o.group_reversed, o), WhatIdsSee(o.xlas, o))
        << name << ": the bodies' order does not show here";
    EXPECT_EQ(WhatIdsSee(o.guessed, o), WhatIdsSee(o.xlas, o)) << name;
  }
}

}  // namespace
}  // namespace hlolayout

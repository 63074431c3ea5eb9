// The computations XLA runs inside an instruction (sort comparators,
// reducers, select-and-scatter's select and scatter, a custom call's
// computations): XLA's BufferAssigner gives every value of them an
// allocation of its own, thread-local, a constant a constant one, in the
// order of AssignBuffersForComputations (size, then post-order position
// with the computations in reverse call-graph post order), before the
// allocation list is partitioned and the temps combined (docs/memory.md,
// "The phases", C and E).
//
// memory/testdata_from_rules/sort_stuff.cpu_after_optimizations.txt is an
// XLA:CPU module with three sorts (a float sort with JAX's total-order
// comparator, an argsort, a top-k) and a max reduction, written in the style of
// XLA:CPU's dumps; its -buffer-assignment.txt is what those rules give, worked
// out by hand (the allocation order below), not a file XLA wrote.
#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/memory/buffer_assignment.h"
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

struct Assigned {
  std::unique_ptr<const std::string> text;
  std::vector<HloModule> modules;
  std::unique_ptr<ModuleMemory> memory;
};

Assigned Assign(const std::string& text, XlaPlatform platform) {
  Assigned out;
  out.text = std::make_unique<const std::string>(text);
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(*out.text);
  EXPECT_TRUE(modules.ok()) << modules.status();
  if (!modules.ok() || modules->empty()) return out;
  out.modules = *std::move(modules);
  BufferAssignmentOptions options;
  options.platform = platform;
  absl::StatusOr<ModuleMemory> m = AnalyzeModuleMemory(out.modules[0], options);
  EXPECT_TRUE(m.ok()) << m.status();
  if (m.ok()) out.memory = std::make_unique<ModuleMemory>(*std::move(m));
  return out;
}

// "thread-local", "constant", "parameter", "output" or "temp".
std::string Kind(const BufferAllocation& a) {
  return a.is_parameter      ? "parameter"
         : a.is_constant     ? "constant"
         : a.is_thread_local ? "thread-local"
         : a.maybe_live_out  ? "output"
                             : "temp";
}

// Each allocation as "kind size name,name,...", in allocation order.
std::vector<std::string> Allocations(const BufferAssignment& b) {
  std::vector<std::string> out;
  for (const BufferAllocation& a : b.allocations) {
    std::vector<std::string> names;
    for (const AssignedValue& v : a.values) {
      names.push_back(absl::StrCat(v.name, v.index.empty() ? "" : "{..}"));
    }
    std::sort(names.begin(), names.end());
    out.push_back(
        absl::StrCat(Kind(a), " ", a.size, " ", absl::StrJoin(names, ",")));
  }
  return out;
}

// The dump's text without the value ids (XLA numbers values in the order
// it keeps its computations in memory, which a dump does not show;
// docs/memory.md, "Value ids"): `<12 name @0>` -> `<# name @0>`.
std::string WithoutIds(const std::string& text) {
  std::string out;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (absl::StartsWith(line, " value: <")) {
      const size_t space = line.find(' ', 9);
      absl::StrAppend(&out, " value: <#", line.substr(space), "\n");
    } else {
      absl::StrAppend(&out, line, "\n");
    }
  }
  return out;
}

constexpr char kSortStuff[] =
    "memory/testdata_from_rules/sort_stuff.cpu_after_optimizations";

// The allocations XLA's rules give, one by one:
// - the entry (the only global computation), buffers by size, live-out
//   first, then post order: sort.2 (live-out: new), sort.3{1} (live-out:
//   new; wrapped_iota, which sort.3 may sort in place, joins it), x.1 (a
//   parameter), the output tuple table, the two top-k slices, the tuple
//   tables of sort.3 and sort.4 (tuple allocations), reduce_max.2; the
//   others wait for the heap, laid out next (one allocation);
// - the thread-local computations in reverse call-graph post order
//   (region_2.27, compare-greater-than.21, region_1.15, region_0.1), their
//   4-byte values first, each computation's in MakeInstructionPostOrder
//   order (instructions without users first, in text order, then the
//   root's operand tree), the constants of region_0.1 constant
//   allocations among them; then the 1-byte compares the same way;
// - std::partition then swaps the heap and the two tuple allocations with
//   the last three compares (compare.14, compare.11, compare.6), and the
//   three temps are combined: the heap at 0, sort.4's table at 8064,
//   sort.3's at 8128.
TEST(ThreadLocalComputations, CpuSortModuleFollowsXlasRules) {
  Assigned a =
      Assign(ReadFile(absl::StrCat(kSortStuff, ".txt")), XlaPlatform::kCpu);
  ASSERT_NE(a.memory, nullptr);
  const BufferAssignment& b = a.memory->buffers;
  EXPECT_THAT(
      Allocations(b),
      ::testing::ElementsAre(
          "output 4000 sort.2", "output 4000 sort.3{..},wrapped_iota",
          "parameter 4000 x.1", "output 40 tuple.8", "output 20 wrapped_slice",
          "output 20 wrapped_slice.1", "thread-local 1 compare.14",
          "thread-local 1 compare.11", "output 4 reduce_max.2",
          "thread-local 1 compare.6",
          // region_2.27, the max reducer
          "thread-local 4 Arg_0.28", "thread-local 4 Arg_1.29",
          "thread-local 4 maximum.30",
          // compare-greater-than.21 (top-k): its unused parameters first
          "thread-local 4 p.1.lhs.24", "thread-local 4 p.1.rhs.25",
          "thread-local 4 p.0.lhs.22", "thread-local 4 p.0.rhs.23",
          // region_1.15 (argsort)
          "thread-local 4 Arg_2.18", "thread-local 4 Arg_3.19",
          "thread-local 4 Arg_0.16", "thread-local 4 Arg_1.17",
          // region_0.1 (sort with the total order), constants included
          "thread-local 4 Arg_0.2", "thread-local 4 bitcast-convert.4",
          "constant 4 constant.5", "constant 4 constant.7",
          "thread-local 4 xor.8", "thread-local 4 select.9",
          "thread-local 4 Arg_1.3", "thread-local 4 bitcast-convert.10",
          "thread-local 4 xor.12", "thread-local 4 select.13",
          // the compares of compare-greater-than.21 and region_1.15
          "thread-local 1 compare.26", "thread-local 1 compare.20",
          "temp 8144 sort.3,sort.3{..},sort.4,sort.4{..},sort.4{..},"
          "wrapped_iota.1"));
  // Every value of the four computations has exactly one allocation.
  std::map<std::string, int> seen;
  for (const BufferAllocation& x : b.allocations) {
    if (x.is_thread_local || x.is_constant) {
      ASSERT_EQ(x.values.size(), 1u);
      EXPECT_EQ(x.size, x.values[0].bytes);
      EXPECT_EQ(x.values[0].offset, 0);
      ++seen[std::string(x.values[0].name)];
    }
  }
  // region_0.1: 11 values and 2 constants; 5, 5 and 3 in the others.
  EXPECT_EQ(seen.size(), 26u);
  for (const auto& [name, count] : seen) EXPECT_EQ(count, 1) << name;
  // memory_analysis(): thread-local allocations count nowhere; on XLA:CPU
  // the peak is the parameters, constants and outputs (each allocation's
  // largest value).
  EXPECT_EQ(b.stats.argument_size_in_bytes, 4000);
  EXPECT_EQ(b.stats.output_size_in_bytes, 4000 + 4000 + 40 + 20 + 20 + 4);
  EXPECT_EQ(b.stats.temp_size_in_bytes, 8128 + 16);
  EXPECT_EQ(b.stats.peak_memory_in_bytes, 4000 + 8 + 8084);
  // The text of XLA's dump, but for the value ids.
  const std::string want =
      ReadFile(absl::StrCat(kSortStuff, "-buffer-assignment.txt"));
  EXPECT_EQ(WithoutIds(XlaBufferAssignmentText(b)), WithoutIds(want));
}

// select-and-scatter runs two computations (select=, scatter=); XLA's
// GatherComputationsByAllocationType makes both thread-local.
TEST(ThreadLocalComputations, SelectAndScatter) {
  Assigned a = Assign(R"(
HloModule m, is_scheduled=true
%ge (a: f32[], b: f32[]) -> pred[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %c = pred[] compare(%a, %b), direction=GE
}
%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(%x, %y)
}
ENTRY %main (p: f32[4], g: f32[2]) -> f32[4] {
  %p = f32[4]{0} parameter(0)
  %g = f32[2]{0} parameter(1)
  %z = f32[] constant(0)
  ROOT %r = f32[4]{0} select-and-scatter(%p, %g, %z), window={size=2 stride=2}, select=%ge, scatter=%add
}
)",
                      XlaPlatform::kCpu);
  ASSERT_NE(a.memory, nullptr);
  std::vector<std::string> local;
  for (const BufferAllocation& x : a.memory->buffers.allocations) {
    if (x.is_thread_local) {
      local.push_back(absl::StrCat(x.values[0].name, " ", x.size));
    }
  }
  EXPECT_THAT(local, ::testing::UnorderedElementsAre("a 4", "b 4", "c 1", "x 4",
                                                     "y 4", "s 4"));
}

// A custom call with several computations lists them as
// called_computations={...}; they are thread-local too.
TEST(ThreadLocalComputations, CustomCallComputations) {
  Assigned a = Assign(R"(
HloModule m, is_scheduled=true
%lt (a: f32[], b: f32[]) -> pred[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %c = pred[] compare(%a, %b), direction=LT
}
%neg (x: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  ROOT %n = f32[] negate(%x)
}
ENTRY %main (p: f32[8]) -> f32[8] {
  %p = f32[8]{0} parameter(0)
  ROOT %r = f32[8]{0} custom-call(%p), custom_call_target="my_sort", called_computations={%lt, %neg}
}
)",
                      XlaPlatform::kCpu);
  ASSERT_NE(a.memory, nullptr);
  int local = 0;
  for (const BufferAllocation& x : a.memory->buffers.allocations) {
    local += x.is_thread_local ? 1 : 0;
  }
  EXPECT_EQ(local, 5);  // a, b, c, x, n
}

}  // namespace
}  // namespace hlolayout

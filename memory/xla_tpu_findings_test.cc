// What the XLA:TPU oracle (differential/xla --target v4|v5e|v5p|v6e) found:
// rules of XLA:TPU's buffer assignment and live-range file learned from
// what it writes (libtpu 0.0.42.1, no TPU needed; docs/xla-tpu.md). Each
// test fails on the code before its rule.
#include <algorithm>
#include <initializer_list>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/memory/dump_memory.h"
#include "hlolayout/memory/live_range.h"
#include "hlolayout/testing/test_data.h"
#include "hlolayout/views/buffer_assignment_text.h"
#include "hlolayout/views/live_range_text.h"

namespace hlolayout {
namespace {

constexpr char kStep[] =
    "memory/testdata_xla_tpu/"
    "module_0316.jit_step.cl_933746096.after_optimizations";
constexpr char kDynamicIndex[] =
    "memory/testdata_xla_tpu/"
    "module_4058.jit__lambda.cl_933746096.after_optimizations";
constexpr char kCummax[] =
    "memory/testdata_xla_tpu/"
    "module_2957.jit__lambda.cl_933746096.after_optimizations";
constexpr char kLoopInVmem[] =
    "memory/testdata_xla_tpu/"
    "module_2410.jit_update_in_place.cl_933746096.after_optimizations";
// v5p, 8 chips: an all_to_all whose HBM temp allocation holds a scalar
// inside the range of a larger value.
constexpr char kAllToAllV5p[] =
    "memory/testdata_xla_tpu/"
    "module_4568.jit_a2a.cl_933746096.after_optimizations";
// v5e: equinox's LSTM scanned (the held-out set): a loop whose body and
// condition passes cloned, and a scalar adder a pass made anew.
constexpr char kScanLstm[] =
    "memory/testdata_xla_tpu/"
    "module_3081.jit_run.cl_933746096.after_optimizations";
// v6e: a fori_loop whose fusion bodies are bitcast_fusion's clones.
constexpr char kRolledV6e[] =
    "memory/testdata_xla_tpu/"
    "module_1425.jit__lambda.cl_933746096.after_optimizations";
// v5e, SPMD on 8: a mixture-of-experts gradient whose scatter's reducer
// the partitioner cloned between two all-reduces' (channels 6 and 7).
constexpr char kMoeExpert[] =
    "memory/testdata_xla_tpu/"
    "module_9923.jit__lambda.cl_933746096.after_optimizations";
// v5e: a while loop beside a conditional (docs/xla-tpu.md, "Value ids",
// rule 8): the loop's condition and body are made after the fusion bodies
// of the branches.
constexpr char kLoopAfterFusion[] =
    "memory/testdata_xla_tpu/"
    "module_2768.jit_collatz_like.cl_933746096.after_optimizations";
// v5e: a conditional whose branch's fusion body holds two fusions of
// bitcasts, made with it (rule 8).
constexpr char kNestedFusion[] =
    "memory/testdata_xla_tpu/"
    "module_2548.jit_f.cl_933746096.after_optimizations";
// v5e, SPMD on 8: a transpose resharded by an all-to-all, whose reducer
// (all-to-all.reduce_sub_computation) XLA:TPU made after fusion (rule 9).
constexpr char kAllToAllReducer[] =
    "memory/testdata_xla_tpu/"
    "module_9594.jit__lambda.cl_933746096.after_optimizations";
// v5e, SPMD on 8: an FSDP MLP's gradient whose async collectives' fusion
// bodies XLA:TPU made after the all-to-alls' reducers (rule 9).
constexpr char kCollectiveBodies[] =
    "memory/testdata_xla_tpu/"
    "module_7546.jit__lambda.cl_933746096.after_optimizations";
// v5e: a bidirectional GRU, two scans in the entry (while.7 before
// while.6 in the text), made by the numbers of their while loops (rule
// 10; the loops passes remade 2 and 6 times, the fewer first).
constexpr char kTwoScans[] =
    "memory/testdata_xla_tpu/"
    "module_1407.jit_run.cl_933746096.after_optimizations";
// v6e: the gradient of nested fori_loops (nested_loops.s.grad): three
// loops in the entry (while.59, while.63, while.61 in the text), two of
// them holding a loop in their bodies. XLA:TPU made the inner loops'
// conditions first, then the entry's by their loops' numbers, then the
// bodies callers first (rule 10), where the loops passes remade fewer
// times came first.
constexpr char kNestedLoops[] =
    "memory/testdata_xla_tpu/"
    "module_1240.jit__lambda.cl_933746096.after_optimizations";
// v5e: a CNN's donated training step whose gather fusion XLA:TPU made
// before its or-reducers (reduce_or_computation; rule 11).
constexpr char kGatherFirst[] =
    "memory/testdata_xla_tpu/"
    "module_0662.jit_step.cl_933746096.after_optimizations";
// v5e: random bits of the RBG generator, whose reducers XLA:TPU made as
// slice.0, slice.1 and xor.49's, then slice.3.reduce_sub_computation.2
// (rule 12).
constexpr char kUniquedReducers[] =
    "memory/testdata_xla_tpu/"
    "module_6626.jit_f.cl_933746096.after_optimizations";
// v6e: dot-product attention whose reduce-window XLA:TPU fused late, with
// a clone of its reducer (region_0.3.clone) made after every other fusion
// body, just before the body calling it (rule 13).
constexpr char kWindowClone[] =
    "memory/testdata_xla_tpu/"
    "module_0730.jit_f.cl_933746096.after_optimizations";
// v6e: a graph network's forward pass (graph_message_passing.s.forward)
// whose scatter-add XLA:TPU offloads to the SparseCore: an async-start on
// the `sparsecore` thread, nested in the computation an outer async
// computation calls, with its context flag in `u32[]{:S(8)}` (4 bytes) and
// its tuple tables in color 7 (0 bytes), live until the outer async-done.
constexpr char kSparseCore[] =
    "memory/testdata_xla_tpu/"
    "module_0000.jit_f.cl_933746096.after_optimizations";

// "<12 a.1{0} @1> (size=512,offset=0)" lines of a buffer-assignment text:
// (name with index, memory space) -> size.
std::map<std::pair<std::string, std::string>, int64_t> ValueSizes(
    absl::string_view text) {
  std::map<std::pair<std::string, std::string>, int64_t> sizes;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (!absl::StartsWith(line, " value: <")) continue;
    // " value: <ID NAME @SPACE> (size=N,offset=M): SHAPE", "(phi)" after
    // NAME for a loop's or a branch's phi.
    std::vector<absl::string_view> words = absl::StrSplit(line, ' ');
    if (words.size() > 4 && words[4] == "(phi)") words.erase(words.begin() + 4);
    if (words.size() < 6) continue;
    absl::string_view size = words[5];
    size.remove_prefix(std::string("(size=").size());
    size = size.substr(0, size.find(','));
    int64_t n = 0;
    EXPECT_TRUE(absl::SimpleAtoi(size, &n)) << line;
    sizes[{std::string(words[3]), std::string(words[4])}] = n;
  }
  return sizes;
}

// The "<ID NAME @SPACE>" of every value line of a buffer-assignment text,
// sorted.
std::vector<std::string> ValueIds(absl::string_view text) {
  std::vector<std::string> ids;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (!absl::ConsumePrefix(&line, " value: ")) continue;
    ids.emplace_back(line.substr(0, line.find('>') + 1));
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

HloModule ReadModule(const std::string& text) {
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
  EXPECT_TRUE(modules.ok()) << modules.status();
  return modules.ok() ? std::move((*modules)[0]) : HloModule();
}

// Issue 88 item 5: one platform enum that knows TPU, and no silent
// default. AnalyzeModuleMemory(module, {}) on an XLA:TPU dump applied
// XLA:GPU's rules and said GPU; now the module decides, and it is TPU.
TEST(XlaTpu, AnalysisWithoutAPlatformTakesTpuRulesForATpuModule) {
  const std::string text = ReadTestData(absl::StrCat(kStep, ".txt"));
  const HloModule module = ReadModule(text);
  EXPECT_EQ(XlaPlatformName(DetectXlaPlatform(module, "")), "tpu");
  absl::StatusOr<ModuleMemory> m = AnalyzeModuleMemory(module, {});
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(XlaPlatformName(m->buffers.platform), "tpu");
  // Every allocation holds values of its own memory space: the VMEM copy
  // of the prefetched weight in VMEM's (color 1), the tuple's index table
  // in HBM's.
  for (const BufferAllocation& a : m->buffers.allocations) {
    for (const AssignedValue& v : a.values) {
      const int64_t space =
          v.shape != nullptr && v.shape->IsArray() && v.shape->has_layout()
              ? v.shape->layout().memory_space()
              : 0;
      EXPECT_EQ(space, a.color) << v.name << " in allocation " << a.index;
    }
  }
  // The same module read as a dump (ChooseDumpPlatform): TPU too, and the
  // names agree.
  EXPECT_EQ(DumpPlatformName(ChooseDumpPlatform(module, "", absl::nullopt)),
            "tpu");
}

// Value sizes: a tuple's index table is 512 bytes on XLA:TPU (8 bytes an
// element elsewhere); an array without tiles outside SMEM (a reducer's
// layoutless f32[]) a whole (8,128) tile of its elements, 4096 bytes;
// every other array its padded bytes. Every value of both modules is the
// size XLA:TPU gave it.
class TpuDump : public ::testing::TestWithParam<const char*> {};

TEST_P(TpuDump, EveryValueHasXlaTpusSize) {
  const std::string base = GetParam();
  const std::string text = ReadTestData(base + ".txt");  // the module views it
  const HloModule module = ReadModule(text);
  BufferAssignmentOptions options;
  options.platform = DetectXlaPlatform(module, base);
  absl::StatusOr<ModuleMemory> m = AnalyzeModuleMemory(module, options);
  ASSERT_TRUE(m.ok()) << m.status();
  const auto xla = ValueSizes(ReadTestData(base + "-buffer-assignment.txt"));
  const auto ours = ValueSizes(XlaBufferAssignmentText(m->buffers));
  ASSERT_FALSE(xla.empty());
  for (const auto& [value, size] : xla) {
    auto it = ours.find(value);
    ASSERT_NE(it, ours.end()) << value.first;
    EXPECT_EQ(it->second, size) << value.first;
  }
  EXPECT_EQ(ours.size(), xla.size());
}

// XLA:TPU's -live-range.txt counts each value's logical bytes (no tile
// padding; a tuple 8 bytes an element) and finds its peak with them: the
// whole file is XLA:TPU's, byte for byte.
TEST_P(TpuDump, LiveRangeFileIsXlaTpus) {
  const std::string base = GetParam();
  const std::string text = ReadTestData(base + ".txt");  // the module views it
  const HloModule module = ReadModule(text);
  BufferAssignmentOptions options;
  options.platform = DetectXlaPlatform(module, base);
  absl::StatusOr<ModuleMemory> m = AnalyzeModuleMemory(module, options);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(XlaLiveRangeText(m->live_ranges, ValuesByXlaId(m->buffers),
                             LiveRangeSizes::kLogical),
            ReadTestData(base + "-live-range.txt"));
}

// compiled.memory_analysis() from the model of XLA:TPU's assignment, every
// figure a dump can give (docs/xla-tpu.md, "memory_analysis()"): the temp
// size is twice the HBM temp allocation's size rounded up to 16 KiB less
// the most bytes its heap holds at one step (its tuple tables counted at
// every step), and nothing when that allocation holds only
// tuple tables and the scalar unit's one-element values; the peak is
// arguments + outputs - aliases + constants + the VMEM temp buffers' peak,
// or S(6)'s temp allocation when larger. The cumulative max (module 2957)
// has four 512-byte values at distinct offsets in HBM's temp: 4 x 32,256
// bytes; the v5p all_to_all (module 4568) a 512-byte scalar at 16,384
// inside a 32,768-byte value's range: 32,768 (65,024 counting each offset
// as 2 r(s) - s); the dynamic index (module 4058) no VMEM and 2,048 bytes
// of S(6); the fori_loop (module 2410) updates a 4,096-byte VMEM buffer in
// place, counted as the body's parameter and as the update (peak 20,480;
// 16,384 if the buffer counted once).
TEST_P(TpuDump, MemoryAnalysisIsXlaTpus) {
  const std::string base = GetParam();
  const std::string text = ReadTestData(base + ".txt");  // the module views it
  const HloModule module = ReadModule(text);
  BufferAssignmentOptions options;
  options.platform = DetectXlaPlatform(module, base);
  absl::StatusOr<ModuleMemory> m = AnalyzeModuleMemory(module, options);
  ASSERT_TRUE(m.ok()) << m.status();
  const std::string json =
      ReadTestData("memory/testdata_xla_tpu/memory_analysis.json");
  const std::string name = base.substr(base.rfind('/') + 1);
  const XlaMemoryStats& s = m->buffers.stats;
  const std::pair<const char*, int64_t> figures[] = {
      {"argument_size_in_bytes", s.argument_size_in_bytes},
      {"output_size_in_bytes", s.output_size_in_bytes},
      {"alias_size_in_bytes", s.alias_size_in_bytes},
      {"temp_size_in_bytes", s.temp_size_in_bytes},
      {"peak_memory_in_bytes", s.peak_memory_in_bytes},
      {"host_argument_size_in_bytes", s.host_argument_size_in_bytes},
      {"host_output_size_in_bytes", s.host_output_size_in_bytes},
      {"host_alias_size_in_bytes", s.host_alias_size_in_bytes},
      {"host_temp_size_in_bytes", s.host_temp_size_in_bytes},
  };
  for (const auto& [field, ours] : figures) {
    const int64_t xla = MemoryAnalysisFigure(json, name, field);
    ASSERT_GE(xla, 0) << name << " " << field;
    EXPECT_EQ(ours, xla) << field;
  }
}

// Value ids: XLA:TPU numbers values computation by computation in its own
// order, guessed from the names (docs/xla-tpu.md, "Value ids"): the
// scanned LSTM's scalar adder (made anew by a pass) before the loop's
// cloned condition and body, where XLA:GPU's guess put the loop first. The
// v6e fori_loop with bitcast_fusion clones is XLA:TPU's under XLA:GPU's
// guess too (a case kept, not the evidence for "bitcast_fusion clones
// last", which the harness's v6e runs carry). The v5p all_to_all's ids are
// not XLA:TPU's (open: known_tpu_differences.txt). In the SPMD
// mixture-of-experts gradient the scatter's reducer clone goes after the
// clones of the all-reduces its operands come from (channel 6) and before
// the next one's (7), where a place by channels alone put it after them
// all.
TEST(XlaTpu, ValueIdsAreXlaTpus) {
  for (const char* base :
       {kStep, kDynamicIndex, kCummax, kLoopInVmem, kScanLstm, kRolledV6e,
        kMoeExpert, kLoopAfterFusion, kNestedFusion, kAllToAllReducer,
        kCollectiveBodies, kTwoScans, kGatherFirst, kUniquedReducers,
        kNestedLoops, kWindowClone}) {
    const std::string text = ReadTestData(absl::StrCat(base, ".txt"));
    const HloModule module = ReadModule(text);
    BufferAssignmentOptions options;
    options.platform = DetectXlaPlatform(module, base);
    absl::StatusOr<ModuleMemory> m = AnalyzeModuleMemory(module, options);
    ASSERT_TRUE(m.ok()) << m.status();
    EXPECT_EQ(
        ValueIds(XlaBufferAssignmentText(m->buffers)),
        ValueIds(ReadTestData(absl::StrCat(base, "-buffer-assignment.txt"))))
        << base;
  }
}

// XLA:TPU's reducer clones (docs/xla-tpu.md, "Value ids", rule 6): the
// clones one fusion body reduces with are made together (region_0.1's and
// region_1.2's, then their .1 clones), and a clone no such body shares
// with another original's after them, as its original comes later
// (region_8.12.clone after every clone of region_0.1 and region_1.2, as
// in the held-out set's stax ResNet momentum step, where a place by clone
// number first put it before the .1 clones).
constexpr char kTpuClones[] = R"(HloModule m, is_scheduled=true

%region_0.1.clone (a0: f32[], b0: f32[]) -> f32[] {
  %a0 = f32[] parameter(0)
  %b0 = f32[] parameter(1)
  ROOT %add0 = f32[] add(%a0, %b0)
}

%region_1.2.clone (a1: f32[], b1: f32[]) -> f32[] {
  %a1 = f32[] parameter(0)
  %b1 = f32[] parameter(1)
  ROOT %max1 = f32[] maximum(%a1, %b1)
}

%region_0.1.clone.1 (a2: f32[], b2: f32[]) -> f32[] {
  %a2 = f32[] parameter(0)
  %b2 = f32[] parameter(1)
  ROOT %add2 = f32[] add(%a2, %b2)
}

%region_1.2.clone.1 (a3: f32[], b3: f32[]) -> f32[] {
  %a3 = f32[] parameter(0)
  %b3 = f32[] parameter(1)
  ROOT %max3 = f32[] maximum(%a3, %b3)
}

%region_8.12.clone (a4: f32[], b4: f32[]) -> f32[] {
  %a4 = f32[] parameter(0)
  %b4 = f32[] parameter(1)
  ROOT %add4 = f32[] add(%a4, %b4)
}

%fused_computation.2 (p2: f32[8]) -> (f32[], f32[]) {
  %p2 = f32[8] parameter(0)
  %z2 = f32[] constant(0)
  %s2 = f32[] reduce(%p2, %z2), dimensions={0}, to_apply=%region_0.1.clone
  %m2 = f32[] reduce(%p2, %z2), dimensions={0}, to_apply=%region_1.2.clone
  ROOT %t2 = (f32[], f32[]) tuple(%s2, %m2)
}

%fused_computation.1 (p1: f32[8]) -> (f32[], f32[]) {
  %p1 = f32[8] parameter(0)
  %z1 = f32[] constant(0)
  %s1 = f32[] reduce(%p1, %z1), dimensions={0}, to_apply=%region_0.1.clone.1
  %m1 = f32[] reduce(%p1, %z1), dimensions={0}, to_apply=%region_1.2.clone.1
  ROOT %t1 = (f32[], f32[]) tuple(%s1, %m1)
}

ENTRY %main.3 (x: f32[8]) -> ((f32[], f32[]), (f32[], f32[]), f32[]) {
  %x = f32[8] parameter(0)
  %fusion.2 = (f32[], f32[]) fusion(%x), kind=kLoop, calls=%fused_computation.2
  %fusion.1 = (f32[], f32[]) fusion(%x), kind=kLoop, calls=%fused_computation.1
  %zero = f32[] constant(0)
  %r = f32[] reduce(%x, %zero), dimensions={0}, to_apply=%region_8.12.clone
  ROOT %out = ((f32[], f32[]), (f32[], f32[]), f32[]) tuple(%fusion.2, %fusion.1, %r)
}
)";

// The value ids XLA:TPU's model gives a module's values, by value name.
absl::StatusOr<std::map<std::string, int64_t>> TpuValueIdsByName(
    const std::string& text) {
  const HloModule module = ReadModule(text);  // views of `text`
  BufferAssignmentOptions options;
  options.platform = XlaPlatform::kTpu;
  absl::StatusOr<ModuleMemory> m = AnalyzeModuleMemory(module, options);
  if (!m.ok()) return m.status();
  std::map<std::string, int64_t> ids;
  for (const BufferAllocation& a : m->buffers.allocations) {
    for (const AssignedValue& v : a.values) ids[std::string(v.name)] = v.id;
  }
  return ids;
}

// Whether XLA:TPU's model numbers the named values of `text` in the order
// given, each value found once.
::testing::AssertionResult IdsInOrder(
    const std::string& text, std::initializer_list<const char*> names) {
  absl::StatusOr<std::map<std::string, int64_t>> found =
      TpuValueIdsByName(text);
  if (!found.ok()) {
    return ::testing::AssertionFailure() << found.status();
  }
  const char* previous = nullptr;
  for (const char* name : names) {
    auto it = found->find(name);
    if (it == found->end()) {
      return ::testing::AssertionFailure() << "no value " << name;
    }
    if (previous != nullptr && found->at(previous) >= it->second) {
      return ::testing::AssertionFailure()
             << previous << " (" << found->at(previous) << ") not before "
             << name << " (" << it->second << ")";
    }
    previous = name;
  }
  return ::testing::AssertionSuccess();
}

TEST(XlaTpu, ReducerClonesOneBodyUsesAreMadeTogether) {
  EXPECT_TRUE(IdsInOrder(kTpuClones, {"add0", "max1", "add2", "max3", "add4"}));
}

// XLA:TPU's comparator named "compare" (a sort's, made by a late pass)
// comes after the reducer clones (docs/xla-tpu.md, "Value ids", rule 7),
// as in the v5p and v6e mixture-of-experts gradients, where the
// computations passes make anew came before the clones.
constexpr char kTpuCompare[] = R"(HloModule m, is_scheduled=true

%scalar_add_computation.clone (a0: f32[], b0: f32[]) -> f32[] {
  %a0 = f32[] parameter(0)
  %b0 = f32[] parameter(1)
  ROOT %add0 = f32[] add(%a0, %b0)
}

%compare (p0: f32[], p1: f32[]) -> pred[] {
  %p0 = f32[] parameter(0)
  %p1 = f32[] parameter(1)
  ROOT %lt = pred[] compare(%p0, %p1), direction=LT
}

ENTRY %main.2 (x: f32[8]) -> (f32[], f32[8]) {
  %x = f32[8] parameter(0)
  %zero = f32[] constant(0)
  %r = f32[] reduce(%x, %zero), dimensions={0}, to_apply=%scalar_add_computation.clone
  %s = f32[8] sort(%x), dimensions={0}, to_apply=%compare
  ROOT %out = (f32[], f32[8]) tuple(%r, %s)
}
)";

TEST(XlaTpu, TheComparatorCompareComesAfterTheClones) {
  EXPECT_TRUE(IdsInOrder(kTpuCompare, {"add0", "lt"}));
}

// XLA:TPU's or-reducers come by their numbers (docs/xla-tpu.md, "Value
// ids", rule 11), as in the ResNet training steps of the zoo, where the
// text lists reduce_or_computation.1 before reduce_or_computation.
constexpr char kTpuOrReducers[] = R"(HloModule m, is_scheduled=true

%reduce_or_computation.1 (a1: u8[], b1: u8[]) -> u8[] {
  %a1 = u8[] parameter(0)
  %b1 = u8[] parameter(1)
  ROOT %or1 = u8[] or(%a1, %b1)
}

%reduce_or_computation (a0: u16[], b0: u16[]) -> u16[] {
  %a0 = u16[] parameter(0)
  %b0 = u16[] parameter(1)
  ROOT %or0 = u16[] or(%a0, %b0)
}

ENTRY %main.2 (x: u8[8], y: u16[8]) -> (u8[], u16[]) {
  %x = u8[8] parameter(0)
  %y = u16[8] parameter(1)
  %z1 = u8[] constant(0)
  %z0 = u16[] constant(0)
  %r1 = u8[] reduce(%x, %z1), dimensions={0}, to_apply=%reduce_or_computation.1
  %r0 = u16[] reduce(%y, %z0), dimensions={0}, to_apply=%reduce_or_computation
  ROOT %out = (u8[], u16[]) tuple(%r1, %r0)
}
)";

TEST(XlaTpu, OrReducersComeByTheirNumbers) {
  EXPECT_TRUE(IdsInOrder(kTpuOrReducers, {"or0", "or1"}));
}

// XLA:TPU's scatter expander's reducers (an `and` of predicates, named by
// MakeReduceHlo) come just after the importer's computations, before those
// other passes make anew (docs/xla-tpu.md, "Value ids", rule 14), as in the
// held-out odeint solve, where rule 11 put them after a scalar adder. A
// reducer of that name that is not an `and` (linalg_svd's `le.N.`, an add of
// predicates) keeps rule 11's place.
constexpr char kTpuScatterExpander[] = R"(HloModule m, is_scheduled=true

%region_0.1 (a0: f32[], b0: f32[]) -> f32[] {
  %a0 = f32[] parameter(0)
  %b0 = f32[] parameter(1)
  ROOT %add0 = f32[] add(%a0, %b0)
}

%scalar_add_computation (a1: f32[], b1: f32[]) -> f32[] {
  %a1 = f32[] parameter(0)
  %b1 = f32[] parameter(1)
  ROOT %add1 = f32[] add(%a1, %b1)
}

%and.reduce_sub_computation.2 (a3: pred[], b3: pred[]) -> pred[] {
  %a3 = pred[] parameter(0)
  %b3 = pred[] parameter(1)
  ROOT %and3 = pred[] and(%a3, %b3)
}

%le.4.reduce_sub_computation (a4: pred[], b4: pred[]) -> pred[] {
  %a4 = pred[] parameter(0)
  %b4 = pred[] parameter(1)
  ROOT %add4 = pred[] add(%a4, %b4)
}

%and.reduce_sub_computation (a2: pred[], b2: pred[]) -> pred[] {
  %a2 = pred[] parameter(0)
  %b2 = pred[] parameter(1)
  ROOT %and2 = pred[] and(%a2, %b2)
}

ENTRY %main.2 (x: f32[8], p: pred[8]) -> (f32[], f32[], pred[], pred[], pred[]) {
  %x = f32[8] parameter(0)
  %p = pred[8] parameter(1)
  %z = f32[] constant(0)
  %t = pred[] constant(true)
  %r0 = f32[] reduce(%x, %z), dimensions={0}, to_apply=%region_0.1
  %r1 = f32[] reduce(%x, %z), dimensions={0}, to_apply=%scalar_add_computation
  %r3 = pred[] reduce(%p, %t), dimensions={0}, to_apply=%and.reduce_sub_computation.2
  %r4 = pred[] reduce(%p, %t), dimensions={0}, to_apply=%le.4.reduce_sub_computation
  %r2 = pred[] reduce(%p, %t), dimensions={0}, to_apply=%and.reduce_sub_computation
  ROOT %out = (f32[], f32[], pred[], pred[], pred[]) tuple(%r0, %r1, %r2, %r3, %r4)
}
)";

TEST(XlaTpu, ScatterExpanderReducersComeFirstOfThoseMadeAnew) {
  EXPECT_TRUE(IdsInOrder(kTpuScatterExpander,
                         {"add0", "and2", "and3", "add1", "add4"}));
}

// XLA:TPU's clones of clones come by the number ending their names
// (docs/xla-tpu.md, "Value ids", rule 15), as in float64_x64's medium size,
// whose text lists region_1.3.clone.clone.2 first.
constexpr char kTpuClonesOfClones[] = R"(HloModule m, is_scheduled=true

%region_1.3.clone.clone.2 (a2: f32[], b2: f32[]) -> f32[] {
  %a2 = f32[] parameter(0)
  %b2 = f32[] parameter(1)
  ROOT %add2 = f32[] add(%a2, %b2)
}

%region_1.3.clone (a0: f32[], b0: f32[]) -> f32[] {
  %a0 = f32[] parameter(0)
  %b0 = f32[] parameter(1)
  ROOT %add0 = f32[] add(%a0, %b0)
}

%region_1.3.clone.clone.1 (a1: f32[], b1: f32[]) -> f32[] {
  %a1 = f32[] parameter(0)
  %b1 = f32[] parameter(1)
  ROOT %add1 = f32[] add(%a1, %b1)
}

ENTRY %main.4 (x: f32[8]) -> (f32[], f32[], f32[]) {
  %x = f32[8] parameter(0)
  %z = f32[] constant(0)
  %r2 = f32[] reduce(%x, %z), dimensions={0}, to_apply=%region_1.3.clone.clone.2
  %r0 = f32[] reduce(%x, %z), dimensions={0}, to_apply=%region_1.3.clone
  %r1 = f32[] reduce(%x, %z), dimensions={0}, to_apply=%region_1.3.clone.clone.1
  ROOT %out = (f32[], f32[], f32[]) tuple(%r0, %r1, %r2)
}
)";

TEST(XlaTpu, ClonesOfClonesComeByTheirLastNumber) {
  EXPECT_TRUE(IdsInOrder(kTpuClonesOfClones, {"add0", "add1", "add2"}));
}

// XLA:TPU's reducer clone that only a reduce-window in a fusion body calls
// is made after fusion, just before that body (docs/xla-tpu.md, "Value
// ids", rule 13), as in v6e's attention (dot_product_attention.s.bf16) and
// transformer_remat: its values' ids come after those of the other fusion
// bodies (fused_computation.5's three), where a clone made before fusion
// came first. A reduce's clone (region_1.4.clone) keeps its place.
constexpr char kTpuWindowClone[] = R"(HloModule m, is_scheduled=true

%region_1.4.clone (a1: f32[], b1: f32[]) -> f32[] {
  %a1 = f32[] parameter(0)
  %b1 = f32[] parameter(1)
  ROOT %add1 = f32[] add(%a1, %b1)
}

%region_0.3.clone (a0: f32[], b0: f32[]) -> f32[] {
  %a0 = f32[] parameter(0)
  %b0 = f32[] parameter(1)
  ROOT %max0 = f32[] maximum(%a0, %b0)
}

%fused_computation.12 (p12: f32[8]) -> f32[8] {
  %p12 = f32[8] parameter(0)
  %z12 = f32[] constant(0)
  ROOT %w12 = f32[8] reduce-window(%p12, %z12), window={size=3 pad=1_1}, to_apply=%region_0.3.clone
}

%fused_computation.5 (p5: f32[8]) -> f32[] {
  %p5 = f32[8] parameter(0)
  %z5 = f32[] constant(0)
  ROOT %r5 = f32[] reduce(%p5, %z5), dimensions={0}, to_apply=%region_1.4.clone
}

ENTRY %main.5 (x: f32[8]) -> (f32[8], f32[]) {
  %x = f32[8] parameter(0)
  %fusion.12 = f32[8] fusion(%x), kind=kOutput, calls=%fused_computation.12
  %fusion.5 = f32[] fusion(%x), kind=kLoop, calls=%fused_computation.5
  ROOT %out = (f32[8], f32[]) tuple(%fusion.12, %fusion.5)
}
)";

TEST(XlaTpu, AFusedReduceWindowsReducerCloneIsMadeAfterFusion) {
  absl::StatusOr<std::map<std::string, int64_t>> found =
      TpuValueIdsByName(kTpuWindowClone);
  ASSERT_TRUE(found.ok()) << found.status();
  std::map<std::string, int64_t>& ids = *found;
  ASSERT_EQ(ids.count("a1") + ids.count("add1") + ids.count("a0"), 3u);
  // region_1.4.clone first (ids 0 to 2), fused_computation.5 (3 to 5),
  // then region_0.3.clone.
  EXPECT_EQ(ids["a1"], 0);
  EXPECT_EQ(ids["a0"], ids["add1"] + 1 + 3);
}

// The "allocation N: size S, color C, KIND" lines of a buffer-assignment
// text, in order, VMEM's (color 1, memory-space assignment's size) without
// its size.
std::vector<std::string> AllocationLines(absl::string_view text) {
  std::vector<std::string> lines;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (!absl::StartsWith(line, "allocation ")) continue;
    lines.emplace_back(absl::StrContains(line, ", color 1,")
                           ? line.substr(0, line.find(':'))
                           : line);
  }
  return lines;
}

// A usage report without its VMEM section (memory-space assignment's
// offsets, not in the dump).
std::string WithoutVmem(absl::string_view report) {
  std::string out;
  bool vmem = false;
  for (absl::string_view line : absl::StrSplit(report, '\n')) {
    if (absl::StartsWith(line, "Memory Space: ")) {
      vmem = absl::StartsWith(line, "Memory Space: vmem (color=1)");
    }
    if (!vmem) absl::StrAppend(&out, line, "\n");
  }
  return out;
}

// XLA:TPU's SparseCore offload (docs/xla-tpu.md, "Rules learned"): the
// flag `u32[]{:S(8)}` takes its 4 bytes (the model took a whole (8,128)
// tile, 4,096), the nested async-start's {} and {0} tables are color 7
// with 0 bytes (the model: color 0, 32 bytes each), its live range ends
// at the outer async-done, and the usage report prints the empty color-7
// allocation's share as "-nan%". Every allocation (size, color, kind),
// every value's size and memory space, the live-range file, the usage
// report and memory_analysis() are XLA:TPU's (VMEM's size and offsets are
// memory-space assignment's, left out); the thread-local values' ids are
// not (open, "Value ids").
TEST(XlaTpu, SparseCoreOffloadIsXlaTpus) {
  const std::string text = ReadTestData(absl::StrCat(kSparseCore, ".txt"));
  const HloModule module = ReadModule(text);
  BufferAssignmentOptions options;
  options.platform = XlaPlatform::kTpu;
  options.tpu_generation = TpuGeneration::kV6e;
  absl::StatusOr<ModuleMemory> m = AnalyzeModuleMemory(module, options);
  ASSERT_TRUE(m.ok()) << m.status();
  const std::string xla =
      ReadTestData(absl::StrCat(kSparseCore, "-buffer-assignment.txt"));
  const std::string ours = XlaBufferAssignmentText(m->buffers);
  EXPECT_EQ(AllocationLines(ours), AllocationLines(xla));
  EXPECT_EQ(ValueSizes(ours), ValueSizes(xla));
  EXPECT_EQ(XlaLiveRangeText(m->live_ranges, ValuesByXlaId(m->buffers),
                             LiveRangeSizes::kLogical),
            ReadTestData(absl::StrCat(kSparseCore, "-live-range.txt")));
  EXPECT_EQ(WithoutVmem(XlaMemoryUsageReportText(m->buffers)),
            WithoutVmem(ReadTestData(
                absl::StrCat(kSparseCore, "-memory-usage-report.txt"))));
  const std::string json =
      ReadTestData("memory/testdata_xla_tpu/memory_analysis.json");
  const std::string name = "module_0000.jit_f.cl_933746096.after_optimizations";
  EXPECT_EQ(m->buffers.stats.temp_size_in_bytes,
            MemoryAnalysisFigure(json, name, "temp_size_in_bytes"));
  EXPECT_EQ(m->buffers.stats.peak_memory_in_bytes,
            MemoryAnalysisFigure(json, name, "peak_memory_in_bytes"));
}

// A copy-done without users before the root (memory-space assignment's
// prefetch of a cross-program-prefetched argument again at the program's
// end, checkpoint_policies.m on v4 and v5e): XLA:TPU walks it after the
// root, so its copy-start's values are numbered last and its tuple table
// sorts after the constants and tables of the same size (the model walked
// it first, in text order, and made a 512-byte tuple allocation before a
// global constant that XLA:TPU made first).
constexpr char kTpuEndPrefetch[] = R"(HloModule m, is_scheduled=true

ENTRY %main (p: f32[8,128]) -> (f32[8,128], f32[8,128]) {
  %p = f32[8,128]{1,0:T(8,128)} parameter(0)
  %cs = (f32[8,128]{1,0:T(8,128)S(1)}, f32[8,128]{1,0:T(8,128)}, u32[]{:S(2)}) copy-start(%p), cross_program_prefetch_index=0
  %cd = f32[8,128]{1,0:T(8,128)S(1)} copy-done(%cs)
  %a = f32[8,128]{1,0:T(8,128)} add(%cd, %cd)
  %cs.1 = (f32[8,128]{1,0:T(8,128)S(1)}, f32[8,128]{1,0:T(8,128)}, u32[]{:S(2)}) copy-start(%p)
  %cd.1 = f32[8,128]{1,0:T(8,128)S(1)} copy-done(%cs.1)
  ROOT %t = (f32[8,128]{1,0:T(8,128)}, f32[8,128]{1,0:T(8,128)}) tuple(%a, %a)
}
)";

TEST(XlaTpu, AnEndOfProgramPrefetchIsNumberedAfterTheRoot) {
  absl::StatusOr<std::map<std::string, int64_t>> found =
      TpuValueIdsByName(kTpuEndPrefetch);
  ASSERT_TRUE(found.ok()) << found.status();
  std::map<std::string, int64_t>& ids = *found;
  ASSERT_EQ(ids.count("cs") + ids.count("cs.1") + ids.count("t"), 3u);
  EXPECT_LT(ids["cs"], ids["t"]);
  EXPECT_GT(ids["cs.1"], ids["t"]);
}

INSTANTIATE_TEST_SUITE_P(Libtpu, TpuDump,
                         ::testing::Values(kStep, kDynamicIndex, kCummax,
                                           kLoopInVmem, kAllToAllV5p,
                                           kScanLstm));

}  // namespace
}  // namespace hlolayout

// What the XLA:GPU oracle (differential/xla --target h100|a100|b200) found:
// each test is a rule of XLA's that the library did not follow until a
// module compiled by XLA:GPU (jaxlib 0.10.2's CUDA plugin, no GPU needed)
// showed the difference (docs/memory-xla-checks.md, "Checked against
// XLA:GPU"). Each fails on the code before its fix.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/memory/live_range.h"
#include "hlolayout/testing/test_data.h"
#include "hlolayout/views/buffer_assignment_text.h"
#include "hlolayout/views/live_range_text.h"

namespace hlolayout {
namespace {

// H100 dumps of jaxlib 0.10.2 (memory/testdata_xla_gpu/README.md): every
// allocation, value id and offset, the usage report, the figures of
// memory_analysis() and the whole -live-range.txt are XLA's.
class JaxlibGpuDump : public ::testing::TestWithParam<const char*> {};

TEST_P(JaxlibGpuDump, MatchesXlasFiles) {
  const std::string base = absl::StrCat("memory/testdata_xla_gpu/", GetParam());
  const std::string text = ReadTestData(base + ".txt");
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
  ASSERT_TRUE(modules.ok()) << modules.status();
  BufferAssignmentOptions options;
  options.platform = XlaPlatform::kGpu;
  absl::StatusOr<ModuleMemory> m = AnalyzeModuleMemory((*modules)[0], options);
  ASSERT_TRUE(m.ok()) << m.status();
  // jaxlib 0.10.2 does not print ", page 0" (newer XLA does, and so does
  // the library).
  const std::string buffers = absl::StrReplaceAll(
      XlaBufferAssignmentText(m->buffers), {{", page 0", ""}});
  EXPECT_EQ(buffers, ReadTestData(base + "-buffer-assignment.txt"));
  EXPECT_EQ(XlaMemoryUsageReportText(m->buffers),
            ReadTestData(base + "-memory-usage-report.txt"));
  EXPECT_EQ(XlaLiveRangeText(m->live_ranges, ValuesByXlaId(m->buffers)),
            ReadTestData(base + "-live-range.txt"));
  const std::string json =
      ReadTestData("memory/testdata_xla_gpu/memory_analysis.json");
  const XlaMemoryStats& s = m->buffers.stats;
  EXPECT_EQ(s.argument_size_in_bytes,
            MemoryAnalysisFigure(json, GetParam(), "argument_size_in_bytes"));
  EXPECT_EQ(s.output_size_in_bytes,
            MemoryAnalysisFigure(json, GetParam(), "output_size_in_bytes"));
  EXPECT_EQ(s.alias_size_in_bytes,
            MemoryAnalysisFigure(json, GetParam(), "alias_size_in_bytes"));
  EXPECT_EQ(s.temp_size_in_bytes,
            MemoryAnalysisFigure(json, GetParam(), "temp_size_in_bytes"));
  EXPECT_EQ(s.peak_memory_in_bytes,
            MemoryAnalysisFigure(json, GetParam(), "peak_memory_in_bytes"));
}

// XLA lists `BufferLiveRange:` by value id, and XLA:GPU's ids follow the
// entry's post order (a depth-first walk from the root), not the order the
// schedule prints: an MLP's forward pass (jit__lambda, module 0001) has its
// second layer's parameters printed first but numbered after the first
// layer's matmul.
INSTANTIATE_TEST_SUITE_P(
    ValueIdOrder, JaxlibGpuDump,
    ::testing::Values(
        "module_0001.jit__lambda.sm_9.0a_gpu_after_optimizations"));

// XLA numbers the values of a comparator or reducer from the instructions
// without users in the order it holds them, parameters first by number,
// whatever order the text prints: an argsort's comparator (jit__lambda,
// module 17240) prints its unused parameters last first, a scatter's
// "set" reducer (module 23872) prints `ROOT %scatter.3 = parameter(1)`
// before the unused parameter(0). Their ids, and so every thread-local
// allocation's number, were those of the text order.
INSTANTIATE_TEST_SUITE_P(
    UnusedParametersByNumber, JaxlibGpuDump,
    ::testing::Values(
        "module_17240.jit__lambda.sm_9.0a_gpu_after_optimizations",
        "module_23872.jit__lambda.sm_9.0a_gpu_after_optimizations"));

// A sort custom fusion sorts in place: its output {i} takes the buffer of
// the operand that is sort operand i (XLA:GPU's fusion sharing hint lets
// the path from a parameter into a sort root through, as into a scatter's
// inputs). An argsort of negated keys (module_17903: the negated
// keys' buffer becomes the sorted keys'): the temp allocation was 4,120
// bytes for XLA's 3,096; jax.random.permutation's threefry sort and a
// three-operand sort were off the same way.
INSTANTIATE_TEST_SUITE_P(
    SortFusionInPlace, JaxlibGpuDump,
    ::testing::Values(
        "module_17903.jit__lambda.sm_9.0a_gpu_after_optimizations"));

// The stack-trace tree splits an op_name that reads as a path of quoted
// keys (`p['d1']`) into one level per part: p > d1 (jit_decode, module
// 33368, a transposed-conv decoder); `p[0]['w']` above stays whole.
INSTANTIATE_TEST_SUITE_P(
    ParamsPath, JaxlibGpuDump,
    ::testing::Values(
        "module_33368.jit_decode.sm_9.0a_gpu_after_optimizations"));

// A value lives until its last position, not only its last use (XLA's
// HloLiveRange::GetLastPosition): a categorical sample (module_21805,
// rng_sampling.s.sample) whose multi-output reduce fusion yields a tuple
// ((f32[16], s32[16]), f32[16,8]); nothing uses the f32[16] element, but
// get-tuple-element.18 forwards it at time 6, so it lives 4-6 (it ended
// at its definition, 4, before).
INSTANTIATE_TEST_SUITE_P(
    LastPosition, JaxlibGpuDump,
    ::testing::Values(
        "module_21805.jit_sample.sm_9.0a_gpu_after_optimizations"));

// XLA:GPU's value ids follow its computation order, replayed from its
// pipeline (XlaGpuComputationOrder; docs/memory.md, "Value ids"): the
// importer's computations, the reducers passes make before fusion, then
// each fusion pass's bodies, computation by computation in the order of the
// moment, each call moving its caller behind the new body. Each module's
// ids were off before:
// - a scanned LSTM (module_36020, lstm_scan.s.forward): the loop body got
//   its Triton GEMMs first, so priority fusion fused the condition before
//   the body; a scalar adder made before fusion comes first of all;
// - an MLP's forward pass (module_2665, mlp_sgd.m.forward): the reducers
//   made for dots, "dot.reduce_sub_computation" before "dot.1...";
// - an MoE layer (module_63423, moe_layer.s.forward): a top-k comparator
//   made anew before the reducer clones;
// - a log-sum-exp (module_165047, arg_reductions.s.logsumexp_var): a
//   clone whose region is gone ("region_5.9.clone") before the clones of
//   region_1.2, which is there;
// - a max pool's gradient (module_138521, reduce_window_pools.s.
//   max_pool_grad): "region_1.2.reduce_window", made of region_1.2 by a
//   pass, after the importer's.
INSTANTIATE_TEST_SUITE_P(
    ComputationOrder, JaxlibGpuDump,
    ::testing::Values(
        "module_36020.jit_run.sm_9.0a_gpu_after_optimizations",
        "module_2665.jit__lambda.sm_9.0a_gpu_after_optimizations",
        "module_63423.jit_f.sm_9.0a_gpu_after_optimizations",
        "module_165047.jit__lambda.sm_9.0a_gpu_after_optimizations",
        "module_138521.jit__lambda.sm_9.0a_gpu_after_optimizations"));

// XLA:GPU's computation order follows passes that touched a computation
// before fusion: each new callee moved its caller (and theirs) to the front
// of XLA's online order, so priority fusion later met the loop's condition
// before its body. Each module's ids were off before:
// - a cumulative scan (module_86804, scan_cumulative.s.scan) whose two
//   stacked outputs called jax's dynamic_update_index_in_dim twice from the
//   loop body: FlattenCallGraph cloned it for the second call, a new callee
//   of the body (the op_names are all the text keeps of it);
// - a batched map over rows (module_100727, lax_map_rows.s.map_batched)
//   whose body sorts:
//   StableSortExpander's comparator clone (region_1.2.clone), called from
//   the body then, from a fusion body now;
// - a flash-style attention's forward pass (module_266507,
//   flash_attention.s.forward): the key and value blocks sliced by one
//   function, and FusionWrapper's bodies made walking from the entry (the
//   entry's transpose before the loop body's maximum).
// A value an async computation defines keeps its definition as the end of
// its live range (XLA's HloLiveRange ends the definition no earlier than
// the chain's async-done, then takes a later position only when strictly
// later, which the async-done is not), so only a user of the definition
// itself may take its buffer: an FSDP training step on 8 GPUs
// (module_4076, spmd_mlp_fsdp.s.train_step), whose reduce-scatter.2, the
// root of an async computation, was put in the donated parameter's
// allocation for loop_subtract_fusion, the async-done's user; XLA keeps it
// in the temp heap.
INSTANTIATE_TEST_SUITE_P(
    AsyncRootEndsAtItsDefinition, JaxlibGpuDump,
    ::testing::Values("module_4076.jit_step.sm_9.0a_gpu_after_optimizations"));

// A reduction fusion's hero is the reduce a root computes through
// intermediate instructions (bitcasts, elementwise ones of one operand),
// and the path from a parameter to an output may pass it: optax's LAMB on
// a B200 (module_27565, heldout_optax.s.lamb, held out), whose multi-output
// fusion ends in the norm's sqrt of a sum; its output {1} takes the buffer
// of gemm_fusion_dot, its operand, as in XLA's heap (it had a slot of its
// own, and the norm and its neighbours other offsets).
INSTANTIATE_TEST_SUITE_P(
    ReductionHeroThroughElementwise, JaxlibGpuDump,
    ::testing::Values(
        "module_27565.jit_step.sm_10.0a_gpu_after_optimizations"));

// The SPMD partitioner's reducer clones in the order of their collectives'
// channels (the partitioner numbers channels as it makes the collectives,
// each with its reducer's clone): a model-parallel MLP's gradient on 8
// GPUs (module_228056, spmd_mlp_model.s.loss_grad), whose add.clone
// (channel 1) XLA made before region_0.1.clone (2) and region_1.2.clone
// (3); the names put it after them.
INSTANTIATE_TEST_SUITE_P(
    PartitionerClonesByChannel, JaxlibGpuDump,
    ::testing::Values(
        "module_228056.jit__lambda.sm_9.0a_gpu_after_optimizations"));

// The computations made before fusion in the order of the passes that
// made them: a map over rows (module_100064, lax_map_rows.s.map) whose
// sort SortIotaFusion fused before priority fusion ran (its body,
// "fused_computation", holds the sort); a held-out GMRES solve
// (module_2056, heldout_sparse_solvers.s.gmres) whose scatter expander's
// "and.reduce_sub_computation" comes before dot-strength-reduction's
// "scalar_add_computation", and their clones in that order.
INSTANTIATE_TEST_SUITE_P(
    MadeBeforeFusion, JaxlibGpuDump,
    ::testing::Values(
        "module_100064.jit_f.sm_9.0a_gpu_after_optimizations",
        "module_2056.jit__lambda.sm_9.0a_gpu_after_optimizations"));

INSTANTIATE_TEST_SUITE_P(
    TouchedBeforeFusion, JaxlibGpuDump,
    ::testing::Values(
        "module_86804.jit_f.sm_9.0a_gpu_after_optimizations",
        "module_100727.jit__lambda.sm_9.0a_gpu_after_optimizations",
        "module_266507.jit__flash_attention.sm_9.0a_gpu_after_optimizations"));

// Given the order XLA created the computations in (here XLA:GPU's module
// order, which compile_zoo.py records), the replay gives XLA's ids on
// XLA:GPU as on XLA:CPU: a reversed, unrolled cumulative scan
// (module_87467, scan_cumulative.s.scan_reverse_unroll) whose loop
// XLA:GPU fused condition first, which the guess does not (the importer
// made the body first, and the unrolled body's two slices of one function
// were merged into one instruction, so the text does not show the second
// call). XLA:GPU refused the order before.
TEST(XlaGpuFindings, GivenXlasOrderTheIdsAreXlas) {
  const std::string name =
      "module_87467.jit__lambda.sm_9.0a_gpu_after_optimizations";
  const std::string base = "memory/testdata_xla_gpu/" + name;
  const std::string text = ReadTestData(base + ".txt");  // the module points in
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
  ASSERT_TRUE(modules.ok()) << modules.status();
  BufferAssignmentOptions options;
  options.platform = XlaPlatform::kGpu;
  const std::string want = ReadTestData(base + "-buffer-assignment.txt");
  absl::StatusOr<ModuleMemory> guessed =
      AnalyzeModuleMemory((*modules)[0], options);
  ASSERT_TRUE(guessed.ok()) << guessed.status();
  const std::string guessed_text = absl::StrReplaceAll(
      XlaBufferAssignmentText(guessed->buffers), {{", page 0", ""}});
  EXPECT_NE(guessed_text, want) << "the guess is XLA's now: test another";
  for (absl::string_view line :
       absl::StrSplit(ReadTestData(base + "-creation-order.txt"), '\n')) {
    if (!line.empty()) options.xla_creation_order.emplace_back(line);
  }
  absl::StatusOr<ModuleMemory> m = AnalyzeModuleMemory((*modules)[0], options);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(absl::StrReplaceAll(XlaBufferAssignmentText(m->buffers),
                                {{", page 0", ""}}),
            want);
  EXPECT_EQ(XlaMemoryUsageReportText(m->buffers),
            ReadTestData(base + "-memory-usage-report.txt"));
}

// Every value of an async computation lives until its chain's async-done
// (XLA's HloLiveRange extends their definitions in an async context): a
// 2-D sharded MLP step on 8 GPUs (module_0001.jit_step, spmd_mlp_2d.s.
// train_step), whose reduce-scatter runs wrapped in async-start/done; its
// tuple table, reduce-scatter.5{}, lives 85-95 (it ended at 86, the
// async-start, before). Given XLA's creation order (the partitioner's
// reducer clones are not in the text's), the whole live-range file, every
// allocation and id are XLA's.
TEST(XlaGpuFindings, AsyncComputationValuesLiveUntilTheDone) {
  const std::string name =
      "module_0001.jit_step.sm_9.0a_gpu_after_optimizations";
  const std::string base = "memory/testdata_xla_gpu/" + name;
  const std::string text = ReadTestData(base + ".txt");  // the module points in
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
  ASSERT_TRUE(modules.ok()) << modules.status();
  BufferAssignmentOptions options;
  options.platform = XlaPlatform::kGpu;
  for (absl::string_view line :
       absl::StrSplit(ReadTestData(base + "-creation-order.txt"), '\n')) {
    if (!line.empty()) options.xla_creation_order.emplace_back(line);
  }
  absl::StatusOr<ModuleMemory> m = AnalyzeModuleMemory((*modules)[0], options);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(XlaLiveRangeText(m->live_ranges, ValuesByXlaId(m->buffers)),
            ReadTestData(base + "-live-range.txt"));
  EXPECT_EQ(absl::StrReplaceAll(XlaBufferAssignmentText(m->buffers),
                                {{", page 0", ""}}),
            ReadTestData(base + "-buffer-assignment.txt"));
}

// A text with every value id `<N ` written `<`: what the assignment places
// where, whatever the ids.
std::string WithoutIds(const std::string& text) {
  std::vector<std::string> lines = absl::StrSplit(text, '\n');
  for (std::string& line : lines) {
    const size_t at = line.find(" value: <");
    if (at == std::string::npos) continue;
    const size_t start = at + 9;
    const size_t space = line.find(' ', start);
    if (space != std::string::npos) line.erase(start, space + 1 - start);
  }
  return absl::StrJoin(lines, "\n");
}

// NCCL reduces in place: an all-reduce-start's output takes its operand's
// buffer (XLA's in-place pairs of all-reduce-start; one pair per operand,
// the whole output for one). A data-parallel MLP's gradient on 8 GPUs
// (jit__lambda, module 136613: the gradients concatenated into one
// all-reduce): with its own slot the temp allocation was 544,068 bytes,
// XLA's is 280,320, and the peak 1,091,940 against 828,192. Every
// allocation, offset and figure is XLA's (the ids of the partitioner's
// reducer clones are not: docs/memory.md, "Value ids").
TEST(XlaGpuFindings, AllReduceStartReducesInPlace) {
  const std::string name =
      "module_136613.jit__lambda.sm_9.0a_gpu_after_optimizations";
  const std::string base = "memory/testdata_xla_gpu/" + name;
  const std::string text = ReadTestData(base + ".txt");  // the module points in
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
  ASSERT_TRUE(modules.ok()) << modules.status();
  absl::StatusOr<ModuleMemory> m = AnalyzeModuleMemory((*modules)[0], {});
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(WithoutIds(absl::StrReplaceAll(XlaBufferAssignmentText(m->buffers),
                                           {{", page 0", ""}})),
            WithoutIds(ReadTestData(base + "-buffer-assignment.txt")));
  const std::string json =
      ReadTestData("memory/testdata_xla_gpu/memory_analysis.json");
  EXPECT_EQ(m->buffers.stats.temp_size_in_bytes,
            MemoryAnalysisFigure(json, name, "temp_size_in_bytes"));
  EXPECT_EQ(m->buffers.stats.temp_size_in_bytes, 280320);
  EXPECT_EQ(m->buffers.stats.peak_memory_in_bytes,
            MemoryAnalysisFigure(json, name, "peak_memory_in_bytes"));
}

// ... and the all-reduce-start and its operand are one buffer in XLA's
// alias analysis (in-place pairs must alias), whose live range is theirs
// together: a vocabulary-parallel embedding's gradient on 8 GPUs
// (jit__lambda, module 168232) put the gathered rows (loop_select_fusion)
// in the output's allocation, free until the output's broadcast, where XLA
// placed only partition-id: the rows live on through the all-reduce.
TEST(XlaGpuFindings, AllReduceStartIsOneBufferWithItsOperand) {
  const std::string name =
      "module_168232.jit__lambda.sm_9.0a_gpu_after_optimizations";
  const std::string base = "memory/testdata_xla_gpu/" + name;
  const std::string text = ReadTestData(base + ".txt");  // the module points in
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
  ASSERT_TRUE(modules.ok()) << modules.status();
  absl::StatusOr<ModuleMemory> m = AnalyzeModuleMemory((*modules)[0], {});
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(WithoutIds(absl::StrReplaceAll(XlaBufferAssignmentText(m->buffers),
                                           {{", page 0", ""}})),
            WithoutIds(ReadTestData(base + "-buffer-assignment.txt")));
  const std::string json =
      ReadTestData("memory/testdata_xla_gpu/memory_analysis.json");
  EXPECT_EQ(m->buffers.stats.temp_size_in_bytes,
            MemoryAnalysisFigure(json, name, "temp_size_in_bytes"));
  EXPECT_EQ(m->buffers.stats.peak_memory_in_bytes,
            MemoryAnalysisFigure(json, name, "peak_memory_in_bytes"));
}

// The split, part by part, on a module of parameters named every way.
TEST(XlaGpuFindings, StackTreeSplitsQuotedKeyPathsOnly) {
  const std::string text = R"(HloModule m, is_scheduled=true

ENTRY %main (a: f32[4], b: f32[2], c: f32[1], d: f32[8], e: f32[16], f: f32[32]) -> (f32[4], f32[2], f32[1], f32[8], f32[16], f32[32]) {
  %a = f32[4]{0} parameter(0), metadata={op_name="opt['mu/w'].v"}
  %b = f32[2]{0} parameter(1), metadata={op_name="opt['nu']"}
  %c = f32[1]{0} parameter(2), metadata={op_name="p[0]['w']"}
  %d = f32[8]{0} parameter(3), metadata={op_name="no_key.attr"}
  %e = f32[16]{0} parameter(4), metadata={op_name="opt['mu'] x"}
  %f = f32[32]{0} parameter(5), metadata={op_name="jit(f)/mul"}
  ROOT %t = (f32[4]{0}, f32[2]{0}, f32[1]{0}, f32[8]{0}, f32[16]{0}, f32[32]{0}) tuple(%a, %b, %c, %d, %e, %f)
}
)";
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
  ASSERT_TRUE(modules.ok()) << modules.status();
  absl::StatusOr<MemoryAnalysis> a = AnalyzeMemory((*modules)[0]);
  ASSERT_TRUE(a.ok()) << a.status();
  // opt > mu > w > v and opt > nu; the others whole (an index that is not
  // a quoted key, no key, a space, a slash outside a key).
  EXPECT_EQ(XlaStackTraceText(*a),
            R"(  Stack trace breakdown for peak usage: 300 bytes
    main (100.0%, total: 300 bytes, current: 0 bytes, remaining: 300 bytes)
      ├── jit(f)/mul (42.7%, total: 128 bytes, current: 128 bytes, remaining: 172 bytes)
      ├── opt['mu'] x (21.3%, total: 64 bytes, current: 64 bytes, remaining: 108 bytes)
      ├── t (16.0%, total: 48 bytes, current: 48 bytes, remaining: 60 bytes)
      ├── no_key.attr (10.7%, total: 32 bytes, current: 32 bytes, remaining: 28 bytes)
      ├── opt (8.0%, total: 24 bytes, current: 0 bytes, remaining: 28 bytes)
      │   ├── mu (5.3%, total: 16 bytes, current: 0 bytes, remaining: 28 bytes)
      │   │   └── w (5.3%, total: 16 bytes, current: 0 bytes, remaining: 28 bytes)
      │   │       └── v (5.3%, total: 16 bytes, current: 16 bytes, remaining: 12 bytes)
      │   └── nu (2.7%, total: 8 bytes, current: 8 bytes, remaining: 4 bytes)
      └── p[0]['w'] (1.3%, total: 4 bytes, current: 4 bytes, remaining: 0 bytes)
)");
}

}  // namespace
}  // namespace hlolayout

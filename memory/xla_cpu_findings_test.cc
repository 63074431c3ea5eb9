// What the XLA:CPU oracle (differential/xla) found: each test is a rule of
// XLA's that the library did not follow until a module compiled by jaxlib
// showed the difference (docs/memory-xla-checks.md, "Checked against XLA").
// Each fails on the code before its fix.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/testing/test_data.h"
#include "hlolayout/views/buffer_assignment_text.h"

namespace hlolayout {
namespace {

// One allocation whose values sit at the given sizes, one per offset.
BufferAssignment OneAllocation(const std::vector<int64_t>& sizes) {
  BufferAssignment b;
  BufferAllocation a;
  int64_t offset = 0;
  for (size_t k = 0; k < sizes.size(); ++k) {
    AssignedValue v;
    v.id = static_cast<int64_t>(k);
    v.name = "v";
    v.offset = offset;
    v.size = sizes[k];
    offset += sizes[k];
    a.values.push_back(v);
  }
  a.size = offset;
  b.allocations.push_back(a);
  return b;
}

std::vector<std::string> Lines(const std::string& text) {
  return absl::StrSplit(text, '\n');
}

// The memory-usage report lists an allocation's groups largest first and,
// after the 51st (not the 50th), leaves out the rest once it is under 5% of
// the total. A transformer's gradient (jaxlib 0.10.2) showed 51 groups
// before "The rest 25 values ...".
TEST(XlaCpuFindings, UsageReportListsFiftyOneGroupsBeforeTheRest) {
  std::vector<int64_t> sizes = {1000};
  sizes.resize(53, 1);  // 1000 + 52 groups of 1 byte: 1052 bytes
  const std::vector<std::string> lines =
      Lines(XlaMemoryUsageReportText(OneAllocation(sizes)));
  // Memory Space, Total bytes, the two header lines, then the groups.
  ASSERT_GT(lines.size(), 56u);
  EXPECT_EQ(lines[4].substr(0, 19), "      1000B( 95%); ");
  EXPECT_EQ(lines[4 + 51],
            "  The rest 2 values are less than 5% of the total size and not "
            "shown.");
}

// When the 51st group is the last one, XLA still prints the line, with 0.
TEST(XlaCpuFindings, UsageReportSaysTheRestIsZeroAfterTheLastGroup) {
  std::vector<int64_t> sizes(51, 4);
  const std::vector<std::string> lines =
      Lines(XlaMemoryUsageReportText(OneAllocation(sizes)));
  ASSERT_GT(lines.size(), 55u);
  EXPECT_EQ(lines[4 + 51],
            "  The rest 0 values are less than 5% of the total size and not "
            "shown.");
  // 50 groups: no such line.
  sizes.resize(50);
  const std::string fifty = XlaMemoryUsageReportText(OneAllocation(sizes));
  EXPECT_EQ(fifty.find("The rest"), std::string::npos) << fifty;
}

// XLA:CPU numbers values computation by computation in its computation
// post order: the creation order (importer's regions and the entry, loop
// clones, fusions, wrapped instructions) made callees-first. Dumps of
// jaxlib 0.10.2 (memory/testdata_jaxlib_0.10.2/README.md) whose ids the
// earlier guess (thread-local computations by name, then loops by
// schedule, each after its fusions) got wrong: every allocation, value id
// and offset, the usage report and memory_analysis() are XLA's.
class JaxlibCpuDump : public ::testing::TestWithParam<const char*> {};

TEST_P(JaxlibCpuDump, MatchesXlasFiles) {
  const std::string base =
      absl::StrCat("memory/testdata_jaxlib_0.10.2/", GetParam());
  const std::string text = ReadTestData(base + ".txt");
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
  ASSERT_TRUE(modules.ok()) << modules.status();
  BufferAssignmentOptions options;
  options.platform = XlaPlatform::kCpu;
  absl::StatusOr<ModuleMemory> m = AnalyzeModuleMemory((*modules)[0], options);
  ASSERT_TRUE(m.ok()) << m.status();
  // jaxlib 0.10.2 does not print ", page 0" (0.11.2 does, and so does the
  // library).
  const std::string buffers = absl::StrReplaceAll(
      XlaBufferAssignmentText(m->buffers), {{", page 0", ""}});
  EXPECT_EQ(buffers, ReadTestData(base + "-buffer-assignment.txt"));
  EXPECT_EQ(XlaMemoryUsageReportText(m->buffers),
            ReadTestData(base + "-memory-usage-report.txt"));
  const std::string json =
      ReadTestData("memory/testdata_jaxlib_0.10.2/memory_analysis.json");
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

INSTANTIATE_TEST_SUITE_P(
    Jaxlib, JaxlibCpuDump,
    ::testing::Values("module_0337.jit_fill.cpu_after_optimizations",
                      "module_0394.jit_f.cpu_after_optimizations",
                      "module_0454.jit_collatz_like.cpu_after_optimizations",
                      "module_0162.jit_run.cpu_after_optimizations",
                      "module_1910.jit_ring_matmul.cpu_after_optimizations",
                      "module_0090.jit_loss.cpu_after_optimizations"));

// A conditional uses every operand, not only its predicate (XLA's
// MayUseOperandValue has no case for it): the tuples passed to the branches
// live until the conditional's time, after the branches in the flattened
// schedule, so the heap cannot give their memory to a value the second
// conditional's branches define. The gradient of a lax.cond, two
// conditionals: XLA placed the branch results at 1280 and 1792 and the
// transposed branch's product at 2304; with the tuples ending at their last
// use inside the branches the product took 1280.
INSTANTIATE_TEST_SUITE_P(
    Conditional, JaxlibCpuDump,
    ::testing::Values("module_0400.jit__lambda.cpu_after_optimizations"));

// A call's operand k is used at the time of the callee's parameter k, not
// at the call's (XLA:CPU wraps small while loops in a call,
// xla_cpu_small_call): the loop state it passes ends where the callee
// starts, so the normalization of the loop's buffer does not stretch the
// body parameter's values to the body's root. jax.random.permutation
// (threefry: two while loops, each in a call): with the call's time, the
// body's loop counter copy took the slot XLA gave another 4-byte value.
INSTANTIATE_TEST_SUITE_P(
    Call, JaxlibCpuDump,
    ::testing::Values("module_0985.jit__lambda.cpu_after_optimizations"));

// SPMD on 8 devices: shard_map's regions all end in ".0" (region_0.0,
// region_1.0, ...: the importer's counter, then the region's number), and
// the partitioner makes its entry (main.N_spmd) after the imported
// computations and the reducers it clones for its all-reduces (a conv net's
// data-parallel gradient); pmax/pmin in shard_map; before these rules the
// values of the reducers were numbered in the wrong order.
INSTANTIATE_TEST_SUITE_P(
    Spmd, JaxlibCpuDump,
    ::testing::Values("module_1889.jit_max_norm.cpu_after_optimizations",
                      "module_1772.jit_loss.cpu_after_optimizations"));

// The partitioner's reducer clones for its collectives, in the order of the
// collectives' channels (it numbers channels as it makes them, each
// collective with a clone of its reducer): a tensor-parallel transformer's
// logits on 8 devices (module_1477, spmd_transformer_tensor.s.logits),
// whose add.clone (for the all-reduce of channel 13) XLA made between
// region_1.0.clone (2) and region_4.5.clone (15); by name it came last.
INSTANTIATE_TEST_SUITE_P(
    PartitionerClonesByChannel, JaxlibCpuDump,
    ::testing::Values("module_1477.jit__lambda.cpu_after_optimizations"));

}  // namespace
}  // namespace hlolayout

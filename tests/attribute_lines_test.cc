// Attribute values broken across lines (issue 38): XLA's lexer skips a line
// break as it skips a space, and XLA's own tests write such values
// (spmd_partitioner_test's `window={size=1x1 pad=0_0x0_0` + newline +
// `rhs_reversal=0x0}`). Every reader of an attribute value's inside must
// give the same answer either way: the reader's checks (window=,
// result_accuracy=, mesh replica groups, input_output_alias=), the source
// lines of metadata=, and in memory/ the aliasing attributes,
// control-predecessors= and the backend configs it looks into. These tests
// read modules as written and broken across lines (testing/attribute_lines.h)
// and compare everything the library answers.
#include "hlolayout/testing/attribute_lines.h"

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/hlo/source_location.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/memory/live_range.h"
#include "hlolayout/report/report.h"
#include "hlolayout/testing/test_data.h"
#include "hlolayout/views/buffer_assignment_text.h"
#include "hlolayout/views/live_range_text.h"
#include "hlolayout/views/report_render.h"

namespace hlolayout {
namespace {

const char* const kBreaks[] = {"\n", "\n      ", "\r\n", "\n\t/* c */ "};

TEST(AttributeLines, TheBreakerBreaksOnlyInsideAttributeValues) {
  EXPECT_EQ(BreakAttributeValues("  c = f32[2]{0} f(x, y), window={size=3 "
                                 "pad=1_1}, metadata={op_name=\"a b\"}\n",
                                 "\n  "),
            "  c = f32[2]{0} f(x, y), window={\n  size=3\n  pad=1_1}, "
            "metadata={\n  op_name=\"a b\"}\n");
  // A computation written inline is left as it is.
  const std::string inline_computation =
      "  c = f32[] call(x), to_apply={ p = f32[] parameter(0)\n"
      "    ROOT n = f32[] negate(p) }\n";
  EXPECT_EQ(BreakAttributeValues(inline_computation, "\n"), inline_computation);
}

// The window of XLA's spmd_partitioner_test, as it writes it.
TEST(AttributeLines, WindowAcrossTwoLinesIsRead) {
  const std::string text = R"(HloModule m

ENTRY e {
  a = f32[1,8,8,4] parameter(0)
  b = f32[1,1,4,4] parameter(1)
  ROOT c = f32[1,8,8,4] convolution(a, b), window={size=1x1 pad=0_0x0_0
    rhs_reversal=0x0}, dim_labels=b01f_01io->b01f
}
)";
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
  ASSERT_TRUE(modules.ok()) << modules.status();
  EXPECT_EQ((*modules)[0].instruction_count(), 3);
  // A bad pad is still refused, at its item, on the second line too.
  std::string bad = text;
  bad.replace(bad.find("rhs_reversal=0x0"), 16, "pad=0x0");
  absl::StatusOr<std::vector<HloModule>> refused = ReadHloModules(bad);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message().substr(0, 5), "7:5: ")
      << refused.status().message();
  EXPECT_NE(refused.status().message().find(
                "window pad expects padding_low and padding_high separated "
                "by '_', found '0'"),
            absl::string_view::npos)
      << refused.status().message();
}

// The source lines and op_names metadata= gives, module by module.
std::string SourceLines(const std::vector<HloModule>& modules) {
  std::string out;
  for (const HloModule& m : modules) {
    const HloSourceLocations locations(m.header);
    for (const HloComputation& c : m.computations) {
      for (const HloInstruction& in : c.instructions) {
        const absl::optional<absl::string_view> metadata =
            FindHloAttribute(in.attributes(), "metadata");
        if (!metadata.has_value()) continue;
        absl::StrAppend(&out, in.name(), " ",
                        MetadataField(*metadata, "op_name"), " ",
                        locations.Of(*metadata), "\n");
      }
    }
  }
  return out;
}

// Everything memory/ answers for the first module of `text`, as text.
std::string MemoryAnswers(absl::string_view text, XlaPlatform platform) {
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
  if (!modules.ok()) return std::string(modules.status().message());
  if (modules->empty()) return "no module";
  std::string out = SourceLines(*modules);
  BufferAssignmentOptions options;
  options.platform = platform;
  absl::StatusOr<ModuleMemory> memory =
      AnalyzeModuleMemory((*modules)[0], options);
  if (!memory.ok()) return std::string(memory.status().message());
  const XlaMemoryStats& s = memory->buffers.stats;
  absl::StrAppend(&out, XlaBufferAssignmentText(memory->buffers),
                  XlaMemoryUsageReportText(memory->buffers),
                  XlaLiveRangeText(memory->live_ranges), "\nstats ",
                  s.argument_size_in_bytes, " ", s.output_size_in_bytes, " ",
                  s.alias_size_in_bytes, " ", s.temp_size_in_bytes, "\n");
  return out;
}

// A scheduled module with every attribute memory/ looks into.
constexpr char kScheduled[] =
    R"(HloModule m, is_scheduled=true, input_output_alias={ {0}: (0, {}, may-alias), {1}: (1, {}, must-alias) }

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}

ENTRY %main (p0: f32[8,16], p1: f32[8,16], p2: f32[16,16]) -> (f32[8,16], f32[8,16], f32[8,16], f32[4,8]) {
  %p0 = f32[8,16]{1,0} parameter(0), metadata={op_name="jit(f)/p0" source_file="f.py" source_line=3}
  %p1 = f32[8,16]{1,0} parameter(1)
  %p2 = f32[16,16]{1,0} parameter(2)
  %n = f32[8,16]{1,0} negate(%p0), metadata={op_type="neg" op_name="jit(f)/neg" source_file="f.py" source_line=5}
  %cc = f32[8,16]{1,0} custom-call(%p1), custom_call_target="in_place", output_to_operand_aliasing={{}: (0, {})}
  %e = f32[8,16]{1,0} exponential(%n), control-predecessors={%cc}
  %init = f32[] constant(0)
  %rw = f32[4,8]{1,0} reduce-window(%e, %init), window={size=2x2 stride=2x2 pad=0_0x0_0}, to_apply=%add
  %bias = f32[8,16]{1,0} copy(%e)
  %gemm = (f32[8,16]{1,0}, s8[1024]{0}) custom-call(%n, %p2, %bias), custom_call_target="__cublas$lt$matmul", backend_config={"alpha_real":1,"beta":1,"epilogue":"DEFAULT"}
  %g = f32[8,16]{1,0} get-tuple-element(%gemm), index=0
  ROOT %t = (f32[8,16]{1,0}, f32[8,16]{1,0}, f32[8,16]{1,0}, f32[4,8]{1,0}) tuple(%n, %cc, %g, %rw)
}
)";

TEST(AttributeLines, MemoryAnswersTheSame) {
  const std::string whole = MemoryAnswers(kScheduled, XlaPlatform::kGpu);
  // Not vacuous: the source lines read, both parameters aliased to outputs
  // (512 bytes each), the custom call's output in its operand's place.
  EXPECT_NE(whole.find("n jit(f)/neg f.py:5"), std::string::npos) << whole;
  EXPECT_NE(whole.find("\nstats 2048 1696 1024 "), std::string::npos) << whole;
  EXPECT_NE(whole.find("value: <5 p1 @0> (size=512,offset=0): f32[8,16]{1,0}\n"
                       " value: <6 cc @0>"),
            std::string::npos)
      << whole;
  for (const char* line_break : kBreaks) {
    const std::string broken = BreakAttributeValues(kScheduled, line_break);
    ASSERT_NE(broken, kScheduled);
    EXPECT_EQ(MemoryAnswers(broken, XlaPlatform::kGpu), whole) << broken;
  }
}

// A backend config's JSON may have spaces and line breaks too: beta = 0
// written with them is still 0 (the bias is then not written in place).
TEST(AttributeLines, BackendConfigJsonWithSpaces) {
  std::string compact = kScheduled;
  compact.replace(compact.find("\"beta\":1"), 8, "\"beta\":0");
  const std::string zero = MemoryAnswers(compact, XlaPlatform::kGpu);
  EXPECT_NE(zero, MemoryAnswers(kScheduled, XlaPlatform::kGpu));
  for (const char* spaced : {"\"beta\": 0", "\"beta\" :\n 0", "\"beta\":0\n"}) {
    std::string text = compact;
    text.replace(text.find("\"beta\":0"), 8, spaced);
    EXPECT_EQ(MemoryAnswers(text, XlaPlatform::kGpu), zero) << spaced;
  }
}

std::string Json(const Report& report) {
  std::ostringstream out;
  RenderReportJson(report, RenderOptions(), out);
  return out.str();
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream all;
  all << in.rdbuf();
  return all.str();
}

// The real dumps of the repository: report and memory, whole and broken.
TEST(AttributeLines, DumpsAnswerTheSame) {
  const char* const dumps[] = {
      "examples/module_0001.jit_train_step.after_optimizations.txt",
      "memory/testdata/module_0002.jit_lstm.cpu_after_optimizations.txt",
      "memory/testdata/"
      "module_105197.jit_mlp_step.sm_9.0a_gpu_after_optimizations.txt",
      "memory/testdata/"
      "module_317483.jit_dus_loop.sm_9.0a_gpu_after_optimizations.txt",
      "memory/testdata/"
      "module_342634.jit_big_tuple.sm_9.0a_gpu_after_optimizations.txt",
      "memory/testdata/"
      "module_486067.jit_scan_cond.sm_9.0a_gpu_after_optimizations.txt",
      "memory/testdata/"
      "module_519822.jit_misc.sm_9.0a_gpu_after_optimizations.txt",
  };
  for (const char* dump : dumps) {
    SCOPED_TRACE(dump);
    const std::string text = ReadFile(TestDataPath(dump));
    ASSERT_FALSE(text.empty());
    const XlaPlatform platform =
        absl::string_view(dump).find("cpu") != absl::string_view::npos
            ? XlaPlatform::kCpu
            : XlaPlatform::kGpu;
    ReportOptions options;
    options.threads = 1;
    absl::StatusOr<Report> whole_report = BuildReport(text, options);
    ASSERT_TRUE(whole_report.ok()) << whole_report.status();
    const std::string whole_json = Json(*whole_report);
    const std::string whole_memory = MemoryAnswers(text, platform);
    for (const char* line_break : kBreaks) {
      const std::string broken = BreakAttributeValues(text, line_break);
      ASSERT_NE(broken, text);
      absl::StatusOr<Report> report = BuildReport(broken, options);
      ASSERT_TRUE(report.ok()) << report.status();
      EXPECT_EQ(Json(*report), whole_json);
      EXPECT_EQ(MemoryAnswers(broken, platform), whole_memory);
    }
  }
}

}  // namespace
}  // namespace hlolayout

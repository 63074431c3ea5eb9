// `hlolayout memory` end to end: text, --format=xla, xla-buffers and
// xla-usage against XLA's own files, --json, --space, --platform, and the
// errors.
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/hlo_test_dump.h"
#include "hlolayout/testing/run_cli.h"
#include "hlolayout/testing/test_data.h"

namespace hlolayout::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

constexpr char kModule[] = R"(HloModule m, is_scheduled=true
ENTRY %main (p: f32[256]) -> (f32[256], f32[8]) {
  %p = f32[256]{0} parameter(0)
  %a = f32[256]{0} negate(%p), metadata={op_name="jit(f)/neg"}
  %b = f32[256]{0} exponential(%a), metadata={op_name="jit(f)/exp"}
  %v = f32[8]{0:T(128)S(1)} slice(%b), slice={[0:8]}
  ROOT %t = (f32[256]{0}, f32[8]{0:T(128)S(1)}) tuple(%b, %v)
}
)";

// Opcodes of a newer XLA: analysed with their shapes as written, and
// warned of once per name on stderr, as `hlolayout report` does.
TEST(MemoryCommand, UnknownOpcodesWarnOncePerName) {
  constexpr char kNewer[] = R"(HloModule m, is_scheduled=true
ENTRY %main (p: f32[256]) -> f32[256] {
  %p = f32[256]{0} parameter(0)
  %a = f32[256]{0} frobnicate(%p)
  %b = f32[256]{0} frobnicate(%a)
  ROOT %c = f32[256]{0} negate(%b)
}
)";
  for (const char* format : {"--format=text", "--format=xla-buffers"}) {
    const CliResult r = RunCli({"memory", format}, kNewer);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err,
              "<stdin>:4:20: warning: unknown opcode 'frobnicate' (2 "
              "instructions, read with their shapes as written)\n"
              "  %a = f32[256]{0} frobnicate(%p)\n"
              "                   ^\n")
        << format;
  }
  const CliResult known = RunCli({"memory"}, kModule);
  EXPECT_EQ(known.err, "");
}

TEST(MemoryCommand, TextGivesThePeakAndWhatIsLive) {
  const CliResult r = RunCli({"memory"}, kModule);
  ASSERT_EQ(r.status, 0) << r.err;
  // An XLA:TPU module (tiled layouts): each memory space gets its own
  // peak, by XLA:TPU's name, never HBM and VMEM added together; S(1)'s
  // f32[8] is padded to a 128-element tile: 512 bytes, 480 of them padding.
  EXPECT_THAT(r.out, Not(HasSubstr("peak of all memory: ")));
  EXPECT_THAT(r.out, HasSubstr("peak of HBM (XLA:TPU's \"default\"): "));
  EXPECT_THAT(r.out, HasSubstr("b{}  f32[256]{0}  1024 B"));
  EXPECT_THAT(r.out, HasSubstr("peak of VMEM (XLA:TPU's \"vmem\"): "));
  EXPECT_THAT(r.out, HasSubstr("v{}  f32[8]{0:T(128)S(1)}  512 B  100.0%  "
                               "padding 480 B"));
}

TEST(MemoryCommand, XlaFormat) {
  const CliResult r = RunCli({"memory", "--format=xla"}, kModule);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, StartsWith("HloLiveRange (max 5):\n"
                                "  InstructionSequence:\n"
                                "    0:p\n    1:a\n    2:b\n    3:v\n"
                                "    4:t\n  BufferLiveRange:\n"));
  EXPECT_THAT(r.out, HasSubstr("    v{}:3-5\n"));
  EXPECT_THAT(r.out, HasSubstr("  Live ranges at "));
}

// --xla-creation-order: XLA:CPU's value ids from the order XLA created the
// computations in (the text does not hold it); a file that cannot be read,
// or that does not name every computation once, is refused.
TEST(MemoryCommand, XlaCreationOrderGivesXlasIds) {
  const std::string base =
      "memory/testdata_jaxlib_0.10.2/"
      "module_0054.jit_step.cpu_after_optimizations";
  const CliResult r = RunCli(
      {"memory", "--format=xla-buffers",
       "--xla-creation-order=" + TestDataPath(base + "-creation-order.txt"),
       TestDataPath(base + ".txt")});
  EXPECT_EQ(r.status, 0) << r.err;
  std::ifstream in(TestDataPath(base + "-buffer-assignment.txt"));
  std::stringstream xla;
  xla << in.rdbuf();
  std::string ours = r.out;
  for (size_t at; (at = ours.find(", page 0")) != std::string::npos;) {
    ours.erase(at, 8);
  }
  EXPECT_EQ(ours, xla.str());

  const CliResult missing = RunCli({"memory", "--format=xla-buffers",
                                    "--xla-creation-order=/no/such/file",
                                    TestDataPath(base + ".txt")});
  EXPECT_EQ(missing.status, 2);
  EXPECT_THAT(missing.err, HasSubstr("cannot read --xla-creation-order file"));
  const CliResult wrong =
      RunCli({"memory", "--format=xla-buffers",
              "--xla-creation-order=" + TestDataPath(base + ".txt"),
              TestDataPath(base + ".txt")});
  EXPECT_EQ(wrong.status, 1);
  EXPECT_THAT(wrong.err, HasSubstr("creation order names"));
}

// ... on an XLA:GPU module too (the online order replayed is the module's):
// a cumulative scan whose loop XLA:GPU fused condition first; it was
// refused before.
TEST(MemoryCommand, XlaCreationOrderGivesXlasIdsOnXlaGpu) {
  const std::string base =
      "memory/testdata_xla_gpu/"
      "module_86804.jit_f.sm_9.0a_gpu_after_optimizations";
  const CliResult r = RunCli(
      {"memory", "--format=xla-buffers",
       "--xla-creation-order=" + TestDataPath(base + "-creation-order.txt"),
       TestDataPath(base + ".txt")});
  EXPECT_EQ(r.status, 0) << r.err;
  std::ifstream in(TestDataPath(base + "-buffer-assignment.txt"));
  std::stringstream xla;
  xla << in.rdbuf();
  std::string ours = r.out;
  for (size_t at; (at = ours.find(", page 0")) != std::string::npos;) {
    ours.erase(at, 8);
  }
  EXPECT_EQ(ours, xla.str());
}

TEST(MemoryCommand, XlaFormatEqualsXlasFile) {
  const std::string base =
      "memory/testdata/"
      "module_317483.jit_dus_loop.sm_9.0a_gpu_after_optimizations";
  const CliResult r =
      RunCli({"memory", "--format=xla", TestDataPath(base + ".txt")});
  ASSERT_EQ(r.status, 0) << r.err;
  std::ifstream in(TestDataPath(base + "-live-range.txt"));
  std::stringstream want;
  want << in.rdbuf();
  const std::string xla = want.str();
  // Same peak and stack trace sections, byte for byte.
  EXPECT_EQ(r.out.substr(r.out.find("  Live ranges at")),
            xla.substr(xla.find("  Live ranges at")));
}

TEST(MemoryCommand, JsonAndSpace) {
  const CliResult r = RunCli({"memory", "--json", "--space=1"}, kModule);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("\"memory_space\": 1, \"bytes\": 512"));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("\"memory_space\": null")));
}

// What sets each allocation's size, in the text and the JSON: the heap's
// peak step with the values in it (here the cuBLAS workspace), even with
// --top=0, and each allocation's size_set_by.
TEST(MemoryCommand, JsonAndHtmlAreOneOrTheOther) {
  // It used to print an empty JSON list while the modules went to the page.
  const CliResult r =
      RunCli({"memory", "--json", "--html", "page.html"}, kModule);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "hlolayout memory: --json and --html cannot be combined\n");
}

TEST(MemoryCommand, SaysWhatSetsEachAllocationsSize) {
  constexpr char kGemm[] = R"(HloModule gemm, is_scheduled=true
ENTRY main {
  a = f32[256,256]{1,0} parameter(0)
  b = f32[256,256]{1,0} parameter(1)
  neg = f32[256,256]{1,0} negate(a)
  custom-call.1 = (f32[256,256]{1,0}, s8[4194304]{0}) custom-call(neg, b), custom_call_target="__cublas$gemm"
  gte = f32[256,256]{1,0} get-tuple-element(custom-call.1), index=0
  ROOT out = f32[256,256]{1,0} add(gte, a)
}
)";
  for (const char* top : {"--top=20", "--top=0"}) {
    const CliResult text = RunCli({"memory", top}, kGemm);
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_THAT(text.out, HasSubstr("what sets each allocation's size:\n"
                                    "  temp allocation "));
    EXPECT_THAT(text.out,
                HasSubstr("    custom-call.1{1}  s8[4194304]{0}  4194304 B"));
    EXPECT_THAT(text.out, HasSubstr("(custom-call.1), in "));
  }
  const CliResult json = RunCli({"memory", "--json"}, kGemm);
  ASSERT_EQ(json.status, 0) << json.err;
  EXPECT_THAT(json.out, HasSubstr("\"peak_instruction\": \"custom-call.1\""));
  EXPECT_THAT(json.out, HasSubstr("\"peak_values\": [{\"name\": "
                                  "\"custom-call.1{1}\", \"shape\": "
                                  "\"s8[4194304]{0}\", \"bytes\": 4194304"));
  EXPECT_THAT(json.out, HasSubstr("\"size_set_by\": [\"custom-call.1{1}\""));
  EXPECT_THAT(json.out, HasSubstr("\"rounding_bytes\": "));
}

TEST(MemoryCommand, HtmlPageWithTheCurve) {
  const CliResult r = RunCli({"memory", "--html", "-"}, kModule);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, StartsWith("<!doctype html>"));
  EXPECT_THAT(r.out, HasSubstr("<svg id=\"curve-0\""));
  EXPECT_THAT(r.out, HasSubstr("<polyline class=\"curve\""));
  EXPECT_THAT(r.out, HasSubstr("<line class=\"peak\""));
  EXPECT_THAT(r.out, HasSubstr("<tr class=\"value\"><td>b{}</td>"));
  EXPECT_THAT(r.out, HasSubstr("</html>"));
}

std::string ReadData(const std::string& repo_relative) {
  std::ifstream in(TestDataPath(repo_relative));
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The text leads with what XLA will allocate; the live-range peak follows.
TEST(MemoryCommand, TextLeadsWithWhatXlaAllocates) {
  const CliResult r = RunCli({"memory", "--platform=cpu"}, kModule);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("XLA:CPU will allocate "));
  EXPECT_THAT(r.out, HasSubstr("compiled.memory_analysis(): "
                               "argument_size_in_bytes=1024 "));
  EXPECT_LT(r.out.find("will allocate"), r.out.find("peak of all memory"));
}

// Tiled layouts (T(128)) are XLA:TPU's: the text and JSON give the answer
// of memory/tpu_memory.h from the model of XLA:TPU's buffer assignment
// (memory spaces by XLA:TPU's names, never a sum of them; docs/xla-tpu.md),
// never another platform's "will allocate"; XLA:TPU's own files
// (--format=xla-buffers) and --json's memory_analysis() come from the model
// too.
TEST(MemoryCommand, TpuModulesGetTheTpuAnswer) {
  const CliResult text = RunCli({"memory"}, kModule);
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("XLA:TPU, chip not known"));
  EXPECT_THAT(text.out, HasSubstr("HBM (S(0), XLA:TPU's \"default\"): "));
  EXPECT_THAT(text.out, HasSubstr("peak of HBM (XLA:TPU's \"default\"): "));
  EXPECT_THAT(text.out, Not(HasSubstr("peak of all memory")));
  EXPECT_THAT(text.out, Not(HasSubstr("will allocate 1")));
  const CliResult json = RunCli({"memory", "--json"}, kModule);
  ASSERT_EQ(json.status, 0) << json.err;
  EXPECT_THAT(json.out, HasSubstr("\"platform\": \"tpu\", \"memory_analysis\": "
                                  "{\"argument_size_in_bytes\": "));
  EXPECT_THAT(json.out, HasSubstr("\"allocations\": [{"));
  EXPECT_THAT(json.out, HasSubstr("\"tpu\": {\"chip\": null, "));
  const CliResult buffers = RunCli({"memory", "--format=xla-buffers"}, kModule);
  EXPECT_EQ(buffers.status, 0) << buffers.err;
  EXPECT_THAT(buffers.out, StartsWith("BufferAssignment:\n"));
  EXPECT_THAT(buffers.out, Not(HasSubstr(", page 0")));  // XLA:TPU's text
  const CliResult forced =
      RunCli({"memory", "--format=xla-buffers", "--platform=gpu"}, kModule);
  EXPECT_EQ(forced.status, 0) << forced.err;
  EXPECT_THAT(forced.out, StartsWith("BufferAssignment:\n"));
}

// The chip an XLA:TPU module was compiled for: from the target_arguments
// file XLA:TPU wrote beside it, else --tpu; whether it fits and what is
// left, per device for SPMD (issue 84 item 4).
TEST(MemoryCommand, TpuChipFitsAndWhatIsLeft) {
  const std::string v5e = TestDataPath(
      "memory/testdata_xla_tpu_chips/v5e/"
      "module_0004.jit__lambda.cl_933746096.after_optimizations.txt");
  CliResult r = RunCli({"memory", v5e});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("XLA:TPU v5e (from "));
  EXPECT_THAT(r.out,
              HasSubstr("8 devices (SPMD): every figure is one device's"));
  EXPECT_THAT(r.out, HasSubstr("fits the 15.75 GiB XLA:TPU lets a program "
                               "take on a v5e: 15.75 GiB ("));
  r = RunCli({"memory", "--json", v5e});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("\"chip\": \"v5e\""));
  EXPECT_THAT(r.out, HasSubstr("\"devices\": 8"));
  EXPECT_THAT(r.out, HasSubstr("\"hbm_limit_bytes\": 16911433728, "
                               "\"fits\": true, "));
  r = RunCli({"memory", "--html", "-", v5e});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("<section class=\"module tpu\">"));
  EXPECT_THAT(r.out, HasSubstr("<tr class=\"space\" data-space=\"0\"><td>HBM "
                               "(S(0))</td><td>default</td>"));
  r = RunCli({"memory", "--tpu=v4", v5e});
  EXPECT_EQ(r.status, 1);
  EXPECT_THAT(r.err, HasSubstr("--tpu=v4, but XLA:TPU compiled the module "
                               "for v5e"));
  r = RunCli({"memory", "--tpu=v7"}, kModule);
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("--tpu must be v4, v5e, v5p or v6e"));
  r = RunCli({"memory", "--tpu=v6e"}, kModule);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("XLA:TPU v6e (from --tpu), 1 device\n"));
  EXPECT_THAT(r.out, HasSubstr(" per TensorCore on a v6e: "));
  // Another platform's modules are as they were: no TPU line.
  r = RunCli({"memory", "--platform=cpu"}, kModule);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, Not(HasSubstr("XLA:TPU")));
}

// XLA:TPU's own buffer-assignment file is read, not modelled: the TPU
// answer from XLA:TPU's allocations (its VMEM allocation is 94,720 bytes,
// where the model's is 98,304), from a file or standard input; XLA:GPU's
// are refused as before (give the module), bad ones with their place.
TEST(MemoryCommand, XlaTpusOwnBufferAssignmentFile) {
  const std::string path =
      "memory/testdata_xla_tpu/"
      "module_0316.jit_step.cl_933746096.after_optimizations-buffer-"
      "assignment.txt";
  CliResult r = RunCli({"memory", "--tpu=v5e", TestDataPath(path)});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr(": 35 allocations, 72 values\n"
                               "XLA:TPU v5e (from --tpu), 1 device\n"
                               "figures: XLA:TPU's own buffer assignment ("));
  EXPECT_THAT(r.out, HasSubstr("VMEM (S(1), XLA:TPU's \"vmem\"): 92.50 KiB "
                               "(94,720 bytes) in 1 allocation"));
  EXPECT_THAT(r.out, HasSubstr("(the heap's values at its peak: not known)"));
  r = RunCli({"memory", "--json"}, ReadData(path));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("\"checked\": true"));
  EXPECT_THAT(r.out, HasSubstr("\"heap_bytes\": null"));
  r = RunCli({"memory", "--html", "-", TestDataPath(path)});
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("--html and --format take a module's dump"));
  r = RunCli({"memory", TestDataPath("memory/testdata_xla_gpu/"
                                     "module_0001.jit_step.sm_9.0a_gpu_after_"
                                     "optimizations-buffer-assignment.txt")});
  EXPECT_EQ(r.status, 1);
  EXPECT_THAT(r.err, HasSubstr("not an HLO module: give the module"));
  r = RunCli({"memory", "--tpu=v5e"},
             "BufferAssignment:\nallocation 0: size x:\n");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "hlolayout memory: <stdin>:2:20: expected a number, found 'x:'\n"
            "allocation 0: size x:\n"
            "                   ^\n");
}

// --format=xla-buffers and xla-usage are XLA's two files, byte for byte
// (a module whose value ids the analysis reproduces; docs/memory.md).
TEST(MemoryCommand, XlaBufferFormatsEqualXlasFiles) {
  const std::string base =
      "memory/testdata/"
      "module_342634.jit_big_tuple.sm_9.0a_gpu_after_optimizations";
  CliResult r =
      RunCli({"memory", "--format=xla-buffers", TestDataPath(base + ".txt")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, ReadData(base + "-buffer-assignment.txt"));
  r = RunCli({"memory", "--format=xla-usage", TestDataPath(base + ".txt")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, ReadData(base + "-memory-usage-report.txt"));
}

// The platform comes from the file name (sm_9.0a: GPU, cpu: CPU); --json
// carries memory_analysis() and the allocations.
TEST(MemoryCommand, JsonHasMemoryAnalysisAndAllocations) {
  const std::string cpu =
      "memory/testdata/module_0002.jit_lstm.cpu_after_optimizations.txt";
  CliResult r = RunCli({"memory", "--json", TestDataPath(cpu)});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("\"platform\": \"cpu\""));
  EXPECT_THAT(r.out,
              HasSubstr("\"memory_analysis\": {\"argument_size_in_bytes\": "
                        "2396160, \"output_size_in_bytes\": 1576984, "
                        "\"alias_size_in_bytes\": 0, \"temp_size_in_bytes\": "
                        "23134632, \"peak_memory_in_bytes\": 3973168, "
                        "\"host_argument_size_in_bytes\": 0, "
                        "\"host_output_size_in_bytes\": 0, "
                        "\"host_alias_size_in_bytes\": 0, "
                        "\"host_temp_size_in_bytes\": 0}"));
  EXPECT_THAT(r.out, HasSubstr("\"kind\": \"parameter\", "
                               "\"parameter_number\": 1"));
  // The same module taken for a GPU one: GPU's peak adds the heap's.
  r = RunCli({"memory", "--json", "--platform=gpu", TestDataPath(cpu)});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("\"platform\": \"gpu\""));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("3973168}")));
}

TEST(MemoryCommand, Errors) {
  CliResult r = RunCli({"memory"},
                       "HloModule m\nENTRY %e {\n"
                       "  ROOT %p = f32[2]{0} parameter(0)\n}\n");
  EXPECT_EQ(r.status, 1);
  EXPECT_THAT(r.err, HasSubstr("is not scheduled"));
  r = RunCli({"memory", "--format=pdf"}, kModule);
  EXPECT_EQ(r.status, 2);
  r = RunCli({"memory", "--top=-1"}, kModule);
  EXPECT_EQ(r.status, 2);
  r = RunCli({"memory", "--platform=npu"}, kModule);
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("--platform must be gpu, cpu or tpu"));
}

// --threads=N reads a dump of 8 MB or more in parts and, with two, also
// analyses a module of 32,768 instructions or more on two threads: the same
// output whatever N (this dump has about 45,000 instructions outside fused
// computations, nearly all in its entry computation).
TEST(MemoryCommand, ThreadsGiveTheSameAnswer) {
  HloDumpOptions options;
  options.target_bytes = 8 << 20;
  const std::string dump = GenerateHloDump(options).text;
  for (const char* format : {"--top=5", "--json"}) {
    const CliResult one = RunCli({"memory", format, "--threads=1"}, dump);
    ASSERT_EQ(one.status, 0) << one.err;
    EXPECT_THAT(one.out, HasSubstr("peak"));
    for (const char* threads : {"--threads=2", "--threads=0"}) {
      const CliResult r = RunCli({"memory", format, threads}, dump);
      EXPECT_EQ(r.status, 0) << r.err;
      EXPECT_EQ(r.out, one.out) << format << " " << threads;
      EXPECT_EQ(r.err, one.err) << format << " " << threads;
    }
  }
  for (const char* bad : {"--threads=x", "--threads=-1", "--threads=257"}) {
    const CliResult r = RunCli({"memory", bad}, kModule);
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_THAT(r.err, HasSubstr("--threads must be a number")) << bad;
  }
}

// Issue 35: `memory --help` called the live-range peak "a lower bound of
// what the allocations need", yet on jit_scan_cond XLA allocates less than
// the peak. The help says what each figure is, and the two examples it
// gives are what the command prints for those modules.
TEST(MemoryCommand, HelpSaysWhatEachFigureIs) {
  const CliResult help = RunCli({"memory", "--help"});
  ASSERT_EQ(help.status, 0);
  EXPECT_THAT(help.out, Not(HasSubstr("lower bound of what")));
  EXPECT_THAT(help.out, HasSubstr("is neither a lower nor an upper bound of "
                                  "what XLA\n                      allocates"));
  EXPECT_THAT(help.out, HasSubstr("counted twice at step\n"
                                  "                      8: a peak of 384.1 "
                                  "KiB where XLA allocates 257.8 KiB"));
  EXPECT_THAT(help.out, HasSubstr("(jit_mlp_step: a peak of 21.0 MiB, 26.6 "
                                  "MiB allocated)"));
  const CliResult scan = RunCli(
      {"memory", TestDataPath("memory/testdata/module_486067.jit_scan_cond."
                              "sm_9.0a_gpu_after_optimizations.txt")});
  ASSERT_EQ(scan.status, 0) << scan.err;
  EXPECT_THAT(scan.out, HasSubstr("XLA:GPU will allocate 257.83 KiB"));
  EXPECT_THAT(scan.out, HasSubstr(": 384.14 KiB (393,360 bytes) at time 8"));
  EXPECT_THAT(scan.out, HasSubstr("arg_tuple.3{1}  f32[128,256]{1,0}  131072 "
                                  "B  33.3%  live 8-11\n    copy.19{}  "
                                  "f32[128,256]{1,0}  131072 B  33.3%  live "
                                  "5-8\n"));
  const CliResult mlp = RunCli(
      {"memory", TestDataPath("memory/testdata/module_105197.jit_mlp_step."
                              "sm_9.0a_gpu_after_optimizations.txt")});
  ASSERT_EQ(mlp.status, 0) << mlp.err;
  EXPECT_THAT(mlp.out, HasSubstr("XLA:GPU will allocate 26.56 MiB"));
  EXPECT_THAT(mlp.out, HasSubstr(": 21.04 MiB (22,056,980 bytes) at time 27"));
}

// The folder's flags, which `memory --help` documents: `memory DIR
// --sort=allocated` and `--threads=N` exited 2 ("unknown flag '--sort'")
// before the folder code was reached.
TEST(MemoryCommand, AFolderTakesTheFolderFlags) {
  const std::string folder = TestDataPath("memory/testdata");
  const CliResult by_default = RunCli({"memory", folder});
  ASSERT_EQ(by_default.status, 0) << by_default.err;
  const CliResult allocated =
      RunCli({"memory", folder, "--sort=allocated", "--threads=2"});
  EXPECT_EQ(allocated.status, 0) << allocated.err;
  EXPECT_EQ(allocated.out, by_default.out);
  const CliResult peak = RunCli({"memory", "--sort=peak", folder});
  EXPECT_EQ(peak.status, 0) << peak.err;
  EXPECT_NE(peak.out, by_default.out);  // jit_lstm's peak comes first
  EXPECT_THAT(peak.out, HasSubstr("\njit_lstm "));
  EXPECT_LT(peak.out.find("\njit_lstm "), peak.out.find("\njit_mlp_step "));
  const CliResult json = RunCli({"memory", "--json", "--summary", folder});
  EXPECT_EQ(json.status, 0) << json.err;
  // A file: the folder-only flags are refused, saying why.
  const CliResult file = RunCli(
      {"memory", "--sort=peak",
       TestDataPath("memory/testdata/"
                    "module_0002.jit_lstm.cpu_after_optimizations.txt")});
  EXPECT_EQ(file.status, 2);
  EXPECT_EQ(file.err,
            "hlolayout memory: --sort applies to a dump folder only "
            "(hlolayout memory DIR)\n");
  // A file flag given a folder.
  const CliResult top = RunCli({"memory", "--top=3", folder});
  EXPECT_EQ(top.status, 2);
  EXPECT_EQ(top.err, "hlolayout memory: --top does not apply to a folder\n");
  // --html of a folder: the command that draws one.
  const CliResult html = RunCli({"memory", "--html", "/dev/null", folder});
  EXPECT_EQ(html.status, 2);
  EXPECT_THAT(html.err, HasSubstr("`hlolayout report --html FILE DIR`"));
  // XLA's files beside a module are not modules: say which file it is.
  for (const char* side : {"-buffer-assignment.txt", "-memory-usage-report.txt",
                           "-live-range.txt"}) {
    const CliResult r = RunCli(
        {"memory", TestDataPath(absl::StrCat(
                       "memory/testdata/module_105197.jit_mlp_step.sm_9.0a_"
                       "gpu_after_optimizations",
                       side))});
    EXPECT_EQ(r.status, 1) << side;
    EXPECT_THAT(r.err, HasSubstr(absl::StrCat(" file), not an HLO module: "
                                              "give the module it was "
                                              "written for")))
        << side;
    EXPECT_THAT(r.err, HasSubstr(side)) << side;
  }
}

}  // namespace
}  // namespace hlolayout::cli

// `hlolayout memory` end to end: text, --format=xla against XLA's own file,
// --json, --space, and the errors.
#include <fstream>
#include <sstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/cli/run_for_test.h"
#include "hlolayout/util/test_data.h"

namespace hlolayout::cli {
namespace {

using ::testing::HasSubstr;
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

TEST(MemoryCommand, TextGivesThePeakAndWhatIsLive) {
  const CliResult r = RunCli({"memory"}, kModule);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("peak of all memory: "));
  EXPECT_THAT(r.out, HasSubstr("b{}  f32[256]{0}  1024 B"));
  // Two memory spaces: each gets its own peak; S(1)'s f32[8] is padded to
  // a 128-element tile: 512 bytes, 480 of them padding.
  EXPECT_THAT(r.out, HasSubstr("peak of vmem"));
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
}

}  // namespace
}  // namespace hlolayout::cli

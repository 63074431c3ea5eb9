// Issue 87 items 1-4 as a user meets them: every command that reads HLO text
// refuses what XLA refuses, with the same message; `explain` with nothing
// to explain, or a shape of unknown size; `memory --json` when it refuses.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/run_cli.h"

namespace hlolayout::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string WriteTemp(const std::string& name, const std::string& text) {
  const char* dir = std::getenv("TEST_TMPDIR");
  const std::string path =
      std::string(dir != nullptr ? dir : "/tmp") + "/" + name;
  std::ofstream(path) << text;
  return path;
}

// A dump cut before its ENTRY computation: the last fused computation
// would be taken as the entry.
constexpr char kCut[] =
    R"(HloModule m, is_scheduled=true, entry_computation_layout={(f32[1024,1024]{1,0})->f32[1024,1024]{1,0}}

%fused (p: f32[2]) -> f32[2] {
  %p = f32[2]{0} parameter(0)
  ROOT %n = f32[2]{0} negate(f32[2]{0} %p)
}
)";

TEST(StrictInput, CutDumpIsRefusedByEveryCommand) {
  const std::string path = WriteTemp("cut.txt", kCut);
  const std::string want =
      "cut.txt:3:1: the entry computation 'fused' takes f32[2] as parameter "
      "0 where the module's entry_computation_layout has f32[1024,1024]";
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"report", path},
                                             {"report", "--json", path},
                                             {"report", "--summary", path},
                                             {"memory", path},
                                             {"memory", "--json", path}}) {
    SCOPED_TRACE(args[0] + " " + args[1]);
    const CliResult r = RunCli(args);
    EXPECT_EQ(r.status, 1);
    EXPECT_THAT(r.err, HasSubstr(want));
    EXPECT_THAT(r.err, HasSubstr("\n^"));
    EXPECT_EQ(r.out, "");
  }
}

TEST(StrictInput, ModulesXlaRefusesAreRefusedByReport) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"HloModule m\n\nENTRY %main (p: f32[2]) -> f32[2] {\n}\n",
       "4:1: computation 'main' has no instructions"},
      {"HloModule m\n\nENTRY %main () -> f32[2] {\n"
       "  ROOT %p = f32[2]{0} parameter()\n}\n",
       "4:33: expected a parameter number"},
      {"HloModule m\n\nENTRY %main (p: f32[2]) -> f32[2] {\n"
       "  ROOT %p = f32[2]{0} parameter(99)\n}\n",
       "4:3: parameter number 99 is out of range"},
      {"HloModule m\n\nENTRY %main (p: f32[2]) -> f32[2] {\n"
       "  %p = f32[2]{0} parameter(0)\n"
       "  %n = f32[2]{0} negate(f32[2]{0} %p)\n"
       "  %n = f32[2]{0} negate(f32[2]{0} %p)\n"
       "  ROOT %r = f32[2]{0} add(f32[2]{0} %n, f32[2]{0} %n)\n}\n",
       "6:4: instruction 'n' is defined twice in 'main'"},
      {"HloModule m\n\nENTRY %main (p: f32[2]) -> f32[2] {\n"
       "  %p = f32[2]{0} parameter(0)\n"
       "  ROOT %c = f32[2]{0} call(f32[2]{0} %p), to_apply=%main\n}\n",
       "5:53: computation 'main' is called before it is defined"},
      {"HloModule m\n\nENTRY %main (p: (f32[2], f32[3])) -> f32[2] {\n"
       "  %p = (f32[2]{0}, f32[3]{0}) parameter(0)\n"
       "  ROOT %g = f32[2]{0} get-tuple-element((f32[2]{0}, f32[3]{0}) %p), "
       "index=5\n}\n",
       "5:75: tuple index 5 is out of range"},
  };
  for (const auto& [text, want] : cases) {
    SCOPED_TRACE(text);
    const std::string path = WriteTemp("bad.txt", text);
    for (const std::vector<std::string>& args :
         std::vector<std::vector<std::string>>{
             {"report", path}, {"report", "--json", path}, {"memory", path}}) {
      const CliResult r = RunCli(args);
      EXPECT_EQ(r.status, 1) << args[0];
      EXPECT_THAT(r.err, HasSubstr("bad.txt:" + want)) << args[0];
    }
  }
}

TEST(StrictInput, ExplainWithNothingToExplainIsAnError) {
  const std::string path = WriteTemp("empty.txt", "");
  CliResult r = RunCli({"explain", "--json", "--file=" + path});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "hlolayout explain: no shape in '" + path + "'\n");
  r = RunCli({"explain"}, "\n  \n");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "hlolayout explain: no shape in standard input\n");
}

TEST(StrictInput, ExplainSaysWhatAnUnboundedDimensionLeavesUnknown) {
  const CliResult r = RunCli({"explain", "f32[?]"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_THAT(r.out, HasSubstr("dimensions:     [?] (rank 1, dynamic)"));
  // The size is not known (set when the program runs): said, not an error.
  EXPECT_THAT(r.out, HasSubstr("padding and size: dimension 0 is unbounded "
                               "(`?`): no size"));
  const CliResult json = RunCli({"explain", "--json", "f32[?,2]"});
  EXPECT_EQ(json.status, 0) << json.err;
  EXPECT_THAT(json.out, StartsWith("{"));
  // A size past int64 is still an error, said on stderr too.
  // (2^62 elements of 4 bytes: the shape reads, its byte size overflows.)
  const CliResult huge = RunCli({"explain", "f32[4611686018427387904]"});
  EXPECT_EQ(huge.status, 1);
  EXPECT_THAT(huge.err, StartsWith("hlolayout explain: cannot size f32["));
}

TEST(StrictInput, MemoryJsonPrintsNothingWhenItRefuses) {
  CliResult r = RunCli({"memory", "--json", "/nonexistent/dump.txt"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_THAT(r.err, HasSubstr("cannot open '/nonexistent/dump.txt'"));
  const std::string path = WriteTemp("cut.txt", kCut);
  r = RunCli({"memory", "--json", path});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
}

}  // namespace
}  // namespace hlolayout::cli

// `hlolayout verify` end to end: XLA's own dumps pass, a shape its operands
// do not give is refused with its place, --all lists every error, and bad
// input and flags are refused.
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/run_cli.h"
#include "hlolayout/testing/test_data.h"

namespace hlolayout::cli {
namespace {

using ::testing::HasSubstr;

constexpr char kTwoWrong[] = R"(HloModule m
ENTRY %main (p: f32[2]) -> (f32[3], s32[2]) {
  %p = f32[2]{0} parameter(0)
  %n = f32[3]{0} negate(%p)
  %e = s32[2]{0} exponential(%p)
  ROOT %t = (f32[3]{0}, s32[2]{0}) tuple(%n, %e)
}
)";

TEST(VerifyCommand, XlasOwnDumpsPass) {
  const std::string path = TestDataPath(
      "memory/testdata_xla_tpu/"
      "module_0316.jit_step.cl_933746096.after_optimizations.txt");
  const CliResult r = RunCli({"verify", path});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, path + ": 1 module verified\n");
  EXPECT_EQ(r.err, "");
}

TEST(VerifyCommand, TheFirstErrorWithItsPlace) {
  const CliResult r = RunCli({"verify"}, kTwoWrong);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "hlolayout verify: <stdin>:4:8: shape f32[3]{0} of 'n' is not "
            "negate's of its operands: f32[2]\n"
            "  %n = f32[3]{0} negate(%p)\n"
            "       ^\n");
}

TEST(VerifyCommand, AllErrors) {
  const CliResult r = RunCli({"verify", "--all"}, kTwoWrong);
  EXPECT_EQ(r.status, 1);
  EXPECT_THAT(r.err, HasSubstr("<stdin>:4:8: shape f32[3]{0} of 'n'"));
  EXPECT_THAT(r.err, HasSubstr("<stdin>:5:8: shape s32[2]{0} of 'e'"));
}

TEST(VerifyCommand, BadInputAndFlags) {
  CliResult r = RunCli({"verify"}, "HloModule m\nENTRY %e {\n");
  EXPECT_EQ(r.status, 1);
  EXPECT_THAT(r.err, HasSubstr("hlolayout verify: <stdin>:"));
  r = RunCli({"verify", "/no/such/file.txt"});
  EXPECT_EQ(r.status, 1);
  EXPECT_THAT(r.err, HasSubstr("hlolayout verify: "));
  r = RunCli({"verify", "--top=3"}, kTwoWrong);
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("hlolayout verify: "));
}

}  // namespace
}  // namespace hlolayout::cli

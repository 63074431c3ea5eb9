// `hlolayout draw`, `hlolayout cute draw` and `hlolayout grid draw` through
// the dispatcher.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "hlolayout/cli/draw_output.h"
#include "hlolayout/testing/run_cli.h"
#include "hlolayout/testing/test_data.h"

namespace hlolayout::cli {
namespace {

TEST(DrawCommand, TextByDefaultWithoutColourOffATerminal) {
  CliResult r = RunCli({"draw", "f32[3,5]{1,0:T(2,2)}"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("logical view"), std::string::npos);
  EXPECT_NE(r.out.find(" 12  13│ 16  17│ 20"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos);
  r = RunCli({"draw", "--color=always", "f32[3,5]{1,0:T(2,2)}"});
  EXPECT_NE(r.out.find("\x1b[30;48;5;"), std::string::npos);
  r = RunCli({"draw", "--ascii", "--view", "memory", "f32[3,5]{1,0:T(2,2)}"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.find("logical view"), std::string::npos);
  EXPECT_NE(r.out.find("2,3  pad  pad"), std::string::npos) << r.out;
}

TEST(DrawCommand, ColourOnlyWhenAskedOrOnATerminalWithoutNoColor) {
  std::istringstream in;
  std::ostringstream out, err;
  IoContext io{in, out, err};
  EXPECT_TRUE(*ShouldColour("always", io));
  EXPECT_FALSE(*ShouldColour("never", io));
  EXPECT_FALSE(*ShouldColour("auto", io));  // not standard output
  EXPECT_EQ(ShouldColour("sometimes", io).status().message(),
            "bad --color 'sometimes' (auto, always or never)");
  IoContext std_io{in, std::cout, err};
  ASSERT_EQ(setenv("NO_COLOR", "1", 1), 0);
  EXPECT_FALSE(*ShouldColour("auto", std_io));
  EXPECT_TRUE(*ShouldColour("always", std_io));
  ASSERT_EQ(unsetenv("NO_COLOR"), 0);
}

TEST(DrawCommand, SvgOnStdout) {
  CliResult r = RunCli({"draw", "f32[3,5]{1,0:T(2,2)}", "--svg", "-"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("<svg xmlns=", 0), 0u);
  EXPECT_NE(r.out.find("data-index=\"2,3\" data-offset=\"17\""),
            std::string::npos);
  r = RunCli({"draw", "--svg", "-", "--slice", "1", "f32[2,2,2]"}, "");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("data-index=\"1,1,1\""), std::string::npos);
}

TEST(DrawCommand, ShapeFromStdin) {
  CliResult r = RunCli({"draw", "-"}, "f32[2]\n");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("f32[2]{0}"), std::string::npos);
}

TEST(DrawCommand, Errors) {
  EXPECT_EQ(RunCli({"draw", "f32[2", "--svg", "-"}).status, 1);
  CliResult r = RunCli({"draw", "--view", "side", "f32[2]"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "hlolayout draw: unknown view 'side' (logical, memory or both)\n");
  r = RunCli({"draw", "--slice", "x", "f32[2]"});
  EXPECT_EQ(r.status, 2);
  r = RunCli({"draw", "--slice", "5", "f32[2,2,2]"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "hlolayout draw: slice index 5 out of bounds for dim 0 of size "
            "2\n");
  r = RunCli({"draw", "--svg", "/nonexistent/dir/x.svg", "f32[2]"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("cannot write '/nonexistent/dir/x.svg'"),
            std::string::npos);
  r = RunCli({"draw", "--help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("usage: hlolayout draw"), std::string::npos);
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

constexpr char kTilized[] =
    "tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, "
    "memref<1x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>>>";
constexpr char kScalar[] =
    "tensor<6x10xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <2x2>, "
    "memref<3x5xf32, #tt.memory_space<l1>>>>";

// Golden files in views/testdata, regenerated with the same commands.
TEST(DrawCommand, CuteAndGridGoldenFiles) {
  struct Case {
    std::vector<std::string> args;
    const char* golden;
  };
  const Case cases[] = {
      {{"cute", "draw", "(4,(2,2)):(2,(1,8))", "--svg", "-"},
       "cute_nested.svg"},
      {{"cute", "draw", "--tv", "(2,2):(1,2)", "2:4", "--tile", "2,4", "--svg",
        "-"},
       "cute_tv.svg"},
      {{"grid", "draw", kScalar, "--svg", "-"}, "grid_scalar.svg"},
      {{"grid", "draw", kScalar}, "grid_scalar.txt"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.golden);
    CliResult r = RunCli(c.args);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, ReadFile(TestDataPath(std::string("views/testdata/") +
                                           c.golden)));
  }
}

TEST(DrawCommand, CuteAndGridErrors) {
  CliResult r = RunCli({"cute", "draw", "--tv", "2:1", "1:0"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "hlolayout cute draw: --tv needs --tile M,N\n");
  r = RunCli({"cute", "draw", "(2,2,2):(1,2,4)"});
  EXPECT_EQ(r.status, 1);
  r = RunCli({"cute", "draw", "--help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("usage: hlolayout cute draw"), std::string::npos);
  r = RunCli({"grid", "draw", "--help"});
  EXPECT_NE(r.out.find("usage: hlolayout grid draw"), std::string::npos);
  r = RunCli({"grid", "draw", kTilized});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("scale: 1 cell = 3x3 scalars"), std::string::npos);
  r = RunCli({"cute", "composition", "--help"});
  EXPECT_NE(r.out.find("usage: hlolayout cute OP"), std::string::npos);
  r = RunCli({"grid", "draw", "tensor<"});
  EXPECT_EQ(r.status, 1);
}

TEST(DrawCommand, ReportHtml) {
  CliResult r = RunCli({"report", "--example", "--html", "-"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(r.out.find("all 30 instructions."), std::string::npos);
  r = RunCli({"report", "--example", "--summary", "--top=1", "--html", "-"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("left out (--summary)."), std::string::npos);
  EXPECT_EQ(r.out.find("<tr class=\"row\""), std::string::npos);
  // --summary keeps no padding wasters (report/report.h); --top sets how
  // many a full report draws.
  r = RunCli({"report", "--example", "--top=1", "--html", "-"});
  ASSERT_EQ(r.status, 0) << r.err;
  size_t wasters = 0;
  for (size_t p = r.out.find("<div class=\"waster\">"); p != std::string::npos;
       p = r.out.find("<div class=\"waster\">", p + 1)) {
    ++wasters;
  }
  EXPECT_EQ(wasters, 1u);
  r = RunCli({"report", "--example", "--html", "-", "--json"});
  EXPECT_EQ(r.status, 2);
  r = RunCli({"report", "--example", "--html", "-", "--html-rows", "x"});
  EXPECT_EQ(r.status, 2);
  r = RunCli({"report", "--example", "--html", "/nonexistent/dir/r.html"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "hlolayout report: cannot write '/nonexistent/dir/r.html'\n");
}

}  // namespace
}  // namespace hlolayout::cli

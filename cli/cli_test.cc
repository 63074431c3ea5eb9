#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/run_cli.h"
#include "hlolayout/version.h"

namespace hlolayout::cli {
namespace {

using Result = CliResult;

TEST(Cli, NoArgumentsExplainsTheExample) {
  Result r = RunCli({});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("shape:          bf16[8,1,1280,16384]{3,2,0,1:T(8,128)"
                       "(2,1)S(1)}"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("hlolayout --help"), std::string::npos);
}

TEST(Cli, HelpListsCommands) {
  Result r = RunCli({"--help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("explain"), std::string::npos);
  EXPECT_NE(r.out.find("batch"), std::string::npos);
}

TEST(Cli, EveryCommandHasHelp) {
  for (const Command* command : AllCommands()) {
    Result r = RunCli({std::string(command->name), "--help"});
    EXPECT_EQ(r.status, 0) << command->name;
    EXPECT_NE(r.out.find("usage: hlolayout"), std::string::npos)
        << command->name << ": " << r.out;
    Result h = RunCli({"help", std::string(command->name)});
    EXPECT_EQ(h.out, r.out);
  }
}

TEST(Cli, UnknownCommand) {
  Result r = RunCli({"explian"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "hlolayout: unknown command 'explian'; 'hlolayout --help' lists "
            "the commands\n");
}

TEST(Cli, Version) {
  CliResult r = RunCli({"--version"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, std::string("hlolayout ") + HLOLAYOUT_VERSION_STRING + "\n");
  EXPECT_EQ(r.out, "hlolayout 0.3.0\n");  // CHANGELOG.md's latest version
  EXPECT_EQ(RunCli({"--version", "x"}).status, 2);
}

TEST(Cli, ExplainDesignCard) {
  Result r =
      RunCli({"explain", "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}"});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("element type:   bf16 (16 bits, 2 bytes unpacked)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("physical order: 1,0,2,3"), std::string::npos);
  EXPECT_NE(r.out.find("memory space:   1 (alternate fast memory (VMEM on "
                       "TPU))"),
            std::string::npos);
  EXPECT_NE(r.out.find("elements:       167772160"), std::string::npos);
  EXPECT_NE(r.out.find("bytes:          335544320"), std::string::npos);
}

TEST(Cli, ExplainJson) {
  Result r = RunCli({"explain", "--json", "s4[8]{0:E(4)}"});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("\"element_type\": \"s4\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"bytes\": 4"), std::string::npos) << r.out;
}

TEST(Cli, ExplainTupleAndStdin) {
  Result r = RunCli({"explain"}, "(f32[2], token[])\n\ns32[]\n");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("tuple of 2 elements"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("element {1}:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("shape:          s32[]"), std::string::npos);
}

TEST(Cli, ExplainBadShapeGoesToStderr) {
  Result r = RunCli({"explain", "f32[2"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "hlolayout explain: 1:6: expected ',' or ']' in dimensions, found "
            "end of input\nf32[2\n     ^\n");
}

TEST(Cli, UnknownFlag) {
  Result r = RunCli({"explain", "--jsn", "f32[2]"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "hlolayout explain: unknown flag '--jsn'; did you mean '--json'?; "
            "flags: --file, --json\n");
  // A name far from every flag gets no guess, and a command without flags
  // says so.
  r = RunCli({"explain", "--colour", "f32[2]"});
  EXPECT_EQ(r.err,
            "hlolayout explain: unknown flag '--colour'; flags: --file, "
            "--json\n");
  r = RunCli({"cute", "coalesce", "--json", "8:1"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "hlolayout cute coalesce: unknown flag '--json'; this command "
            "takes no flags\n");
}

TEST(Cli, UnknownSubcommand) {
  Result r = RunCli({"grid", "epxlain"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "hlolayout grid: unknown subcommand 'epxlain'; did you mean "
            "'explain'?; subcommands: explain, locate, report, collapse, "
            "draw\n");
  r = RunCli({"cute", "smen", "x"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("unknown op 'smen'; did you mean 'smem'?"),
            std::string::npos)
      << r.err;
  r = RunCli({"triton", "cvt-cost"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("unknown subcommand 'cvt-cost'; subcommands: explain, "
                       "view, cvt, draw, report, check, str,"),
            std::string::npos)
      << r.err;
}

TEST(Cli, Print) {
  Result r =
      RunCli({"print", "f32[1024, 16]", "bf16[8,128]<1,0:T(8,128)(2,1)>"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "f32[1024,16]{1,0}\nbf16[8,128]{1,0:T(8,128)(2,1)}\n");
  r = RunCli({"print", "--no-layout", "f32[3,5]{0,1}"});
  EXPECT_EQ(r.out, "f32[3,5]\n");
  r = RunCli({"print", "-"}, "f32[2]\n(s32[], s32[])\n");
  EXPECT_EQ(r.out, "f32[2]{0}\n(s32[], s32[])\n");
}

TEST(Cli, ShapesFromAFile) {
  const std::string path = ::testing::TempDir() + "/shapes.txt";
  FILE* f = fopen(path.c_str(), "w");
  ASSERT_NE(f, nullptr);
  fputs("f32[2]\n\n  s32[3,4]{0,1}  \n", f);
  fclose(f);
  Result r = RunCli({"print", "--file", path});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "f32[2]{0}\ns32[3,4]{0,1}\n");
  r = RunCli({"explain", "--file=" + path});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("s32[3,4]{0,1}"), std::string::npos);
  r = RunCli({"print", "--file", path + ".missing"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err.rfind("hlolayout print: cannot open '", 0), 0u) << r.err;
  r = RunCli({"print", "--file", path, "f32[2]"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "hlolayout print: give shapes as arguments or with --file, not "
            "both\n");
}

TEST(Cli, BatchOneLinePerInputLine) {
  Result r = RunCli({"batch"},
                    "print\tf32[2,3]\n"
                    "print\tf32[2\n"
                    "nope\tx\n"
                    "\n"
                    "print\n"
                    "print\tf32[2]\textra\n"
                    "print\tf32[2,3]\r\n");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out,
            "f32[2,3]{1,0}\n"
            "error: 1:6: expected ',' or ']' in dimensions, found end of "
            "input | f32[2 |      ^\n"
            "error: unknown op 'nope' (hlolayout batch --help lists the ops)\n"
            "error: empty line\n"
            "error: print takes 1 tab-separated argument, got 0\n"
            "error: print takes 1 tab-separated argument, got 2\n"
            "f32[2,3]{1,0}\n");
}

TEST(Cli, BatchHelpListsOps) {
  Result r = RunCli({"batch", "--help"});
  EXPECT_NE(r.out.find("print<TAB>SHAPE"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace hlolayout::cli

namespace hlolayout::cli {
namespace {

// Item 7: an element offset needs no byte size, and sizes are computed in
// bits only where packing needs it.
TEST(BitSizeArithmetic, OffsetsOfArraysWhoseBitSizeOverflows) {
  CliResult r = RunCli({"index", "f32[4611686018427387904]", "5"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "5\n");
  // The byte position itself does not fit: only --bytes fails.
  r = RunCli(
      {"index", "--bytes", "f32[4611686018427387904]", "4611686018427387903"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("overflows int64"), std::string::npos) << r.err;
  r = RunCli({"index", "--json", "f32[4611686018427387904]", "5"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"byte\": 20"), std::string::npos) << r.out;
  r = RunCli({"element", "f32[4611686018427387904]", "4611686018427387903"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "4611686018427387903\n");
}

TEST(BitSizeArithmetic, ByteSizeThatFitsIsAnswered) {
  CliResult r = RunCli({"batch"},
                       "size\ts8[9223372036854775807]\n"
                       "bytes\ts8[9223372036854775807]\n"
                       "bytes\tf32[4611686018427387904]\n"
                       "bytes\ts4[9223372036854775807]{0:E(4)}\n");
  EXPECT_EQ(r.status, 0);
  const std::vector<std::string> lines = absl::StrSplit(r.out, '\n');
  ASSERT_GE(lines.size(), 4u) << r.out;
  EXPECT_EQ(lines[0], "9223372036854775807");
  EXPECT_NE(lines[1].find("9223372036854775807"), std::string::npos)
      << lines[1];
  EXPECT_NE(lines[2].find("error: byte size overflows int64"),
            std::string::npos)
      << lines[2];
  EXPECT_EQ(lines[3].find("error"), std::string::npos) << lines[3];
}

TEST(BitSizeArithmetic, ExplainExitsNonZeroWhenASectionFails) {
  // Accepted as XLA's validators accept it; it cannot be laid out.
  CliResult r = RunCli({"explain", "f32[16]{0:T(2,*)}"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("padding and size: tile (2,*) ends with"),
            std::string::npos)
      << r.out;
  r = RunCli({"explain", "--json", "f32[16]{0:T(2,*)}"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("\"padding_and_size_error\""), std::string::npos)
      << r.out;
  r = RunCli({"explain", "f32[16]{0:T(2)}"});
  EXPECT_EQ(r.status, 0) << r.out;
}

// Item 9: the one element of a rank-0 array has the empty index, printed
// as "()" in text and [] in JSON, and read back in either form.
TEST(ScalarIndex, PrintedAsEmptyParentheses) {
  CliResult r = RunCli({"element", "f32[]", "0"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "()\n");
  r = RunCli({"element", "--json", "f32[]", "0"});
  EXPECT_NE(r.out.find("\"index\": []"), std::string::npos) << r.out;
  r = RunCli({"index", "f32[]", "()"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "0\n");
  r = RunCli({"index", "f32[3,5]{1,0:T(2,2)}", "(2,3)"});
  EXPECT_EQ(r.out, "17\n");
  r = RunCli({"batch"}, "element\tf32[]\t0\n");
  EXPECT_EQ(r.out, "()\n");
  r = RunCli({"tiling", "f32[]"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.find("(dims ,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("physical [] (rank 0"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace hlolayout::cli

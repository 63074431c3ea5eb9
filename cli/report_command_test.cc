#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/run_cli.h"
#include "hlolayout/testing/test_data.h"

namespace hlolayout::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

using Result = CliResult;

constexpr char kDump[] = R"(HloModule m
ENTRY e {
  a = bf16[3,200]{1,0:T(8,128)(2,1)} parameter(0)
  b = f32[1024]{0:T(1024)S(1)} parameter(1)
  ROOT c = f32[17,5]{1,0:T(8,128)} custom-call(a, b), custom_call_target="x"
}
)";

TEST(ReportCommand, BuiltInExampleWithNoArguments) {
  Result r = RunCli({"report"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, StartsWith("module jit_train_step: entry main, 6 "
                                "computations, 30 instructions\n"));
  EXPECT_THAT(r.out, HasSubstr("vmem (alternate fast memory"));
  EXPECT_THAT(r.out, HasSubstr("top padding wasters (buffers, each once, "
                               "with their other names):\n  1. "));
  EXPECT_THAT(r.out, HasSubstr("while"));
  EXPECT_THAT(r.out, HasSubstr("conditional"));
  // --example gives the same report with flags.
  Result e = RunCli({"report", "--example"});
  EXPECT_EQ(e.out, r.out);
}

// Issue 35: `report --top=10` on the example dump listed one f32[3,1000]
// buffer ten times (out, state, state.1, tuple.1, init, while, acc, scaled,
// acc.0, result), tuple and alias rows first. Each buffer that owns bytes
// is listed once now, with its other names beside it, in text and JSON.
TEST(ReportCommand, PaddingWastersListEachBufferOnce) {
  const std::string dump = TestDataPath(
      "examples/module_0001.jit_train_step.after_optimizations.txt");
  Result r = RunCli({"report", "--top=10", dump});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string wasters = r.out.substr(r.out.find("top padding wasters"));
  EXPECT_THAT(wasters,
              HasSubstr("  1. acc.0 in main: f32[3,1000]{1,0:T(8,128)}\n"
                        "     20.3 KiB (20768 B) of padding (12000 -> 32768 B, "
                        "2.7x)\n"));
  EXPECT_THAT(wasters,
              HasSubstr("     also defined by: scaled\n"
                        "     aliases: state{1}, state.1{1}, acc, tuple.1{1}, "
                        "init{1}, while{1}, result, out{1}\n"));
  // No tuple row and no alias of the loop's buffer ranks on its own.
  for (const char* alias :
       {". out in", ". state in", ". state.1 in", ". tuple.1 in", ". init in",
        ". while in", ". acc in", ". scaled in", ". result in"}) {
    EXPECT_THAT(wasters, Not(HasSubstr(alias))) << alias;
  }
  EXPECT_THAT(wasters,
              HasSubstr(". copy-start{0} in main: "
                        "bf16[8,200]{1,0:T(8,128)(2,1)S(1)} (vmem)\n"));
  Result j = RunCli({"report", "--json", "--top=1", dump});
  ASSERT_EQ(j.status, 0) << j.err;
  EXPECT_THAT(j.out, HasSubstr("\"top_padding_wasters\": [\n    "
                               "{\"computation\": \"main\", \"instruction\": "
                               "\"acc.0\", \"index\": \"{}\""));
  EXPECT_THAT(j.out, HasSubstr("\"also_defined_by\": [\"scaled\"], "
                               "\"aliases\": [\"state{1}\", \"state.1{1}\", "
                               "\"acc\", \"tuple.1{1}\", \"init{1}\", "
                               "\"while{1}\", \"result\", \"out{1}\"]}"));
}

// The text report leads with what XLA will allocate (memory/
// allocation_text.h): exact for a GPU module, said to be unknown for a
// TPU-laid-out one (the built-in example) and for unscheduled ones; left
// out of --summary, which keeps no modules, whose first line says so. The
// summed figures under it say what they are not.
TEST(ReportCommand, TextLeadsWithWhatXlaWillAllocate) {
  const std::string gpu = TestDataPath(
      "memory/testdata/module_105197.jit_mlp_step.sm_9.0a_gpu_after_"
      "optimizations.txt");
  Result r = RunCli({"report", gpu});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, StartsWith("module jit_mlp_step: entry main.10, 40 "
                                "computations, 409 instructions\n"
                                "  XLA:GPU will allocate 26.56 MiB "
                                "(27,850,866 bytes)\n"));
  EXPECT_LT(r.out.find("will allocate"), r.out.find("buffers (the values"));
  EXPECT_LT(r.out.find("buffers (the values"),
            r.out.find("all instruction results"));
  Result tpu = RunCli({"report"});
  EXPECT_THAT(tpu.out, HasSubstr("\n  what XLA will allocate: not modelled for "
                                 "XLA:TPU"));
  // It says where the TPU answer is (`memory`), no longer another
  // platform's rules.
  EXPECT_THAT(tpu.out, HasSubstr("`hlolayout memory FILE` gives the model"));
  EXPECT_THAT(tpu.out, Not(HasSubstr("--platform=gpu|cpu")));
  EXPECT_THAT(tpu.out, HasSubstr("\n  live-range peak (HloLiveRange"));
  Result plain = RunCli({"report", "-"}, kDump);
  EXPECT_THAT(plain.out, HasSubstr("\n  what XLA will allocate: known for "
                                   "scheduled modules only"));
  EXPECT_THAT(r.out, HasSubstr("all instruction results (every instruction "
                               "of every computation, aliases counted again; "
                               "not memory use: the base of padding and "
                               "expansion): 409 instructions"));
  Result summary = RunCli({"report", "--summary", gpu});
  EXPECT_THAT(summary.out,
              StartsWith("module jit_mlp_step: entry main.10, 40 "
                         "computations, 409 instructions\n  what XLA will "
                         "allocate: left out by --summary (it reads without "
                         "keeping the module); `hlolayout memory FILE` gives "
                         "it\nbuffers"));
  Result json = RunCli({"report", "--summary", "--json", gpu});
  EXPECT_THAT(json.out, Not(HasSubstr("will allocate")));
}

// report --html leads with what XLA will allocate (26.56 MiB for the MLP
// step), not with the 245.4 MiB of all instruction results, and names the
// boxes of XLA's heap (name, shape, bytes, op_name, source line).
TEST(ReportCommand, HtmlLeadsWithWhatXlaAllocatesAndNamesTheHeap) {
  const std::string gpu = TestDataPath(
      "memory/testdata/module_105197.jit_mlp_step.sm_9.0a_gpu_after_"
      "optimizations.txt");
  Result r = RunCli({"report", "--html", "-", gpu});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string& html = r.out;
  const size_t lead = html.find("<b>26.56 MiB (27,850,866 bytes)</b>");
  ASSERT_NE(lead, std::string::npos);
  EXPECT_LT(lead, html.find("id=\"totals\""));
  EXPECT_LT(lead, html.find("245.4 MiB"));
  EXPECT_EQ(html.substr(0, lead).find("MiB"), std::string::npos);
  EXPECT_NE(html.find("<title>gemm_fusion_dot.4{}: f32[4,256,1024]{2,1,0}, "
                      "4194304 bytes at offset 0, live 4-35; "
                      "jit(mlp_step)/jvp()/dot_general; probe_xla.py:176"
                      "</title>"),
            std::string::npos);
  EXPECT_NE(html.find("<tr class=\"heap-value\"><td>1</td><td>"
                      "gemm_fusion_dot.4{}</td>"),
            std::string::npos);
  // `memory --html` names them the same way.
  Result memory = RunCli({"memory", "--html", "-", gpu});
  ASSERT_EQ(memory.status, 0) << memory.err;
  EXPECT_NE(memory.out.find("; jit(mlp_step)/jvp()/dot_general; "
                            "probe_xla.py:176</title>"),
            std::string::npos);
}

TEST(ReportCommand, StandardInputWhenNoFile) {
  Result r = RunCli({"report", "--sort=padded"}, kDump);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("module m: entry e, 1 computation, 3 "
                               "instructions\n"));
  // Sorted by padded bytes: c (12288) before a (4096) and b (4096).
  const size_t c = r.out.find("ROOT c");
  const size_t a = r.out.find("  e            a ");
  ASSERT_NE(c, std::string::npos) << r.out;
  ASSERT_NE(a, std::string::npos) << r.out;
  EXPECT_LT(c, a);
  EXPECT_THAT(r.out, HasSubstr("logical 5.5 KiB (5636 B), padded 20.0 KiB "
                               "(20480 B)"));
}

// Unknown opcodes are read (their shapes as written) with one located
// warning per opcode name on stderr, counting its instructions; the exit
// status stays 0, on one thread or in parts.
TEST(ReportCommand, UnknownOpcodesWarnOncePerName) {
  constexpr char kNewer[] = R"(HloModule m
ENTRY e {
  a = f32[8]{0} parameter(0)
  b = f32[8]{0} frobnicate(a)
  c = f32[8]{0} frobnicate(b)
  d = f32[8]{0} negate(c)
  ROOT r = f32[8]{0} twiddle(d)
}
)";
  for (const char* threads : {"--threads=1", "--threads=2"}) {
    Result r = RunCli({"report", "--summary", threads}, kNewer);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("1 computation, 5 instructions"));
    EXPECT_EQ(r.err,
              "<stdin>:4:17: warning: unknown opcode 'frobnicate' (2 "
              "instructions, read with their shapes as written)\n"
              "  b = f32[8]{0} frobnicate(a)\n"
              "                ^\n"
              "<stdin>:7:22: warning: unknown opcode 'twiddle' (1 "
              "instruction, read with its shape as written)\n"
              "  ROOT r = f32[8]{0} twiddle(d)\n"
              "                     ^\n")
        << threads;
  }
  // Known opcodes, async wrappers of known ones: no warning.
  Result known = RunCli({"report", "--summary"}, kDump);
  EXPECT_EQ(known.err, "");
}

TEST(ReportCommand, SummaryJson) {
  Result r = RunCli({"report", "--summary", "--json", "-"}, kDump);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, StartsWith("{\"modules\": [\n {\"name\": \"m\""));
  EXPECT_THAT(r.out, HasSubstr("\"instructions\": 3,"));
  EXPECT_THAT(r.out, HasSubstr("\"array_leaf_padded_bytes\": 20480"));
  EXPECT_THAT(r.out, Not(HasSubstr("\"instructions\": [")));
  EXPECT_THAT(r.out, Not(HasSubstr("top_padding_wasters")));
}

TEST(ReportCommand, JsonWithInstructionsAndTop) {
  Result r = RunCli({"report", "--json", "--top=1"}, kDump);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("\"instructions\": [\n    {\"computation\": "
                               "\"e\", \"instruction\": \"a\""));
  EXPECT_THAT(r.out, HasSubstr("\"top_padding_wasters\": [\n    "
                               "{\"computation\": \"e\", \"instruction\": "
                               "\"c\""));
  EXPECT_THAT(r.out, Not(HasSubstr("\"instruction\": \"a\", \"shape\"")));
}

TEST(ReportCommand, FilesAndErrorsWithPositions) {
  const std::string path = ::testing::TempDir() + "/report_bad.txt";
  {
    std::ofstream file(path);
    file << "HloModule m\nENTRY e {\n  a = f32[2 parameter(0)\n"
            "  ROOT b = f32[2]{0} parameter(1)\n}\n";
  }
  Result r = RunCli({"report", path});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "hlolayout report: " + path +
                ":3:13: expected ',' or ']' in dimensions, found "
                "'parameter'\n  a = f32[2 parameter(0)\n            ^\n");
  Result k = RunCli({"report", "--keep-going", path});
  EXPECT_EQ(k.status, 1);
  EXPECT_THAT(k.err, StartsWith(path + ":3:13: expected"));
  EXPECT_THAT(k.out, HasSubstr("1 instruction\n"));
  EXPECT_THAT(k.out, HasSubstr("1 error (instructions skipped)"));
  std::remove(path.c_str());
}

TEST(ReportCommand, UsageErrors) {
  EXPECT_EQ(RunCli({"report", "--sort=size"}).status, 2);
  EXPECT_EQ(RunCli({"report", "--top=-1"}).status, 2);
  EXPECT_EQ(RunCli({"report", "--colour"}).status, 2);
  Result missing = RunCli({"report", "/nonexistent/dump.txt"});
  EXPECT_EQ(missing.status, 1);
  EXPECT_THAT(missing.err, HasSubstr("cannot open"));
}

// A directory given as the dump once aborted (a 2^63-byte reserve).
// A folder alone is a dump folder (cli/dump_folder_table.h); among files
// it is an error, not a crash.
TEST(ReportCommand, AFolderAmongFilesIsAnErrorNotACrash) {
  const std::string path = TestDataPath(
      "examples/module_0001.jit_train_step.after_optimizations.txt");
  Result r = RunCli({"report", "--summary", ::testing::TempDir(), path});
  EXPECT_EQ(r.status, 1);
  EXPECT_THAT(r.err, HasSubstr("Is a directory"));
}

TEST(ReportCommand, AFolderGivesOneTableOfItsModules) {
  const std::string dump = TestDataPath(
      "examples/module_0001.jit_train_step.after_optimizations.txt");
  const std::string folder = dump.substr(0, dump.rfind('/'));
  Result r = RunCli({"report", folder});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("dump folder "));
  EXPECT_THAT(r.out, HasSubstr(" 1 module in 1 file"));
  EXPECT_THAT(r.out, HasSubstr("jit_train_step"));
  EXPECT_THAT(r.out, HasSubstr("module_0001.jit_train_step.after_"
                               "optimizations.txt"));
  // --summary is accepted (the table is the summary): the same table.
  Result summary = RunCli({"report", "--summary", folder});
  EXPECT_EQ(summary.status, 0) << summary.err;
  EXPECT_EQ(summary.out, r.out);
  // --top reads the modules whole: the table, then the padding wasters of
  // the folder (issue 35: it used to say "does not apply to a folder").
  Result top = RunCli({"report", "--top=3", folder});
  EXPECT_EQ(top.status, 0) << top.err;
  EXPECT_THAT(top.out, StartsWith(r.out));
  EXPECT_THAT(top.out,
              HasSubstr("top padding wasters over the folder (buffers, each "
                        "once, with their other names):\n  1. acc.0 in main "
                        "of jit_train_step (module_0001.jit_train_step.after_"
                        "optimizations.txt): f32[3,1000]{1,0:T(8,128)}\n"));
  Result missing = RunCli({"report", folder + "/no-such-folder/"});
  EXPECT_EQ(missing.status, 1);
}

// Issue 35: `report --html r.html memory/testdata` said "--html does not
// apply to a folder", and a folder wanted --sort=padding where a file
// wanted --sort=padded. Every key works on both now, and the folder's page
// opens with the folder's table.
TEST(ReportCommand, FoldersTakeTheFlagsAndSortKeysOfFiles) {
  const std::string folder = TestDataPath("memory/testdata");
  const std::string page = ::testing::TempDir() + "/folder.html";
  Result html = RunCli({"report", "--html", page, folder});
  ASSERT_EQ(html.status, 0) << html.err;
  std::ifstream in(page);
  std::stringstream text;
  text << in.rdbuf();
  const std::string out = text.str();
  const size_t table = out.find("<table class=\"folder sortable\">");
  ASSERT_NE(table, std::string::npos);
  EXPECT_LT(out.find("<div id=\"allocates\">"), table);
  EXPECT_LT(table, out.find("<div id=\"memory\">"));
  int rows = 0;
  for (size_t p = out.find("<tr class=\"folder-row\""); p != std::string::npos;
       p = out.find("<tr class=\"folder-row\"", p + 1)) {
    ++rows;
  }
  EXPECT_EQ(rows, 6);
  EXPECT_NE(out.find("jit_scan_cond"), std::string::npos);
  EXPECT_NE(out.find(" files skipped</summary>"), std::string::npos);
  // The same keys for a folder and for a file.
  const std::string file = TestDataPath(
      "memory/testdata/module_486067.jit_scan_cond.sm_9.0a_gpu_after_"
      "optimizations.txt");
  for (const char* key :
       {"order", "file", "name", "module", "padded", "buffers", "padding",
        "expansion", "instructions", "allocated", "peak"}) {
    const std::string sort = std::string("--sort=") + key;
    Result f = RunCli({"report", sort, folder});
    EXPECT_EQ(f.status, 0) << key << f.err;
    Result one = RunCli({"report", sort, file});
    EXPECT_EQ(one.status, 0) << key << one.err;
  }
  Result padded = RunCli({"report", "--sort=padded", folder});
  Result buffers = RunCli({"report", folder});
  EXPECT_EQ(padded.out, buffers.out);  // the folder's padded bytes: buffers
  Result bad = RunCli({"report", "--sort=size", folder});
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.err,
            "hlolayout report: --sort must be order|file, name|module, "
            "padded, buffers, padding, expansion, instructions, allocated or "
            "peak, not 'size'\n");
  Result summary_peak = RunCli({"report", "--summary", "--sort=peak", file});
  EXPECT_EQ(summary_peak.status, 2);
  EXPECT_THAT(summary_peak.err, HasSubstr("which --summary leaves out"));
}

// A dump folder warns of unknown opcodes as a file does: once per opcode
// name over the folder, located at its first use in the first file that
// has it, naming the files; on standard error, for text and --json, for
// `report DIR` and `memory DIR`; the exit status stays 0.
TEST(ReportCommand, AFolderWarnsOfUnknownOpcodesOncePerName) {
  const std::string folder = ::testing::TempDir() + "/unknown_opcodes";
  for (const char* name : {"a.txt", "b.txt", "c.txt"}) {
    std::remove((folder + "/" + name).c_str());
  }
  std::remove(folder.c_str());
  ASSERT_EQ(mkdir(folder.c_str(), 0755), 0);
  std::ofstream(folder + "/a.txt") << R"(HloModule a
ENTRY e {
  p = f32[8]{0} parameter(0)
  x = f32[8]{0} frobnicate(p)
  ROOT y = f32[8]{0} frobnicate(x)
}
)";
  std::ofstream(folder + "/b.txt") << R"(HloModule b
ENTRY e {
  p = f32[8]{0} parameter(0)
  t = f32[8]{0} twiddle(p)
  ROOT x = f32[8]{0} frobnicate(t)
}
)";
  std::ofstream(folder + "/c.txt") << kDump;
  const std::string warnings =
      "a.txt:4:17: warning: unknown opcode 'frobnicate' (3 instructions in 2 "
      "files: a.txt, b.txt; read with their shapes as written)\n"
      "  x = f32[8]{0} frobnicate(p)\n"
      "                ^\n"
      "b.txt:4:17: warning: unknown opcode 'twiddle' (1 instruction, read "
      "with its shape as written)\n"
      "  t = f32[8]{0} twiddle(p)\n"
      "                ^\n";
  for (const char* command : {"report", "memory"}) {
    Result text = RunCli({command, folder});
    EXPECT_EQ(text.status, 0) << command << text.err;
    EXPECT_EQ(text.err, warnings) << command;
    EXPECT_THAT(text.out, HasSubstr("3 modules in 3 files")) << command;
    Result json = RunCli({command, "--json", "--threads=1", folder});
    EXPECT_EQ(json.status, 0) << command << json.err;
    EXPECT_EQ(json.err, warnings) << command;
    EXPECT_THAT(json.out, StartsWith("{\"folder\": ")) << command;
    EXPECT_THAT(json.out, Not(HasSubstr("warning"))) << command;
  }
  // Without unknown opcodes: no warning.
  std::remove((folder + "/a.txt").c_str());
  std::remove((folder + "/b.txt").c_str());
  Result known = RunCli({"report", folder});
  EXPECT_EQ(known.status, 0) << known.err;
  EXPECT_EQ(known.err, "");
}

// Issue 35: an empty file, a file of comments only and empty standard
// input printed "no modules" and exited 0. They are errors now, saying
// what was expected, for every output form; so for `memory`.
TEST(ReportCommand, InputWithoutAModuleIsAnError) {
  const std::string empty = ::testing::TempDir() + "/empty.txt";
  const std::string comments = ::testing::TempDir() + "/comments.txt";
  std::ofstream(empty).close();
  std::ofstream(comments) << "// -----\n// nothing here\n\n";
  const std::string expected =
      "no HLO module: the input is empty; expected HLO module text (an "
      "'HloModule name' line and its computations, as XLA writes them with "
      "--xla_dump_to)\n";
  for (const char* command : {"report", "memory"}) {
    for (const std::vector<std::string>& flags :
         std::vector<std::vector<std::string>>{
             {}, {"--summary"}, {"--json"}, {"--html", "-"}}) {
      if (std::string(command) == "memory" && !flags.empty() &&
          flags[0] == "--summary") {
        continue;
      }
      std::vector<std::string> args = {command};
      args.insert(args.end(), flags.begin(), flags.end());
      args.push_back(empty);
      Result r = RunCli(args);
      EXPECT_EQ(r.status, 1) << command << " " << flags.size();
      EXPECT_EQ(r.err, std::string("hlolayout ") + command + ": " + empty +
                           ": " + expected)
          << command;
      args.back() = comments;
      r = RunCli(args);
      EXPECT_EQ(r.status, 1) << command;
      EXPECT_THAT(r.err, HasSubstr(comments + ": no HLO module: the input "
                                              "holds only comments and blank "
                                              "lines; expected HLO module"));
    }
    Result in = RunCli({command}, command == std::string("report") ? "" : "\n");
    if (command == std::string("report")) {
      // No argument at all is the built-in example; `-` is standard input.
      in = RunCli({command, "-"}, "");
    }
    EXPECT_EQ(in.status, 1) << command;
    EXPECT_THAT(in.err, HasSubstr("<stdin>: no HLO module: the input is "))
        << command;
  }
}

// A folder without a module is most likely the wrong folder: an error on
// standard error and exit 1, with the (empty) table still printed.
TEST(ReportCommand, AFolderWithoutModulesFails) {
  const std::string folder = ::testing::TempDir() + "/no_modules";
  std::remove((folder + "/notes.txt").c_str());
  std::remove(folder.c_str());
  ASSERT_EQ(mkdir(folder.c_str(), 0755), 0);
  std::ofstream(folder + "/notes.txt") << "not a module\n";
  for (const char* command : {"report", "memory"}) {
    Result r = RunCli({command, folder});
    EXPECT_EQ(r.status, 1) << command;
    EXPECT_THAT(r.out, HasSubstr("0 modules in 0 files, 1 skipped"));
    EXPECT_THAT(r.err, HasSubstr("no module files")) << command;
    Result json = RunCli({command, "--json", folder});
    EXPECT_EQ(json.status, 1);
    EXPECT_THAT(json.out, HasSubstr("\"modules\": []"));
  }
}

TEST(ReportCommand, Help) {
  Result r = RunCli({"report", "--help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_THAT(r.out, HasSubstr("usage: hlolayout report"));
  EXPECT_THAT(RunCli({"--help"}).out, HasSubstr("report"));
}

// The dump in examples/ (used by the README) is the built-in example.
TEST(ReportCommand, ExamplesFileIsTheBuiltInDump) {
  const std::string path = TestDataPath(
      "examples/module_0001.jit_train_step.after_optimizations.txt");
  Result from_file = RunCli({"report", "--summary", "--json", path});
  ASSERT_EQ(from_file.status, 0) << from_file.err;
  Result built_in = RunCli({"report", "--summary", "--json", "--example"});
  ASSERT_EQ(built_in.status, 0) << built_in.err;
  EXPECT_EQ(from_file.out, built_in.out);
}

// The page's memory section: a scheduled module gets its curve with the
// peak marked and the values live there; an unscheduled one says why.
TEST(ReportCommand, HtmlHasTheMemoryCurveOfScheduledModules) {
  const std::string base =
      "memory/testdata/"
      "module_317483.jit_dus_loop.sm_9.0a_gpu_after_optimizations";
  Result r = RunCli({"report", "--html", "-", TestDataPath(base + ".txt")});
  ASSERT_EQ(r.status, 0) << r.err;
  const size_t memory = r.out.find("<div id=\"memory\">");
  ASSERT_NE(memory, std::string::npos);
  EXPECT_NE(r.out.find("<svg id=\"curve-0\"", memory), std::string::npos);
  EXPECT_NE(r.out.find("<line class=\"peak\"", memory), std::string::npos);
  EXPECT_NE(r.out.find("<tr class=\"value\">", memory), std::string::npos);
  // The peak XLA wrote in its own file for this module.
  std::ifstream in(TestDataPath(base + "-live-range.txt"));
  std::stringstream xla;
  xla << in.rdbuf();
  const std::string text = xla.str();
  const size_t at = text.find("  Live ranges at ");
  ASSERT_NE(at, std::string::npos);
  const std::string time =
      text.substr(at + 17, text.find(' ', at + 17) - (at + 17));
  EXPECT_NE(r.out.find("</b> at time " + time + ","), std::string::npos)
      << time;
  EXPECT_EQ(r.out.find("no memory curve"), std::string::npos);

  r = RunCli({"report", "--html", "-"}, kDump);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("<div id=\"memory\">"));
  EXPECT_THAT(r.out, HasSubstr("<p class=\"no-curve\">no memory curve: "
                               "the module is not scheduled"));
  EXPECT_THAT(r.out, Not(HasSubstr("<svg id=\"curve-")));
}

}  // namespace
}  // namespace hlolayout::cli

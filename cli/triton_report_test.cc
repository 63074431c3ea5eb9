// `hlolayout triton report`: what it reads (implicit modules, Triton's
// cache entries), the release whose rules it follows, Triton's checks of
// types against the module, --target; and `triton draw`'s thread note.
#include <fstream>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/run_cli.h"

namespace hlolayout::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A lit test's part: layouts and a bare tt.func, no module.
const char kBareFunc[] =
    R"(#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
tt.func @f(%x: tensor<64x64xf16, #blocked>) {
  %y = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
  tt.return
}
)";

TEST(TritonReportTest, ReadsAnImplicitModuleAndSaysTheDefaults) {
  CliResult r = RunCli({"triton", "report", "-"}, kBareFunc);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("module: implicit (the text has no module"));
  EXPECT_THAT(r.out, HasSubstr("warps not named"));
  EXPECT_THAT(r.out, HasSubstr("32 threads per warp (Triton's default"));
  EXPECT_THAT(r.out, HasSubstr("1 CTA (Triton's default)"));
  EXPECT_THAT(r.out, HasSubstr("convert_layout ops (1):"));
  EXPECT_THAT(r.out, HasSubstr("shared_memory on cuda:90 (assumed"));
  CliResult j = RunCli({"triton", "report", "--json", "-"}, kBareFunc);
  ASSERT_EQ(j.status, 0) << j.err;
  EXPECT_THAT(j.out, HasSubstr("\"implicit_module\": true"));
  EXPECT_THAT(j.out, HasSubstr("\"num_warps\",\n    \"threads_per_warp\""));
  // A module that names its facts has no defaults.
  CliResult named = RunCli(
      {"triton", "report", "-"},
      "module attributes {\"ttg.num-warps\" = 4 : i32, "
      "\"ttg.threads-per-warp\" = 32 : i32, \"ttg.num-ctas\" = 1 : i32} {\n"
      "  tt.func @f(%x: tensor<8xf32, #ttg.blocked<{sizePerThread = [1], "
      "threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>) { tt.return "
      "}\n}\n");
  ASSERT_EQ(named.status, 0) << named.err;
  EXPECT_THAT(named.out,
              HasSubstr("module: 4 warps, 32 threads per warp, 1 CTA\n"));
}

TEST(TritonReportTest, StillRefusesTextWithoutTtgir) {
  CliResult r = RunCli({"triton", "report", "-"}, "# A README\n\nsome text\n");
  EXPECT_EQ(r.status, 1);
  EXPECT_THAT(r.err, HasSubstr("<stdin>:1:1: no TTGIR module here"));
  // TTIR: a module without layouts.
  CliResult ttir =
      RunCli({"triton", "report", "-"},
             "module {\n  tt.func @f(%x: tensor<8xf32>) { tt.return }\n}\n");
  EXPECT_EQ(ttir.status, 1);
  EXPECT_THAT(ttir.err, HasSubstr("no \"ttg.num-warps\" attribute"));
}

// A gfx942 module edited to 32 threads per warp, with 64-lane layouts:
// Triton refuses the type, and so does `triton check`.
TEST(TritonReportTest, ChecksTypesAgainstTheModule) {
  const std::string text =
      "#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = "
      "[32, 32, 8], isTransposed = true}>\n"
      "module attributes {\"ttg.num-warps\" = 4 : i32, "
      "\"ttg.threads-per-warp\" = 32 : i32, ttg.target = \"hip:gfx942\"} {\n"
      "  tt.func @f(%x: tensor<64x64xf32, #mma>) { tt.return }\n}\n";
  CliResult r = RunCli({"triton", "report", "-"}, text);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_THAT(r.err, HasSubstr("<stdin>:3:18: #ttg.amd_mfma<"));
  EXPECT_THAT(r.err, HasSubstr("Layout has 64 threads per warp, but the "
                               "module specifies 32 threads per warp."));
  CliResult check = RunCli(
      {"triton", "check",
       "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, "
       "32, 8], isTransposed = true}>",
       "--shape", "64x64", "--threads-per-warp", "32"});
  EXPECT_EQ(check.status, 1);
  EXPECT_THAT(check.err, HasSubstr("Layout has 64 threads per warp"));
  // With 64 threads per warp it reads.
  std::string ok = text;
  ok.replace(ok.find("= 32 : i32"), 10, "= 64 : i32");
  EXPECT_EQ(RunCli({"triton", "report", "-"}, ok).status, 0);
}

// A gfx942 conversion on which Triton 3.6.0 and 3.9.0 emit different reads.
const char kGfx942Dump[] =
    R"(#l = #ttg.linear<{register = [[0, 8], [2, 0]], lane = [[8, 0], [0, 1], [0, 2], [16, 0], [0, 4], [1, 0]], warp = [[4, 0], [0, 0]], block = []}>
#s = #ttg.slice<{dim = 0, parent = #ttg.linear<{register = [[1, 0, 0], [0, 2, 0], [0, 4, 0], [0, 1, 0], [0, 0, 1], [0, 8, 0]], lane = [[0, 0, 2], [0, 0, 8], [0, 0, 0], [0, 0, 4], [0, 16, 0], [2, 0, 0]], warp = [[4, 0, 0], [0, 0, 0]], block = []}>}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 64 : i32, ttg.target = "hip:gfx942"} {
  tt.func @f(%x: tensor<32x16xi8, #l>) {
    %y = ttg.convert_layout %x : tensor<32x16xi8, #l> -> tensor<32x16xi8, #s>
    tt.return
  }
}
)";

std::string WriteFile(const std::string& dir, const std::string& name,
                      const std::string& text) {
  const std::string path = dir + "/" + name;
  std::ofstream(path) << text;
  return path;
}

TEST(TritonReportTest, TakesTheReleaseFromTritonsCacheMetadata) {
  const std::string dir = ::testing::TempDir() + "/cache_entry_36";
  ASSERT_EQ(system(("mkdir -p " + dir).c_str()), 0);
  WriteFile(dir, "k.ttgir", kGfx942Dump);
  const std::string json = WriteFile(
      dir, "k.json",
      R"({"hash": "2f98", "target": {"backend": "hip", "arch": "gfx942", "warp_size": 64}, "num_warps": 4, "triton_version": "3.6.0", "name": "k"})");
  WriteFile(dir, "__grp__k.json", R"({"child_paths": {}})");
  // The folder, the metadata JSON (or the group file), or the .ttgir beside
  // it: 3.6.0's rules, said so.
  for (const std::string& arg :
       {dir, json, dir + "/__grp__k.json", dir + "/k.ttgir"}) {
    CliResult r = RunCli({"triton", "report", arg});
    ASSERT_EQ(r.status, 0) << arg << ": " << r.err;
    EXPECT_THAT(r.out, HasSubstr("figures: Triton 3.6.0's rules (k.json says "
                                 "Triton 3.6.0)"))
        << arg;
    EXPECT_THAT(r.out, HasSubstr("loads 2 x ds_read 128-bit")) << arg;
  }
  // --triton wins, said so.
  CliResult flag = RunCli({"triton", "report", dir, "--triton", "3.9.0"});
  ASSERT_EQ(flag.status, 0) << flag.err;
  EXPECT_THAT(flag.out, HasSubstr("figures: Triton 3.9.0's rules (--triton); "
                                  "the dump is of Triton 3.6.0 (k.json)"));
  EXPECT_THAT(flag.out, HasSubstr("loads 4 x ds_read 64-bit"));
  // Without metadata: the newest, said so.
  CliResult bare = RunCli({"triton", "report", "-"}, kGfx942Dump);
  ASSERT_EQ(bare.status, 0) << bare.err;
  EXPECT_THAT(bare.out, HasSubstr("figures: Triton 3.9.0's rules (the newest "
                                  "modelled: the dump does not say"));
  // A release not modelled: the nearest, said so.
  const std::string other = ::testing::TempDir() + "/cache_entry_38";
  ASSERT_EQ(system(("mkdir -p " + other).c_str()), 0);
  WriteFile(other, "k.ttgir", kGfx942Dump);
  WriteFile(other, "k.json", R"({"triton_version": "3.8.1"})");
  CliResult r38 = RunCli({"triton", "report", other});
  ASSERT_EQ(r38.status, 0) << r38.err;
  EXPECT_THAT(r38.out, HasSubstr("Triton 3.9.0's rules, the nearest modelled: "
                                 "k.json says Triton 3.8.1, which is not "
                                 "modelled"));
  CliResult j = RunCli({"triton", "report", "--json", dir});
  ASSERT_EQ(j.status, 0) << j.err;
  EXPECT_THAT(j.out, HasSubstr("\"triton\": \"3.6.0\""));
  EXPECT_THAT(j.out, HasSubstr("\"dump_triton_version\": \"3.6.0\""));
}

TEST(TritonReportTest, CacheEntryErrors) {
  const std::string empty = ::testing::TempDir() + "/empty_entry";
  ASSERT_EQ(system(("mkdir -p " + empty).c_str()), 0);
  CliResult r = RunCli({"triton", "report", empty});
  EXPECT_EQ(r.status, 1);
  EXPECT_THAT(r.err, HasSubstr("no .ttgir file in the folder"));
  const std::string lone = WriteFile(empty, "lone.json", "{}");
  CliResult j = RunCli({"triton", "report", lone});
  EXPECT_EQ(j.status, 1);
  EXPECT_THAT(j.err, HasSubstr("lone.ttgir' beside"));
}

TEST(TritonReportTest, TargetFlagCostsOnAnotherGpu) {
  CliResult r =
      RunCli({"triton", "report", "-", "--target", "hip:gfx950"}, kGfx942Dump);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("costs on: hip:gfx950 (--target; the module's "
                               "target is hip:gfx942)"));
  EXPECT_THAT(r.out, HasSubstr("shared_memory on hip:gfx950 (8-bit"));
  EXPECT_THAT(r.out, Not(HasSubstr("on hip:gfx942 (")));
  // A comma list, or all: one line per target.
  CliResult all =
      RunCli({"triton", "report", "-", "--target", "all"}, kGfx942Dump);
  ASSERT_EQ(all.status, 0) << all.err;
  for (const char* t : {"hip:gfx90a", "hip:gfx942", "hip:gfx950"}) {
    EXPECT_THAT(all.out, HasSubstr(absl::StrCat("shared_memory on ", t, " (")))
        << t;
  }
  CliResult j = RunCli(
      {"triton", "report", "-", "--json", "--target", "hip:gfx942,hip:gfx950"},
      kGfx942Dump);
  ASSERT_EQ(j.status, 0) << j.err;
  EXPECT_THAT(j.out, HasSubstr("\"on_targets\": ["));
  EXPECT_THAT(j.out, HasSubstr("\"target\": \"hip:gfx950\""));
  EXPECT_EQ(
      RunCli({"triton", "report", "-", "--target", "cuda:91"}, kGfx942Dump)
          .status,
      2);
}

TEST(TritonReportTest, CvtSaysWhoseRules) {
  const char kSrc[] =
      "#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], "
      "warpsPerCTA = [2, 2], order = [0, 1]}>";
  const char kDst[] =
      "#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], "
      "warpsPerCTA = [2, 2], order = [1, 0]}>";
  CliResult r = RunCli({"triton", "cvt", kSrc, kDst, "--shape", "32x128"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("figures: Triton 3.9.0's rules (the newest"));
  CliResult old = RunCli(
      {"triton", "cvt", kSrc, kDst, "--shape", "32x128", "--triton", "3.6.0"});
  ASSERT_EQ(old.status, 0) << old.err;
  EXPECT_THAT(old.out, HasSubstr("figures: Triton 3.6.0's rules (--triton)"));
}

// Keys amd_mfma does not have: Triton ignores them; the reader says so,
// located, and explain shows the layout as read (issue 47 item 7).
TEST(TritonKeysTest, KeysTritonIgnoresAreWarnedAbout) {
  const std::string layout =
      "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, "
      "32, 8], isTransposd = true, verison = 4}>";
  CliResult r = RunCli({"triton", "explain", layout, "--shape", "64x64"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("1:77: warning: unknown key 'isTransposd' in "
                               "#ttg.amd_mfma; did you mean "
                               "'isTransposed'?"));
  EXPECT_THAT(r.err, HasSubstr("1:97: warning: unknown key 'verison' in "
                               "#ttg.amd_mfma; did you mean 'version'?"));
  EXPECT_THAT(r.err, HasSubstr("Triton ignores it"));
  EXPECT_THAT(r.out, HasSubstr("as read: #ttg.amd_mfma<{version = 3, "
                               "warpsPerCTA = [2, 2], instrShape = [32, 32, "
                               "8], isTransposed = false}>"));
  // A layout written as read has no "as read" line and no warning.
  CliResult clean =
      RunCli({"triton", "explain",
              "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], "
              "warpsPerCTA = [4, 1], order = [1, 0]}>",
              "--shape", "16x32"});
  ASSERT_EQ(clean.status, 0) << clean.err;
  EXPECT_EQ(clean.err, "");
  EXPECT_THAT(clean.out, Not(HasSubstr("as read:")));
  // In a module: on stderr and in the JSON.
  const std::string module =
      "#mma = " + layout +
      "\nmodule attributes {\"ttg.num-warps\" = 4 : i32, "
      "\"ttg.threads-per-warp\" = 64 : i32} {\n}\n";
  CliResult rep = RunCli({"triton", "report", "-"}, module);
  ASSERT_EQ(rep.status, 0) << rep.err;
  EXPECT_THAT(rep.err, HasSubstr("<stdin>:1:84: warning: unknown key "
                                 "'isTransposd'"));
  CliResult j = RunCli({"triton", "report", "--json", "-"}, module);
  ASSERT_EQ(j.status, 0) << j.err;
  EXPECT_THAT(j.out, HasSubstr("\"warnings\": [\n    \"<stdin>:1:84: "
                               "warning: unknown key 'isTransposd'"));
}

// A misspelled key amd_mfma needs: its name and place, not "rank 2 or 3".
TEST(TritonKeysTest, AMisspelledNeededKeyIsNamedWhereItIs) {
  for (const char* key : {"warpsPerCta", "warpPerCTA"}) {
    CliResult r = RunCli({"triton", "explain",
                          absl::StrCat("#ttg.amd_mfma<{version = 3, ", key,
                                       " = [2, 2], instrShape = [32, 32, 8]}>"),
                          "--shape", "64x64"});
    EXPECT_EQ(r.status, 1) << key;
    EXPECT_THAT(r.err, HasSubstr(absl::StrCat("1:29: missing 'warpsPerCTA' in "
                                              "#ttg.amd_mfma; '",
                                              key,
                                              "' is no key of it: did you mean "
                                              "'warpsPerCTA'?")))
        << key;
    EXPECT_THAT(r.err, Not(HasSubstr("rank 2 or 3"))) << key;
  }
}

// A 32 x 32 MFMA's B and C tiles were ~300 and ~500 columns wide: drawn in
// bands of columns that fit 132 (issue 47 item 10).
TEST(TritonDrawTest, InstructionTilesFitATerminal) {
  CliResult r = RunCli(
      {"triton", "draw",
       "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, "
       "32, 8], isTransposed = true}>",
       "--instruction", "--color", "never"});
  ASSERT_EQ(r.status, 0) << r.err;
  for (absl::string_view line : absl::StrSplit(r.out, '\n')) {
    if (absl::StartsWith(line, "A ") || absl::StartsWith(line, "B ") ||
        absl::StartsWith(line, "C ") || absl::StartsWith(line, "  cell:")) {
      continue;  // headings and notes
    }
    EXPECT_LE(line.size(), 132u) << line;
  }
  EXPECT_THAT(r.out, HasSubstr("(K = 8); columns n0-n7 of 32"));
  EXPECT_THAT(r.out, HasSubstr("(K = 8); columns n24-n31 of 32"));
  // A (32 x 8) fits whole.
  EXPECT_THAT(r.out, Not(HasSubstr("columns k0-")));
  // Each band's rows hold that band's columns: n8 starts with v4.
  EXPECT_THAT(r.out, HasSubstr(" m0   v4{0}   v5{0}   v6{0}   v7{0}"));
}

TEST(TritonDrawTest, ThreadNoteCountsTheLayoutsLanes) {
  CliResult r =
      RunCli({"triton", "draw",
              "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 8], "
              "warpsPerCTA = [1, 1], order = [1, 0]}>",
              "--shape", "8x8", "--color", "never"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("thread (lane + 64 x warp)"));
  CliResult w32 =
      RunCli({"triton", "draw",
              "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], "
              "warpsPerCTA = [1, 1], order = [1, 0]}>",
              "--shape", "4x8", "--color", "never"});
  ASSERT_EQ(w32.status, 0) << w32.err;
  EXPECT_THAT(w32.out, HasSubstr("thread (lane + 32 x warp)"));
}

}  // namespace
}  // namespace hlolayout::cli

// Every flag that a (sub)command's --help documents, run on every input the
// command takes: arguments, a file, standard input and a dump folder, as
// the help says they apply. The flags and their values are read from the
// help text itself (usage lines, the "flags:" section and the folder
// paragraph's "Flags for a folder:"), so a newly documented flag is run
// without touching this file; only a new placeholder (FILE, N, SHAPE, ...)
// needs a value in the table below, and the test says which.
//
// Where the help says a flag applies, the command must succeed; where it
// does not (a file flag given a folder, a folder flag given a file), it
// must refuse with exit status 2 and say why, never "unknown flag".
#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/run_cli.h"

namespace hlolayout::cli {
namespace {

// ------------------------------------------------------------ help parsing

// A flag as the help documents it: the literal values it lists
// (--sort=order|padded|name) and its placeholders (--top=N, --svg FILE|-).
struct FlagSpec {
  bool valued = false;
  std::set<std::string> literals;
  std::set<std::string> placeholders;
};
using FlagSpecs = std::map<std::string, FlagSpec>;

// The flags for files, arguments and standard input (`main`) and those for
// a dump folder (`folder`, empty when the command takes no folder).
struct HelpFlags {
  FlagSpecs main;
  FlagSpecs folder;
  bool mentions_folder = false;  // "hlolayout NAME DIR" in the help
  bool mentions_stdin = false;   // "-" or "standard input" in the usage
};

bool IsLower(char c) { return c >= 'a' && c <= 'z'; }
bool IsUpper(char c) { return c >= 'A' && c <= 'Z'; }
bool IsFlagChar(char c) {
  return IsLower(c) || (c >= '0' && c <= '9') || c == '-';
}

// A value spec after "--name=" or "--name ": "order|padded|name", "N",
// "FILE|-", "HxW,DTYPE", "I,J,...". Literals are lowercase words (or "-").
void AddValueSpec(absl::string_view spec, FlagSpec* flag) {
  if (!absl::EndsWith(spec, "...")) spec = absl::StripSuffix(spec, ".");
  spec = absl::StripSuffix(spec, ",");
  flag->valued = true;
  for (absl::string_view part : absl::StrSplit(spec, '|')) {
    if (part.empty()) continue;
    if (IsUpper(part[0])) {
      flag->placeholders.insert(std::string(part));
    } else {
      flag->literals.insert(std::string(part));
    }
  }
}

// The flags one line defines: every "--name", with "=SPEC" or " SPEC" when
// SPEC looks like a value (an upper-case placeholder or an a|b list).
void ParseFlagLine(absl::string_view line, FlagSpecs* flags) {
  for (size_t i = 0; i + 2 < line.size(); ++i) {
    if (line[i] != '-' || line[i + 1] != '-' || !IsLower(line[i + 2]) ||
        (i > 0 && (IsFlagChar(line[i - 1]) || line[i - 1] == '_'))) {
      continue;
    }
    size_t end = i + 2;
    while (end < line.size() && IsFlagChar(line[end])) ++end;
    if (end < line.size() && line[end] == '_') continue;  // --xla_dump_to
    FlagSpec& flag = (*flags)[std::string(line.substr(i + 2, end - i - 2))];
    if (end < line.size() && (line[end] == '=' || line[end] == ' ')) {
      const bool equals = line[end] == '=';
      size_t stop = end + 1;
      while (stop < line.size() && line[stop] != ' ' && line[stop] != ']') {
        ++stop;
      }
      absl::string_view spec = line.substr(end + 1, stop - end - 1);
      const bool looks_like_value =
          !spec.empty() && (equals || IsUpper(spec[0]) ||
                            (IsLower(spec[0]) && absl::StrContains(spec, '|') &&
                             !absl::StartsWith(spec, "--")));
      if (looks_like_value) AddValueSpec(spec, &flag);
    }
    i = end;
  }
}

HelpFlags ParseHelp(absl::string_view help) {
  HelpFlags out;
  std::vector<absl::string_view> lines = absl::StrSplit(help, '\n');
  size_t folder_at = lines.size();
  for (size_t i = 0; i < lines.size(); ++i) {
    if (absl::StartsWith(lines[i], "hlolayout ") &&
        absl::StrContains(lines[i], " DIR")) {
      folder_at = i;
      out.mentions_folder = true;
      break;
    }
  }
  bool in_usage = false, in_flags = false;
  for (size_t i = 0; i < folder_at; ++i) {
    absl::string_view line = lines[i];
    if (absl::StartsWith(line, "usage:")) {
      in_usage = true;
    } else if (in_usage && !absl::StartsWith(line, " ")) {
      in_usage = false;
    }
    if (line == "flags:") {
      in_flags = true;
      continue;
    }
    if (in_flags && line.empty()) in_flags = false;
    if (in_usage) {
      ParseFlagLine(line, &out.main);
      // Standard input as an input ("FILE... | -", "SHAPE|-", "< x"), not
      // as a flag's value ("[--svg FILE|-]").
      std::string inputs;
      for (absl::string_view part : absl::StrSplit(line, '[')) {
        if (!absl::StartsWith(part, "--")) inputs += std::string(part);
      }
      if (absl::StrContains(inputs, "| -") || absl::StrContains(inputs, "|-") ||
          absl::StrContains(inputs, "< ")) {
        out.mentions_stdin = true;
      }
    }
    // A flag's own line: "  --name ...". Continuation lines are prose.
    const absl::string_view stripped = absl::StripLeadingAsciiWhitespace(line);
    if (in_flags && absl::StartsWith(stripped, "--")) {
      // Up to the description ("  --svg FILE   write ...").
      ParseFlagLine(stripped.substr(0, stripped.find("  ")), &out.main);
    }
  }
  // The folder paragraph: "Flags for a folder: --json, --threads=N and
  // --sort=file|module|...|peak." (it may wrap).
  std::string folder_text;
  for (size_t i = folder_at; i < lines.size(); ++i) {
    folder_text += std::string(lines[i]) + " ";
  }
  const size_t at = folder_text.find("Flags for a folder:");
  if (at != std::string::npos) {
    ParseFlagLine(absl::string_view(folder_text).substr(at), &out.folder);
  }
  return out;
}

// ------------------------------------------------------------ the table

std::string TempPath(const std::string& name) {
  return ::testing::TempDir() + "/" + name;
}

std::string WriteFile(const std::string& name, const std::string& text) {
  const std::string path = TempPath(name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// One way to give a command its input.
struct Mode {
  std::string name;  // "arguments", "file", "stdin", "folder", "none"
  std::vector<std::string> args;
  std::string stdin_text;
  bool folder = false;
};

struct Case {
  std::vector<std::string> command;  // {"grid", "locate"}
  std::vector<Mode> modes;
  // Values for placeholders: "flag:PLACEHOLDER" or "PLACEHOLDER" -> values.
  std::map<std::string, std::vector<std::string>> values;
  // Flags whose test needs other inputs than `modes` (they replace them).
  std::map<std::string, std::vector<Mode>> flag_modes;
  // Flags that take no input at all (report --example): run alone;
  // refused with any input.
  std::set<std::string> standalone;
  // Flags that choose the input (explain --file): covered by the modes.
  std::set<std::string> input_flags;
  // Switches whose help names the positional arguments they go with
  // ("--tv THR_LAYOUT VAL_LAYOUT"): run without a value.
  std::set<std::string> switches;
};

const char kTensor[] =
    "tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, "
    "memref<1x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>>>";
const char kBlocked[] =
    "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], "
    "warpsPerCTA = [4, 1], order = [1, 0]}>";
const char kLinear[] =
    "#ttg.linear<{register = [[0, 1]], lane = [[1, 0], [2, 0]], warp = [], "
    "block = []}>";
const char kShared[] =
    "#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, "
    "0]}>";
// An MFMA layout (warp size 64): triton draw --instruction, triton check.
const char kMfma[] =
    "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, "
    "32, 8], isTransposed = true}>";
const char kReportFile[] =
    "examples/module_0001.jit_train_step.after_optimizations.txt";
const char kGpuModule[] =
    "memory/testdata/"
    "module_105197.jit_mlp_step.sm_9.0a_gpu_after_optimizations.txt";
// An XLA:CPU module and the order XLA created its computations in
// (memory --xla-creation-order; XLA:GPU modules take it too).
const char kCpuModule[] =
    "memory/testdata_jaxlib_0.10.2/"
    "module_0054.jit_step.cpu_after_optimizations.txt";
const char kCpuCreationOrder[] =
    "memory/testdata_jaxlib_0.10.2/"
    "module_0054.jit_step.cpu_after_optimizations-creation-order.txt";
const char kFolder[] = "memory/testdata";
const char kTtgir[] = "triton/testdata/matmul_f16_64x64x32_w4.ttgir";
// A module with four tensor types with a layout (the third: width-sharded).
const char kTtnnModule[] = "ttmlir/testdata/ttnn_example.mlir";

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

Mode InArgs(std::vector<std::string> args) {
  return {"arguments", std::move(args), "", false};
}
Mode InFile(std::vector<std::string> args) {
  return {"file", std::move(args), "", false};
}
Mode InStdin(std::vector<std::string> args, std::string text) {
  return {"stdin", std::move(args), std::move(text), false};
}
Mode InFolder(std::string dir) {
  return {"folder", {std::move(dir)}, "", true};
}

// Common placeholder values.
std::map<std::string, std::vector<std::string>> Values(
    std::map<std::string, std::vector<std::string>> more = {}) {
  std::map<std::string, std::vector<std::string>> v = {
      {"N", {"2"}},
      {"FILE", {TempPath("out")}},
      {"WHEN", {"auto", "always", "never"}},
      {"V", {"logical", "memory", "both"}},
      {"O", {"low-first", "high-first"}},
      {"ORDER", {"low-first", "high-first"}},
      {"S", {"32x32"}},
  };
  for (auto& [key, values] : more) v[key] = values;
  return v;
}

std::vector<Case> Cases() {
  const std::string shapes = WriteFile("shapes.txt", "f32[3,5]{1,0:T(2,2)}\n");
  const std::string raw = WriteFile("in.bin", std::string(256, '\x01'));
  const std::string blocked_file = WriteFile("blocked.txt", kBlocked);
  const std::string linear_file = WriteFile("linear.txt", kLinear);
  const std::string mfma_file = WriteFile("mfma.txt", kMfma);
  const std::string check_file =
      WriteFile("check.jsonl", absl::StrCat("{\"layout\": \"", kMfma,
                                            "\", \"shape\": [64, 64], "
                                            "\"threads_per_warp\": 64}\n"));
  const std::string tensor_file = WriteFile("tensor.txt", kTensor);
  const std::string out = TempPath("out.bin");
  std::vector<Case> cases;

  auto shape_command = [&](const std::string& name) {
    Case c;
    c.command = {name};
    c.modes = {InArgs({"bf16[8,128]{1,0:T(8,128)(2,1)}"}),
               InStdin({"-"}, "f32[3,5]{1,0:T(2,2)}\n"),
               InFile({"--file=" + shapes})};
    c.input_flags = {"file"};
    c.values = Values();
    return c;
  };
  cases.push_back(shape_command("explain"));
  cases.push_back(shape_command("print"));
  {
    Case c;
    c.command = {"index"};
    c.modes = {InArgs({"s4[8]{0:E(4)}", "3"})};
    c.values = Values();
    cases.push_back(c);
    c.command = {"element"};
    c.modes = {InArgs({"f32[3,5]{1,0:T(2,2)}", "9"})};
    cases.push_back(c);
    c.command = {"tiling"};
    c.modes = {InArgs({"f32[3,5]{1,0:T(2,2)}"})};
    cases.push_back(c);
  }
  {
    Case c;
    c.command = {"draw"};
    c.modes = {InArgs({"f32[4,8]{1,0:T(2,4)(2,1)}"}),
               InStdin({"-"}, "f32[4,8]{1,0:T(2,4)(2,1)}\n")};
    c.values = Values({{"IDX", {"1"}}, {"I,J,...", {"1"}}});
    c.flag_modes["slice"] = {InArgs({"f32[2,4,8]{2,1,0}"}),
                             InStdin({"-"}, "f32[2,4,8]{2,1,0}\n")};
    cases.push_back(c);
  }
  {
    Case c;
    c.command = {"batch"};
    c.modes = {InStdin({}, "print\tf32[2,3]\n")};
    cases.push_back(c);
  }
  {
    Case c;
    c.command = {"relayout"};
    const std::vector<std::string> shapes_args = {
        "--from", "s8[16,16]{1,0}", "--to", "s8[16,16]{1,0:T(8,8)}"};
    std::vector<std::string> file = shapes_args, in = shapes_args;
    file.insert(file.end(), {raw, out});
    in.insert(in.end(), {"-", out});
    c.modes = {InFile(file), InStdin(in, std::string(256, '\x02'))};
    c.values = Values({{"BYTE", {"7", "0xff"}}});
    cases.push_back(c);
  }
  {
    Case c;
    c.command = {"report"};
    c.modes = {InFile({kReportFile}), InStdin({"-"}, ReadAll(kReportFile)),
               InFolder(kFolder)};
    c.values = Values(
        {{"FILE", {TempPath("report.html"), "-"}},
         {"sort:KEY",
          {"order", "file", "name", "module", "padded", "buffers", "padding",
           "expansion", "instructions", "allocated", "peak"}}});
    c.standalone = {"example"};
    cases.push_back(c);
  }
  {
    Case c;
    c.command = {"memory"};
    c.modes = {InFile({kGpuModule}), InStdin({"-"}, ReadAll(kGpuModule)),
               InFolder(kFolder)};
    c.values =
        Values({{"FILE", {TempPath("memory.html"), "-"}},
                {"space:N", {"0"}},
                {"sort:KEY",
                 {"order", "file", "name", "module", "padded", "buffers",
                  "padding", "expansion", "instructions", "allocated", "peak"}},
                {"xla-creation-order:FILE", {kCpuCreationOrder}}});
    c.flag_modes["xla-creation-order"] = {InFile({kCpuModule}),
                                          InStdin({"-"}, ReadAll(kCpuModule))};
    cases.push_back(c);
  }
  {
    Case c;
    c.command = {"verify"};
    c.modes = {InFile({kGpuModule}), InStdin({"-"}, ReadAll(kGpuModule))};
    cases.push_back(c);
  }
  {
    Case c;
    c.command = {"cute"};
    c.modes = {InArgs({"composition", "(6,2):(8,2)", "(4,3):(3,1)"})};
    cases.push_back(c);
    c.command = {"cute", "draw"};
    c.modes = {InArgs({"(4,(2,2)):(2,(1,8))"})};
    c.values = Values({{"M,N", {"8,16"}}});
    c.switches = {"tv"};
    c.flag_modes["tv"] = {
        InArgs({"(4,8):(1,4)", "(2,2):(32,64)", "--tile", "8,16"})};
    c.flag_modes["tile"] = {InArgs({"--tv", "(4,8):(1,4)", "(2,2):(32,64)"})};
    cases.push_back(c);
  }
  {
    // The atoms' subcommands.
    const std::string mma = "SM80_16x8x16_F16F16F16F16_TN";
    const std::string ldsm = "Copy_Atom<SM75_U32x4_LDSM_N, half_t>";
    const std::string copy = "Copy_Atom<UniversalCopy<half_t>, half_t>";
    const std::string smem = "(32,16):(16,1)";
    Case c;
    c.values = Values({{"atom-layout:L", {"(2,1,1)"}},
                       {"thr:L", {"(32,1)"}},
                       {"val:L", {"(1,1)"}},
                       {"P", {"<_32,_32,_16>"}},
                       {"T", {"3"}},
                       {"F", {"sm80", "sm75"}},
                       {"mma:NAME", {mma}},
                       {"operand:A", {"A"}},
                       {"operand:B", {"B"}},
                       {"operand:C", {"C"}},
                       {"operand:C_atom", {"C_atom"}},
                       {"operand:X", {"A", "B", "C", "C_atom"}},
                       {"side:S", {"S"}},
                       {"side:D", {"D"}},
                       {"TV", {"(32,1):(1,0)"}},
                       {"M,N", {"32,32"}},
                       {"B", {"32"}},
                       {"vector:N", {"1"}},
                       {"order:O", {"2,1"}},
                       {"shape:S", {"128,64"}}});
    c.command = {"cute", "atom"};
    c.modes = {InArgs({mma}), InArgs({ldsm})};
    cases.push_back(c);
    c.command = {"cute", "atoms"};
    c.modes = {InArgs({})};
    cases.push_back(c);
    c.command = {"cute", "tiled-mma"};
    c.modes = {InArgs({mma})};
    cases.push_back(c);
    c.command = {"cute", "draw-mma"};
    cases.push_back(c);
    // The two forms: thread and value layouts, or an MMA's operand.
    const Mode by_thr = InArgs({copy, "--thr", "(32,1)", "--val", "(1,1)"});
    const Mode by_mma = InArgs({copy, "--operand", "A", "--mma", mma});
    c.command = {"cute", "tiled-copy"};
    c.modes = {by_thr, by_mma};
    c.flag_modes = {{"thr", {InArgs({copy, "--val", "(1,1)"})}},
                    {"val", {InArgs({copy, "--thr", "(32,1)"})}},
                    {"operand", {InArgs({copy, "--mma", mma})}},
                    {"mma", {InArgs({copy, "--operand", "A"})}},
                    {"atom-layout", {by_mma}},
                    {"permutation", {by_mma}}};
    cases.push_back(c);
    c.command = {"cute", "draw-copy"};
    cases.push_back(c);
    c.command = {"cute", "conflicts"};
    auto with_smem = [&](const Mode& m) {
      Mode out = m;
      out.args.insert(out.args.begin(), smem);
      return out;
    };
    const Mode by_tv = InArgs({"(32,32):(32,1)", "--tv", "(32,1):(1,0)",
                               "--tile", "32,32", "--bits", "32"});
    c.modes = {with_smem(by_thr), with_smem(by_mma)};
    c.flag_modes = {
        {"thr", {with_smem(InArgs({copy, "--val", "(1,1)"}))}},
        {"val", {with_smem(InArgs({copy, "--thr", "(32,1)"}))}},
        {"operand", {with_smem(InArgs({copy, "--mma", mma}))}},
        {"mma", {with_smem(InArgs({copy, "--operand", "A"}))}},
        {"atom-layout", {with_smem(by_mma)}},
        {"permutation", {with_smem(by_mma)}},
        {"tv", {InArgs({"(32,32):(32,1)", "--tile", "32,32", "--bits", "32"})}},
        {"tile",
         {InArgs({"(32,32):(32,1)", "--tv", "(32,1):(1,0)", "--bits", "32"})}},
        {"bits",
         {InArgs(
             {"(32,32):(32,1)", "--tv", "(32,1):(1,0)", "--tile", "32,32"})}},
        {"vector", {by_tv}}};
    cases.push_back(c);
    c.flag_modes.clear();
    c.command = {"cute", "draw-banks"};
    c.modes = {InArgs({"Sw<3,3,3> o _0 o (8,64):(64,1)"})};
    c.values["B"] = {"16", "32"};
    cases.push_back(c);
    c.command = {"cute", "smem"};
    c.modes = {InArgs({"GMMA::Layout_K_SW128_Atom<half_t>"})};
    c.flag_modes = {
        {"order",
         {InArgs({"GMMA::Layout_K_SW128_Atom<half_t>", "--shape", "128,64"})}}};
    cases.push_back(c);
  }
  {
    Case c;
    c.values = Values();
    c.command = {"grid"};
    c.modes = {InArgs({"explain", kTensor})};
    cases.push_back(c);
    // The device flags; --type picks one of a module's types.
    c.values = Values({{"RxC", {"8x8", "2x4"}}, {"K", {"3"}}});
    for (const char* sub : {"explain", "draw"}) {
      c.command = {"grid", sub};
      c.modes = {InArgs({kTensor}), InStdin({"-"}, kTensor)};
      c.flag_modes["type"] = {InFile({kTtnnModule})};
      cases.push_back(c);
    }
    c.command = {"grid", "locate"};
    c.modes = {InArgs({kTensor, "20,40"}), InStdin({"-", "20,40"}, kTensor)};
    c.flag_modes["type"] = {InFile({kTtnnModule, "2,1541"})};
    cases.push_back(c);
    c.flag_modes.clear();
    c.command = {"grid", "report"};
    c.modes = {InFile({kTtnnModule}), InStdin({"-"}, ReadAll(kTtnnModule))};
    cases.push_back(c);
    c.values = Values();
    c.command = {"grid", "collapse"};
    c.modes = {InArgs({"2x3x64x128xf32", "2x2x4", "(1,-1)"})};
    c.values =
        Values({{"DTYPE", {"bfp_bf8", "f32"}}, {"HxW,DTYPE", {"16x16,f32"}}});
    cases.push_back(c);
  }
  {
    Case c;
    c.values = Values({{"bits:N", {"16"}},
                       {"target:T", {"cuda:90", "cuda:80,cuda:100", "all"}},
                       {"triton:V", {"3.6.0", "3.9.0", "latest"}}});
    c.command = {"triton"};
    c.modes = {InArgs({"str", kLinear})};
    cases.push_back(c);
    // Named layouts need --shape: the flag's own test gives one; the modes
    // use a linear layout, which has its shape.
    auto layout_modes = [&](std::vector<std::string> after) {
      std::vector<std::string> a = {kLinear}, f = {linear_file}, s = {"-"};
      a.insert(a.end(), after.begin(), after.end());
      f.insert(f.end(), after.begin(), after.end());
      s.insert(s.end(), after.begin(), after.end());
      return std::vector<Mode>{InArgs(a), InFile(f), InStdin(s, kLinear)};
    };
    auto named_modes = [&](std::vector<std::string> after) {
      std::vector<std::string> a = {kBlocked}, f = {blocked_file}, s = {"-"};
      a.insert(a.end(), after.begin(), after.end());
      f.insert(f.end(), after.begin(), after.end());
      s.insert(s.end(), after.begin(), after.end());
      return std::vector<Mode>{InArgs(a), InFile(f), InStdin(s, kBlocked)};
    };
    for (const char* sub : {"explain", "view", "draw"}) {
      c.command = {"triton", sub};
      c.modes = layout_modes({});
      c.flag_modes = {{"shape", named_modes({})}};
      if (std::string(sub) == "draw") {
        // --instruction draws an MFMA or WMMA layout (or a dot_op over
        // one); --k-width goes with it.
        c.flag_modes["instruction"] = {InArgs({kMfma}), InFile({mfma_file}),
                                       InStdin({"-"}, kMfma)};
        c.flag_modes["k-width"] = {InArgs({kMfma, "--instruction"})};
      }
      cases.push_back(c);
    }
    // check LAYOUT --shape S (a named layout's shape), or --batch lines;
    // --memdesc checks a shared layout.
    c.command = {"triton", "check"};
    c.modes = {InArgs({kBlocked, "--shape", "64x64"}),
               InFile({blocked_file, "--shape", "64x64"}),
               InStdin({"-", "--shape", "64x64"}, kBlocked)};
    c.values = Values({{"T", {"f16"}},
                       {"threads-per-warp:N", {"32"}},
                       {"num-warps:N", {"4"}},
                       {"num-ctas:N", {"1"}},
                       {"triton:V", {"3.6.0", "latest"}}});
    c.flag_modes = {};
    c.flag_modes["memdesc"] = {InArgs({kShared, "--shape", "64x64"})};
    c.input_flags = {"batch"};
    c.flag_modes["batch"] = {InFile({"--batch", check_file}),
                             InStdin({"--batch", "-"}, ReadAll(check_file))};
    cases.push_back(c);
    c.input_flags = {};
    c.values = Values({{"bits:N", {"16"}},
                       {"target:T", {"cuda:90", "cuda:80,cuda:100", "all"}},
                       {"triton:V", {"3.6.0", "3.9.0", "latest"}}});
    c.command = {"triton", "cvt"};
    c.modes = named_modes({kBlocked, "--shape", "32x32"});
    c.flag_modes = {};
    cases.push_back(c);
    c.command = {"triton", "report"};
    c.modes = {InFile({kTtgir}), InStdin({"-"}, ReadAll(kTtgir))};
    cases.push_back(c);
    // Each op's arguments after A, for a linear A and for a named A (the
    // test of --shape; empty: the op's arguments need a linear A).
    const char kSquare[] =
        "{\"bases\": [[\"dim0\", [[1, 0], [2, 0]]], [\"dim1\", [[0, 1]]]], "
        "\"out_dims\": [\"dim0\", \"dim1\"]}";
    const char kFlatten32x32[] =
        "{\"bases\": [[\"dim0\", [[1], [2], [4], [8], [16]]], [\"dim1\", "
        "[[32], [64], [128], [256], [512]]]], \"out_dims\": [\"x\"]}";
    struct Op {
      std::vector<std::string> linear;
      std::vector<std::string> named;
    };
    const std::map<std::string, Op> ops = {
        {"str", {{}, {}}},
        {"compose", {{kSquare}, {kFlatten32x32}}},
        {"invert-and-compose", {{kLinear}, {kBlocked}}},
        {"product",
         {{"{\"bases\": [[\"x\", [[1]]]], \"out_dims\": [\"y\"]}"},
          {"{\"bases\": [[\"x\", [[1]]]], \"out_dims\": [\"y\"]}"}}},
        {"invert", {{}, {}}},
        {"pseudoinvert", {{}, {}}},
        {"apply", {{"register=1,lane=3,warp=0,block=0"}, {}}},
        {"divide-left", {{kLinear}, {kBlocked}}},
        {"divide-right", {{kLinear}, {kBlocked}}},
        {"free-masks", {{}, {}}},
    };
    for (const auto& [op, rest] : ops) {
      c.command = {"triton", op};
      c.modes = layout_modes(rest.linear);
      c.flag_modes = {{"shape", named_modes(rest.named)}};
      if (op == "apply") c.flag_modes = {};
      cases.push_back(c);
    }
    // quotient A DIM,...: A's dims must be in-dims and out-dims both.
    c.command = {"triton", "quotient"};
    const std::string square_file = WriteFile("square.txt", kSquare);
    c.modes = {InArgs({kSquare, "dim1"}), InFile({square_file, "dim1"}),
               InStdin({"-", "dim1"}, kSquare)};
    c.flag_modes = {};
    cases.push_back(c);
  }
  {
    // hlolayout ttnn: the spec from flags, a file, standard input; the flags
    // that describe the spec go with the flags form only.
    const char kSpec[] = "{\"shape\": [64, 64], \"dtype\": \"bfloat16\"}";
    const std::string spec_file = WriteFile("ttnn_spec.json", kSpec);
    const std::vector<std::string> sharded = {
        "--shape", "64,64",   "--memory-layout", "HEIGHT_SHARDED",
        "--grid",  "0,0-1,0", "--shard-shape",   "32,64"};
    auto without = [&](std::vector<std::string> args, const std::string& flag) {
      std::vector<std::string> out;
      for (size_t i = 0; i < args.size(); i += 2) {
        if (args[i] != "--" + flag)
          out.insert(out.end(), {args[i], args[i + 1]});
      }
      return out;
    };
    auto plus = [](std::vector<std::string> a, std::vector<std::string> b) {
      a.insert(a.end(), b.begin(), b.end());
      return a;
    };
    Case c;
    c.command = {"ttnn"};
    c.modes = {InArgs({"spec", "--shape", "64,64"})};
    c.values = Values();
    cases.push_back(c);
    c.values = Values({{"SHAPE", {"64,64"}},
                       {"DTYPE", {"bfloat16", "bfloat8_b"}},
                       {"LAYOUT", {"TILE", "ROW_MAJOR"}},
                       {"HxW", {"32x32", "16x16"}},
                       {"MEM", {"HEIGHT_SHARDED", "ND_SHARDED"}},
                       {"BUF", {"DRAM", "L1"}},
                       {"CORES", {"0,0-1,0", "2x1"}},
                       {"SHARD", {"32,64"}},
                       {"ORIENT", {"ROW_MAJOR", "COL_MAJOR"}},
                       {"STRATEGY", {"ROUND_ROBIN_1D", "GRID_2D"}},
                       {"spec:FILE", {spec_file}},
                       {"X,Y", {"0,0", "1,0"}},
                       {"MESH", {"2", "4"}},
                       {"PLACEMENTS", {"S0", "R"}},
                       {"DIST", {"2"}},
                       {"device:NAME", {"n150", "blackhole_p150", "none"}}});
    // (sub, the arguments after the spec, extra flags every mode needs)
    struct Sub {
      std::string name;
      std::vector<std::string> after;
      std::vector<std::string> always;
    };
    for (const Sub& sub :
         {Sub{"spec", {}, {}}, Sub{"locate", {"3,4"}, {}}, Sub{"draw", {}, {}},
          Sub{"mesh", {}, {"--mesh", "2", "--placements", "S0"}}}) {
      c.command = {"ttnn", sub.name};
      const std::vector<std::string> flags_form =
          plus(plus(sub.always, {"--shape", "64,64"}), sub.after);
      c.modes = {InArgs(flags_form),
                 InFile(plus(plus(sub.always, {spec_file}), sub.after)),
                 InStdin(plus(plus(sub.always, {"-"}), sub.after), kSpec)};
      c.flag_modes.clear();
      for (const char* f : {"dtype", "layout", "tile", "buffer-type"}) {
        c.flag_modes[f] = {InArgs(flags_form)};
      }
      c.flag_modes["shape"] = {InArgs(plus(sub.always, sub.after))};
      c.flag_modes["spec"] = {InStdin(plus(sub.always, sub.after), kSpec)};
      for (const char* f :
           {"memory-layout", "grid", "shard-shape", "orientation", "core"}) {
        c.flag_modes[f] = {
            InArgs(plus(plus(sub.always, without(sharded, f)), sub.after))};
      }
      c.flag_modes["distribution"] = {
          InArgs(plus(plus(sub.always, {"--shape", "64,64", "--grid", "0,0-1,1",
                                        "--shard-shape", "32,32"}),
                      sub.after))};
      if (sub.name == "mesh") {
        c.flag_modes["mesh"] = {
            InArgs({"--placements", "S0", "--shape", "64,64"})};
        c.flag_modes["placements"] = {
            InArgs({"--mesh", "2", "--shape", "64,64"})};
        c.flag_modes["mesh-shape-override"] = {InArgs(
            {"--mesh", "2x1", "--placements", "S0", "--shape", "64,64"})};
      }
      cases.push_back(c);
    }
  }
  return cases;
}

// ------------------------------------------------------------ the test

// gtest prints a failing parameter with this.
void PrintTo(const Case& c, std::ostream* out) {
  *out << absl::StrJoin(c.command, " ");
}

std::string Name(const std::vector<std::string>& command) {
  return absl::StrJoin(command, " ");
}

class DocumentedFlags : public ::testing::TestWithParam<Case> {};

// The values to give `flag` (spec from the help) in case `c`; empty (and a
// test failure) when a placeholder has no value in the table.
std::vector<std::string> ValuesOf(const Case& c, const std::string& flag,
                                  const FlagSpec& spec) {
  std::vector<std::string> values(spec.literals.begin(), spec.literals.end());
  for (const std::string& p : spec.placeholders) {
    auto it = c.values.find(flag + ":" + p);
    if (it == c.values.end()) it = c.values.find(p);
    if (it != c.values.end()) {
      for (const std::string& v : it->second) {
        if (std::find(values.begin(), values.end(), v) == values.end()) {
          values.push_back(v);
        }
      }
    } else if (spec.literals.empty()) {
      ADD_FAILURE() << Name(c.command) << " --" << flag << " " << p
                    << ": no value for this placeholder; add one to the "
                       "table in cli/flags_test.cc";
    }
  }
  return values;
}

bool HasFlag(const std::vector<std::string>& args, const std::string& flag) {
  for (const std::string& a : args) {
    if (a == "--" + flag || absl::StartsWith(a, "--" + flag + "=")) {
      return true;
    }
  }
  return false;
}

struct Run {
  std::vector<std::string> args;
  std::string stdin_text;
  bool must_succeed;
};

std::string Describe(const Run& run, const CliResult& r) {
  return absl::StrCat("hlolayout ", absl::StrJoin(run.args, " "),
                      run.stdin_text.empty() ? "" : " < (stdin)",
                      "\n  exit status ", r.status,
                      "\n  stderr: ", r.err.substr(0, 400));
}

void Check(const Run& run) {
  const CliResult r = RunCli(run.args, run.stdin_text);
  EXPECT_FALSE(absl::StrContains(r.err, "unknown flag")) << Describe(run, r);
  if (run.must_succeed) {
    EXPECT_EQ(r.status, 0) << Describe(run, r);
  } else {
    EXPECT_EQ(r.status, 2) << "refused as a usage error: " << Describe(run, r);
    EXPECT_FALSE(r.err.empty()) << Describe(run, r);
  }
}

TEST_P(DocumentedFlags, RunOnEveryInputTheHelpNames) {
  const Case& c = GetParam();
  std::vector<std::string> help_args = c.command;
  help_args.push_back("--help");
  const CliResult help = RunCli(help_args);
  ASSERT_EQ(help.status, 0) << Name(c.command);
  HelpFlags flags = ParseHelp(help.out);
  flags.main["help"];  // answered everywhere, documented or not

  // The table has the inputs the help names.
  bool has_folder = false, has_stdin = false;
  for (const Mode& m : c.modes) {
    has_folder |= m.folder;
    has_stdin |= m.name == "stdin";
  }
  EXPECT_EQ(has_folder, flags.mentions_folder)
      << Name(c.command) << ": the help and the table disagree on folders";
  if (flags.mentions_stdin) {
    EXPECT_TRUE(has_stdin) << Name(c.command)
                           << ": the usage names standard input";
  }

  std::set<std::string> all;
  for (const auto& entry : flags.main) all.insert(entry.first);
  for (const auto& entry : flags.folder) all.insert(entry.first);
  int runs = 0;
  for (const std::string& flag : all) {
    if (c.input_flags.count(flag)) continue;
    auto modes_it = c.flag_modes.find(flag);
    const std::vector<Mode>& modes =
        modes_it != c.flag_modes.end() ? modes_it->second : c.modes;
    if (c.standalone.count(flag)) {
      std::vector<std::string> args = c.command;
      args.push_back("--" + flag);
      Check({args, "", true});
      ++runs;
    }
    for (const Mode& mode : modes) {
      if (HasFlag(mode.args, flag)) continue;  // the mode has it already
      const FlagSpecs& part = mode.folder ? flags.folder : flags.main;
      const bool applies = flag == "help" || (part.count(flag) > 0 &&
                                              c.standalone.count(flag) == 0);
      const FlagSpecs& spec_part = part.count(flag) ? part
                                   : mode.folder    ? flags.main
                                                    : flags.folder;
      FlagSpec spec = spec_part.at(flag);
      if (c.switches.count(flag)) spec = FlagSpec();
      std::vector<std::string> values;
      if (spec.valued) {
        values = ValuesOf(c, flag, spec);
        if (!applies && values.size() > 1) values.resize(1);
      } else {
        values = {""};
      }
      for (const std::string& value : values) {
        std::vector<std::string> args = c.command;
        args.insert(args.end(), mode.args.begin(), mode.args.end());
        if (spec.valued) {
          args.push_back("--" + flag + "=" + value);
        } else {
          args.push_back("--" + flag);
        }
        SCOPED_TRACE(mode.name);
        Check({args, mode.stdin_text, applies});
        ++runs;
      }
    }
  }
  EXPECT_GT(runs, 0) << Name(c.command);
  std::cout << Name(c.command) << ": " << all.size() << " flags, " << runs
            << " runs\n";
}

std::string CaseName(const ::testing::TestParamInfo<Case>& info) {
  std::string name;
  for (const std::string& word : info.param.command) {
    bool upper = true;
    for (char ch : word) {
      if (ch == '-' || ch == '_') {
        upper = true;
        continue;
      }
      name += upper && IsLower(ch) ? static_cast<char>(ch - 'a' + 'A') : ch;
      upper = false;
    }
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(EveryCommand, DocumentedFlags,
                         ::testing::ValuesIn(Cases()), CaseName);

// Every command of `hlolayout --help` has a row in the table, and so has
// every subcommand with a help of its own (cute's algebra ops share the
// command's help and its row).
TEST(DocumentedFlagsTable, CoversEveryCommandAndSubcommand) {
  std::set<std::string> covered;
  for (const Case& c : Cases()) covered.insert(Name(c.command));
  for (const Command* command : AllCommands()) {
    const std::string name(command->name);
    EXPECT_TRUE(covered.count(name))
        << name << " has no row in cli/flags_test.cc";
    if (command->subcommands == nullptr) continue;
    const std::string help = RunCli({name, "--help"}).out;
    for (const std::string& sub : command->subcommands()) {
      if (RunCli({name, sub, "--help"}).out == help) continue;
      EXPECT_TRUE(covered.count(name + " " + sub))
          << name << " " << sub << " has no row in cli/flags_test.cc";
    }
  }
}

// ------------------------------------------------------------ the lists

// Whether `help` lists `sub`: an indented line whose first word is `sub`
// ("  explain LAYOUT [--shape S]   bases, ..."), or one of the alternatives
// of an indented line "  str | compose | invert |". Examples and prose do
// not count.
bool ListsSubcommand(absl::string_view help, absl::string_view sub) {
  for (absl::string_view line : absl::StrSplit(help, '\n')) {
    if (!absl::StartsWith(line, "  ")) continue;
    line = absl::StripLeadingAsciiWhitespace(line);
    line = line.substr(0, line.find("  "));  // up to the description
    for (absl::string_view part : absl::StrSplit(line, '|')) {
      part = absl::StripAsciiWhitespace(part);
      if (part.substr(0, part.find(' ')) == sub) return true;
      if (!absl::StrContains(line, " | ")) break;  // "--side S|D" is a flag
    }
  }
  return false;
}

// Whether `help` mentions the flag `--name` (not as the start of a longer
// flag).
bool MentionsFlag(absl::string_view help, absl::string_view name) {
  const std::string flag = absl::StrCat("--", name);
  for (size_t at = help.find(flag); at != absl::string_view::npos;
       at = help.find(flag, at + 1)) {
    const size_t end = at + flag.size();
    if (end == help.size() || !IsFlagChar(help[end])) return true;
  }
  return false;
}

// The flags a (sub)command parses, from its answer to a flag it does not
// know: "unknown flag '--no-such-flag'; flags: --a, --b" (cli/args.h).
std::vector<std::string> ParsedFlags(const std::vector<std::string>& command) {
  std::vector<std::string> args = command;
  args.push_back("--no-such-flag");
  const CliResult r = RunCli(args);
  EXPECT_EQ(r.status, 2) << Name(command) << ": " << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "unknown flag '--no-such-flag'"))
      << Name(command) << " does not parse its flags first: " << r.err;
  std::vector<std::string> flags;
  const size_t at = r.err.find("; flags: ");
  if (at == std::string::npos) {
    EXPECT_TRUE(absl::StrContains(r.err, "takes no flags")) << r.err;
    return flags;
  }
  absl::string_view list = absl::StripTrailingAsciiWhitespace(
      absl::string_view(r.err).substr(at + 9));
  list = list.substr(0, list.find(" ("));  // " (hlolayout x --help)"
  for (absl::string_view f : absl::StrSplit(list, ", ")) {
    EXPECT_TRUE(absl::ConsumePrefix(&f, "--")) << r.err;
    flags.emplace_back(f);
  }
  return flags;
}

// Each command's --help lists every subcommand it accepts, and each
// (sub)command's --help every flag it parses.
TEST(HelpListsEverything, EverySubcommandAndEveryFlag) {
  int subcommands = 0, flags = 0;
  for (const Command* command : AllCommands()) {
    const std::string name(command->name);
    const CliResult help = RunCli({name, "--help"});
    ASSERT_EQ(help.status, 0) << name;
    std::vector<std::vector<std::string>> invocations;
    EXPECT_EQ(command->has_subcommands, command->subcommands != nullptr)
        << name << ": a command with subcommands says which";
    if (command->subcommands != nullptr) {
      const std::vector<std::string> subs = command->subcommands();
      EXPECT_FALSE(subs.empty()) << name;
      for (const std::string& sub : subs) {
        EXPECT_TRUE(ListsSubcommand(help.out, sub))
            << "'hlolayout " << name << " --help' does not list " << sub;
        invocations.push_back({name, sub});
        ++subcommands;
      }
      // Any other name is refused, with the whole list.
      const CliResult other = RunCli({name, "no-such-subcommand"});
      EXPECT_EQ(other.status, 2) << name;
      for (const std::string& sub : subs) {
        EXPECT_TRUE(absl::StrContains(other.err, sub))
            << name << ": the refusal leaves out " << sub << ": " << other.err;
      }
    } else {
      invocations.push_back({name});
    }
    for (const std::vector<std::string>& command_line : invocations) {
      std::vector<std::string> help_args = command_line;
      help_args.push_back("--help");
      const CliResult sub_help = RunCli(help_args);
      ASSERT_EQ(sub_help.status, 0) << Name(command_line);
      for (const std::string& flag : ParsedFlags(command_line)) {
        EXPECT_TRUE(MentionsFlag(sub_help.out, flag))
            << "'hlolayout " << Name(command_line)
            << " --help' does not list --" << flag;
        ++flags;
      }
    }
  }
  std::cout << subcommands << " subcommands, " << flags << " flags\n";
  EXPECT_GT(subcommands, 60);
}

TEST(HelpListsEverything, TheListParser) {
  const char kHelp[] =
      "usage: x\n"
      "\n"
      "subcommands:\n"
      "  explain LAYOUT [--shape S]   bases\n"
      "  str | compose | invert |\n"
      "  apply                        ops\n"
      "  --side S|D    which side\n"
      "\n"
      "examples:\n"
      "hlolayout x smem A\n"
      "Prose mentions draw.\n";
  for (const char* sub : {"explain", "str", "compose", "invert", "apply"}) {
    EXPECT_TRUE(ListsSubcommand(kHelp, sub)) << sub;
  }
  for (const char* sub : {"smem", "draw", "S", "D", "LAYOUT"}) {
    EXPECT_FALSE(ListsSubcommand(kHelp, sub)) << sub;
  }
  EXPECT_TRUE(MentionsFlag(kHelp, "shape"));
  EXPECT_TRUE(MentionsFlag(kHelp, "side"));
  EXPECT_FALSE(MentionsFlag(kHelp, "sid"));
  EXPECT_FALSE(MentionsFlag(kHelp, "json"));
}

// The help parser itself, on the forms the helps use.
TEST(DocumentedFlagsParser, ReadsUsageFlagsAndTheFolderParagraph) {
  const HelpFlags f = ParseHelp(
      "usage: hlolayout x [--json] [--sort=order|padded] [--top=N] [F | -]\n"
      "                   [--svg FILE|-] [--view a|b] [--json | --ttgir]\n"
      "\n"
      "Prose about --xla_dump_to and --from is not a definition.\n"
      "\n"
      "flags:\n"
      "  --tile=HxW,DTYPE   tiles\n"
      "  --color WHEN auto (default), always or never\n"
      "  --bytes   also --json\n"
      "\n"
      "hlolayout x DIR (default --sort=name):\n"
      "Flags for a folder: --json, --threads=N and\n"
      "--sort=file|module.\n");
  EXPECT_EQ(f.main.size(), 9u);
  EXPECT_EQ(f.main.count("from"), 0u);
  EXPECT_EQ(f.main.count("xla"), 0u);
  EXPECT_FALSE(f.main.at("json").valued);
  EXPECT_FALSE(f.main.at("ttgir").valued);
  EXPECT_FALSE(f.main.at("bytes").valued);
  EXPECT_EQ(f.main.at("sort").literals,
            (std::set<std::string>{"order", "padded"}));
  EXPECT_EQ(f.main.at("svg").literals, (std::set<std::string>{"-"}));
  EXPECT_EQ(f.main.at("svg").placeholders, (std::set<std::string>{"FILE"}));
  EXPECT_EQ(f.main.at("tile").placeholders,
            (std::set<std::string>{"HxW,DTYPE"}));
  EXPECT_EQ(f.main.at("color").placeholders, (std::set<std::string>{"WHEN"}));
  EXPECT_TRUE(f.mentions_folder);
  EXPECT_TRUE(f.mentions_stdin);
  EXPECT_EQ(f.folder.size(), 3u);
  EXPECT_EQ(f.folder.at("sort").literals,
            (std::set<std::string>{"file", "module"}));
  // "-" as a flag's value is not standard input.
  EXPECT_FALSE(
      ParseHelp("usage: hlolayout y A [--svg FILE|-]\n").mentions_stdin);
}

}  // namespace
}  // namespace hlolayout::cli

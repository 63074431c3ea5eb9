// Determinism, not correctness: these tests compare the library with
// itself. The memory analysis on two threads (MemoryAnalysisOptions::
// threads) gives the answer of one thread, value for value, and the same
// first error; so does it when the module's operand lists are given back as
// soon as it has read them (MemoryAnalysisOptions::operands_read). Whether
// that answer is XLA's is checked elsewhere (LiveRangeTest's XlaPairs,
// XlaCpuFindingsTest, XlaGpuFindingsTest, BufferAssignmentTest against
// XLA's files); the error tests also check which error is named.
#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/hlo/give_back.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/memory/live_range.h"
#include "hlolayout/testing/hlo_test_dump.h"
#include "hlolayout/testing/test_data.h"
#include "hlolayout/views/live_range_text.h"

namespace hlolayout {
namespace {

using ::testing::HasSubstr;

// Everything the analysis answers, written out.
std::string Describe(const MemoryAnalysis& a) {
  std::string out = XlaLiveRangeText(a);
  absl::StrAppend(&out, "scheduler ", a.replayed_scheduler, "\n");
  for (const ScheduledInstruction& s : a.instructions) {
    absl::StrAppend(&out, s.name(), " ", s.caller, " ", s.metadata(), "\n");
  }
  for (const LiveValue& v : a.values) {
    absl::StrAppend(&out, v.instruction, "{", absl::StrJoin(v.index(), ","),
                    "} ", v.start, "-", v.end, " ", v.bytes(), " ",
                    v.logical_bytes(), " ", v.is_phi, " ", v.memory_space(),
                    "\n");
  }
  for (const MemoryPeak* p : {&a.peak}) {
    absl::StrAppend(&out, "peak ", p->time, " ", p->bytes, " ",
                    absl::StrJoin(p->values, ","), "\n");
  }
  for (const MemoryPeak& p : a.space_peaks) {
    absl::StrAppend(&out, "space ", p.memory_space, " ", p.time, " ", p.bytes,
                    " ", absl::StrJoin(p.values, ","), "\n");
  }
  absl::StrAppend(&out, "curve ", absl::StrJoin(a.curve, ","), "\n");
  if (a.dataflow != nullptr) {
    const MemoryDataflow& d = *a.dataflow;
    absl::StrAppend(&out, "phi inputs ", absl::StrJoin(d.phi_inputs, ","),
                    "\nbuffers ", absl::StrJoin(d.value_buffer, ","),
                    "\nvalue nodes ", absl::StrJoin(d.value_node, ","), "\n");
  }
  return out;
}

// Analyses a module of its own read from `text`, on two threads, giving
// its operand lists back when the analysis says it has read them
// (MemoryAnalysisOptions::operands_read): the lists of the computations it
// names are then empty, the embedded ones' are not.
absl::StatusOr<MemoryAnalysis> AnalyzeGivingBack(
    const std::string& text, MemoryAnalysisOptions options,
    std::vector<HloModule>* modules) {
  absl::StatusOr<std::vector<HloModule>> read = ReadHloModules(text);
  EXPECT_TRUE(read.ok()) << read.status();
  if (!read.ok()) return read.status();
  *modules = *std::move(read);
  HloModule& module = (*modules)[0];
  int calls = 0;
  std::vector<int32_t> given;
  options.operands_read = [&](absl::Span<const int32_t> computations) {
    ++calls;
    given.assign(computations.begin(), computations.end());
    GiveBackOperandLists(&module, computations);
  };
  absl::StatusOr<MemoryAnalysis> a = AnalyzeMemory(module, options);
  if (!a.ok()) return a;
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(std::find(given.begin(), given.end(), module.entry_index) !=
              given.end());
  for (size_t c = 0; c < module.computations.size(); ++c) {
    const bool embedded = (c < module.called_by.size() &&
                           (module.called_by[c] & kHloCalledByEmbedded));
    const bool in_given =
        std::find(given.begin(), given.end(), c) != given.end();
    EXPECT_EQ(in_given, !embedded) << module.computations[c].header.name;
    if (!in_given) continue;
    for (const HloInstruction& in : module.computations[c].instructions) {
      EXPECT_TRUE(in.operands().empty()) << in.name();
    }
  }
  return a;
}

// Reads `text`'s first module and analyses it on one thread and on two
// (every step that can run side by side does, whatever the module's
// size), and on two giving the operand lists back as soon as they are
// read; expects the same answer, or the same error.
void ExpectOneAnswer(const std::string& text, const std::string& what) {
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
  ASSERT_TRUE(modules.ok()) << what << ": " << modules.status();
  ASSERT_FALSE(modules->empty()) << what;
  for (const bool dataflow : {false, true}) {
    MemoryAnalysisOptions one;
    one.keep_dataflow = dataflow;
    one.allow_unscheduled = true;
    MemoryAnalysisOptions two = one;
    two.threads = 2;
    two.parallel_from = 0;
    absl::StatusOr<MemoryAnalysis> a = AnalyzeMemory((*modules)[0], one);
    absl::StatusOr<MemoryAnalysis> b = AnalyzeMemory((*modules)[0], two);
    std::vector<HloModule> own;
    absl::StatusOr<MemoryAnalysis> c = AnalyzeGivingBack(text, two, &own);
    ASSERT_EQ(a.ok(), b.ok()) << what;
    ASSERT_EQ(a.ok(), c.ok()) << what;
    if (!a.ok()) {
      EXPECT_EQ(a.status(), b.status()) << what;
      EXPECT_EQ(a.status(), c.status()) << what;
      continue;
    }
    EXPECT_EQ(Describe(*a), Describe(*b)) << what;
    EXPECT_EQ(Describe(*a), Describe(*c)) << what << " (lists given back)";
  }
}

bool IsModuleFile(const std::filesystem::path& p) {
  const std::string name = p.filename().string();
  return absl::EndsWith(name, ".txt") &&
         !absl::StrContains(name, "-buffer-assignment") &&
         !absl::StrContains(name, "-live-range") &&
         !absl::StrContains(name, "-memory-usage") &&
         !absl::StrContains(name, "-creation-order");
}

// XLA's own modules (CPU, GPU and TPU-style dumps of jaxlib 0.10.2 and
// 0.11.2) and the modules written from XLA's rules.
TEST(LiveRangeThreadsDeterminism, XlaModulesGiveTheAnswerOfOneThread) {
  int64_t files = 0;
  for (const char* folder :
       {"memory/testdata", "memory/testdata_jaxlib_0.10.2",
        "memory/testdata_xla_gpu", "memory/testdata_from_rules"}) {
    const std::filesystem::path dir(TestDataPath(folder));
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (!IsModuleFile(entry.path())) continue;
      ++files;
      ExpectOneAnswer(ReadTestData(absl::StrCat(
                          folder, "/", entry.path().filename().string())),
                      entry.path().string());
    }
  }
  EXPECT_GT(files, 20);
}

// Generated dumps of the three styles the benchmarks measure: loops, tuples
// of tuples, restored get-tuple-elements, async pairs, memory spaces.
TEST(LiveRangeThreadsDeterminism, GeneratedDumpsGiveTheAnswerOfOneThread) {
  for (const HloDumpStyle style :
       {HloDumpStyle::kClassic, HloDumpStyle::kXlaTpu,
        HloDumpStyle::kXlaTpuSmall}) {
    HloDumpOptions options;
    options.target_bytes = 1 << 20;
    options.style = style;
    ExpectOneAnswer(GenerateHloDump(options).text,
                    absl::StrCat("style ", static_cast<int>(style)));
  }
}

// Values whose bytes together pass int64: the peaks' sweeps and the memory
// curve, side by side on two threads, each check their own sums; the error
// is the one thread's. Seven parameters of 2^60-1 bytes fit: the answers
// are the same.
TEST(LiveRangeThreadsDeterminism, LiveBytesPastInt64AreRefusedAsOnOneThread) {
  for (const int parameters : {9, 7}) {
    std::string text = "HloModule m\nENTRY e {\n";
    for (int i = 0; i < parameters; ++i) {
      absl::StrAppend(&text, " a", i,
                      " = u8[1152921504606846975]{0} parameter(", i, ")\n");
    }
    text += " ROOT t = (u8[1152921504606846975]{0}) tuple(a0)\n}\n";
    ExpectOneAnswer(text, absl::StrCat(parameters, " parameters"));
    absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
    ASSERT_TRUE(modules.ok()) << modules.status();
    MemoryAnalysisOptions two;
    two.threads = 2;
    two.parallel_from = 0;
    two.allow_unscheduled = true;
    absl::StatusOr<MemoryAnalysis> b = AnalyzeMemory((*modules)[0], two);
    if (parameters == 9) {
      ASSERT_FALSE(b.ok());
      EXPECT_THAT(b.status().message(), HasSubstr("pass 2^63-1 bytes"));
    } else {
      ASSERT_TRUE(b.ok()) << b.status();
      EXPECT_FALSE(b->curve.empty());
    }
  }
}

// Two loops whose bodies do not fit their state, each condition and body
// before the entry (XLA reads a callee before its callers), a computation
// of 40 instructions between the two: the nodes' sources are set in chunks
// that two threads take in turn, so the two errors are found in different
// chunks, on either thread. The error is the first in node order, as on
// one thread: the first loop's condition's parameter when its body does
// not fit, else the second loop's.
std::string TwoBadLoops(bool first_bad) {
  std::string text = R"(HloModule m, is_scheduled=true
%cond1 (c1: (s32[], f32[8])) -> pred[] {
  %c1 = (s32[], f32[8]{0}) parameter(0)
  %z1 = s32[] constant(3)
  ROOT %lt1 = pred[] compare(%c1#0, %z1), direction=LT
}
%body1 {
  %b1 = (s32[], f32[8]{0}) parameter(0)
)";
  absl::StrAppend(&text,
                  first_bad ? "  ROOT %i1 = s32[] constant(1)\n"
                            : "  ROOT %i1 = (s32[], f32[8]{0}) copy(%b1)\n",
                  "}\n%filler (y: f32[8]) -> f32[8] {\n"
                  "  %y = f32[8]{0} parameter(0)\n");
  // Enough instructions that the second loop is in a later chunk.
  for (int i = 0; i < 40; ++i) {
    absl::StrAppend(&text, "  %n", i, " = f32[8]{0} negate(%y)\n");
  }
  absl::StrAppend(&text,
                  R"(  ROOT %ny = f32[8]{0} negate(%y)
}
%cond2 (c2: (s32[], f32[8])) -> pred[] {
  %c2 = (s32[], f32[8]{0}) parameter(0)
  %z2 = s32[] constant(3)
  ROOT %lt2 = pred[] compare(%c2#0, %z2), direction=LT
}
%body2 {
  %b2 = (s32[], f32[8]{0}) parameter(0)
  ROOT %i2 = s32[] constant(1)
}
ENTRY %main (x: f32[8]) -> f32[8] {
  %x = f32[8]{0} parameter(0)
  %k = s32[] constant(0)
  %init = (s32[], f32[8]{0}) tuple(%k, %x)
  %w1 = (s32[], f32[8]{0}) while(%init), condition=%cond1, body=%body1
  %v = f32[8]{0} call(%x), to_apply=%filler
  %w2 = (s32[], f32[8]{0}) while(%w1), condition=%cond2, body=%body2
  ROOT %out = f32[8]{0} bitcast(%w2#1)
}
)");
  return text;
}

TEST(LiveRangeThreadsDeterminism, TheFirstErrorInNodeOrderWins) {
  for (const bool first_bad : {true, false}) {
    const std::string text = TwoBadLoops(first_bad);
    ExpectOneAnswer(text, first_bad ? "both bad" : "second bad");
    absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
    ASSERT_TRUE(modules.ok()) << modules.status();
    MemoryAnalysisOptions two;
    two.threads = 2;
    two.parallel_from = 0;
    absl::StatusOr<MemoryAnalysis> b = AnalyzeMemory((*modules)[0], two);
    ASSERT_FALSE(b.ok());
    EXPECT_THAT(b.status().message(), HasSubstr("do not fit"));
    EXPECT_THAT(b.status().message(),
                HasSubstr(first_bad ? "parameter 'c1'" : "parameter 'c2'"));
  }
}

// A computation of 41 instructions, then the entry, of 9, that calls it
// (XLA reads a callee before its callers), whose `bad` and `late_bad`
// instructions have no shape (custom calls the reader cannot infer one
// for; the memory analysis refuses them as it fills their nodes). With
// every step side by side, the large computation's first nodes are filled
// on the calling thread and the rest on a second one, started before the
// computation ahead of it is built (EarlyTail); the entry after it is
// filled in two halves. The error is the first in text order, as on one
// thread.
std::string ShapelessEntry(const std::vector<int>& bad,
                           const std::vector<int>& late_bad) {
  const auto line = [](absl::string_view name, int i, bool shapeless,
                       absl::string_view other) {
    return absl::StrCat(
        "  %", name, i,
        shapeless ? " = custom-call(%x), custom_call_target=\"f\"\n" : other);
  };
  const auto has = [](const std::vector<int>& v, int i) {
    return std::find(v.begin(), v.end(), i) != v.end();
  };
  std::string text = R"(HloModule m, is_scheduled=true
%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}
%big (x: f32[8]) -> f32[8] {
  %x = f32[8]{0} parameter(0)
)";
  for (int i = 0; i < 40; ++i) {
    absl::StrAppend(&text,
                    line("n", i, has(bad, i), " = f32[8]{0} negate(%x)\n"));
  }
  absl::StrAppend(&text,
                  "  ROOT %out = f32[8]{0} negate(%x)\n}\n"
                  "ENTRY %main (x: f32[8]) -> f32[8] {\n"
                  "  %x = f32[8]{0} parameter(0)\n");
  for (int i = 0; i < 6; ++i) {
    absl::StrAppend(
        &text, line("m", i, has(late_bad, i), " = f32[8]{0} negate(%x)\n"));
  }
  absl::StrAppend(&text,
                  "  %c = f32[8]{0} call(%x), to_apply=%big\n"
                  "  ROOT %r = f32[8]{0} negate(%c)\n}\n");
  return text;
}

TEST(LiveRangeThreadsDeterminism, TheFirstShapelessInstructionWins) {
  const std::vector<std::pair<std::vector<int>, std::vector<int>>> cases = {
      {{2, 37}, {}}, {{37}, {}}, {{2}, {}}, {{36, 37}, {}},
      {{}, {1, 4}},  {{}, {4}},  {{}, {1}}, {{37}, {1}}};
  for (const auto& [bad, late_bad] : cases) {
    const std::string text = ShapelessEntry(bad, late_bad);
    const std::string what =
        absl::StrCat("bad ", absl::StrJoin(bad, ","), "; late ",
                     absl::StrJoin(late_bad, ","));
    ExpectOneAnswer(text, what);
    absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
    ASSERT_TRUE(modules.ok()) << what << ": " << modules.status();
    MemoryAnalysisOptions two;
    two.threads = 2;
    two.parallel_from = 0;
    absl::StatusOr<MemoryAnalysis> b = AnalyzeMemory((*modules)[0], two);
    ASSERT_FALSE(b.ok()) << what;
    const std::string first =
        bad.empty() ? absl::StrCat("'m", late_bad[0], "' in 'main'")
                    : absl::StrCat("'n", bad[0], "' in 'big'");
    EXPECT_THAT(b.status().message(), HasSubstr(first + " has no shape"))
        << what;
  }
}

}  // namespace
}  // namespace hlolayout

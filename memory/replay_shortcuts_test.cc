// Determinism, not correctness: these tests compare the library with
// itself. The scheduler replays' shortcuts (a replay reused for computations
// with equal scheduling graphs, sample replays skipped when they cannot
// change the chosen scheduler; docs/memory-speed.md, "Speed") give the
// analysis that running every replay gives, on random modules and on XLA's
// dumps; whether that analysis is XLA's is checked against XLA's files
// (LiveRangeTest's XlaPairs, the findings tests).
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/memory/live_range.h"
#include "hlolayout/testing/random_hlo.h"
#include "hlolayout/testing/sanitizer_scale.h"
#include "hlolayout/testing/test_data.h"

namespace hlolayout {
namespace {

// Every field of an analysis (or its error), as text.
std::string Describe(const absl::StatusOr<MemoryAnalysis>& result) {
  if (!result.ok()) return std::string(result.status().message());
  const MemoryAnalysis& a = *result;
  std::ostringstream o;
  o << a.module_name << " end " << a.schedule_end << " scheduler '"
    << a.replayed_scheduler << "'\n";
  for (const ScheduledInstruction& s : a.instructions) {
    o << s.name() << " " << s.opcode() << " " << s.computation() << " "
      << s.op_name() << " " << s.shape() << " " << s.caller << "\n";
  }
  for (const LiveValue& v : a.values) {
    o << v.instruction << ShapeIndexString(v.index()) << " " << v.shape() << " "
      << v.is_phi << " " << v.bytes() << " " << v.logical_bytes() << " "
      << v.memory_space() << " " << v.start << "-" << v.end << "\n";
  }
  std::vector<MemoryPeak> peaks = a.space_peaks;
  peaks.insert(peaks.begin(), a.peak);
  for (const MemoryPeak& p : peaks) {
    o << "peak " << p.memory_space << " " << p.time << " " << p.bytes << ":";
    for (int64_t v : p.values) o << " " << v;
    o << "\n";
  }
  for (int64_t c : a.curve) o << c << " ";
  return o.str();
}

// The analyses of every module of `text`, with and without the shortcuts.
void ExpectSameAnalyses(const std::string& text, const std::string& what) {
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
  if (!modules.ok()) return;
  MemoryAnalysisOptions plain;
  plain.replay_shortcuts = false;
  for (const HloModule& module : *modules) {
    const std::string fast = Describe(AnalyzeMemory(module));
    const std::string slow = Describe(AnalyzeMemory(module, plain));
    ASSERT_EQ(fast, slow) << what << "\n" << text;
  }
}

TEST(ReplayShortcutsDeterminism, SameAnalysisOnRandomModules) {
  const int64_t samples = SanitizerScaled(1000);
  int64_t analyzed = 0, replayed = 0;
  for (uint64_t seed = 0; seed < static_cast<uint64_t>(samples); ++seed) {
    const std::string text = RandomScheduledModule(seed);
    absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
    // A few modules name unknown operands or outputs past a tuple's end on
    // purpose: the reader refuses those (located errors), as XLA does.
    if (!modules.ok()) {
      EXPECT_TRUE(
          absl::StrContains(modules.status().message(), "is not defined") ||
          absl::StrContains(modules.status().message(), "names an output of") ||
          absl::StrContains(modules.status().message(), "is out of bounds"))
          << modules.status();
      continue;
    }
    ExpectSameAnalyses(text, absl::StrCat("seed ", seed));
    absl::StatusOr<MemoryAnalysis> a = AnalyzeMemory((*modules)[0]);
    analyzed += a.ok();
    replayed += a.ok() && !a->replayed_scheduler.empty();
  }
  // Most modules are analyzed, and most of those had a replay place their
  // folded get-tuple-elements (over 80% and 65% of the sample).
  EXPECT_GT(analyzed * 100, samples * 80);
  EXPECT_GT(replayed * 100, samples * 65);
}

// Many copies of one loop (what the cache reuses), each with a
// conditional after it.
TEST(ReplayShortcutsDeterminism, SameAnalysisOnRepeatedLoops) {
  std::string text = "HloModule loops, is_scheduled=true\n";
  std::string entry =
      "ENTRY %main (a: f32[8]) -> f32[8] {\n  %a = f32[8]{0} parameter(0)\n";
  std::string prev = "a";
  for (int i = 0; i < 40; ++i) {
    absl::StrAppend(&text, "%cond.", i, " (s: (s32[], f32[8])) -> pred[] {\n",
                    "  %s.", i, " = (s32[], f32[8]{0}) parameter(0)\n", "  %l.",
                    i, " = s32[] constant(4)\n", "  ROOT %lt.", i,
                    " = pred[] compare(%s.", i, "#0, %l.", i,
                    "), direction=LT\n}\n");
    absl::StrAppend(
        &text, "%body.", i, " (t: (s32[], f32[8])) -> (s32[], f32[8]) {\n",
        "  %t.", i, " = (s32[], f32[8]{0}) parameter(0)\n", "  %one.", i,
        " = s32[] constant(1)\n", "  %n.", i, " = s32[] add(%t.", i,
        "#0, %one.", i, ")\n", "  %m.", i, " = f32[8]{0} multiply(%t.", i,
        "#1, %t.", i, "#1)\n", "  ROOT %r.", i,
        " = (s32[], f32[8]{0}) tuple(%n.", i, ", %m.", i, ")\n}\n");
    absl::StrAppend(&entry, "  %z.", i, " = s32[] constant(0)\n", "  %init.", i,
                    " = (s32[], f32[8]{0}) tuple(%z.", i, ", %", prev, ")\n",
                    "  %w.", i, " = (s32[], f32[8]{0}) while(%init.", i,
                    "), condition=%cond.", i, ", body=%body.", i, "\n", "  %v.",
                    i, " = f32[8]{0} negate(%w.", i, "#1)\n");
    prev = absl::StrCat("v.", i);
  }
  absl::StrAppend(&entry, "  ROOT %out = f32[8]{0} negate(%", prev, ")\n}\n");
  ExpectSameAnalyses(text + entry, "loops");
}

TEST(ReplayShortcutsDeterminism, SameAnalysisOnXlaDumps) {
  for (const char* name :
       {"module_105197.jit_mlp_step.sm_9.0a_gpu_after_optimizations",
        "module_486067.jit_scan_cond.sm_9.0a_gpu_after_optimizations",
        "module_317483.jit_dus_loop.sm_9.0a_gpu_after_optimizations",
        "module_342634.jit_big_tuple.sm_9.0a_gpu_after_optimizations",
        "module_519822.jit_misc.sm_9.0a_gpu_after_optimizations",
        "module_0002.jit_lstm.cpu_after_optimizations"}) {
    std::ifstream in(
        TestDataPath(absl::StrCat("memory/testdata/", name, ".txt")));
    std::stringstream text;
    text << in.rdbuf();
    ASSERT_FALSE(text.str().empty()) << name;
    ExpectSameAnalyses(text.str(), name);
  }
}

}  // namespace
}  // namespace hlolayout

#include "hlolayout/memory/live_range.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/testing/random_hlo.h"
#include "hlolayout/testing/test_data.h"
#include "hlolayout/views/live_range_text.h"

namespace hlolayout {
namespace {

using ::testing::HasSubstr;

struct Analyzed {
  // The text, the modules read from it and the analysis point into each
  // other: names and op_names are views into the text, shapes are the
  // modules'.
  std::unique_ptr<const std::string> text;
  std::vector<HloModule> modules;
  MemoryAnalysis analysis;
};

Analyzed Analyze(const std::string& text,
                 const MemoryAnalysisOptions& options = {}) {
  Analyzed out;
  out.text = std::make_unique<const std::string>(text);
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(*out.text);
  EXPECT_TRUE(modules.ok()) << modules.status();
  if (!modules.ok() || modules->empty()) return out;
  out.modules = *std::move(modules);
  absl::StatusOr<MemoryAnalysis> analysis =
      AnalyzeMemory(out.modules[0], options);
  EXPECT_TRUE(analysis.ok()) << analysis.status();
  if (analysis.ok()) out.analysis = *std::move(analysis);
  return out;
}

// "name{index}:start-end" of every value, as XLA's BufferLiveRange.
std::string Range(const MemoryAnalysis& a, absl::string_view name,
                  const std::vector<int64_t>& index) {
  for (const LiveValue& v : a.values) {
    if (v.instruction >= 0 && a.instructions[v.instruction].name() == name &&
        v.index() == index) {
      return absl::StrCat(v.start, "-", v.end);
    }
  }
  return "none";
}

std::vector<std::string> Sequence(const MemoryAnalysis& a) {
  std::vector<std::string> names;
  for (const ScheduledInstruction& s : a.instructions)
    names.emplace_back(s.name());
  return names;
}

// The stack trace tree shows op_names as XLA holds them, not as the text
// escapes them, and leaves out values of 0 bytes (here the empty second
// element of the tuple), as XLA's tree does. (`opt['wd'][0]` stays one
// node: only a name followed by quoted keys and attributes alone is split,
// memory/xla_gpu_findings_test.cc.)
TEST(LiveRange, StackTraceTreeUnescapesAndSkipsEmptyValues) {
  const Analyzed a = Analyze(R"(HloModule m, is_scheduled=true
ENTRY main {
  p = f32[4]{0} parameter(0)
  n = f32[4]{0} negate(p), metadata={op_name="opt[\'wd\'][0]"}
  e = f32[0]{0} constant({})
  ROOT t = (f32[4]{0}, f32[0]{0}) tuple(n, e)
}
)");
  const std::string tree = XlaStackTraceText(a.analysis);
  EXPECT_THAT(tree, HasSubstr("opt['wd'][0] (")) << tree;
  EXPECT_THAT(tree, ::testing::Not(HasSubstr("\\'"))) << tree;
  EXPECT_THAT(tree,
              ::testing::Not(HasSubstr("current: 0 bytes, remaining: "
                                       "0 bytes)\n      \u2514\u2500\u2500 e")))
      << tree;
  EXPECT_THAT(tree, ::testing::Not(HasSubstr("\u2500 e ("))) << tree;
}

TEST(LiveRange, StraightLineWithTupleRoot) {
  const Analyzed r = Analyze(R"(HloModule m, is_scheduled=true
ENTRY %main (p: f32[256]) -> (f32[256]) {
  %p = f32[256]{0} parameter(0)
  %a = f32[256]{0} negate(%p)
  %b = f32[256]{0} exponential(%a)
  ROOT %t = (f32[256]{0}) tuple(%b)
})");
  const MemoryAnalysis& a = r.analysis;
  EXPECT_EQ(a.schedule_end, 4);
  EXPECT_EQ(Range(a, "p", {}), "0-4");  // entry parameter: to the end
  EXPECT_EQ(Range(a, "a", {}), "1-2");
  EXPECT_EQ(Range(a, "b", {}), "2-4");  // a position in the root tuple
  EXPECT_EQ(Range(a, "t", {}), "3-4");
  EXPECT_EQ(Range(a, "t", {0}), "none");  // the tuple's element is b
  EXPECT_EQ(a.values.size(), 4u);
  // XLA's sweep counts the starts at a time before the ends (which fall at
  // end + 1): at time 3, t starts before a's end is taken off, so the
  // running sum 1024 * 3 + 8 peaks at 3, where p, b and t are live.
  EXPECT_EQ(a.peak.time, 3);
  EXPECT_EQ(a.peak.bytes, 2056);
  // A tuple node is 8 bytes per element.
  for (const LiveValue& v : a.values) {
    if (a.instructions[v.instruction].name() == "t") {
      EXPECT_EQ(v.bytes(), 8);
    }
  }
}

// The values live at the peak come largest first, then by instruction name
// as std::string orders them (XLA's order): names that share their first 8
// or 16 bytes, one a prefix of another, digits against letters, names that
// differ early in a group of 8 bytes and the other way round late in it.
TEST(LiveRange, PeakValuesOfOneSizeComeInNameOrder) {
  const std::vector<std::string> names = {"fusion.12345678",
                                          "fusion.1234567",
                                          "fusion.123456789",
                                          "fusion.12345679",
                                          "fusion.2",
                                          "fusion.123456789abcdef0",
                                          "fusion.123456789abcdef",
                                          "fusion.123456789abcdeg",
                                          "a",
                                          "fusion.1234567_",
                                          "Fusion.1",
                                          "fusion.12345678.1",
                                          "copy.2.9",
                                          "copy.3.1",
                                          "fusion.1234567ab",
                                          "fusion.1234568aa"};
  std::string text = "HloModule m, is_scheduled=true\nENTRY %main () -> (";
  for (size_t i = 0; i < names.size(); ++i) {
    absl::StrAppend(&text, i == 0 ? "" : ", ", "f32[16]");
  }
  text += ") {\n";
  std::string operands;
  for (size_t i = 0; i < names.size(); ++i) {
    absl::StrAppend(&text, "  %", names[i], " = f32[16]{0} parameter(", i,
                    ")\n");
    absl::StrAppend(&operands, i == 0 ? "" : ", ", "%", names[i]);
  }
  text += "  ROOT %t = (";
  for (size_t i = 0; i < names.size(); ++i) {
    absl::StrAppend(&text, i == 0 ? "" : ", ", "f32[16]{0}");
  }
  absl::StrAppend(&text, ") tuple(", operands, ")\n}\n");
  const Analyzed r = Analyze(text);
  const MemoryAnalysis& a = r.analysis;
  std::vector<std::string> at_peak;
  for (int64_t v : a.peak.values) {
    const LiveValue& value = a.values[v];
    if (value.bytes() == 64) {
      at_peak.emplace_back(a.instructions[value.instruction].name());
    }
  }
  std::vector<std::string> expected = names;
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(at_peak, expected);
}

TEST(LiveRange, InputOutputAliasEndsTheParameter) {
  const std::string body = R"(
ENTRY %main (p: f32[4]) -> f32[4] {
  %p = f32[4]{0} parameter(0)
  ROOT %n = f32[4]{0} negate(%p)
})";
  const Analyzed plain = Analyze("HloModule m, is_scheduled=true" + body);
  EXPECT_EQ(Range(plain.analysis, "p", {}), "0-2");
  const Analyzed aliased = Analyze(
      "HloModule m, is_scheduled=true, input_output_alias={ {}: (0, {}, "
      "may-alias) }" +
      body);
  EXPECT_EQ(Range(aliased.analysis, "p", {}), "0-1");
  EXPECT_EQ(Range(aliased.analysis, "n", {}), "1-2");
}

// Worked out by hand in docs/memory.md's example: a while loop whose
// condition and body read the state through `#N` operands, a bitcast of
// the loop's result as ROOT.
TEST(LiveRange, WhileLoopPhisAndNormalization) {
  const Analyzed r = Analyze(R"(HloModule m, is_scheduled=true
%cond (c: (s32[], f32[8])) -> pred[] {
  %c = (s32[], f32[8]{0}) parameter(0)
  %z = s32[] constant(3)
  ROOT %lt = pred[] compare(%c#0, %z), direction=LT
}
%body (b: (s32[], f32[8])) -> (s32[], f32[8]) {
  %b = (s32[], f32[8]{0}) parameter(0)
  %one = s32[] constant(1)
  %i = s32[] add(%b#0, %one)
  %v = f32[8]{0} negate(%b#1)
  ROOT %r = (s32[], f32[8]{0}) tuple(%i, %v)
}
ENTRY %main (x: f32[8]) -> f32[8] {
  %x = f32[8]{0} parameter(0)
  %k = s32[] constant(0)
  %init = (s32[], f32[8]{0}) tuple(%k, %x)
  %w = (s32[], f32[8]{0}) while(%init), condition=%cond, body=%body
  ROOT %out = f32[8]{0} bitcast(%w#1)
})");
  const MemoryAnalysis& a = r.analysis;
  // The replayed XLA scheduler puts the restored c#0 before the constant.
  EXPECT_FALSE(a.replayed_scheduler.empty());
  EXPECT_THAT(Sequence(a),
              ::testing::ElementsAre("x", "k", "init", "c", "c#0", "z", "lt",
                                     "b", "one", "b#0", "b#1", "i", "v", "r",
                                     "w", "w#1", "out"));
  EXPECT_EQ(a.schedule_end, 17);
  EXPECT_EQ(a.values.size(), 18u);
  // Element 0: k, the condition's and body's phis, i, the while's phi.
  EXPECT_EQ(Range(a, "k", {}), "1-3");
  EXPECT_EQ(Range(a, "c", {0}), "3-7");
  EXPECT_EQ(Range(a, "b", {0}), "7-11");
  EXPECT_EQ(Range(a, "i", {}), "11-14");
  EXPECT_EQ(Range(a, "w", {0}), "14-14");
  // Element 1: the entry parameter shares the loop's buffer, so its range
  // ends where the condition's phi starts.
  EXPECT_EQ(Range(a, "x", {}), "0-3");
  EXPECT_EQ(Range(a, "c", {1}), "3-7");
  EXPECT_EQ(Range(a, "b", {1}), "7-12");
  EXPECT_EQ(Range(a, "v", {}), "12-14");
  EXPECT_EQ(Range(a, "w", {1}), "14-17");
  // Tuple nodes.
  EXPECT_EQ(Range(a, "init", {}), "2-3");
  EXPECT_EQ(Range(a, "c", {}), "3-7");
  EXPECT_EQ(Range(a, "b", {}), "7-10");
  EXPECT_EQ(Range(a, "r", {}), "13-14");
  EXPECT_EQ(Range(a, "w", {}), "14-15");
  // Scalars of the condition and body.
  EXPECT_EQ(Range(a, "z", {}), "5-6");
  EXPECT_EQ(Range(a, "lt", {}), "6-7");  // the condition's root
  EXPECT_EQ(Range(a, "one", {}), "8-11");
  // Forwarders define nothing.
  EXPECT_EQ(Range(a, "out", {}), "none");
  EXPECT_EQ(Range(a, "c#0", {}), "none");
}

// The result's records are small (issue 45: `hlolayout memory` holds one
// per scheduled instruction and per value at its peak): names, op_names
// and shape indices are views, not strings and vectors of their own.
TEST(LiveRange, ResultRecordsAreSmall) {
  EXPECT_LE(sizeof(ScheduledInstruction), 24u);
  EXPECT_LE(sizeof(LiveValue), 24u);
}

// The restored get-tuple-elements' names ("producer#N") and the values'
// shape indices live in MemoryAnalysis::storage, which copies share: they
// stay valid in a copy whose original is gone.
TEST(LiveRange, CopiesKeepRestoredNamesAndIndices) {
  Analyzed r = Analyze(R"(HloModule m, is_scheduled=true
ENTRY %main (p: (s32[], f32[8])) -> f32[8] {
  %p = (s32[], f32[8]{0}) parameter(0)
  ROOT %out = f32[8]{0} negate(%p#1)
})");
  auto original = std::make_unique<MemoryAnalysis>(std::move(r.analysis));
  const MemoryAnalysis copy = *original;
  original.reset();
  EXPECT_THAT(Sequence(copy), ::testing::ElementsAre("p", "p#1", "out"));
  EXPECT_EQ(copy.instructions[1].name(), "p#1");
  EXPECT_EQ(copy.instructions[1].opcode(), "get-tuple-element");
  // Its shape is its own record's; the others' are their instructions'.
  EXPECT_EQ(copy.instructions[1].source(), nullptr);
  ASSERT_NE(copy.instructions[1].restored(), nullptr);
  ASSERT_NE(copy.instructions[1].shape(), nullptr);
  EXPECT_EQ(copy.instructions[1].shape()->ToString(true), "f32[8]{0}");
  ASSERT_NE(copy.instructions[0].source(), nullptr);
  EXPECT_EQ(copy.instructions[0].restored(), nullptr);
  EXPECT_EQ(copy.instructions[0].shape(), copy.instructions[0].source()->shape);
  EXPECT_EQ(copy.instructions[2].shape()->ToString(true), "f32[8]{0}");
  // A record made empty names and shapes nothing.
  const ScheduledInstruction empty;
  EXPECT_EQ(empty.source(), nullptr);
  EXPECT_EQ(empty.restored(), nullptr);
  EXPECT_EQ(empty.shape(), nullptr);
  EXPECT_EQ(empty.name(), "");
  std::vector<std::string> indexed;
  for (const LiveValue& v : copy.values) {
    indexed.push_back(absl::StrCat(copy.instructions[v.instruction].name(),
                                   ShapeIndexString(v.index())));
  }
  EXPECT_THAT(indexed, ::testing::ElementsAre("p{}", "p{0}", "p{1}", "out{}"));
}

TEST(LiveRange, ConditionalCopyStartAndMemorySpaces) {
  const Analyzed r = Analyze(R"(HloModule m, is_scheduled=true
%t (a: f32[4]) -> f32[4] {
  %a = f32[4]{0} parameter(0)
  ROOT %na = f32[4]{0} negate(%a)
}
%f (b: f32[4]) -> f32[4] {
  ROOT %b = f32[4]{0} parameter(0)
}
ENTRY %main (p: pred[], x: f32[4]) -> (f32[4], f32[4]) {
  %p = pred[] parameter(0)
  %x = f32[4]{0} parameter(1)
  %cs = (f32[4]{0:S(1)}, f32[4]{0}, u32[]) copy-start(%x)
  %cd = f32[4]{0:S(1)} copy-done(%cs)
  %c = f32[4]{0} conditional(%p, %x, %x), true_computation=%t, false_computation=%f
  ROOT %out = (f32[4]{0:S(1)}, f32[4]{0}) tuple(%cd, %c)
})");
  const MemoryAnalysis& a = r.analysis;
  EXPECT_THAT(Sequence(a), ::testing::ElementsAre("p", "x", "cs", "cd", "a",
                                                  "na", "b", "c", "out"));
  // copy-start defines {}, {0} and {2}; {1} is x.
  EXPECT_EQ(Range(a, "cs", {}), "2-3");
  EXPECT_EQ(Range(a, "cs", {0}), "2-9");  // copy-done forwards it to ROOT
  EXPECT_EQ(Range(a, "cs", {1}), "none");
  EXPECT_EQ(Range(a, "cs", {2}), "2-3");
  EXPECT_EQ(Range(a, "cd", {}), "none");
  // The conditional's phi merges na and x: one buffer.
  EXPECT_EQ(Range(a, "x", {}), "0-5");
  EXPECT_EQ(Range(a, "na", {}), "5-7");
  EXPECT_EQ(Range(a, "c", {}), "7-9");
  EXPECT_EQ(Range(a, "a", {}), "none");  // the branch parameter is x
  ASSERT_EQ(a.space_peaks.size(), 2u);
  EXPECT_EQ(a.space_peaks[1].memory_space, 1);
  EXPECT_EQ(a.space_peaks[1].bytes, 16);
  EXPECT_EQ(a.space_peaks[1].time, 2);
}

// Found by UBSan: nine values of 2^60-1 bytes each summed past int64 in
// the peak's sweep. The sum is checked once, before any sweep.
TEST(LiveRange, LiveBytesPastInt64AreRefused) {
  std::string text = "HloModule m\nENTRY e {\n";
  for (int i = 0; i < 9; ++i) {
    absl::StrAppend(&text, " a", i, " = u8[1152921504606846975]{0} parameter(",
                    i, ")\n");
  }
  text += " ROOT t = (u8[1152921504606846975]{0}) tuple(a0)\n}\n";
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
  ASSERT_TRUE(modules.ok()) << modules.status();
  MemoryAnalysisOptions options;
  options.allow_unscheduled = true;
  absl::StatusOr<MemoryAnalysis> analysis =
      AnalyzeMemory((*modules)[0], options);
  ASSERT_FALSE(analysis.ok());
  EXPECT_THAT(analysis.status().message(), HasSubstr("pass 2^63-1 bytes"));
  // Eight of them fit: 8 * (2^60-1) < 2^63-1.
  std::string fits = "HloModule m\nENTRY e {\n";
  for (int i = 0; i < 7; ++i) {
    absl::StrAppend(&fits, " a", i, " = u8[1152921504606846975]{0} parameter(",
                    i, ")\n");
  }
  fits += " ROOT t = (u8[1152921504606846975]{0}) tuple(a0)\n}\n";
  modules = ReadHloModules(fits);
  ASSERT_TRUE(modules.ok()) << modules.status();
  analysis = AnalyzeMemory((*modules)[0], options);
  ASSERT_TRUE(analysis.ok()) << analysis.status();
  EXPECT_EQ(analysis->peak.bytes, 7 * 1152921504606846975 + 8);
}

// Found by fuzz/memory_fuzzer.cc: a loop body whose root has another
// shape than the loop state was followed to an index it does not have.
TEST(LiveRange, LoopWhoseBodyDoesNotFitIsRefused) {
  absl::StatusOr<std::vector<HloModule>> modules =
      ReadHloModules(R"(HloModule m, is_scheduled=true
%cond (c: (s32[], f32[8])) -> pred[] {
  %c = (s32[], f32[8]{0}) parameter(0)
  %z = s32[] constant(3)
  ROOT %lt = pred[] compare(%c#0, %z), direction=LT
}
%body {
  %b = (s32[], f32[8]{0}) parameter(0)
  ROOT %i = s32[] constant(1)
}
ENTRY %main (x: f32[8]) -> f32[8] {
  %x = f32[8]{0} parameter(0)
  %k = s32[] constant(0)
  %init = (s32[], f32[8]{0}) tuple(%k, %x)
  %w = (s32[], f32[8]{0}) while(%init), condition=%cond, body=%body
  ROOT %out = f32[8]{0} bitcast(%w#1)
})");
  ASSERT_TRUE(modules.ok()) << modules.status();
  absl::StatusOr<MemoryAnalysis> analysis = AnalyzeMemory((*modules)[0]);
  ASSERT_FALSE(analysis.ok());
  EXPECT_THAT(analysis.status().message(), HasSubstr("do not fit"));
}

// A loop state shared by two loops, the second one's init without the
// nested tuple: the parameters' positions are set all at once, and a
// caller that does not fit is reported at the first position it misses,
// as one position after the other found it.
TEST(LiveRange, SharedLoopStateReportsTheFirstPositionThatDoesNotFit) {
  absl::StatusOr<std::vector<HloModule>> modules =
      ReadHloModules(R"(HloModule m, is_scheduled=true
%cond (c: (s32[], (f32[8], f32[8]))) -> pred[] {
  %c = (s32[], (f32[8]{0}, f32[8]{0})) parameter(0)
  %z = s32[] constant(3)
  ROOT %lt = pred[] compare(%c#0, %z), direction=LT
}
%body {
  %b = (s32[], (f32[8]{0}, f32[8]{0})) parameter(0)
  ROOT %r = (s32[], (f32[8]{0}, f32[8]{0})) copy(%b)
}
ENTRY %main (x: f32[8]) -> f32[8] {
  %x = f32[8]{0} parameter(0)
  %k = s32[] constant(0)
  %p = (f32[8]{0}, f32[8]{0}) tuple(%x, %x)
  %init = (s32[], (f32[8]{0}, f32[8]{0})) tuple(%k, %p)
  %init2 = (s32[], f32[8]{0}) tuple(%k, %x)
  %w = (s32[], (f32[8]{0}, f32[8]{0})) while(%init), condition=%cond, body=%body
  %w2 = (s32[], (f32[8]{0}, f32[8]{0})) while(%init2), condition=%cond, body=%body
  ROOT %out = f32[8]{0} bitcast(%w#0)
})");
  ASSERT_TRUE(modules.ok()) << modules.status();
  absl::StatusOr<MemoryAnalysis> analysis = AnalyzeMemory((*modules)[0]);
  ASSERT_FALSE(analysis.ok());
  EXPECT_EQ(analysis.status().message(),
            "parameter 'c' at index {1,0}: the shapes of its caller and "
            "callee computations do not fit");
}

TEST(LiveRange, UnscheduledModulesAreRefused) {
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(
      "HloModule m\nENTRY %e (p: f32[2]) -> f32[2] {\n"
      "  ROOT %p = f32[2]{0} parameter(0)\n}\n");
  ASSERT_TRUE(modules.ok());
  absl::StatusOr<MemoryAnalysis> analysis = AnalyzeMemory((*modules)[0]);
  ASSERT_FALSE(analysis.ok());
  EXPECT_THAT(analysis.status().message(), HasSubstr("is not scheduled"));
}

// A module built by hand whose entry_index names no computation is refused,
// not read past its end.
TEST(LiveRange, EntryIndexOutOfRangeIsRefused) {
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(
      "HloModule m, is_scheduled=true\nENTRY %e (p: f32[2]) -> f32[2] {\n"
      "  ROOT %p = f32[2]{0} parameter(0)\n}\n");
  ASSERT_TRUE(modules.ok());
  HloModule& m = (*modules)[0];
  for (const int64_t entry : {int64_t{-1}, int64_t{1}, int64_t{7}}) {
    m.entry_index = entry;
    absl::StatusOr<MemoryAnalysis> analysis = AnalyzeMemory(m);
    ASSERT_FALSE(analysis.ok()) << entry;
    EXPECT_EQ(analysis.status().message(), "module has no entry computation");
  }
}

// XLA numbers a computation's parameters 0 to N-1. A larger number is
// refused: the parameters are indexed by number (parameter(2000000000) of a
// 100-byte text asked for 16 GB). The reader refuses such a text
// (hlo:HloReaderStrictTest); a module edited after reading is refused here.
TEST(LiveRange, ParameterNumberPastTheParametersIsRefused) {
  const auto status_of = [](int32_t number) {
    absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(
        "HloModule m, is_scheduled=true\nENTRY %e (p: f32[2]) -> f32[2] {\n"
        "  %q = f32[2]{0} parameter(1)\n"
        "  ROOT %p = f32[2]{0} parameter(0)\n}\n");
    EXPECT_TRUE(modules.ok()) << modules.status();
    if (!modules.ok()) return modules.status();
    HloModule& m = (*modules)[0];
    m.computations[m.entry_index].instructions[1].parameter_number = number;
    return AnalyzeMemory(m).status();
  };
  EXPECT_EQ(status_of(2000000000).message(),
            "parameter 'p' of 'e' is numbered 2000000000, but 'e' has 2 "
            "parameters (XLA numbers them from 0 to 1)");
  EXPECT_TRUE(status_of(0).ok());
}

// Get-tuple-elements of nested tuples forward the element they select, at
// every depth (element i of a tuple is found through its offsets table,
// Subshape::children): each xN lives until the instruction that reads it
// through get-tuple-elements of the nested tuple t, and no longer.
TEST(LiveRange, NestedGetTupleElementsForwardTheirElement) {
  const Analyzed a = Analyze(R"(HloModule m, is_scheduled=true
ENTRY main {
  p = f32[8]{0} parameter(0)
  x1 = f32[8]{0} negate(p)
  x2 = f32[8]{0} negate(p)
  x3 = f32[8]{0} negate(p)
  x4 = f32[8]{0} negate(p)
  x5 = f32[8]{0} negate(p)
  i = (f32[8]{0}, f32[8]{0}) tuple(x2, x3)
  o = (f32[8]{0}, (f32[8]{0}, f32[8]{0})) tuple(x1, i)
  l = (f32[8]{0}) tuple(x5)
  t = ((f32[8]{0}, (f32[8]{0}, f32[8]{0})), f32[8]{0}, (f32[8]{0})) tuple(o, x4, l)
  a = (f32[8]{0}, (f32[8]{0}, f32[8]{0})) get-tuple-element(t), index=0
  b = (f32[8]{0}, f32[8]{0}) get-tuple-element(a), index=1
  c = f32[8]{0} get-tuple-element(b), index=1
  u3 = f32[8]{0} negate(c)
  d = f32[8]{0} get-tuple-element(t), index=1
  u4 = f32[8]{0} negate(d)
  e = (f32[8]{0}) get-tuple-element(t), index=2
  f = f32[8]{0} get-tuple-element(e), index=0
  u5 = f32[8]{0} negate(f)
  g = f32[8]{0} get-tuple-element(b), index=0
  u2 = f32[8]{0} negate(g)
  ROOT r = (f32[8]{0}, f32[8]{0}, f32[8]{0}, f32[8]{0}) tuple(u3, u4, u5, u2)
}
)");
  const std::vector<std::string> order = Sequence(a.analysis);
  const auto time_of = [&](absl::string_view name) {
    return std::find(order.begin(), order.end(), name) - order.begin();
  };
  for (const auto& [x, user] : std::vector<std::pair<std::string, std::string>>{
           {"x2", "u2"}, {"x3", "u3"}, {"x4", "u4"}, {"x5", "u5"}}) {
    EXPECT_EQ(Range(a.analysis, x, {}),
              absl::StrCat(time_of(x), "-", time_of(user)))
        << x;
  }
}

// The analyses walk the call graph by recursion: calls nested past
// kMaxCallDepth are refused (50,000 deep overflowed the stack), and so are
// cycles, which XLA's call graph has not. The reader refuses a cycle in a
// text (a callee is defined before its callers: hlo:HloReaderStrictTest);
// here %b's call of %c is turned into a call of %a or of %b itself after
// reading.
TEST(LiveRange, CallsNestedPastTheLimitAreRefused) {
  const auto status_of = [](const std::string& text) {
    absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
    EXPECT_TRUE(modules.ok()) << modules.status();
    return modules.ok() ? AnalyzeMemory((*modules)[0]).status()
                        : modules.status();
  };
  EXPECT_TRUE(status_of(CallChainModule(kMaxCallDepth)).ok());
  EXPECT_EQ(status_of(CallChainModule(kMaxCallDepth + 1)).message(),
            "calls are nested more than 1000 computations deep from 'e' (the "
            "memory analysis follows at most 1000)");
  EXPECT_EQ(status_of(CallChainModule(kMaxCallDepth + 5001)).message(),
            "calls are nested more than 1000 computations deep from 'c4999' "
            "(the memory analysis follows at most 1000)");
  const auto cycle_status = [](absl::string_view target) {
    absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(
        "HloModule m, is_scheduled=true\n"
        "%c (p: f32[4]) -> f32[4] {\n  ROOT %p = f32[4]{0} parameter(0)\n}\n"
        "%b (p: f32[4]) -> f32[4] {\n  %p = f32[4]{0} parameter(0)\n"
        "  ROOT %r = f32[4]{0} call(f32[4]{0} %p), to_apply=%c\n}\n"
        "%a (p: f32[4]) -> f32[4] {\n  %p = f32[4]{0} parameter(0)\n"
        "  ROOT %r = f32[4]{0} call(f32[4]{0} %p), to_apply=%b\n}\n"
        "ENTRY %e (x: f32[4]) -> f32[4] {\n  %x = f32[4]{0} parameter(0)\n"
        "  ROOT %r = f32[4]{0} call(f32[4]{0} %x), to_apply=%a\n}\n");
    EXPECT_TRUE(modules.ok()) << modules.status();
    if (!modules.ok()) return modules.status();
    HloModule& m = (*modules)[0];
    int32_t b = -1, to = -1;
    for (size_t c = 0; c < m.computations.size(); ++c) {
      if (m.computations[c].header.name == "b") b = static_cast<int32_t>(c);
      if (m.computations[c].header.name == target) {
        to = static_cast<int32_t>(c);
      }
    }
    EXPECT_GE(b, 0);
    EXPECT_GE(to, 0);
    const HloInstruction& call = m.computations[b].instructions[1];
    EXPECT_EQ(m.callees(call).size(), 1u);
    m.callee_indices[call.first_callee] = to;
    return AnalyzeMemory(m).status();
  };
  // %b, before %a, is where the walk meets the cycle b -> a -> b.
  EXPECT_EQ(cycle_status("a").message(),
            "computation 'b' calls itself through other computations (XLA's "
            "computations call each other without cycles)");
  EXPECT_EQ(cycle_status("b").message(),
            "computation 'b' calls itself (XLA's computations call each other "
            "without cycles)");
}

// A call of a computation the module does not have (a module read past
// errors lists it as -1) is refused, naming the first such call in text
// order, wherever it is.
TEST(LiveRange, TheFirstUnknownCalleeIsNamed) {
  const auto status_of = [](absl::string_view a_calls,
                            absl::string_view e_calls) {
    const std::string text = absl::StrReplaceAll(
        "HloModule m, is_scheduled=true\n"
        "%leaf (p: f32[4]) -> f32[4] {\n  %p = f32[4]{0} parameter(0)\n"
        "  ROOT %n = f32[4]{0} negate(f32[4]{0} %p)\n}\n"
        "%a (p: f32[4]) -> f32[4] {\n  %p = f32[4]{0} parameter(0)\n"
        "  ROOT %ra = f32[4]{0} call(f32[4]{0} %p), to_apply=%A_CALLS\n}\n"
        "ENTRY %e (x: f32[4]) -> f32[4] {\n  %x = f32[4]{0} parameter(0)\n"
        "  %y = f32[4]{0} call(f32[4]{0} %x), to_apply=%a\n"
        "  ROOT %re = f32[4]{0} call(f32[4]{0} %y), to_apply=%E_CALLS\n}\n",
        {{"A_CALLS", a_calls}, {"E_CALLS", e_calls}});
    HloReadOptions keep_going;
    keep_going.keep_going = true;
    std::vector<absl::Status> errors;
    absl::StatusOr<std::vector<HloModule>> modules =
        ReadHloModules(text, keep_going, &errors);
    EXPECT_TRUE(modules.ok()) << modules.status();
    return modules.ok() ? AnalyzeMemory((*modules)[0]).status()
                        : modules.status();
  };
  EXPECT_TRUE(status_of("leaf", "leaf").ok()) << status_of("leaf", "leaf");
  EXPECT_EQ(status_of("nowhere", "leaf").message(),
            "instruction 'ra' calls unknown computation 'nowhere'");
  EXPECT_EQ(status_of("leaf", "gone").message(),
            "instruction 're' calls unknown computation 'gone'");
  EXPECT_EQ(status_of("first", "second").message(),
            "instruction 'ra' calls unknown computation 'first'");
}

// With allow_unscheduled the text order stands in for the schedule: the
// values and the buffers they share are those of the same module marked
// scheduled (a comparison of the library with itself), and the loop's
// state (x, the body's v and the loop's phis) is one buffer, as XLA's rule
// for while loops says.
TEST(LiveRange, UnscheduledModulesGiveTheirBuffersOnRequest) {
  const std::string body = R"(
%cond (c: (s32[], f32[8])) -> pred[] {
  %c = (s32[], f32[8]{0}) parameter(0)
  %z = s32[] constant(3)
  ROOT %lt = pred[] compare(%c#0, %z), direction=LT
}
%body (b: (s32[], f32[8])) -> (s32[], f32[8]) {
  %b = (s32[], f32[8]{0}) parameter(0)
  %one = s32[] constant(1)
  %i = s32[] add(%b#0, %one)
  %v = f32[8]{0} negate(%b#1)
  ROOT %r = (s32[], f32[8]{0}) tuple(%i, %v)
}
ENTRY %main (x: f32[8]) -> f32[8] {
  %x = f32[8]{0} parameter(0)
  %k = s32[] constant(0)
  %init = (s32[], f32[8]{0}) tuple(%k, %x)
  %w = (s32[], f32[8]{0}) while(%init), condition=%cond, body=%body
  ROOT %out = f32[8]{0} bitcast(%w#1)
})";
  // "name{index}" of every value, grouped by buffer.
  auto buffers = [](const std::string& header, bool* scheduled) {
    absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(header);
    EXPECT_TRUE(modules.ok()) << modules.status();
    MemoryAnalysisOptions options;
    options.keep_dataflow = true;
    options.allow_unscheduled = true;
    absl::StatusOr<MemoryAnalysis> a = AnalyzeMemory((*modules)[0], options);
    EXPECT_TRUE(a.ok()) << a.status();
    std::map<int64_t, std::set<std::string>> by_buffer;
    for (size_t v = 0; v < a->values.size(); ++v) {
      const LiveValue& value = a->values[v];
      if (value.instruction < 0) continue;
      by_buffer[a->dataflow->value_buffer[v]].insert(absl::StrCat(
          a->instructions[value.instruction].name(),
          ShapeIndexString(value.index()), value.is_phi ? " (phi)" : ""));
    }
    *scheduled = a->scheduled;
    std::set<std::set<std::string>> out;
    for (auto& [root, names] : by_buffer) out.insert(names);
    return out;
  };
  bool scheduled = false, unscheduled = true;
  const auto expected =
      buffers("HloModule m, is_scheduled=true" + body, &scheduled);
  const auto got = buffers("HloModule m" + body, &unscheduled);
  EXPECT_TRUE(scheduled);
  EXPECT_FALSE(unscheduled);
  EXPECT_EQ(got, expected);
  bool found = false;
  for (const auto& names : got) {
    if (names.count("x{}") > 0) {
      found = true;
      EXPECT_EQ(names.count("v{}"), 1u);
    }
  }
  EXPECT_TRUE(found);
}

// XLA's own files (memory/testdata, written by the XLA in jaxlib 0.11.2
// with --xla_dump_to): the module and its -live-range.txt.
std::string ReadFile(const std::string& path) {
  std::ifstream in(TestDataPath(path));
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct XlaDump {
  std::vector<std::string> sequence;
  std::set<std::string> ranges;
  std::string header, peak;  // "HloLiveRange (max T):", the peak section
  std::string stack;         // "Stack trace breakdown for peak usage"
};

XlaDump ParseDump(const std::string& text) {
  XlaDump d;
  int section = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (absl::StartsWith(line, "HloLiveRange")) {
      d.header = std::string(line);
    } else if (line == "  InstructionSequence:") {
      section = 1;
    } else if (line == "  BufferLiveRange:") {
      section = 2;
    } else if (absl::StartsWith(line, "  Live ranges at")) {
      section = 3;
      d.peak += std::string(line) + "\n";
    } else if (absl::StartsWith(line, "  Stack trace")) {
      section = 4;
      d.stack += std::string(line) + "\n";
    } else if (section == 1 && !line.empty()) {
      d.sequence.push_back(std::string(line.substr(line.find(':') + 1)));
    } else if (section == 2 && !line.empty()) {
      d.ranges.insert(std::string(line));
    } else if (section == 3 && !line.empty()) {
      d.peak += std::string(line) + "\n";
    } else if (section == 4 && !line.empty()) {
      d.stack += std::string(line) + "\n";
    }
  }
  return d;
}

// Determinism, not correctness (the library against itself): the analysis
// reads what the reader recorded of the attributes
// (HloInstruction::attribute_facts) instead of the attributes: the answer
// is the same as for the same module with the facts forgotten, whose
// attributes are read. Loops written body first and condition first,
// get-tuple-elements, metadata anywhere or nowhere, control predecessors,
// a custom call that aliases, and XLA's own modules.
TEST(LiveRangeDeterminism, RecordedAttributesGiveTheAnswerOfTheAttributes) {
  const std::string written = R"(HloModule m, is_scheduled=true
%cond (c: (s32[], f32[8])) -> pred[] {
  %c = (s32[], f32[8]{0}) parameter(0)
  %z = s32[] constant(3), metadata={op_name="z"}
  %c0 = s32[] get-tuple-element(%c), index=0
  ROOT %lt = pred[] compare(%c0, %z), direction=LT
}
%body (b: (s32[], f32[8])) -> (s32[], f32[8]) {
  %b = (s32[], f32[8]{0}) parameter(0)
  %one = s32[] constant(1)
  %b0 = s32[] get-tuple-element(%b), index=0, metadata={op_name="b0"}
  %b1 = f32[8]{0} get-tuple-element(%b), metadata={op_name="b1"}, index=1
  %i = s32[] add(%b0, %one)
  %v = f32[8]{0} custom-call(%b1), custom_call_target="f", output_to_operand_aliasing={{}: (0, {})}
  ROOT %r = (s32[], f32[8]{0}) tuple(%i, %v)
}
ENTRY %main (x: f32[8]) -> f32[8] {
  %x = f32[8]{0} parameter(0)
  %k = s32[] constant(0)
  %init = (s32[], f32[8]{0}) tuple(%k, %x)
  %w = (s32[], f32[8]{0}) while(%init), body=%body, condition=%cond, metadata={op_name="w"}
  %w1 = f32[8]{0} get-tuple-element(%w), index=1
  %n = f32[8]{0} negate(%w1)
  %m = f32[8]{0} negate(%x)
  %a = f32[8]{0} custom-call(%n), custom_call_target="g", output_to_operand_aliasing={{}: (0, {})}
  %init2 = (s32[], f32[8]{0}) tuple(%k, %a), control-predecessors={%w}
  %w2 = (s32[], f32[8]{0}) while(%init2), condition=%cond, body=%body
  ROOT %out = f32[8]{0} get-tuple-element(%w2), index=1
})";
  std::vector<std::string> texts = {written};
  for (const char* name :
       {"module_105197.jit_mlp_step.sm_9.0a_gpu_after_optimizations",
        "module_486067.jit_scan_cond.sm_9.0a_gpu_after_optimizations",
        "module_519822.jit_misc.sm_9.0a_gpu_after_optimizations",
        "module_0002.jit_lstm.cpu_after_optimizations"}) {
    texts.push_back(ReadFile(absl::StrCat("memory/testdata/", name, ".txt")));
  }
  // The live ranges, each instruction's metadata and the buffers (which
  // values XLA's alias analysis puts together).
  const auto describe = [](const MemoryAnalysis& a) {
    std::string out = XlaLiveRangeText(a);
    for (const ScheduledInstruction& s : a.instructions) {
      absl::StrAppend(&out, s.name(), " ", s.metadata(), "\n");
    }
    if (a.dataflow != nullptr) {
      absl::StrAppend(&out, absl::StrJoin(a.dataflow->value_buffer, ","));
    }
    return out;
  };
  MemoryAnalysisOptions options;
  options.keep_dataflow = true;
  for (const std::string& text : texts) {
    const Analyzed recorded = Analyze(text, options);
    ASSERT_FALSE(recorded.modules.empty());
    HloModule forgotten = recorded.modules[0];
    int64_t known = 0;
    for (HloComputation& c : forgotten.computations) {
      for (HloInstruction& in : c.instructions) {
        known += (in.attribute_facts & kHloFactsKnown) != 0;
        in.attribute_facts = kHloFactsUnknown;
        in.metadata_attribute = HloInstruction::kAskAttributes;
        in.decoded_attribute = HloInstruction::kAskAttributes;
      }
    }
    EXPECT_EQ(known, recorded.modules[0].instruction_count());
    absl::StatusOr<MemoryAnalysis> read = AnalyzeMemory(forgotten, options);
    ASSERT_TRUE(read.ok()) << read.status();
    EXPECT_EQ(describe(recorded.analysis), describe(*read))
        << text.substr(0, 80);
  }
}

class XlaPairs : public ::testing::TestWithParam<const char*> {};

TEST_P(XlaPairs, MatchXlasLiveRangeDump) {
  const std::string base = absl::StrCat("memory/testdata/", GetParam());
  const std::string text = ReadFile(base + ".txt");
  ASSERT_FALSE(text.empty()) << base;
  const XlaDump want = ParseDump(ReadFile(base + "-live-range.txt"));
  const Analyzed r = Analyze(text);
  const XlaDump got = ParseDump(XlaLiveRangeText(r.analysis));
  EXPECT_EQ(got.header, want.header);
  // The schedule: XLA's get-tuple-elements that the text folded into
  // `name#N` operands come back as "name#N" (their names are not in the
  // text); every other name at its time.
  ASSERT_EQ(got.sequence.size(), want.sequence.size());
  for (size_t t = 0; t < got.sequence.size(); ++t) {
    if (absl::StrContains(got.sequence[t], "#")) continue;
    EXPECT_EQ(got.sequence[t], want.sequence[t]) << "time " << t;
  }
  EXPECT_EQ(got.ranges, want.ranges);
  EXPECT_EQ(got.peak, want.peak);
  ASSERT_FALSE(want.stack.empty());
  EXPECT_EQ(got.stack, want.stack);
}

// An MLP train step, a scan with a cond inside, a loop of
// dynamic-update-slices, a 12-element tuple of multi-output fusions, a
// sort/top-k/FFT/gather/scatter module (XLA:GPU), an LSTM gradient
// (XLA:CPU).
INSTANTIATE_TEST_SUITE_P(
    Exact, XlaPairs,
    ::testing::Values(
        "module_105197.jit_mlp_step.sm_9.0a_gpu_after_optimizations",
        "module_486067.jit_scan_cond.sm_9.0a_gpu_after_optimizations",
        "module_317483.jit_dus_loop.sm_9.0a_gpu_after_optimizations",
        "module_342634.jit_big_tuple.sm_9.0a_gpu_after_optimizations",
        "module_519822.jit_misc.sm_9.0a_gpu_after_optimizations",
        "module_0002.jit_lstm.cpu_after_optimizations"));

// Which of XLA's schedulers, replayed, reproduces each module's text (and
// so placed its folded get-tuple-elements). In the 12-element tuple
// module the list scheduler runs the scalar `loop_add_fusion` before the
// last fusion's other get-tuple-element; in the sort/FFT module the DFS
// scheduler runs the FFT before the get-tuple-element only the ROOT reads.
TEST(XlaPairs, ReplayedScheduler) {
  const std::pair<const char*, const char*> cases[] = {
      {"module_342634.jit_big_tuple.sm_9.0a_gpu_after_optimizations", "list"},
      {"module_519822.jit_misc.sm_9.0a_gpu_after_optimizations", "dfs"},
      {"module_486067.jit_scan_cond.sm_9.0a_gpu_after_optimizations", "list"},
      {"module_0002.jit_lstm.cpu_after_optimizations", "dfs, parameters first"},
      {"module_317483.jit_dus_loop.sm_9.0a_gpu_after_optimizations", "list"},
  };
  for (const auto& c : cases) {
    const Analyzed r =
        Analyze(ReadFile(absl::StrCat("memory/testdata/", c.first, ".txt")));
    EXPECT_EQ(r.analysis.replayed_scheduler, c.second) << c.first;
  }
}

}  // namespace
}  // namespace hlolayout

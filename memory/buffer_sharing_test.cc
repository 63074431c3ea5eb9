// The rules of docs/memory.md, "Buffer sharing rules", condition by
// condition: "A fusion writing an output over an operand (XLA:GPU)" on
// small fusions (GpuFusionSharing), then the decision's steps, what is
// written in place, XLA:GPU's other hints, the generic rules and the
// elementwise rules (visit order included). Each expected answer is read
// off the statement (not off the code, nor off the XLA functions the rules
// come from).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/memory/buffer_assignment_internal.h"
#include "hlolayout/memory/live_range.h"

namespace hlolayout {
namespace {

// A module whose entry passes its parameters %a, %b (f32[4,4] unless
// given), %i, %j (s32[]) to fusion %f of kind KIND, whose body is BODY
// (parameters p0, p1: a and b; p2, p3: i and j) of result type RESULT.
std::string Module(absl::string_view kind, absl::string_view body,
                   absl::string_view result = "f32[4,4]{1,0}",
                   absl::string_view b_type = "f32[4,4]{1,0}") {
  return absl::StrReplaceAll(
      R"(HloModule m, is_scheduled=true

%sum (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(%x, %y)
}

%less (x: f32[], y: f32[], z: f32[], w: f32[]) -> pred[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  %z = f32[] parameter(2)
  %w = f32[] parameter(3)
  ROOT %lt = pred[] compare(%x, %y), direction=LT
}

%body (p0: f32[4,4], p1: B, p2: s32[], p3: s32[]) -> RESULT {
  %p0 = f32[4,4]{1,0} parameter(0)
  %p1 = B parameter(1)
  %p2 = s32[] parameter(2)
  %p3 = s32[] parameter(3)
BODY
}

ENTRY %main (a: f32[4,4], b: B, i: s32[], j: s32[]) -> RESULT {
  %a = f32[4,4]{1,0} parameter(0)
  %b = B parameter(1)
  %i = s32[] parameter(2)
  %j = s32[] parameter(3)
  ROOT %f = RESULT fusion(%a, %b, %i, %j), kind=KIND, calls=%body
}
)",
      {{"BODY", body}, {"RESULT", result}, {"KIND", kind}, {"B", b_type}});
}

// Whether XLA:GPU lets fusion %f write its output at `output` over the
// buffer of entry parameter `operand` ("a" or "b").
bool Shares(const std::string& text, absl::string_view operand,
            std::vector<int64_t> output = {}) {
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
  EXPECT_TRUE(modules.ok()) << modules.status();
  if (!modules.ok()) return false;
  MemoryAnalysisOptions options;
  options.keep_dataflow = true;
  absl::StatusOr<MemoryAnalysis> analysis =
      AnalyzeMemory((*modules)[0], options);
  EXPECT_TRUE(analysis.ok()) << analysis.status();
  if (!analysis.ok()) return false;
  buffer_internal::ModuleGraph graph((*modules)[0], *analysis);
  int64_t user = -1, from = -1;
  for (size_t n = 0; n < graph.df.nodes.size(); ++n) {
    if (graph.df.nodes[n].source == nullptr) continue;
    if (graph.df.nodes[n].name == "f") user = static_cast<int64_t>(n);
    if (graph.df.nodes[n].name == operand) from = static_cast<int64_t>(n);
  }
  EXPECT_GE(user, 0);
  EXPECT_GE(from, 0);
  if (user < 0 || from < 0) return false;
  return buffer_internal::CanShareOperandBufferWithUser(
      graph, XlaPlatform::kGpu, from, {}, user, output);
}

TEST(GpuFusionSharing, ElementwisePathShares) {
  EXPECT_TRUE(Shares(Module("kLoop", R"(
  %n = f32[4,4]{1,0} negate(%p0)
  ROOT %m = f32[4,4]{1,0} multiply(%n, %p1))"),
                     "a"));
}

TEST(GpuFusionSharing, ACopyOnThePathDoesNot) {
  // 3.2: a copy is elementwise but not allowed.
  EXPECT_FALSE(Shares(Module("kLoop", R"(
  %c = f32[4,4]{1,0} copy(%p0)
  ROOT %n = f32[4,4]{1,0} negate(%c))"),
                      "a"));
}

TEST(GpuFusionSharing, RoomIsElementsAndByteWidth) {
  // 1: f32[16] holds f32[4,4]; s32 has f32's width; f16 has not.
  EXPECT_TRUE(Shares(Module("kLoop", R"(
  ROOT %r = f32[4,4]{1,0} bitcast(%p1))",
                            "f32[4,4]{1,0}", "f32[16]{0}"),
                     "b"));
  EXPECT_TRUE(Shares(Module("kLoop", R"(
  ROOT %r = s32[4,4]{1,0} convert(%p0))",
                            "s32[4,4]{1,0}"),
                     "a"));
  EXPECT_FALSE(Shares(Module("kLoop", R"(
  ROOT %r = f16[4,4]{1,0} convert(%p0))",
                             "f16[4,4]{1,0}"),
                      "a"));
}

TEST(GpuFusionSharing, NoPathToTheOutputDoesNot) {
  // 2: %a reaches only a dead end.
  EXPECT_FALSE(Shares(Module("kLoop", R"(
  %n = f32[4,4]{1,0} negate(%p0)
  ROOT %r = f32[4,4]{1,0} negate(%p1))"),
                      "a"));
}

// A root dynamic-update-slice or scatter of a parameter is an in-place
// pair (decided before the hint, "When a value takes its operand's place"):
// the cases below put the writer under a bitcast root, or behind a negate,
// so that the hint decides.

// ROOT bitcast(a dynamic-update-slice of p0 at (p2, p3) by the negated
// dynamic-slice of p0 at `ds_indices`, of sizes `sizes`).
std::string SliceUpdate(absl::string_view ds_indices,
                        absl::string_view sizes = "2,2") {
  const std::string t = absl::StrCat("f32[", sizes, "]{1,0}");
  return Module(
      "kLoop",
      absl::StrCat("  %ds = ", t, " dynamic-slice(%p0, ", ds_indices,
                   "), dynamic_slice_sizes={", sizes, "}\n  %n = ", t,
                   " negate(%ds)\n",
                   "  %u = f32[4,4]{1,0} dynamic-update-slice(%p0, %n, %p2, "
                   "%p3)\n  ROOT %r = f32[16]{0} bitcast(%u)"),
      "f32[16]{0}");
}

TEST(GpuFusionSharing, ADynamicSliceOfTheSlotTheRootWrites) {
  // 3.6 (and 3.2 for slot 0, 3.3 for the update): the same start indices,
  // or single elements, share; other indices do not.
  EXPECT_TRUE(Shares(SliceUpdate("%p2, %p3"), "a"));
  EXPECT_FALSE(Shares(SliceUpdate("%p3, %p2"), "a"));
  EXPECT_TRUE(Shares(SliceUpdate("%p3, %p2", "1,1"), "a"));
}

TEST(GpuFusionSharing, AScatterRootTakesAnInputOnce) {
  // 3.4: %a is the scatter's input; given as its updates too, it is there
  // twice.
  const char* kScatter =
      "  %s = f32[4,4]{1,0} scatter(%p0, %p2, %UPDATES), "
      "update_window_dims={0,1}, inserted_window_dims={}, "
      "scatter_dims_to_operand_dims={0}, index_vector_dim=0, to_apply=%sum\n"
      "  ROOT %r = f32[16]{0} bitcast(%s)";
  EXPECT_TRUE(
      Shares(Module("kLoop", absl::StrReplaceAll(kScatter, {{"UPDATES", "p1"}}),
                    "f32[16]{0}"),
             "a"));
  EXPECT_FALSE(
      Shares(Module("kLoop", absl::StrReplaceAll(kScatter, {{"UPDATES", "p0"}}),
                    "f32[16]{0}"),
             "a"));
}

TEST(GpuFusionSharing, ASortRootSortsEachOperandInPlace) {
  // 3.5: output {0} over sort operand 0, not output {1}.
  const std::string sort = Module("kLoop", R"(
  ROOT %s = (f32[4,4]{1,0}, f32[4,4]{1,0}) sort(%p0, %p1), dimensions={0}, to_apply=%less)",
                                  "(f32[4,4]{1,0}, f32[4,4]{1,0})");
  EXPECT_TRUE(Shares(sort, "a", {0}));
  EXPECT_FALSE(Shares(sort, "a", {1}));
  EXPECT_TRUE(Shares(sort, "b", {1}));
}

TEST(GpuFusionSharing, TheHeroReduceOfAnInputFusionEndsTheWalk) {
  // 3.1 and the reach: in an input fusion the reduce is the hero, and the
  // walk does not go on through it to the broadcast (as in a softmax); in a
  // loop fusion it is a step that does not read in the output's order.
  const std::string body = R"(
  %zero = f32[] constant(0)
  %r = f32[4]{0} reduce(%p0, %zero), dimensions={1}, to_apply=%sum
  %b = f32[4,4]{1,0} broadcast(%r), dimensions={0}
  %n = f32[4,4]{1,0} subtract(%p0, %b)
  ROOT %t = (f32[4]{0}, f32[4,4]{1,0}) tuple(%r, %n))";
  const char* kResult = "(f32[4]{0}, f32[4,4]{1,0})";
  EXPECT_TRUE(Shares(Module("kInput", body, kResult), "a", {1}));
  EXPECT_FALSE(Shares(Module("kLoop", body, kResult), "a", {1}));
}

TEST(GpuFusionSharing, ANonElementwiseOutputBesideAnotherOutputDoesNot) {
  // 4: output {0}, a dynamic-update-slice (of %a negated), is written
  // while %a also feeds output {1}; output {1}, elementwise, is not held to
  // it.
  const std::string body = R"(
  %n0 = f32[4,4]{1,0} negate(%p0)
  %u = f32[4,4]{1,0} dynamic-update-slice(%n0, %p1, %p2, %p3)
  %n = f32[4,4]{1,0} negate(%p0)
  ROOT %t = (f32[4,4]{1,0}, f32[4,4]{1,0}) tuple(%u, %n))";
  const char* kResult = "(f32[4,4]{1,0}, f32[4,4]{1,0})";
  EXPECT_FALSE(Shares(Module("kLoop", body, kResult), "a", {0}));
  EXPECT_TRUE(Shares(Module("kLoop", body, kResult), "a", {1}));
}

// ---------------------------------------------------------------------
// The other rules: modules whose entry holds the user %u (f32[4,4]
// parameters %a, %b, %c, s32[] parameters %i, %j).

constexpr char kComputations[] = R"(
%sum (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(%x, %y)
}

%sum2 (x: f32[], y: f32[], z: f32[], w: f32[]) -> (f32[], f32[]) {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  %z = f32[] parameter(2)
  %w = f32[] parameter(3)
  ROOT %t = (f32[], f32[]) tuple(%x, %y)
}

%less (x: f32[], y: f32[], z: f32[], w: f32[]) -> pred[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  %z = f32[] parameter(2)
  %w = f32[] parameter(3)
  ROOT %lt = pred[] compare(%x, %y), direction=LT
}

%less1 (x: f32[], y: f32[]) -> pred[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %lt = pred[] compare(%x, %y), direction=LT
}

%neg (x: f32[4,4]) -> f32[4,4] {
  %x = f32[4,4]{1,0} parameter(0)
  ROOT %n = f32[4,4]{1,0} negate(%x)
}

%cond (x: f32[4,4]) -> pred[] {
  %x = f32[4,4]{1,0} parameter(0)
  ROOT %f = pred[] constant(false)
}
)";

// A module of `entry` (after the parameters; it ends with the ROOT line)
// and, before it, `computations` (fusion bodies: %body unless named).
std::string Entry(absl::string_view entry, absl::string_view computations = "",
                  absl::string_view result = "f32[4,4]{1,0}") {
  return absl::StrCat("HloModule m, is_scheduled=true\n", kComputations,
                      computations, "\nENTRY %main () -> ", result, R"( {
  %a = f32[4,4]{1,0} parameter(0)
  %b = f32[4,4]{1,0} parameter(1)
  %c = f32[4,4]{1,0} parameter(2)
  %i = s32[] parameter(3)
  %j = s32[] parameter(4)
)",
                      entry, "\n}\n");
}

// A fusion body %body of parameters p0, p1 (f32[4,4]), p2, p3 (s32[]).
std::string Body(absl::string_view lines,
                 absl::string_view result = "f32[4,4]{1,0}") {
  return absl::StrCat("\n%body (p0: f32[4,4]) -> ", result, R"( {
  %p0 = f32[4,4]{1,0} parameter(0)
  %p1 = f32[4,4]{1,0} parameter(1)
  %p2 = s32[] parameter(2)
  %p3 = s32[] parameter(3)
)",
                      lines, "\n}\n");
}

// An entry whose root %u is a fusion of (a, b, i, j) of kind `kind` over
// Body(lines, result).
std::string FusionOf(absl::string_view kind, absl::string_view lines,
                     absl::string_view result = "f32[4,4]{1,0}",
                     absl::string_view attributes = "") {
  return Entry(absl::StrCat("  ROOT %u = ", result,
                            " fusion(%a, %b, %i, %j), kind=", kind,
                            ", calls=%body", attributes),
               Body(lines, result), result);
}

// May %u (or, with user_gte >= 0, the restored `%u#user_gte`) write its
// output `output` over the value that `operand` holds at `operand_index`?
bool Ask(const std::string& text, absl::string_view operand,
         XlaPlatform platform, std::vector<int64_t> output = {},
         std::vector<int64_t> operand_index = {}, absl::string_view user = "u",
         int user_gte = -1) {
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
  EXPECT_TRUE(modules.ok()) << modules.status();
  if (!modules.ok()) return false;
  MemoryAnalysisOptions options;
  options.keep_dataflow = true;
  absl::StatusOr<MemoryAnalysis> analysis =
      AnalyzeMemory((*modules)[0], options);
  EXPECT_TRUE(analysis.ok()) << analysis.status();
  if (!analysis.ok()) return false;
  buffer_internal::ModuleGraph graph((*modules)[0], *analysis);
  int64_t u = -1, from = -1;
  for (size_t n = 0; n < graph.df.nodes.size(); ++n) {
    const DataflowNode& node = graph.df.nodes[n];
    if (node.name == user && node.gte_index == user_gte &&
        (user_gte >= 0) == (node.source == nullptr)) {
      u = static_cast<int64_t>(n);
    }
    if (node.source != nullptr && node.name == operand) {
      from = static_cast<int64_t>(n);
    }
  }
  EXPECT_GE(u, 0);
  EXPECT_GE(from, 0);
  if (u < 0 || from < 0) return false;
  return buffer_internal::CanShareOperandBufferWithUser(
      graph, platform, from, operand_index, u, output);
}

constexpr XlaPlatform kCpu = XlaPlatform::kCpu;
constexpr XlaPlatform kGpu = XlaPlatform::kGpu;

// The body ROOT dynamic-update-slice(x, y, p2, p3) with x = negate(p0) and
// y = exponential(p0), x first in the text when `x_first`.
std::string UpdateOfTwoReached(bool x_first) {
  const std::string x = "  %x = f32[4,4]{1,0} negate(%p0)\n";
  const std::string y = "  %y = f32[4,4]{1,0} exponential(%p0)\n";
  return absl::StrCat(x_first ? x : y, x_first ? y : x,
                      "  ROOT %r = f32[4,4]{1,0} dynamic-update-slice(%x, %y, "
                      "%p2, %p3)");
}

// The decision, steps 1, 2, 4 (step 3 below).

TEST(SharingDecision, NeverAConstant) {
  // 1: an elementwise add may write over %a, not over the constant.
  const std::string text = Entry(R"(
  %k = f32[4,4]{1,0} constant({{1,2,3,4},{1,2,3,4},{1,2,3,4},{1,2,3,4}})
  ROOT %u = f32[4,4]{1,0} add(%k, %a))");
  EXPECT_TRUE(Ask(text, "a", kCpu));
  EXPECT_FALSE(Ask(text, "k", kCpu));
  EXPECT_FALSE(Ask(text, "k", kGpu));
}

TEST(SharingDecision, AnIndexNamingNoPartDoesNot) {
  // 1: %u's output has no part {0}, %a none at {0}.
  const std::string text = Entry("  ROOT %u = f32[4,4]{1,0} negate(%a)");
  EXPECT_TRUE(Ask(text, "a", kCpu));
  EXPECT_FALSE(Ask(text, "a", kCpu, {0}));
  EXPECT_FALSE(Ask(text, "a", kCpu, {}, {0}));
}

TEST(SharingDecision, DifferentShapesDoNot) {
  // 4: a convert to s32 and a layout-changing copy are elementwise, but
  // their output's shape is not the operand's.
  EXPECT_FALSE(
      Ask(Entry("  ROOT %u = s32[4,4]{1,0} convert(%a)", "", "s32[4,4]{1,0}"),
          "a", kCpu));
  EXPECT_FALSE(
      Ask(Entry("  ROOT %u = f32[4,4]{0,1} copy(%a)", "", "f32[4,4]{0,1}"), "a",
          kCpu));
  EXPECT_TRUE(Ask(Entry("  ROOT %u = f32[4,4]{1,0} copy(%a)"), "a", kCpu));
}

// Written in place (step 2).

TEST(WrittenInPlace, AliasingComesBeforeTheHint) {
  // A custom call's output_to_operand_aliasing: written over operand 1 (%b)
  // on both platforms, though XLA:GPU's hint says no to other custom calls
  // and the generic rule no to any custom call. Not over %a.
  const std::string text = Entry(
      "  ROOT %u = f32[4,4]{1,0} custom-call(%a, %b), "
      "custom_call_target=\"foo\", output_to_operand_aliasing={{}: (1, {})}");
  for (XlaPlatform p : {kCpu, kGpu}) {
    EXPECT_TRUE(Ask(text, "b", p));
    EXPECT_FALSE(Ask(text, "a", p));
  }
}

TEST(WrittenInPlace, OnlyTheAliasedOutput) {
  // Output {1} is aliased with %a: output {0}, of the same shape, is not.
  const std::string text = Entry(
      "  ROOT %u = (f32[4,4]{1,0}, f32[4,4]{1,0}) custom-call(%a, %b), "
      "custom_call_target=\"foo\", output_to_operand_aliasing={{1}: (0, {})}",
      "", "(f32[4,4]{1,0}, f32[4,4]{1,0})");
  EXPECT_TRUE(Ask(text, "a", kCpu, {1}));
  EXPECT_FALSE(Ask(text, "a", kCpu, {0}));
}

TEST(WrittenInPlace, TheAliasedIndexOfATupleOperand) {
  // Aliased with element {1} of the tuple operand %t: written over %t's
  // part {1} (%b's value), not over its part {0}.
  const std::string text = Entry(R"(
  %t = (f32[4,4]{1,0}, f32[4,4]{1,0}) tuple(%a, %b)
  ROOT %u = f32[4,4]{1,0} custom-call(%t), custom_call_target="foo", output_to_operand_aliasing={{}: (0, {1})})");
  EXPECT_TRUE(Ask(text, "t", kCpu, {}, {1}));
  EXPECT_FALSE(Ask(text, "t", kCpu, {}, {0}));
}

TEST(WrittenInPlace, NeedsEqualShapes) {
  // Aliased over %b, but the output is f32[16]: no (on XLA:CPU no rule
  // lets different shapes share).
  EXPECT_FALSE(Ask(Entry("  ROOT %u = f32[16]{0} custom-call(%a, %b), "
                         "custom_call_target=\"foo\", "
                         "output_to_operand_aliasing={{}: (1, {})}",
                         "", "f32[16]{0}"),
                   "b", kCpu));
}

TEST(WrittenInPlace, TheValueMatchesNotTheSlot) {
  // %g is a get-tuple-element of the tuple %t: its value is %a's, which
  // the custom call writes over in place through operand 0; %a, its
  // operand 1, holds that value too.
  const std::string text = Entry(R"(
  %t = (f32[4,4]{1,0}) tuple(%a)
  %g = f32[4,4]{1,0} get-tuple-element(%t), index=0
  ROOT %u = f32[4,4]{1,0} custom-call(%g, %a, %c), custom_call_target="foo", output_to_operand_aliasing={{}: (0, {})})");
  EXPECT_TRUE(Ask(text, "g", kCpu));
  EXPECT_TRUE(Ask(text, "a", kCpu));  // at operand 1, the same value
  EXPECT_FALSE(Ask(text, "c", kCpu));
}

TEST(WrittenInPlace, AMultiResultScatterWritesResultIOverOperandI) {
  // Results {0} and {1} over operands 0 (%a) and 1 (%b); %c, the updates
  // of the first input, is written over by none. On XLA:CPU nothing else
  // says yes to a scatter's other operands.
  const std::string text = Entry(
      "  ROOT %u = (f32[4,4]{1,0}, f32[4,4]{1,0}) scatter(%a, %b, %i, %c, "
      "%c), update_window_dims={0,1}, inserted_window_dims={}, "
      "scatter_dims_to_operand_dims={0}, index_vector_dim=0, "
      "to_apply=%sum2",
      "", "(f32[4,4]{1,0}, f32[4,4]{1,0})");
  EXPECT_TRUE(Ask(text, "a", kCpu, {0}));
  EXPECT_TRUE(Ask(text, "b", kCpu, {1}));
  EXPECT_FALSE(Ask(text, "b", kCpu, {0}));
  EXPECT_FALSE(Ask(text, "c", kCpu, {0}));
  EXPECT_FALSE(Ask(text, "c", kCpu, {1}));
}

TEST(WrittenInPlace, AllReduceStartUnlessNvshmem) {
  // Output {i} over operand i; nothing with an NVSHMEM backend config.
  // (On XLA:CPU no other rule says yes to an all-reduce-start.)
  const char* kStart =
      "  %u = (f32[4,4]{1,0}, f32[4,4]{1,0}) all-reduce-start(%a, %b), "
      "replica_groups={}, to_apply=%sum CONFIG\n"
      "  ROOT %d = (f32[4,4]{1,0}, f32[4,4]{1,0}) all-reduce-done(%u)";
  const char* kResult = "(f32[4,4]{1,0}, f32[4,4]{1,0})";
  const std::string plain =
      Entry(absl::StrReplaceAll(kStart, {{"CONFIG", ""}}), "", kResult);
  EXPECT_TRUE(Ask(plain, "a", kCpu, {0}));
  EXPECT_TRUE(Ask(plain, "b", kCpu, {1}));
  EXPECT_FALSE(Ask(plain, "a", kCpu, {1}));
  const std::string nvshmem = Entry(
      absl::StrReplaceAll(
          kStart,
          {{"CONFIG",
            R"(, backend_config={"collective_backend_config":{"backend":"NvShmem"}})"}}),
      "", kResult);
  EXPECT_FALSE(Ask(nvshmem, "a", kCpu, {0}));
  EXPECT_FALSE(Ask(nvshmem, "b", kCpu, {1}));
  // One operand: the whole output over it.
  const std::string one = Entry(R"(
  %u = f32[4,4]{1,0} all-reduce-start(%a), replica_groups={}, to_apply=%sum
  ROOT %d = f32[4,4]{1,0} all-reduce-done(%u))");
  EXPECT_TRUE(Ask(one, "a", kCpu));
}

TEST(WrittenInPlace, AFusedRootUpdatingAParameterThroughBitcasts) {
  // The root updates p0 through two bitcasts: the fusion writes over %a,
  // though %a also feeds a transpose (no generic rule would say yes).
  const std::string lines = R"(
  %t = f32[4,4]{1,0} transpose(%p0), dimensions={1,0}
  %b1 = f32[16]{0} bitcast(%p0)
  %b2 = f32[4,4]{1,0} bitcast(%b1)
  %s = f32[2,2]{1,0} slice(%t), slice={[0:2],[0:2]}
  ROOT %r = f32[4,4]{1,0} dynamic-update-slice(%b2, %s, %p2, %p3))";
  for (XlaPlatform p : {kCpu, kGpu}) {
    EXPECT_TRUE(Ask(FusionOf("kLoop", lines), "a", p));
  }
  // %b is not used: XLA:GPU finds no path to the output, XLA:CPU no use
  // that is not elementwise.
  EXPECT_FALSE(Ask(FusionOf("kLoop", lines), "b", kGpu));
  EXPECT_TRUE(Ask(FusionOf("kLoop", lines), "b", kCpu));
  // Without the bitcasts the transpose is what the update's operand 0 is:
  // no parameter is updated, and the generic rule says no.
  EXPECT_FALSE(Ask(FusionOf("kLoop", R"(
  %t = f32[4,4]{1,0} transpose(%p0), dimensions={1,0}
  %s = f32[2,2]{1,0} slice(%t), slice={[0:2],[0:2]}
  ROOT %r = f32[4,4]{1,0} dynamic-update-slice(%t, %s, %p2, %p3))"),
                   "a", kCpu));
}

TEST(WrittenInPlace, ARootTupleElementUpdatesItsOutput) {
  // Element 1 of the root tuple scatters into p1: output {1} over %b, not
  // output {0} (p1 negated) nor the whole output.
  const std::string lines = R"(
  %t = f32[4,4]{1,0} transpose(%p1), dimensions={1,0}
  %s = f32[4,4]{1,0} scatter(%p1, %p2, %t), update_window_dims={0,1}, inserted_window_dims={}, scatter_dims_to_operand_dims={0}, index_vector_dim=0, to_apply=%sum
  %n = f32[4,4]{1,0} transpose(%p1), dimensions={1,0}
  ROOT %r = (f32[4,4]{1,0}, f32[4,4]{1,0}) tuple(%n, %s))";
  const char* kResult = "(f32[4,4]{1,0}, f32[4,4]{1,0})";
  EXPECT_TRUE(Ask(FusionOf("kLoop", lines, kResult), "b", kCpu, {1}));
  EXPECT_FALSE(Ask(FusionOf("kLoop", lines, kResult), "b", kCpu, {0}));
}

TEST(WrittenInPlace, AFusionsAliasingToo) {
  // A fusion's output_to_operand_aliasing, beside what its root updates.
  EXPECT_TRUE(Ask(
      FusionOf("kLoop",
               "  ROOT %r = f32[4,4]{1,0} transpose(%p1), "
               "dimensions={1,0}",
               "f32[4,4]{1,0}", ", output_to_operand_aliasing={{}: (1, {})}"),
      "b", kCpu));
}

// XLA:GPU's hint for opcodes other than fusion (step 3).

TEST(GpuHint, AllReduceAndCollectiveBroadcastWriteOverTheirOperandI) {
  for (const char* op : {"all-reduce", "collective-broadcast"}) {
    const std::string apply =
        std::string(op) == "all-reduce" ? ", to_apply=%sum" : "";
    const std::string two =
        Entry(absl::StrCat("  ROOT %u = (f32[4,4]{1,0}, f32[4,4]{1,0}) ", op,
                           "(%a, %b), replica_groups={}", apply),
              "", "(f32[4,4]{1,0}, f32[4,4]{1,0})");
    EXPECT_TRUE(Ask(two, "b", kGpu, {1})) << op;
    EXPECT_FALSE(Ask(two, "b", kGpu, {0})) << op;
    EXPECT_FALSE(Ask(two, "b", kCpu, {1})) << op;  // no hint on XLA:CPU
    const std::string one = Entry(absl::StrCat(
        "  ROOT %u = f32[4,4]{1,0} ", op, "(%a), replica_groups={}", apply));
    EXPECT_TRUE(Ask(one, "a", kGpu)) << op;
    EXPECT_FALSE(Ask(one, "a", kCpu)) << op;
  }
}

// A cuBLASLt matmul of (a, b, c) whose backend config gives beta as `beta`.
std::string Cublas(absl::string_view beta) {
  return Entry(
      absl::StrCat("  ROOT %u = (f32[4,4]{1,0}, s8[0]{0}) custom-call(%a, %b, "
                   "%c), custom_call_target=\"__cublas$lt$matmul\", "
                   "backend_config={\"gemm_backend_config\":{\"alpha_real\":1,"
                   "\"beta\"",
                   beta, ",\"x\":2}}"),
      "", "(f32[4,4]{1,0}, s8[0]{0})");
}

TEST(GpuHint, CublasLtWritesOverTheBiasWhenBetaIsNotZero) {
  EXPECT_TRUE(Ask(Cublas(":1"), "c", kGpu, {0}));
  EXPECT_FALSE(Ask(Cublas(":1"), "a", kGpu, {0}));
  EXPECT_FALSE(Ask(Cublas(":0"), "c", kGpu, {0}));
  EXPECT_FALSE(Ask(Cublas(" : 0 "), "c", kGpu, {0}));
  EXPECT_TRUE(Ask(Cublas(":0.0"), "c", kGpu, {0}));  // not written `0`
  EXPECT_FALSE(Ask(Cublas(":1"), "c", kCpu, {0}));
}

TEST(GpuHint, CholeskyWritesOverItsOperandAsOutputZero) {
  const std::string text = Entry(
      "  ROOT %u = (f32[4,4]{1,0}, s32[]) custom-call(%a), "
      "custom_call_target=\"__cusolver$cholesky\"",
      "", "(f32[4,4]{1,0}, s32[])");
  EXPECT_TRUE(Ask(text, "a", kGpu, {0}));
  EXPECT_FALSE(Ask(text, "a", kGpu, {1}));
  EXPECT_FALSE(Ask(text, "a", kCpu, {0}));
}

TEST(GpuHint, TheHintsNoOverridesTheGenericYes) {
  // A loop fusion copying p0: its uses are elementwise (XLA:CPU: yes), but
  // the fusion rule does not let a copy read in the output's order.
  const std::string text = FusionOf("kLoop", R"(
  %k = f32[4,4]{1,0} copy(%p0)
  ROOT %r = f32[4,4]{1,0} negate(%k))");
  EXPECT_TRUE(Ask(text, "a", kCpu));
  EXPECT_FALSE(Ask(text, "a", kGpu));
}

// The generic rules (step 5).

TEST(GenericSharingRules, LoopAndInputFusionsNeedElementwiseUsesOrTuples) {
  // 2: p0 feeds a negate and a tuple: yes; a transpose anywhere in its
  // reach: no; a dynamic-update-slice's slot 1: no, whatever the order.
  const char* kResult = "(f32[4,4]{1,0}, f32[4,4]{1,0})";
  for (const char* kind : {"kLoop", "kInput"}) {
    EXPECT_TRUE(Ask(FusionOf(kind, R"(
  %n = f32[4,4]{1,0} negate(%p0)
  ROOT %r = (f32[4,4]{1,0}, f32[4,4]{1,0}) tuple(%n, %p0))",
                             kResult),
                    "a", kCpu, {0}))
        << kind;
    EXPECT_FALSE(Ask(FusionOf(kind, R"(
  %n = f32[4,4]{1,0} negate(%p0)
  %t = f32[4,4]{1,0} transpose(%n), dimensions={1,0}
  ROOT %r = (f32[4,4]{1,0}, f32[4,4]{1,0}) tuple(%n, %t))",
                              kResult),
                     "a", kCpu, {0}))
        << kind;
    // A bitcast-convert between types of one width is elementwise when the
    // operand's type is written at the use; between widths, or with the
    // operand's type not written (today's dumps), not.
    EXPECT_TRUE(Ask(FusionOf(kind, R"(
  %s = s32[4,4]{1,0} bitcast-convert(f32[4,4]{1,0} %p0)
  ROOT %r = f32[4,4]{1,0} bitcast-convert(s32[4,4]{1,0} %s))"),
                    "a", kCpu))
        << kind;
    EXPECT_FALSE(Ask(FusionOf(kind, R"(
  %s = s32[4,4]{1,0} bitcast-convert(%p0)
  ROOT %r = f32[4,4]{1,0} bitcast-convert(%s))"),
                     "a", kCpu))
        << kind;
    EXPECT_FALSE(Ask(FusionOf(kind, R"(
  %s = s16[4,4,2]{2,1,0} bitcast-convert(f32[4,4]{1,0} %p0)
  ROOT %r = f32[4,4]{1,0} bitcast-convert(s16[4,4,2]{2,1,0} %s))"),
                     "a", kCpu))
        << kind;
    // Every slot holding a reached instruction counts: n at slots 0 and 1.
    EXPECT_FALSE(Ask(FusionOf(kind, R"(
  %n = f32[4,4]{1,0} negate(%p0)
  ROOT %r = f32[4,4]{1,0} dynamic-update-slice(%n, %n, %p2, %p3))"),
                     "a", kCpu))
        << kind;
    for (bool x_first : {true, false}) {
      EXPECT_FALSE(Ask(FusionOf(kind, UpdateOfTwoReached(x_first)), "a", kCpu))
          << kind << " " << x_first;
    }
  }
}

TEST(GenericSharingRules, OutputFusionsAddingAProduct) {
  // 3: the root adds a dot (or convolution) and the parameter, its only
  // use: yes, on either side; a parameter the dot also reads: no; a root
  // adding no product: no, though the add is elementwise.
  EXPECT_TRUE(Ask(FusionOf("kOutput", R"(
  %d = f32[4,4]{1,0} dot(%p1, %p1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT %r = f32[4,4]{1,0} add(%d, %p0))"),
                  "a", kCpu));
  EXPECT_TRUE(Ask(FusionOf("kOutput", R"(
  %d = f32[4,4]{1,0} convolution(%p1, %p1), dim_labels=bf_io->bf
  ROOT %r = f32[4,4]{1,0} add(%p0, %d))"),
                  "a", kCpu));
  EXPECT_FALSE(Ask(FusionOf("kOutput", R"(
  %d = f32[4,4]{1,0} dot(%p0, %p1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT %r = f32[4,4]{1,0} add(%d, %p0))"),
                   "a", kCpu));
  EXPECT_FALSE(Ask(FusionOf("kOutput", R"(
  %n = f32[4,4]{1,0} negate(%p1)
  ROOT %r = f32[4,4]{1,0} add(%n, %p0))"),
                   "a", kCpu));
  // The product is the first dot: p0 as the second addend's only use.
  EXPECT_FALSE(Ask(FusionOf("kOutput", R"(
  %d = f32[4,4]{1,0} dot(%p1, %p1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  %e = f32[4,4]{1,0} dot(%p0, %p1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT %r = f32[4,4]{1,0} add(%d, %e))"),
                   "a", kCpu));
}

TEST(GenericSharingRules,
     AnOutputFusionOfAnotherRootIsElementwiseInVisitOrder) {
  // 3 -> 10: the root is a multiply, so the visit-order rule decides.
  EXPECT_TRUE(Ask(FusionOf("kOutput", R"(
  %n = f32[4,4]{1,0} negate(%p0)
  ROOT %r = f32[4,4]{1,0} multiply(%n, %p1))"),
                  "a", kCpu));
  EXPECT_FALSE(Ask(FusionOf("kOutput", R"(
  %n = f32[4,4]{1,0} transpose(%p0), dimensions={1,0}
  ROOT %r = f32[4,4]{1,0} multiply(%n, %p1))"),
                   "a", kCpu));
}

TEST(GenericSharingRules, WhileAndConditionalShare) {
  // 4.
  EXPECT_TRUE(Ask(Entry("  ROOT %u = f32[4,4]{1,0} while(%a), "
                        "condition=%cond, body=%neg"),
                  "a", kCpu));
  const std::string cond = Entry(R"(
  %p = pred[] constant(true)
  ROOT %u = f32[4,4]{1,0} conditional(%p, %a, %b), true_computation=%neg, false_computation=%neg)");
  EXPECT_TRUE(Ask(cond, "a", kCpu));
  EXPECT_TRUE(Ask(cond, "b", kCpu));
}

TEST(GenericSharingRules, UpdatesShareOnlyTheirUpdatedOperandOnce) {
  // 5 and 6. A scatter's updates (operand 2) are not what it updates; a
  // triangular solve writes over its operand 1, once.
  const std::string scatter = Entry(
      "  ROOT %u = f32[4,4]{1,0} scatter(%a, %i, %b), "
      "update_window_dims={0,1}, inserted_window_dims={}, "
      "scatter_dims_to_operand_dims={0}, index_vector_dim=0, to_apply=%sum");
  EXPECT_TRUE(Ask(scatter, "a", kCpu));
  EXPECT_FALSE(Ask(scatter, "b", kCpu));
  const char* kSolve =
      "  ROOT %u = f32[4,4]{1,0} triangular-solve(OPS), left_side=true, "
      "lower=true, transpose_a=NO_TRANSPOSE";
  const std::string solve =
      Entry(absl::StrReplaceAll(kSolve, {{"OPS", "%a, %b"}}));
  EXPECT_TRUE(Ask(solve, "b", kCpu));
  EXPECT_FALSE(Ask(solve, "a", kCpu));
  EXPECT_FALSE(
      Ask(Entry(absl::StrReplaceAll(kSolve, {{"OPS", "%b, %b"}})), "b", kCpu));
}

TEST(GenericSharingRules, ASortWritesOverAnOperandItAloneUses) {
  // 7: one operand: yes unless it has another user; two: output {k} over
  // operand k only; the same operand twice: no.
  EXPECT_TRUE(Ask(Entry("  ROOT %u = f32[4,4]{1,0} sort(%a), dimensions={0}, "
                        "to_apply=%less1"),
                  "a", kCpu));
  EXPECT_FALSE(Ask(Entry(R"(
  %u = f32[4,4]{1,0} sort(%a), dimensions={0}, to_apply=%less1
  %n = f32[4,4]{1,0} negate(%a)
  ROOT %t = (f32[4,4]{1,0}, f32[4,4]{1,0}) tuple(%u, %n))",
                         "", "(f32[4,4]{1,0}, f32[4,4]{1,0})"),
                   "a", kCpu));
  const char* kResult = "(f32[4,4]{1,0}, f32[4,4]{1,0})";
  const std::string two = Entry(
      "  ROOT %u = (f32[4,4]{1,0}, f32[4,4]{1,0}) sort(%a, %b), "
      "dimensions={0}, to_apply=%less",
      "", kResult);
  EXPECT_TRUE(Ask(two, "b", kCpu, {1}));
  EXPECT_FALSE(Ask(two, "b", kCpu, {0}));
  EXPECT_FALSE(Ask(Entry("  ROOT %u = (f32[4,4]{1,0}, f32[4,4]{1,0}) "
                         "sort(%a, %a), dimensions={0}, to_apply=%less",
                         "", kResult),
                   "a", kCpu, {0}));
}

TEST(GenericSharingRules, ACallAndARestoredGetTupleElementDoNot) {
  // 8: the callee negates its parameter, elementwise, but calls are not
  // looked into. 9: `%s#0` holds %a's part {0} but has no instruction.
  EXPECT_FALSE(Ask(Entry("  ROOT %u = f32[4,4]{1,0} call(%a), to_apply=%neg"),
                   "a", kCpu));
  const std::string restored =
      absl::StrCat("HloModule m, is_scheduled=true\n", kComputations, R"(
ENTRY %main () -> f32[4,4]{1,0} {
  %a = f32[4,4]{1,0} parameter(0)
  %s = (f32[4,4]{1,0}, f32[4,4]{1,0}) sort(%a, %a), dimensions={0}, to_apply=%less
  ROOT %n = f32[4,4]{1,0} negate(%s#0)
}
)");
  EXPECT_FALSE(Ask(restored, "s", kCpu, {}, {0}, "s", 0));
  EXPECT_TRUE(Ask(restored, "s", kCpu, {}, {0}, "n"));
}

TEST(GenericSharingRules, OtherInstructionsMustBeElementwiseAtTheSlot) {
  // 11: select and clamp are elementwise; a transpose and a reverse are
  // not.
  EXPECT_TRUE(Ask(Entry(R"(
  %p = pred[4,4]{1,0} compare(%a, %b), direction=LT
  ROOT %u = f32[4,4]{1,0} select(%p, %a, %b))"),
                  "b", kCpu));
  EXPECT_TRUE(
      Ask(Entry("  ROOT %u = f32[4,4]{1,0} clamp(%a, %b, %c)"), "c", kCpu));
  EXPECT_FALSE(Ask(Entry("  ROOT %u = f32[4,4]{1,0} transpose(%a), "
                         "dimensions={1,0}"),
                   "a", kCpu));
  EXPECT_FALSE(Ask(Entry("  ROOT %u = f32[4,4]{1,0} reverse(%a), "
                         "dimensions={0}"),
                   "a", kCpu));
}

// Elementwise on P in visit order (generic rule 10).

TEST(ElementwiseInVisitOrder, TheFirstReachedOperandDecides) {
  // The update is met first from x when x comes first (number 1, y 2): it
  // is judged at slot 0, elementwise: yes. With y first it is judged at
  // slot 1: no. The other slot is never looked at.
  EXPECT_TRUE(Ask(FusionOf("kCustom", UpdateOfTwoReached(true)), "a", kCpu));
  EXPECT_FALSE(Ask(FusionOf("kCustom", UpdateOfTwoReached(false)), "a", kCpu));
}

TEST(ElementwiseInVisitOrder, NumbersGoBreadthFirst) {
  // y is one step from p0, x two (through n): y has the smaller number
  // although x's chain comes first in the text, so the update is judged at
  // slot 1: no. With x one step away too (and first), yes.
  EXPECT_FALSE(Ask(FusionOf("kCustom", R"(
  %n = f32[4,4]{1,0} negate(%p0)
  %x = f32[4,4]{1,0} negate(%n)
  %y = f32[4,4]{1,0} exponential(%p0)
  ROOT %r = f32[4,4]{1,0} dynamic-update-slice(%x, %y, %p2, %p3))"),
                   "a", kCpu));
  EXPECT_TRUE(Ask(FusionOf("kCustom", R"(
  %x = f32[4,4]{1,0} negate(%p0)
  %n = f32[4,4]{1,0} negate(%p0)
  %y = f32[4,4]{1,0} exponential(%n)
  ROOT %r = f32[4,4]{1,0} dynamic-update-slice(%x, %y, %p2, %p3))"),
                  "a", kCpu));
}

TEST(ElementwiseInVisitOrder, EveryReachedInstructionIsJudged) {
  // A transpose of p0 off the way to the root still fails it.
  EXPECT_FALSE(Ask(FusionOf("kCustom", R"(
  %t = f32[4,4]{1,0} transpose(%p0), dimensions={1,0}
  %n = f32[4,4]{1,0} negate(%p0)
  ROOT %r = (f32[4,4]{1,0}, f32[4,4]{1,0}) tuple(%n, %t))",
                            "(f32[4,4]{1,0}, f32[4,4]{1,0})"),
                   "a", kCpu, {0}));
  // A tuple is not elementwise here (the uses rule lets tuples through).
  EXPECT_FALSE(Ask(FusionOf("kCustom", R"(
  %n = f32[4,4]{1,0} negate(%p0)
  ROOT %r = (f32[4,4]{1,0}, f32[4,4]{1,0}) tuple(%n, %p1))",
                            "(f32[4,4]{1,0}, f32[4,4]{1,0})"),
                   "a", kCpu, {0}));
  EXPECT_TRUE(Ask(FusionOf("kCustom", R"(
  %n = f32[4,4]{1,0} negate(%p0)
  ROOT %r = f32[4,4]{1,0} add(%n, %p0))"),
                  "a", kCpu));
}

TEST(ElementwiseInVisitOrder, ANestedFusionIsNotElementwise) {
  // The inner fusion negates, but is not looked into.
  const std::string text = Entry(
      "  ROOT %u = f32[4,4]{1,0} fusion(%a, %b, %i, %j), kind=kCustom, "
      "calls=%body",
      absl::StrCat(R"(
%inner (y: f32[4,4]) -> f32[4,4] {
  %y = f32[4,4]{1,0} parameter(0)
  ROOT %z = f32[4,4]{1,0} negate(%y)
}
)",
                   Body("  ROOT %r = f32[4,4]{1,0} fusion(%p0), kind=kLoop, "
                        "calls=%inner")));
  EXPECT_FALSE(Ask(text, "a", kCpu));
}

}  // namespace
}  // namespace hlolayout

// The rule of docs/memory.md, "Buffer sharing rules", "A fusion writing an
// output over an operand (XLA:GPU)", condition by condition: each case is a
// small fusion, and each expected answer is read off the statement (not off
// the code, nor off XLA's FusionCanShareBufferHint, the rule's origin).
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

}  // namespace
}  // namespace hlolayout

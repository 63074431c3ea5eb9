#include "hlolayout/report/report.h"

#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/hlo_test_dump.h"

namespace hlolayout {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Sizes worked out by hand next to each line (logical / padded bytes).
constexpr char kDump[] =
    R"(HloModule jit_f, entry_computation_layout={(bf16[3,200]{1,0:T(8,128)(2,1)})->(f32[17,5]{1,0:T(8,128)}, s32[])}

%body (p: (s32[], f32[1000])) -> (s32[], f32[1000]) {
  ROOT %p = (s32[], f32[1000]{0:T(1024)}) parameter(0)
}

ENTRY %main (a: bf16[3,200]) -> (f32[17,5], s32[]) {
  %a = bf16[3,200]{1,0:T(8,128)(2,1)} parameter(0)
  %v = bf16[32,32,4096]{2,1,0:T(8,128)(2,1)S(1)} parameter(1)
  %c = f32[17,5]{1,0:T(8,128)} custom-call(%a), custom_call_target="x"
  %s = f32[]{:T(128)} constant(1)
  %q = s4[64,130]{1,0:T(64,128)(8,1)E(4)} parameter(2)
  %u = u8[100]{0:T(512)L(1024)} parameter(3)
  %d = f32[?,8]{1,0} parameter(4)
  %t = token[] after-all()
  %n = custom-call(%s), custom_call_target="y"
  %m = (bf16[8,256]{1,0:T(8,128)(2,1)S(1)}, f32[1000]{0:T(1024)}) tuple(%a, %a)
  %i = s32[] constant(0)
  ROOT %r = (f32[17,5]{1,0:T(8,128)}, s32[]) tuple(%c, %i)
}
)";
// body p   (s32[], f32[1000]{0:T(1024)})   4 + 4000 / 4 + 4096
// a        bf16[3,200] T(8,128)            1200 / 8*256*2 = 4096
// v        bf16[32,32,4096] S(1)           8388608 / 8388608
// c        f32[17,5] T(8,128)              340 / 24*128*4 = 12288
// s        f32[] T(128)                    4 / 128*4 = 512
// q        s4[64,130] E(4)                 8320/2 = 4160 / 64*256/2 = 8192
// u        u8[100] T(512)L(1024)           100 / 1024
// d        f32[?,8]                        not sized
// t, n     no array leaf
// m        S(1) 4096 / 4096 + hbm 4000 / 4096
// i        s32[]                           4 / 4
// r        340 + 4 / 12288 + 4
constexpr int64_t kLogical =
    4004 + 1200 + 8388608 + 340 + 4 + 4160 + 100 + 8096 + 4 + 344;
constexpr int64_t kPadded =
    4100 + 4096 + 8388608 + 12288 + 512 + 8192 + 1024 + 8192 + 4 + 12292;

TEST(Report, TotalsOfAHandWrittenDump) {
  absl::StatusOr<Report> report = BuildReport(kDump);
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->modules.size(), 1u);
  const ModuleReport& m = report->modules[0];
  EXPECT_EQ(m.name, "jit_f");
  EXPECT_EQ(m.entry_computation, "main");
  EXPECT_EQ(m.totals.computations, 2);
  EXPECT_EQ(m.totals.instructions, 13);
  EXPECT_EQ(m.totals.instructions_without_shape, 1);
  EXPECT_EQ(m.totals.array_leaves, 14);
  EXPECT_EQ(m.totals.unsized_array_leaves, 1);
  EXPECT_EQ(m.totals.bytes.logical_bytes, kLogical);
  EXPECT_EQ(m.totals.bytes.padded_bytes, kPadded);
  EXPECT_FALSE(m.totals.bytes.overflow);

  ASSERT_EQ(m.memory_spaces.size(), 2u);
  const MemorySpaceTotals& hbm = m.memory_spaces[0];
  const MemorySpaceTotals& vmem = m.memory_spaces[1];
  EXPECT_EQ(hbm.memory_space, 0);
  EXPECT_EQ(vmem.memory_space, 1);
  EXPECT_EQ(vmem.instructions, 2);
  EXPECT_EQ(vmem.array_leaves, 2);
  EXPECT_EQ(vmem.bytes.logical_bytes, 8388608 + 4096);
  EXPECT_EQ(vmem.bytes.padded_bytes, 8388608 + 4096);
  EXPECT_EQ(hbm.instructions, 10);  // p a c s q u d m i r
  EXPECT_EQ(hbm.array_leaves, 12);
  EXPECT_EQ(hbm.bytes.logical_bytes, kLogical - 8388608 - 4096);
  EXPECT_EQ(hbm.bytes.padded_bytes, kPadded - 8388608 - 4096);
}

// Buffers by XLA's dataflow rules, worked out by hand (padded = logical:
// no tiles). Reducer %add and fusion body %fused are embedded: nothing.
//   cond: c, ci alias; lim 4; lt 1                          5 B, 2 values
//   body: b alias; one 4; i2 4; v2 64; bt's table 2*8 = 16  88 B, 4 values
//   main: a 64; k 4; f: table 16 + f32[16] 64 + f32[] 4 = 84 (3 values);
//         cs: table 3*8 = 24, {0} 64 in S(1), {2} u32 4 (3 values; {1} is
//         f#0 again); cd alias; init table 16; w, wv alias; big 256;
//         bc alias; out table 3*8 = 24                      540 B, 11 values
// In all: 633 B in 17 values; vmem (S(1)) 64 B in 1 value.
constexpr char kBufferDump[] = R"(HloModule m, is_scheduled=true

%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(%x, %y)
}

%fused (p: f32[16]) -> (f32[16], f32[]) {
  %p = f32[16]{0} parameter(0)
  %n = f32[16]{0} negate(%p)
  %z = f32[] constant(0)
  %r = f32[] reduce(%n, %z), dimensions={0}, to_apply=%add
  ROOT %t = (f32[16]{0}, f32[]) tuple(%n, %r)
}

%cond (c: (s32[], f32[16])) -> pred[] {
  %c = (s32[], f32[16]{0}) parameter(0)
  %ci = s32[] get-tuple-element(%c), index=0
  %lim = s32[] constant(4)
  ROOT %lt = pred[] compare(%ci, %lim), direction=LT
}

%body (b: (s32[], f32[16])) -> (s32[], f32[16]) {
  %b = (s32[], f32[16]{0}) parameter(0)
  %one = s32[] constant(1)
  %i2 = s32[] add(%b#0, %one)
  %v2 = f32[16]{0} negate(%b#1)
  ROOT %bt = (s32[], f32[16]{0}) tuple(%i2, %v2)
}

ENTRY %main (a: f32[16], k: s32[]) -> (f32[64], f32[], f32[16]) {
  %a = f32[16]{0} parameter(0)
  %k = s32[] parameter(1)
  %f = (f32[16]{0}, f32[]) fusion(%a), kind=kInput, calls=%fused
  %cs = (f32[16]{0:S(1)}, f32[16]{0}, u32[]) copy-start(%f#0)
  %cd = f32[16]{0:S(1)} copy-done(%cs)
  %init = (s32[], f32[16]{0}) tuple(%k, %f#0)
  %w = (s32[], f32[16]{0}) while(%init), condition=%cond, body=%body
  %wv = f32[16]{0} get-tuple-element(%w), index=1
  %big = f32[4,16]{1,0} broadcast(%wv), dimensions={1}
  %bc = f32[64]{0} bitcast(%big)
  ROOT %out = (f32[64]{0}, f32[], f32[16]{0:S(1)}) tuple(%bc, %f#1, %cd)
}
)";

TEST(Report, BuffersFollowXlaDataflowRules) {
  absl::StatusOr<Report> report = BuildReport(kBufferDump);
  ASSERT_TRUE(report.ok()) << report.status();
  const ModuleReport& m = report->modules[0];
  EXPECT_EQ(m.totals.buffer_values, 17);
  EXPECT_EQ(m.totals.buffer_bytes.logical_bytes, 633);
  EXPECT_EQ(m.totals.buffer_bytes.padded_bytes, 633);
  ASSERT_EQ(m.memory_spaces.size(), 2u);
  EXPECT_EQ(m.memory_spaces[0].memory_space, 0);
  EXPECT_EQ(m.memory_spaces[0].buffer_values, 16);
  EXPECT_EQ(m.memory_spaces[0].buffer_bytes.padded_bytes, 633 - 64);
  EXPECT_EQ(m.memory_spaces[1].memory_space, 1);
  EXPECT_EQ(m.memory_spaces[1].buffer_values, 1);
  EXPECT_EQ(m.memory_spaces[1].buffer_bytes.padded_bytes, 64);
  // Every result counted is far more (aliases and fused internals again).
  EXPECT_GT(m.totals.bytes.padded_bytes, 633);
  auto role = [&](absl::string_view name) {
    for (const ReportRow& row : m.rows) {
      if (row.name == name) return row.buffer;
    }
    ADD_FAILURE() << name;
    return BufferRole::kNew;
  };
  EXPECT_EQ(role("s"), BufferRole::kInEmbedded);
  EXPECT_EQ(role("p"), BufferRole::kInEmbedded);
  EXPECT_EQ(role("t"), BufferRole::kInEmbedded);
  EXPECT_EQ(role("c"), BufferRole::kAlias);
  EXPECT_EQ(role("ci"), BufferRole::kAlias);
  EXPECT_EQ(role("b"), BufferRole::kAlias);
  EXPECT_EQ(role("bt"), BufferRole::kPartial);
  EXPECT_EQ(role("a"), BufferRole::kNew);
  EXPECT_EQ(role("f"), BufferRole::kNew);
  EXPECT_EQ(role("cs"), BufferRole::kPartial);
  EXPECT_EQ(role("cd"), BufferRole::kAlias);
  EXPECT_EQ(role("w"), BufferRole::kAlias);
  EXPECT_EQ(role("bc"), BufferRole::kAlias);
  EXPECT_EQ(role("big"), BufferRole::kNew);
  // The summary (no rows) gives the same totals.
  ReportOptions options;
  options.keep_rows = false;
  absl::StatusOr<Report> summary = BuildReport(kBufferDump, options);
  ASSERT_TRUE(summary.ok());
  EXPECT_EQ(summary->modules[0].totals.buffer_bytes.padded_bytes, 633);
  EXPECT_EQ(summary->modules[0].totals.buffer_values, 17);
}

// Tuple index tables of TPU-tiled tuples are 8 bytes per element, whatever
// the tiles; parameters of a called computation alias the caller's operands.
TEST(Report, CallAndConditionalParametersAlias) {
  constexpr char kText[] = R"(HloModule m
%callee (x: f32[8]) -> f32[8] {
  %x = f32[8]{0:T(128)} parameter(0)
  ROOT %y = f32[8]{0:T(128)} negate(%x)
}
%other (z: f32[8]) -> f32[8] {
  ROOT %z = f32[8]{0:T(128)} parameter(0)
}
ENTRY %main (p: f32[8], q: pred[]) -> (f32[8], f32[8]) {
  %p = f32[8]{0:T(128)} parameter(0)
  %q = pred[] parameter(1)
  %c = f32[8]{0:T(128)} call(%p), to_apply=%callee
  %d = f32[8]{0:T(128)} conditional(%q, %p, %c), true_computation=%callee, false_computation=%other
  ROOT %r = (f32[8]{0:T(128)}, f32[8]{0:T(128)}) tuple(%c, %d)
}
)";
  // p 512 (T(128) pads 8 to 128 floats), q 1, y 512, r's table 16.
  absl::StatusOr<Report> report = BuildReport(kText);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->modules[0].totals.buffer_values, 4);
  EXPECT_EQ(report->modules[0].totals.buffer_bytes.padded_bytes,
            512 + 1 + 512 + 16);
  EXPECT_EQ(report->modules[0].totals.buffer_bytes.logical_bytes,
            32 + 1 + 32 + 16);
}

TEST(Report, RowsPerInstruction) {
  absl::StatusOr<Report> report = BuildReport(kDump);
  ASSERT_TRUE(report.ok()) << report.status();
  const std::vector<ReportRow>& rows = report->modules[0].rows;
  ASSERT_EQ(rows.size(), 13u);
  EXPECT_EQ(rows[0].computation, "body");
  EXPECT_TRUE(rows[0].is_root);
  EXPECT_EQ(rows[0].array_leaves, 2);
  EXPECT_EQ(rows[0].bytes.logical_bytes, 4004);
  EXPECT_EQ(rows[0].bytes.padded_bytes, 4100);
  const ReportRow& a = rows[1];
  EXPECT_EQ(a.name, "a");
  EXPECT_EQ(a.opcode, "parameter");
  EXPECT_EQ(a.shape_text, "bf16[3,200]{1,0:T(8,128)(2,1)}");
  EXPECT_EQ(a.memory_space, 0);
  EXPECT_EQ(a.bytes.logical_bytes, 1200);
  EXPECT_EQ(a.bytes.padded_bytes, 4096);
  EXPECT_NEAR(a.bytes.expansion(), 4096.0 / 1200.0, 1e-12);
  EXPECT_EQ(rows[2].memory_space, 1);
  const ReportRow& d = rows[7];
  EXPECT_EQ(d.name, "d");
  EXPECT_EQ(d.array_leaves, 1);
  EXPECT_EQ(d.unsized_array_leaves, 1);
  EXPECT_EQ(d.bytes.padded_bytes, 0);
  const ReportRow& t = rows[8];
  EXPECT_TRUE(t.has_shape);
  EXPECT_EQ(t.array_leaves, 0);
  EXPECT_EQ(t.memory_space, ReportRow::kNoMemorySpace);
  const ReportRow& n = rows[9];
  EXPECT_FALSE(n.has_shape);
  EXPECT_EQ(n.bytes.logical_bytes, 0);
  EXPECT_EQ(rows[10].memory_space, ReportRow::kMixedMemorySpaces);
  EXPECT_TRUE(rows[12].is_root);
  EXPECT_FALSE(rows[11].is_root);
}

TEST(Report, TopWastersWithReasons) {
  ReportOptions options;
  options.top_wasters = 3;
  absl::StatusOr<Report> report = BuildReport(kDump, options);
  ASSERT_TRUE(report.ok()) << report.status();
  const std::vector<PaddingWaster>& w = report->modules[0].top_wasters;
  ASSERT_EQ(w.size(), 3u);
  // c wastes 11948 bytes; r's {0} is the same buffer, not a second waster
  // (r, a tuple, defines only its index table); then q (4032) and a (2896).
  // `n` has no shape, which the memory analysis refuses: each value is
  // then ranked on its own, and the note says that aliases are not known.
  EXPECT_EQ(w[0].name, "c");
  EXPECT_EQ(w[0].BufferName(), "c");
  EXPECT_EQ(w[0].shape_text, "f32[17,5]{1,0:T(8,128)}");
  EXPECT_EQ(w[0].bytes.wasted_bytes(), 11948);
  EXPECT_THAT(
      w[0].reasons,
      ElementsAre(HasSubstr("dim 0 (size 17) is not a multiple of tile 8"),
                  HasSubstr("dim 1 (size 5) is not a multiple of tile 128")));
  EXPECT_TRUE(w[0].aliases.empty());
  EXPECT_TRUE(w[0].also_defined_by.empty());
  EXPECT_EQ(w[1].name, "q");
  EXPECT_EQ(w[1].bytes.wasted_bytes(), 4032);
  EXPECT_THAT(w[1].reasons,
              ElementsAre(HasSubstr("dim 1 (size 130) is not a multiple of "
                                    "tile 128")));
  EXPECT_EQ(w[2].name, "a");
  EXPECT_EQ(w[2].bytes.wasted_bytes(), 2896);
  EXPECT_THAT(report->modules[0].wasters_note,
              HasSubstr("aliases not known: the memory analysis refused the "
                        "module (instruction 'n' in 'main' has no shape"));
}

// Issue 35: a loop's state was listed once per name (the loop, its init
// tuple, the body's parameter, ...), tuple rows first. Now each buffer is
// listed once, named by the value defined first, with the other value
// that takes its place and every other name of it beside it.
TEST(Report, PaddingWastersAreBuffersEachOnce) {
  constexpr char kLoop[] = R"(HloModule m, is_scheduled=true
%cond (state: (s32[], f32[3,1000])) -> pred[] {
  %state = (s32[]{:T(128)}, f32[3,1000]{1,0:T(8,128)}) parameter(0)
  %i = s32[]{:T(128)} get-tuple-element(%state), index=0
  %limit = s32[]{:T(128)} constant(10)
  ROOT %lt = pred[]{:T(128)} compare(%i, %limit), direction=LT
}
%body (state.1: (s32[], f32[3,1000])) -> (s32[], f32[3,1000]) {
  %state.1 = (s32[]{:T(128)}, f32[3,1000]{1,0:T(8,128)}) parameter(0)
  %i.1 = s32[]{:T(128)} get-tuple-element(%state.1), index=0
  %one = s32[]{:T(128)} constant(1)
  %next = s32[]{:T(128)} add(%i.1, %one)
  %acc = f32[3,1000]{1,0:T(8,128)} get-tuple-element(%state.1), index=1
  %scaled = f32[3,1000]{1,0:T(8,128)} multiply(%acc, %acc)
  ROOT %tuple.1 = (s32[]{:T(128)}, f32[3,1000]{1,0:T(8,128)}) tuple(%next, %scaled)
}
ENTRY %main (acc.0: f32[3,1000]) -> (f32[3,1000]) {
  %acc.0 = f32[3,1000]{1,0:T(8,128)} parameter(0)
  %zero = s32[]{:T(128)} constant(0)
  %init = (s32[]{:T(128)}, f32[3,1000]{1,0:T(8,128)}) tuple(%zero, %acc.0)
  %while = (s32[]{:T(128)}, f32[3,1000]{1,0:T(8,128)}) while(%init), condition=%cond, body=%body
  %result = f32[3,1000]{1,0:T(8,128)} get-tuple-element(%while), index=1
  ROOT %out = (f32[3,1000]{1,0:T(8,128)}) tuple(%result)
}
)";
  for (const char* header : {"HloModule m, is_scheduled=true", "HloModule m"}) {
    const std::string text = absl::StrCat(
        header, absl::string_view(kLoop).substr(std::string(kLoop).find('\n')));
    ReportOptions options;
    options.top_wasters = 10;
    absl::StatusOr<Report> report = BuildReport(text, options);
    ASSERT_TRUE(report.ok()) << report.status();
    const std::vector<PaddingWaster>& w = report->modules[0].top_wasters;
    ASSERT_FALSE(w.empty());
    EXPECT_EQ(w[0].BufferName(), "acc.0") << header;
    EXPECT_EQ(w[0].computation, "main");
    EXPECT_EQ(w[0].bytes.wasted_bytes(), 32768 - 12000);
    EXPECT_THAT(w[0].also_defined_by, ElementsAre("scaled"));
    EXPECT_THAT(w[0].aliases,
                ElementsAre("state{1}", "state.1{1}", "acc", "tuple.1{1}",
                            "init{1}", "while{1}", "result", "out{0}"));
    // Every other waster is another buffer: no name twice, no tuple.
    std::set<std::string> names;
    for (const PaddingWaster& waster : w) {
      EXPECT_TRUE(waster.shape.IsArray()) << waster.BufferName();
      EXPECT_TRUE(names.insert(waster.BufferName()).second);
      for (const std::string& alias : waster.aliases) {
        EXPECT_TRUE(names.insert(alias).second) << alias;
      }
      for (const std::string& other : waster.also_defined_by) {
        EXPECT_TRUE(names.insert(other).second) << other;
      }
    }
    // The loop counter: zero, taken over by next; limit, one and lt alone.
    ASSERT_EQ(w.size(), 5u);
    EXPECT_EQ(w[1].BufferName(), "limit");
    EXPECT_EQ(w[2].BufferName(), "one");
    EXPECT_EQ(w[3].BufferName(), "zero");
    EXPECT_THAT(w[3].also_defined_by, ElementsAre("next"));
    EXPECT_EQ(w[4].BufferName(), "lt");
  }
}

TEST(Report, TailAlignmentIsAReason) {
  ReportOptions options;
  options.top_wasters = 1;
  absl::StatusOr<Report> report = BuildReport(
      "ENTRY e {\n ROOT u = u8[512]{0:T(512)L(1024)} parameter(0)\n}\n",
      options);
  ASSERT_TRUE(report.ok()) << report.status();
  const auto& w = report->modules[0].top_wasters;
  ASSERT_EQ(w.size(), 1u);
  EXPECT_THAT(w[0].reasons,
              ElementsAre("L(1024) tail alignment: 512 elements padded to "
                          "1024"));
}

TEST(Report, SummaryKeepsNoRows) {
  ReportOptions options;
  options.keep_rows = false;
  absl::StatusOr<Report> report = BuildReport(kDump, options);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->modules[0].rows.empty());
  EXPECT_EQ(report->modules[0].totals.instructions, 13);
  EXPECT_EQ(report->modules[0].totals.bytes.padded_bytes, kPadded);
}

TEST(Report, SortRows) {
  absl::StatusOr<Report> report = BuildReport(kDump);
  ASSERT_TRUE(report.ok()) << report.status();
  SortRows(RowOrder::kPaddedBytes, &*report);
  const auto& rows = report->modules[0].rows;
  EXPECT_EQ(rows[0].name, "v");
  EXPECT_EQ(rows[1].name, "r");  // 12292
  EXPECT_EQ(rows[2].name, "c");  // 12288
  SortRows(RowOrder::kName, &*report);
  EXPECT_EQ(rows[0].computation, "body");
  EXPECT_EQ(rows[1].name, "a");
  EXPECT_EQ(rows[2].name, "c");
  SortRows(RowOrder::kText, &*report);
  for (size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(rows[i].order, i);
  // The keys a folder also takes (issue 35): padding, expansion, buffers.
  SortRows(RowOrder::kPaddingBytes, &*report);
  EXPECT_EQ(rows[0].name, "c");  // 11948 (r's 11948 too: text order)
  EXPECT_EQ(rows[1].name, "r");
  EXPECT_EQ(rows[2].name, "q");  // 4032
  SortRows(RowOrder::kExpansion, &*report);
  EXPECT_EQ(rows[0].name, "s");  // 4 -> 512 B: 128x
  SortRows(RowOrder::kBufferBytes, &*report);
  EXPECT_EQ(rows[0].name, "v");  // 8 MiB, then c (r defines 16 B only)
  EXPECT_EQ(rows[1].name, "c");
}

TEST(Report, SortModules) {
  absl::StatusOr<Report> report = BuildReport(
      "HloModule small\nENTRY e {\n ROOT a = f32[2]{0} parameter(0)\n}\n"
      "// -----\nHloModule big, is_scheduled=true\nENTRY e {\n"
      " a = f32[1024]{0} parameter(0)\n ROOT b = f32[1024]{0} negate(a)\n}\n");
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->modules.size(), 2u);
  SortModules(ModuleOrder::kInstructions, &*report);
  EXPECT_EQ(report->modules[0].name, "big");
  SortModules(ModuleOrder::kName, &*report);
  EXPECT_EQ(report->modules[0].name, "big");
  SortModules(ModuleOrder::kText, &*report);  // keeps the order
  EXPECT_EQ(report->modules[0].name, "big");
  std::swap(report->modules[0], report->modules[1]);
  // Only `big` is scheduled: it has an allocation and a peak.
  SortModules(ModuleOrder::kAllocated, &*report);
  EXPECT_EQ(report->modules[0].name, "big");
  EXPECT_EQ(report->modules[0].memory.platform, "gpu");  // when nothing tells
  std::swap(report->modules[0], report->modules[1]);
  SortModules(ModuleOrder::kPeak, &*report);
  EXPECT_EQ(report->modules[0].name, "big");
  EXPECT_EQ(report->modules[0].memory.live_ranges->peak.bytes, 8192);
}

TEST(Report, RootIsTheLastInstructionWithoutRoot) {
  absl::StatusOr<Report> report = BuildReport(
      "e {\n a = f32[2]{0} parameter(0)\n b = f32[2]{0} "
      "negate(a)\n}\n");
  ASSERT_TRUE(report.ok()) << report.status();
  const auto& rows = report->modules[0].rows;
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_FALSE(rows[0].is_root);
  EXPECT_TRUE(rows[1].is_root);
  EXPECT_TRUE(report->modules[0].name.empty());
  EXPECT_EQ(report->modules[0].entry_computation, "e");
}

TEST(Report, SumsSaturateWithAnOverflowMarker) {
  // Each array is 2^60-1 bytes (its bits still fit in int64): nine of them
  // pass INT64_MAX.
  std::string text = "ENTRY e {\n";
  for (int i = 0; i < 9; ++i) {
    absl::StrAppend(&text, " a", i, " = u8[1152921504606846975]{0} parameter(",
                    i, ")\n");
  }
  text += "}\n";
  absl::StatusOr<Report> report = BuildReport(text);
  ASSERT_TRUE(report.ok()) << report.status();
  const ModuleReport& m = report->modules[0];
  EXPECT_EQ(m.rows[0].bytes.logical_bytes, 1152921504606846975);
  EXPECT_FALSE(m.rows[0].bytes.overflow);
  EXPECT_EQ(m.totals.unsized_array_leaves, 0);
  EXPECT_TRUE(m.totals.bytes.overflow);
  EXPECT_EQ(m.totals.bytes.logical_bytes, INT64_MAX);
  EXPECT_EQ(m.totals.bytes.padded_bytes, INT64_MAX);
  EXPECT_TRUE(m.memory_spaces[0].bytes.overflow);
}

TEST(Report, ALeafTooLargeForInt64IsUnsizedAndMarked) {
  absl::StatusOr<Report> report = BuildReport(
      "ENTRY e {\n ROOT a = f32[4611686018427387904]{0} parameter(0)\n}\n");
  ASSERT_TRUE(report.ok()) << report.status();
  const ReportRow& row = report->modules[0].rows[0];
  EXPECT_EQ(row.unsized_array_leaves, 1);
  EXPECT_TRUE(row.bytes.overflow);
  EXPECT_TRUE(report->modules[0].totals.bytes.overflow);
}

TEST(Report, ErrorsStopWithoutKeepGoing) {
  absl::StatusOr<Report> report =
      BuildReport("ENTRY e {\n a = f32[2 parameter(0)\n}\n");
  ASSERT_FALSE(report.ok());
  EXPECT_THAT(report.status().message(), HasSubstr("2:12:"));
}

TEST(Report, KeepGoingCollectsErrors) {
  ReportOptions options;
  options.read.keep_going = true;
  options.read.file_name = "d.txt";
  absl::StatusOr<Report> report = BuildReport(
      "ENTRY e {\n a = f32[2 parameter(0)\n ROOT b = f32[2]{0} "
      "parameter(1)\n}\n",
      options);
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->errors.size(), 1u);
  EXPECT_THAT(report->errors[0], HasSubstr("d.txt:2:12:"));
  EXPECT_EQ(report->modules[0].totals.instructions, 1);
  EXPECT_EQ(report->modules[0].totals.bytes.logical_bytes, 8);
}

// The summary finds a shape's sizes by the address of the reader's Shape
// and the text's bytes: here 30,000 texts of one length that agree on
// their first 43 bytes, each used twice, more than the reader's shape cache
// holds (so that it empties and the addresses of its Shapes come back for
// other texts).
TEST(Report, SummaryTellsShapesThatShareALongPrefix) {
  std::string text = "HloModule m\n\nENTRY %main () -> f32[] {\n";
  int64_t logical = 4;  // the root
  int64_t number = 0;
  for (int pass = 0; pass < 2; ++pass) {
    for (int64_t k = 10000; k < 40000; ++k, ++number) {
      absl::StrAppend(&text, "  %p", number,
                      " = (f32[1,1,1,1,1,1,1,1]{7,6,5,4,3,2,1,0}, f32[", k,
                      "]{0}) parameter(", number, ")\n");
      logical += 4 + 4 * k;
    }
  }
  absl::StrAppend(&text, "  ROOT %r = f32[] constant(1)\n}\n");
  for (int64_t threads : {1, 3}) {
    ReportOptions options;
    options.keep_rows = false;
    options.threads = threads;
    options.min_bytes_per_thread = 1 << 20;
    absl::StatusOr<Report> report = BuildReport(text, options);
    ASSERT_TRUE(report.ok()) << report.status();
    const ModuleTotals& totals = report->modules[0].totals;
    EXPECT_EQ(totals.instructions, number + 1);
    EXPECT_EQ(totals.array_leaves, 2 * number + 1);
    EXPECT_EQ(totals.bytes.logical_bytes, logical) << threads;
    EXPECT_EQ(totals.bytes.padded_bytes, logical) << threads;
  }
}

TEST(Report, GeneratedDumpMatchesTheGeneratorsBookkeeping) {
  HloDumpOptions dump_options;
  dump_options.target_bytes = 3 << 20;
  dump_options.seed = 7;
  const GeneratedHloDump dump = GenerateHloDump(dump_options);
  absl::StatusOr<Report> report = BuildReport(dump.text);
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->modules.size(), 1u);
  const ModuleReport& m = report->modules[0];
  EXPECT_EQ(m.totals.computations, dump.computations);
  EXPECT_EQ(m.totals.instructions, dump.instructions);
  EXPECT_EQ(m.totals.instructions_without_shape,
            dump.instructions_without_shape);
  EXPECT_EQ(m.totals.array_leaves, dump.array_leaves);
  EXPECT_EQ(m.totals.unsized_array_leaves, dump.unbounded_leaves);
  EXPECT_EQ(m.totals.bytes.logical_bytes, dump.logical_bytes);
  EXPECT_EQ(m.totals.bytes.padded_bytes, dump.padded_bytes);
  ASSERT_EQ(m.memory_spaces.size(), 2u);
  EXPECT_EQ(m.memory_spaces[1].memory_space, 1);
  EXPECT_EQ(m.memory_spaces[1].bytes.logical_bytes, dump.logical_bytes_s1);
  EXPECT_EQ(m.memory_spaces[1].bytes.padded_bytes, dump.padded_bytes_s1);
  EXPECT_EQ(m.memory_spaces[0].bytes.padded_bytes,
            dump.padded_bytes - dump.padded_bytes_s1);
  EXPECT_EQ(static_cast<int64_t>(m.rows.size()), dump.instructions);
}

}  // namespace
}  // namespace hlolayout

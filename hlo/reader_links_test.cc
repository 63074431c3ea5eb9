// Tests of the links ReadHloModules sets (hlo/module.h): operands to the
// instructions that define them, instructions to the computations they call
// and to their control predecessors, and the header's input_output_alias.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/hlo/reader_internal.h"

namespace hlolayout {
namespace {

constexpr char kModule[] =
    R"(HloModule m, is_scheduled=true, input_output_alias={ {0}: (1, {}, may-alias), {1}: (0, {2}) }

%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(f32[] %x, f32[] %y)
}

%cond (c: (s32[], f32[8])) -> pred[] {
  %c = (s32[], f32[8]) parameter(0)
  %i = s32[] get-tuple-element(%c), index=0
  %n = s32[] constant(4)
  ROOT %lt = pred[] compare(%i, %n), direction=LT
}

%body (b: (s32[], f32[8])) -> (s32[], f32[8]) {
  %b = (s32[], f32[8]) parameter(0)
  %j = s32[] get-tuple-element(%b), index=0
  %v = f32[8] get-tuple-element(%b), index=1
  %one = s32[] constant(1)
  %k = s32[] add(%j, %one)
  ROOT %t = (s32[], f32[8]) tuple(%k, %v)
}

ENTRY %main (p0: f32[8], p1: (s32[], f32[8])) -> f32[] {
  %p0 = f32[8] parameter(0)
  %p1 = (s32[], f32[8]) parameter(1)
  %w = (s32[], f32[8]) while(%p1), condition=%cond, body=%body, control-predecessors={%r}
  %z = f32[] constant(0)
  %r = f32[] reduce(%p0, %z), dimensions={0}, to_apply=%add
  ROOT %o = f32[] add(%r, %w#0)
}
)";

const HloInstruction& Named(const HloComputation& c, absl::string_view name) {
  for (const HloInstruction& in : c.instructions) {
    if (in.name() == name) return in;
  }
  ADD_FAILURE() << "no " << name;
  return c.instructions[0];
}

TEST(HloLinks, OperandsCalleesAndControlPredecessors) {
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(kModule);
  ASSERT_TRUE(modules.ok()) << modules.status();
  const HloModule& m = (*modules)[0];
  const HloComputation& entry = m.entry();
  const HloInstruction& w = Named(entry, "w");
  EXPECT_EQ(w.opcode, HloOpcode::kWhile);
  ASSERT_EQ(w.operands().size(), 1u);
  EXPECT_EQ(w.operands()[0].index, 1);  // p1
  // condition= before body=, as written.
  EXPECT_EQ(absl::StrJoin(m.callees(w), ","), "1,2");
  EXPECT_EQ(CalledComputation(m, w, "body"), 2);
  EXPECT_EQ(CalledComputation(m, w, "condition"), 1);
  EXPECT_EQ(CalledComputation(m, w, "to_apply"), -1);
  // A control predecessor may come later in the text.
  EXPECT_EQ(absl::StrJoin(m.control_predecessors(w), ","), "4");
  const HloInstruction& r = Named(entry, "r");
  EXPECT_EQ(absl::StrJoin(m.callees(r), ","), "0");
  EXPECT_TRUE(m.control_predecessors(r).empty());
  const HloInstruction& o = Named(entry, "o");
  ASSERT_EQ(o.operands().size(), 2u);
  EXPECT_EQ(o.operands()[0].index, 4);
  EXPECT_EQ(o.operands()[1].index, 2);  // %w#0
  EXPECT_EQ(o.operands()[1].output_index, 0);
  // Operands name instructions of their own computation.
  const HloInstruction& k = Named(m.computations[2], "k");
  EXPECT_EQ(k.operands()[0].index, 1);
  EXPECT_EQ(k.operands()[1].index, 3);
  // Every operand of this module is linked, and to an instruction of that
  // name.
  for (const HloComputation& c : m.computations) {
    for (const HloInstruction& in : c.instructions) {
      for (const HloOperand& op : in.operands()) {
        ASSERT_GE(op.index, 0) << in.name();
        EXPECT_EQ(c.instructions[op.index].name(), op.name);
      }
    }
  }
}

// Each computation knows the callees of its instructions (one after the
// other) and which kinds of instructions call it, so that an analysis need
// not walk every record for them.
TEST(HloLinks, ComputationsKnowTheirCalleesAndCallers) {
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(kModule);
  ASSERT_TRUE(modules.ok()) << modules.status();
  const HloModule& m = (*modules)[0];
  ASSERT_EQ(m.computations.size(), 4u);
  ASSERT_EQ(m.entry_index, 3);
  // %main: the while's condition and body, then the reduce's %add.
  EXPECT_EQ(absl::StrJoin(m.computation_callees(3), ","), "1,2,0");
  for (int c = 0; c < 3; ++c) EXPECT_TRUE(m.computation_callees(c).empty());
  EXPECT_TRUE(m.computation_callees(4).empty());  // no such computation
  ASSERT_EQ(m.called_by.size(), 4u);
  EXPECT_EQ(m.called_by[0], kHloCalledByEmbedded);     // %add
  EXPECT_EQ(m.called_by[1], kHloCalledByControlFlow);  // %cond
  EXPECT_EQ(m.called_by[2], kHloCalledByControlFlow);  // %body
  EXPECT_EQ(m.called_by[3], 0);

  // Called both ways; an unknown callee is listed as -1 and marks nothing.
  HloReadOptions keep_going;
  keep_going.keep_going = true;
  std::vector<absl::Status> errors;
  absl::StatusOr<std::vector<HloModule>> both = ReadHloModules(
      R"(HloModule b
%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(%x, %y)
}
ENTRY %main (p: f32[8], q: f32[]) -> f32[] {
  %p = f32[8] parameter(0)
  %q = f32[] parameter(1)
  %r = f32[] reduce(%p, %q), dimensions={0}, to_apply=%add
  %c = f32[] call(%r, %q), to_apply=%add
  ROOT %u = f32[] call(%c, %q), to_apply=%nowhere
}
)",
      keep_going, &errors);
  ASSERT_TRUE(both.ok()) << both.status();
  const HloModule& b = (*both)[0];
  EXPECT_EQ(b.called_by[0], kHloCalledByEmbedded | kHloCalledByControlFlow);
  EXPECT_EQ(absl::StrJoin(b.computation_callees(1), ","), "0,0,-1");
  EXPECT_EQ(b.called_by[1], 0);
}

TEST(HloLinks, InputOutputAliasIsReadOnce) {
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(kModule);
  ASSERT_TRUE(modules.ok()) << modules.status();
  const std::vector<HloAliasPair>& alias =
      (*modules)[0].header.input_output_alias;
  ASSERT_EQ(alias.size(), 2u);
  EXPECT_EQ(absl::StrJoin(alias[0].output_index, ","), "0");
  EXPECT_EQ(alias[0].number, 1);
  EXPECT_TRUE(alias[0].index.empty());
  EXPECT_EQ(alias[0].kind, "may-alias");
  EXPECT_EQ(alias[1].number, 0);
  EXPECT_EQ(absl::StrJoin(alias[1].index, ","), "2");
}

// Read past errors: what no instruction defines stays unlinked (-1), and a
// callee no computation has is -1 too.
TEST(HloLinks, UnknownNamesStayUnlinked) {
  HloReadOptions options;
  options.keep_going = true;
  std::vector<absl::Status> errors;
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(
      R"(HloModule m

ENTRY %main (p: f32[]) -> f32[] {
  %p = f32[] parameter(0)
  %bad = f32[] add(f32[] %p, f32[] %nowhere)
  ROOT %c = f32[] call(f32[] %p), to_apply=%missing
}
)",
      options, &errors);
  ASSERT_TRUE(modules.ok()) << modules.status();
  EXPECT_FALSE(errors.empty());
  const HloModule& m = (*modules)[0];
  const HloInstruction& c = Named(m.entry(), "c");
  EXPECT_EQ(c.operands()[0].index, 0);
  ASSERT_EQ(m.callees(c).size(), 1u);
  EXPECT_EQ(m.callees(c)[0], -1);
  EXPECT_EQ(CalledComputation(m, c, "to_apply"), -1);
}

// Callee names are looked up in batches (reader_links.cc, CalleeLookups):
// with many calls, names the module lacks among them, a conditional's
// several branches and calls of both kinds, every call links to the
// computation of its name and every computation knows its callers' kinds,
// whether the names come from the reader or from the text (a module linked
// again without them).
TEST(HloLinks, ManyCalleesEachLinkToTheirName) {
  constexpr int kComputations = 41;
  std::string text = "HloModule m\n\n";
  for (int i = 0; i < kComputations; ++i) {
    absl::StrAppend(&text, "%g", i, " (a: f32[]) -> f32[] {\n",
                    "  ROOT %a = f32[] parameter(0)\n}\n\n");
  }
  text += "ENTRY %main (p: f32[], k: s32[]) -> f32[] {\n";
  text += "  %p = f32[] parameter(0)\n  %k = s32[] parameter(1)\n";
  // Call i goes to computation (7 * i) % 41: all of them, out of order;
  // every tenth names one the module lacks.
  std::vector<std::string> expected;
  for (int i = 0; i < kComputations; ++i) {
    const std::string callee = i % 10 == 9
                                   ? absl::StrCat("none", i)
                                   : absl::StrCat("g", (7 * i) % kComputations);
    absl::StrAppend(
        &text, "  %f", i, " = f32[] ", i % 3 == 0 ? "call" : "fusion", "(%p), ",
        i % 3 == 0 ? "to_apply" : "kind=kLoop, calls", "=%", callee, "\n");
    expected.push_back(callee);
  }
  text +=
      "  ROOT %c = f32[] conditional(%k, %p, %p, %p), "
      "branch_computations={%g40, %nowhere, %g1}\n}\n";
  HloReadOptions options;
  options.keep_going = true;  // the names no computation has
  std::vector<absl::Status> errors;
  absl::StatusOr<std::vector<HloModule>> modules =
      ReadHloModules(text, options, &errors);
  ASSERT_TRUE(modules.ok()) << modules.status();
  HloModule& m = (*modules)[0];
  const auto check = [&](absl::string_view how) {
    const HloComputation& entry = m.entry();
    std::vector<uint8_t> by(m.computations.size(), 0);
    for (int i = 0; i < kComputations; ++i) {
      const HloInstruction& f = Named(entry, absl::StrCat("f", i));
      ASSERT_EQ(m.callees(f).size(), 1u) << how << " f" << i;
      const int32_t c = m.callees(f)[0];
      if (expected[i].rfind("none", 0) == 0) {
        EXPECT_EQ(c, -1) << how << " f" << i;
        continue;
      }
      ASSERT_GE(c, 0) << how << " f" << i;
      EXPECT_EQ(m.computations[c].header.name, expected[i]) << how << " f" << i;
      by[c] |= i % 3 == 0 ? kHloCalledByControlFlow : kHloCalledByEmbedded;
    }
    const HloInstruction& cond = Named(entry, "c");
    ASSERT_EQ(m.callees(cond).size(), 3u) << how;
    EXPECT_EQ(m.computations[m.callees(cond)[0]].header.name, "g40") << how;
    EXPECT_EQ(m.callees(cond)[1], -1) << how;
    EXPECT_EQ(m.computations[m.callees(cond)[2]].header.name, "g1") << how;
    by[m.callees(cond)[0]] |= kHloCalledByControlFlow;
    by[m.callees(cond)[2]] |= kHloCalledByControlFlow;
    for (size_t c = 0; c < m.computations.size(); ++c) {
      EXPECT_EQ(m.called_by[c], by[c])
          << how << " " << m.computations[c].header.name;
    }
  };
  check("read");
  // Linked again without the reader's names: read in the text.
  ASSERT_TRUE(hlo_internal::LinkHloModule(&m, true, INT32_MAX).ok());
  check("linked again");
}

// The reader lists the computations that hold a record calling a
// computation or naming control predecessors; linking reads the records of
// those only. A computation with control predecessors and no call, one with
// a call only, and one with neither are each linked, read whole or cut
// before any instruction line (the parts joined).
TEST(HloLinks, ComputationsWithCallsOrControlPredecessorsAreLinked) {
  const std::string text = R"(HloModule m

%plain (x: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  ROOT %y = f32[] negate(%x)
}

%ordered (a: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] abs(%a), control-predecessors={%c}
  %c = f32[] negate(%a)
  ROOT %d = f32[] add(%b, %c)
}

ENTRY %main (p: f32[]) -> f32[] {
  %p = f32[] parameter(0)
  %q = f32[] call(%p), to_apply=%ordered
  %r = f32[] negate(%q)
  ROOT %s = f32[] fusion(%r), kind=kLoop, calls=%plain
}
)";
  std::vector<size_t> cuts = {0};
  for (size_t at = text.find("\n  "); at != std::string::npos;
       at = text.find("\n  ", at + 1)) {
    cuts.push_back(at + 3);  // the name after the indent
  }
  for (size_t cut : cuts) {
    bool joined = false;
    absl::StatusOr<std::vector<HloModule>> modules =
        cut == 0 ? ReadHloModules(text)
                 : hlo_internal::ReadModulesInParts(text, HloReadOptions(),
                                                    nullptr, {cut}, 2, &joined);
    ASSERT_TRUE(modules.ok()) << modules.status();
    ASSERT_EQ(modules->size(), 1u);
    const HloModule& m = (*modules)[0];
    ASSERT_EQ(m.computations.size(), 3u);
    const HloInstruction& b = Named(m.computations[1], "b");
    EXPECT_EQ(absl::StrJoin(m.control_predecessors(b), ","), "2") << cut;
    const HloInstruction& q = Named(m.entry(), "q");
    const HloInstruction& s = Named(m.entry(), "s");
    EXPECT_EQ(absl::StrJoin(m.callees(q), ","), "1") << cut;
    EXPECT_EQ(absl::StrJoin(m.callees(s), ","), "0") << cut;
    EXPECT_EQ(m.called_by[0], kHloCalledByEmbedded) << cut;
    EXPECT_EQ(m.called_by[1], kHloCalledByControlFlow) << cut;
    EXPECT_EQ(m.called_by[2], 0) << cut;
    for (const HloComputation& c : m.computations) {
      for (const HloInstruction& in : c.instructions) {
        if (&in == &b) continue;
        EXPECT_TRUE(m.control_predecessors(in).empty()) << cut << in.name();
        if (&in == &q || &in == &s) continue;
        EXPECT_TRUE(m.callees(in).empty()) << cut << in.name();
      }
    }
  }
}

// Linking reads the records the reader listed (HloCalleeNames::records)
// and no other; a computation whose listed records are out of order or past
// its end has every record read.
TEST(HloLinks, ListedRecordsAloneAreReadUnlessTheListIsWrong) {
  const std::string text = R"(HloModule m
%plain (x: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  ROOT %y = f32[] negate(%x)
}
%other (a: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  ROOT %b = f32[] abs(%a)
}
ENTRY %main (p: f32[]) -> f32[] {
  %p = f32[] parameter(0)
  %q = f32[] call(%p), to_apply=%other
  %r = f32[] negate(%q)
  ROOT %s = f32[] fusion(%r), kind=kLoop, calls=%plain
}
)";
  using Records = std::vector<std::pair<uint32_t, uint32_t>>;
  const auto link = [&](const Records& records) {
    absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
    EXPECT_TRUE(modules.ok()) << modules.status();
    HloModule m = std::move((*modules)[0]);
    hlo_internal::HloCalleeNames kept;
    kept.listed = true;
    kept.records = records;
    EXPECT_TRUE(
        hlo_internal::LinkHloModule(&m, true, INT32_MAX, nullptr, &kept).ok());
    // The computations called, in the records' order, and by what.
    return absl::StrCat(absl::StrJoin(m.callee_indices, ","), ";",
                        m.called_by[0], m.called_by[1]);
  };
  EXPECT_EQ(link({{2, 1}, {2, 3}}), "1,0;21");
  EXPECT_EQ(link({{2, 1}}), "1;01");             // s is not read
  EXPECT_EQ(link({{2, 3}}), "0;20");             // q is not read
  EXPECT_EQ(link({{0, 5}}), ";00");              // the entry is not listed
  EXPECT_EQ(link({{2, 1}, {2, 99}}), "1,0;21");  // past the end: all read
  EXPECT_EQ(link({{2, 3}, {2, 1}}), "1,0;21");   // out of order: all read
}

// Computations of up to 16 instructions scan their names, larger ones hash
// them: both link each operand to its latest definition before it and each
// control predecessor to its definition, wherever it stands (%c: last).
TEST(HloLinks, SmallAndLargeComputationsLinkAlike) {
  for (int n : {3, 16, 17, 40}) {
    std::string text = "HloModule m\n\nENTRY %main (p: f32[]) -> f32[] {\n";
    text += "  %i0 = f32[] parameter(0)\n";
    for (int i = 1; i + 1 < n; ++i) {
      text += absl::StrCat("  ", i + 2 == n ? "ROOT " : "", "%i", i,
                           " = f32[] add(%i", i - 1, ", %i", i / 2, ")",
                           i == 1 ? ", control-predecessors={%c}" : "", "\n");
    }
    text += "  %c = f32[] constant(1)\n}\n";
    absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
    ASSERT_TRUE(modules.ok()) << modules.status();
    const HloModule& m = (*modules)[0];
    const HloComputation& entry = m.entry();
    ASSERT_EQ(entry.instructions.size(), static_cast<size_t>(n));
    for (int i = 1; i + 1 < n; ++i) {
      const HloInstruction& in = entry.instructions[i];
      ASSERT_EQ(in.operands().size(), 2u);
      EXPECT_EQ(in.operands()[0].index, i - 1) << n << " " << i;
      EXPECT_EQ(in.operands()[1].index, i / 2) << n << " " << i;
    }
    EXPECT_EQ(absl::StrJoin(m.control_predecessors(entry.instructions[1]), ","),
              absl::StrCat(n - 1));
  }
}

// The reader keeps the callee names as it reads them: linking the module
// reads none of them in the text again, once the reading has passed it
// (HloReadOptions::passed; here the passed text is overwritten, as pages
// given back would have to be read again).
TEST(HloLinks, LinkingReadsNoCalleeNameAgain) {
  std::string text = "HloModule m\n\n";
  constexpr int kComputations = 30000;  // about 4 MB
  for (int c = 0; c < kComputations; ++c) {
    absl::StrAppend(&text, "%fused_computation.", c,
                    " (p: f32[8]) -> f32[8] {\n  %p = f32[8]{0} parameter(0)\n"
                    "  ROOT %n = f32[8]{0} negate(%p)\n}\n\n");
  }
  absl::StrAppend(&text, "ENTRY %main (x: f32[8]) -> f32[8] {\n",
                  "  %f0 = f32[8]{0} parameter(0)\n");
  for (int c = 0; c < kComputations; ++c) {
    absl::StrAppend(&text, c + 1 == kComputations ? "  ROOT " : "  ", "%f",
                    c + 1, " = f32[8]{0} fusion(f32[8]{0} %f", c,
                    "), kind=kLoop, calls=%fused_computation.", c, "\n");
  }
  absl::StrAppend(&text, "}\n");
  const std::string original = text;
  size_t overwritten = 0;
  HloReadOptions read;
  read.passed = [&](size_t begin, size_t end) {
    std::fill(text.begin() + begin, text.begin() + end, '#');
    overwritten += end - begin;
  };
  absl::StatusOr<std::vector<HloModule>> modules =
      ReadHloModules(text, read, nullptr, /*threads=*/1);
  ASSERT_TRUE(modules.ok()) << modules.status();
  ASSERT_GT(overwritten, size_t{4} << 20);
  const HloModule& m = (*modules)[0];
  const HloComputation& entry = m.entry();
  ASSERT_EQ(entry.instructions.size(), kComputations + 1u);
  for (int c = 0; c < kComputations; ++c) {
    ASSERT_EQ(absl::StrJoin(m.callees(entry.instructions[c + 1]), ","),
              absl::StrCat(c))
        << c;
  }
  // The same links as a reading that passes nothing.
  absl::StatusOr<std::vector<HloModule>> whole = ReadHloModules(original);
  ASSERT_TRUE(whole.ok()) << whole.status();
  EXPECT_EQ(m.callee_indices, (*whole)[0].callee_indices);
  EXPECT_EQ(m.computation_callees_begin, (*whole)[0].computation_callees_begin);
  EXPECT_EQ(m.called_by, (*whole)[0].called_by);
}

// A module's links are 32-bit indices: a count over the bound (INT32_MAX;
// lowered here) is refused, never wrapped.
TEST(HloLinks, CountsOverTheBoundAreRefused) {
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(kModule);
  ASSERT_TRUE(modules.ok()) << modules.status();
  HloModule& m = (*modules)[0];
  // 4 computations, of 3 to 6 instructions.
  EXPECT_EQ(hlo_internal::LinkHloModule(&m, true, 3).message(),
            "more than 3 computations in a module");
  EXPECT_EQ(hlo_internal::LinkHloModule(&m, true, 5).message(),
            "more than 5 instructions in computation 'body'");
  EXPECT_TRUE(hlo_internal::LinkHloModule(&m, true, 6).ok());
  EXPECT_EQ(absl::StrJoin(m.callees(Named(m.entry(), "w")), ","), "1,2");

  // 2 computations of at most 3 instructions, 4 callees, 5 control
  // predecessors.
  absl::StatusOr<std::vector<HloModule>> calls = ReadHloModules(
      "%a (x: f32[]) -> f32[] {\n  ROOT %x = f32[] parameter(0)\n}\n\n"
      "ENTRY %e (i: s32[], p: f32[]) -> f32[] {\n"
      "  %i = s32[] parameter(0)\n  %p = f32[] parameter(1)\n"
      "  ROOT %r = f32[] conditional(%i, %p, %p, %p, %p), "
      "branch_computations={%a, %a, %a, %a}, "
      "control-predecessors={%i, %p, %i, %p, %i}\n}\n");
  ASSERT_TRUE(calls.ok()) << calls.status();
  HloModule& c = (*calls)[0];
  EXPECT_EQ(hlo_internal::LinkHloModule(&c, true, 3).message(),
            "more than 3 called computations in a module");
  EXPECT_EQ(hlo_internal::LinkHloModule(&c, true, 4).message(),
            "more than 4 control predecessors in a module");
  EXPECT_TRUE(hlo_internal::LinkHloModule(&c, true, 5).ok());
  EXPECT_EQ(absl::StrJoin(c.control_predecessors(Named(c.entry(), "r")), ","),
            "0,1,0,1,0");
}

}  // namespace
}  // namespace hlolayout

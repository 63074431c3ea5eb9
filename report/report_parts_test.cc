// Reading a text in parts on several threads (ReportOptions::threads) gives
// the report of reading it in one piece, whatever the cuts: same rows,
// totals, buffers, wasters, errors and statuses.
#include <cstdint>
#include <random>
#include <sstream>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "hlolayout/report/report.h"
#include "hlolayout/testing/hlo_test_dump.h"
#include "hlolayout/testing/sanitizer_scale.h"
#include "hlolayout/views/report_render.h"

namespace hlolayout {
namespace {

void Put(const ByteCounts& b, std::string* out) {
  absl::StrAppend(out, " ", b.logical_bytes, "/", b.padded_bytes,
                  b.overflow ? "!" : "");
}

// Every field of the report, and its text and JSON renderings.
std::string Describe(const absl::StatusOr<Report>& report) {
  if (!report.ok()) return std::string(report.status().message());
  std::string out;
  for (const ModuleReport& m : report->modules) {
    absl::StrAppend(&out, "module ", m.name, " entry ", m.entry_computation,
                    "\n");
    for (const ReportRow& r : m.rows) {
      absl::StrAppend(&out, r.order, " ", r.computation, " ", r.name, " ",
                      r.opcode, " ", r.shape_text, " ", r.is_root, r.has_shape,
                      " ", r.memory_space, " ", r.array_leaves, " ",
                      r.unsized_array_leaves, " ", static_cast<int>(r.buffer));
      Put(r.bytes, &out);
      Put(r.buffer_bytes, &out);
      out += "\n";
    }
    const ModuleTotals& t = m.totals;
    absl::StrAppend(&out, "totals ", t.computations, " ", t.instructions, " ",
                    t.instructions_without_shape, " ", t.buffer_values, " ",
                    t.array_leaves, " ", t.unsized_array_leaves);
    Put(t.buffer_bytes, &out);
    Put(t.bytes, &out);
    out += "\n";
    for (const MemorySpaceTotals& s : m.memory_spaces) {
      absl::StrAppend(&out, "space ", s.memory_space, " ", s.buffer_values, " ",
                      s.instructions, " ", s.array_leaves);
      Put(s.buffer_bytes, &out);
      Put(s.bytes, &out);
      out += "\n";
    }
    for (const PaddingWaster& w : m.top_wasters) {
      absl::StrAppend(&out, "waster ", w.order, " ", w.computation, " ", w.name,
                      " ", w.shape_text);
      Put(w.bytes, &out);
      for (const std::string& reason : w.reasons) out += " | " + reason;
      out += "\n";
    }
  }
  for (const std::string& e : report->errors) out += "error " + e + "\n";
  RenderOptions render;
  for (bool summary : {false, true}) {
    render.summary = summary;
    std::ostringstream text, json;
    RenderReportText(*report, render, text);
    RenderReportJson(*report, render, json);
    out += text.str() + json.str();
  }
  return out;
}

absl::StatusOr<Report> Read(absl::string_view text, int64_t threads,
                            bool keep_rows, bool keep_going) {
  ReportOptions options;
  options.threads = threads;
  options.min_bytes_per_thread = 1;
  options.keep_rows = keep_rows;
  // The summary streams (in parts); the full report reads modules whole.
  options.top_wasters = keep_rows ? 10 : 0;
  options.read.keep_going = keep_going;
  options.read.file_name = "dump.txt";
  return BuildReport(text, options);
}

// The totals and memory spaces of every module (what the summary keeps).
std::string DescribeTotals(const absl::StatusOr<Report>& report) {
  if (!report.ok()) return std::string(report.status().message());
  std::string out;
  RenderOptions render;
  render.summary = true;
  render.lead = false;
  std::ostringstream text;
  RenderReportText(*report, render, text);
  out += text.str();
  for (const std::string& e : report->errors) out += "error " + e + "\n";
  return out;
}

// Reads `text` in one piece and in 2..max_threads parts, with and without
// rows and keep_going; returns how many of the reads in parts were joined
// (only the summary, which streams, reads in parts). The full report,
// built from the modules read whole, has the summary's totals.
int64_t ExpectSameInParts(absl::string_view text, int64_t max_threads) {
  for (bool keep_going : {false, true}) {
    EXPECT_EQ(DescribeTotals(Read(text, 1, true, keep_going)),
              DescribeTotals(Read(text, 1, false, keep_going)))
        << "keep_going " << keep_going;
  }
  int64_t joined = 0;
  for (bool keep_rows : {true, false}) {
    for (bool keep_going : {false, true}) {
      const absl::StatusOr<Report> whole = Read(text, 1, keep_rows, keep_going);
      if (whole.ok()) {
        EXPECT_EQ(whole->parallel_parts, 0);
      }
      const std::string expected = Describe(whole);
      for (int64_t threads = 2; threads <= max_threads; ++threads) {
        const absl::StatusOr<Report> parts =
            Read(text, threads, keep_rows, keep_going);
        EXPECT_EQ(Describe(parts), expected)
            << threads << " threads, keep_rows " << keep_rows << ", keep_going "
            << keep_going;
        if (parts.ok() && parts->parallel_parts > 0) ++joined;
      }
    }
  }
  return joined;
}

TEST(ReportParts, GeneratedDumpsAreTheSameInAnyNumberOfParts) {
  for (int modules : {1, 3}) {
    HloDumpOptions options;
    options.target_bytes = 300 << 10;
    options.modules = modules;
    options.distinct_shapes = 64;
    options.seed = 11 + modules;
    const GeneratedHloDump dump = GenerateHloDump(options);
    // Every read in parts joined: the cuts all fell on instruction lines.
    EXPECT_EQ(ExpectSameInParts(dump.text, 9), 2 * 8) << modules;
  }
}

TEST(ReportParts, CutsInsideAComputationOfManySmallOnes) {
  // Every line is a cut candidate with as many threads as lines.
  // Each computation's fusion calls the one before it (XLA reads a callee
  // before its callers), the first a leaf.
  std::string text =
      "HloModule m\n%leaf (p: f32[8]) -> f32[8] {\n"
      "  ROOT %pl = f32[8]{0} parameter(0)\n}\n\n";
  for (int c = 0; c < 6; ++c) {
    // The root: %f of c2 (ROOT), else the last instruction, the tuple.
    absl::StrAppend(&text, c == 3 ? "ENTRY " : "", "%c", c, " (p: f32[8]) -> ",
                    c == 2 ? "f32[8]" : "(f32[8], s32[])", " {\n  %p", c,
                    " = f32[8]{0:T(128)} parameter(0)\n");
    for (int i = 0; i < c; ++i) {
      absl::StrAppend(&text, "  %x", c, ".", i,
                      " = bf16[3,200]{1,0:T(8,128)(2,1)} negate(%p", c,
                      "), metadata={op_name=\"n\"}\n");
    }
    absl::StrAppend(&text, "  ", c == 2 ? "ROOT " : "", "%f", c,
                    " = f32[8]{0} fusion(%p", c, "), kind=kLoop, calls=%",
                    c == 0 ? "leaf" : absl::StrCat("c", c - 1), "\n  %t", c,
                    " = (f32[8]{0}, s32[]) tuple(%p", c, ", %p", c, ")\n}\n\n");
  }
  EXPECT_GT(ExpectSameInParts(text, 40), 0);
}

// Calls of computations defined after their callers, whose names are
// looked up at different times in parts (at each cut) and in one piece (at
// the module's end): the error is the first such call in the text, as in
// one piece, wherever the cuts fall.
TEST(ReportParts, ACallBeforeTheDefinitionIsTheFirstErrorWhereverTheCutsFall) {
  std::string text = "HloModule m\n";
  for (int c = 0; c < 6; ++c) {
    absl::StrAppend(&text, c == 3 ? "ENTRY " : "", "%c", c,
                    " (p: f32[8]) -> f32[8] {\n  %p", c,
                    " = f32[8]{0} parameter(0)\n");
    for (int i = 0; i < c; ++i) {
      absl::StrAppend(&text, "  %x", c, ".", i, " = f32[8]{0} negate(%p", c,
                      ")\n");
    }
    absl::StrAppend(&text, "  ROOT %f", c, " = f32[8]{0} fusion(%p", c,
                    "), kind=kLoop, calls=%c", (c + 1) % 6, "\n}\n\n");
  }
  const absl::StatusOr<Report> whole = Read(text, 1, false, false);
  ASSERT_FALSE(whole.ok());
  EXPECT_TRUE(absl::StrContains(
      whole.status().message(),
      "dump.txt:4:56: computation 'c1' is called before it is defined"))
      << whole.status();
  EXPECT_EQ(ExpectSameInParts(text, 30), 0);
}

TEST(ReportParts, CallsResolveAsInOnePieceWhereverTheCutsFall) {
  // Calls across the cuts, one computation called by nobody, and a while
  // loop inside an embedded computation, whose body is then embedded too.
  // (A computation calling itself, or one defined after its caller, is
  // refused as XLA's parser refuses it: hlo:HloReaderStrictTest.)
  const std::string text = R"(HloModule m

%dup (p: f32[8]) -> f32[8] {
  %p = f32[8]{0:T(128)} parameter(0)
  ROOT %n = f32[8]{0:T(128)} negate(%p)
}

%w (p: f32[8]) -> f32[8] {
  %p = f32[8]{0:T(128)} parameter(0)
  ROOT %n = f32[8]{0:T(128)} negate(%p), metadata={op_name="w"}
}

%wc (p: f32[8]) -> pred[] {
  %p = f32[8]{0:T(128)} parameter(0)
  ROOT %c = pred[] constant(false)
}

%embedded (p: f32[8]) -> f32[8] {
  %p = f32[8]{0:T(128)} parameter(0)
  ROOT %l = f32[8]{0:T(128)} while(%p), condition=%wc, body=%w
}

%self (p: f32[8]) -> f32[8] {
  %p = f32[8]{0:T(128)} parameter(0)
  ROOT %f = f32[8]{0:T(128)} fusion(%p), kind=kLoop, calls=%dup
}

%unused (p: f32[8]) -> f32[8] {
  %p = f32[8]{0:T(128)} parameter(0)
  %a = f32[8]{0:T(128)} abs(%p)
  ROOT %n = f32[8]{0:T(128)} negate(%a)
}

%later (p: f32[8]) -> f32[8] {
  %p = f32[8]{0:T(128)} parameter(0)
  ROOT %n = f32[8]{0:T(128)} negate(%p)
}

%body (p: f32[8]) -> f32[8] {
  %p = f32[8]{0:T(128)} parameter(0)
  %c = f32[8]{0:T(128)} call(%p), to_apply=%later
  ROOT %f = f32[8]{0:T(128)} fusion(%c), kind=kLoop, calls=%dup
}

ENTRY %main (p: f32[8]) -> f32[8] {
  %p = f32[8]{0:T(128)} parameter(0)
  %e = f32[8]{0:T(128)} fusion(%p), kind=kLoop, calls=%embedded
  %l = f32[8]{0:T(128)} while(%e), condition=%wc, body=%body
  ROOT %s = f32[8]{0:T(128)} fusion(%l), kind=kLoop, calls=%self
}

)";
  const absl::StatusOr<Report> whole = Read(text, 1, true, false);
  ASSERT_TRUE(whole.ok()) << whole.status();
  for (const ReportRow& row : whole->modules[0].rows) {
    // Under the fusion of %embedded, the loop's body is embedded too;
    // %unused is called by nobody, so it counts.
    if (row.computation == "w" || row.computation == "wc" ||
        row.computation == "embedded" || row.computation == "dup") {
      EXPECT_EQ(row.buffer, BufferRole::kInEmbedded)
          << row.computation << " " << row.name;
    }
    if (row.computation == "unused" && row.name == "a") {
      EXPECT_EQ(row.buffer, BufferRole::kNew);
    }
    if (row.computation == "later" && row.name == "p") {
      EXPECT_EQ(row.buffer, BufferRole::kAlias);  // a call's parameter
    }
  }
  EXPECT_GT(ExpectSameInParts(text, 16), 0);
  // A computation defined twice is an error wherever the cuts fall.
  std::string twice = text;
  twice.replace(twice.find("%unused"), 7, "%dup");
  ASSERT_FALSE(Read(twice, 1, true, false).ok());
  ExpectSameInParts(twice, 16);
}

// Computations written inline (`to_apply={ ... }`): a part cannot name
// them (their names count those before it), so a cut inside one, or before
// the end of the computation that holds one, makes the text be read whole;
// cuts after them are joined. Either way the report is the same.
TEST(ReportParts, ComputationsWrittenInlineAreTheSameInAnyNumberOfParts) {
  std::string text = R"(HloModule m

%b1 (x: f32[8]) -> f32[8] {
  %x = f32[8]{0:T(128)} parameter(0)
  ROOT %n = f32[8]{0:T(128)} negate(%x)
}

%c0 (p: f32[8]) -> f32[8] {
  %p = f32[8]{0:T(128)} parameter(0)
  %c = f32[8]{0:T(128)} call(%p), to_apply={
    a = f32[8]{0:T(128)} parameter(0)
    ROOT r = f32[8]{0:T(128)} call(a), to_apply={
      b = f32[8]{0:T(128)} parameter(0)
      ROOT n = bf16[3,200]{1,0:T(8,128)(2,1)} negate(b)
    }
  }, metadata={op_name="c"}
  ROOT %d = f32[8]{0:T(128)} add(%c, %p)
}
)";
  for (int c = 1; c < 6; ++c) {
    absl::StrAppend(&text, "\n%c", c, " (p: f32[8]) -> f32[8] {\n");
    for (int i = 0; i < 4; ++i) {
      absl::StrAppend(&text, "  %x", i, " = f32[8]{0:T(128)} ",
                      i == 0 ? "parameter(0)" : "negate(%x0)", "\n");
    }
    absl::StrAppend(&text, "  ROOT %f = f32[8]{0:T(128)} fusion(%x3), ",
                    "kind=kLoop, calls=%c", c - 1, "\n}\n");
  }
  text += R"(
ENTRY %main (i: s32[], v: f32[8]) -> f32[8] {
  %i = s32[] parameter(0)
  %v = f32[8]{0:T(128)} parameter(1)
  %w = f32[8]{0:T(128)} fusion(%v), kind=kLoop, calls=%c5
  ROOT %r = f32[8]{0:T(128)} conditional(%i, %w, %w), branch_computations={{
    y = f32[8]{0:T(128)} parameter(0)
    ROOT z = f32[8]{0:T(128)} abs(y)
  }, %b1}
}
)";
  const absl::StatusOr<Report> whole = Read(text, 1, true, false);
  ASSERT_TRUE(whole.ok()) << whole.status();
  ASSERT_EQ(whole->modules.size(), 1u);
  EXPECT_EQ(whole->modules[0].totals.computations, 2 + 5 + 1 + 3);
  EXPECT_EQ(whole->modules[0].totals.instructions,
            2 + 3 + 5 * 5 + 4 + 2 + 2 + 2);
  // Each after the computation holding it, named as XLA names them.
  std::string order;
  for (const ReportRow& row : whole->modules[0].rows) {
    absl::StrAppend(&order, row.computation, ":", row.name, " ");
  }
  EXPECT_NE(order.find("c0:d _:b _:n _.1:a _.1:r c1:"), std::string::npos)
      << order;
  EXPECT_NE(order.find("main:r _.2:y _.2:z "), std::string::npos) << order;
  // The last part holds one: every text is read whole.
  EXPECT_EQ(ExpectSameInParts(text, 30), 0);
  // Only in the first computations: cuts after them join.
  std::string early = text;
  early.replace(early.find("{{"), early.find("%b1}") - early.find("{{") + 4,
                "{%b1, %b1}");
  ASSERT_TRUE(Read(early, 1, true, false).ok());
  EXPECT_GT(ExpectSameInParts(early, 30), 0);
  // Random edits (braces left open or closed early, a computation written
  // inline where none was): the same report or error in parts.
  const std::string pieces[] = {"}",
                                "{",
                                "\n",
                                "ROOT ",
                                ", to_apply={\n",
                                "  }\n",
                                "x = f32[8] negate(p)\n"};
  std::mt19937_64 random(7);
  for (int trial = 0; trial < SanitizerScaled(40, 4); ++trial) {
    std::string edited = text;
    const int edits = 1 + static_cast<int>(random() % 3);
    for (int e = 0; e < edits; ++e) {
      const size_t at = random() % edited.size();
      if (random() % 3 == 0) {
        edited.erase(at, 1 + random() % 8);
      } else {
        edited.insert(at,
                      pieces[random() % (sizeof(pieces) / sizeof(*pieces))]);
      }
    }
    for (bool keep_going : {false, true}) {
      const std::string expected = Describe(Read(edited, 1, true, keep_going));
      for (int64_t threads : {2, 3, 7}) {
        EXPECT_EQ(Describe(Read(edited, threads, true, keep_going)), expected)
            << "trial " << trial << ", " << threads << " threads";
      }
    }
  }
}

TEST(ReportParts, TwoRootsOrTwoEntriesAcrossACutAreStillErrors) {
  const std::string roots =
      "HloModule m\nENTRY %e {\n  ROOT %a = f32[] parameter(0)\n"
      "  %b = f32[] negate(%a)\n  ROOT %c = f32[] negate(%b)\n}\n";
  const std::string entries =
      "HloModule m\nENTRY %e {\n  %a = f32[] parameter(0)\n}\n"
      "ENTRY %f {\n  %b = f32[] parameter(0)\n}\n";
  for (const std::string& text : {roots, entries}) {
    const absl::StatusOr<Report> whole = Read(text, 1, true, false);
    ASSERT_FALSE(whole.ok());
    ExpectSameInParts(text, 12);
  }
}

TEST(ReportParts, LinesInsideMultiLineValuesAreNotCuts) {
  // Lines that look like instructions inside a string, a block comment and
  // a multi-line constant: the part before does not arrive there, and the
  // text is read in one piece.
  const std::string text =
      "HloModule m\nENTRY %e {\n  %a = f32[] parameter(0)\n"
      "  %s = f32[2]{0} custom-call(%a), backend_config=\"x\n"
      "  %fake = f32[] negate(%a)\n  ROOT %fake2 = f32[] abs(%a)\n\"\n"
      "  /*\n  %g = f32[] negate(%a)\n  */\n"
      "  %k = f32[2]{0} constant({1,\n  2})\n"
      "  ROOT %r = f32[] negate(%a)\n}\n";
  ASSERT_TRUE(Read(text, 1, true, false).ok());
  ExpectSameInParts(text, 30);
}

TEST(ReportParts, ErrorsLateInTheTextKeepTheirPositions) {
  HloDumpOptions options;
  options.target_bytes = 100 << 10;
  options.distinct_shapes = 16;
  std::string text = GenerateHloDump(options).text;
  // A bad instruction near the end (in the last part).
  const size_t line = text.rfind("\n  %", text.size() - 200);
  ASSERT_NE(line, std::string::npos);
  text.insert(line + 3, "@");
  const absl::StatusOr<Report> whole = Read(text, 1, false, false);
  ASSERT_FALSE(whole.ok());
  EXPECT_NE(whole.status().message().find("dump.txt:"), std::string::npos);
  ExpectSameInParts(text, 6);
}

TEST(ReportParts, HeaderlessModulesAndSeparators) {
  HloDumpOptions options;
  options.target_bytes = 60 << 10;
  options.modules = 2;
  options.distinct_shapes = 16;
  std::string text = GenerateHloDump(options).text;
  // Without their HloModule lines the modules are read in one piece.
  for (size_t at = text.find("HloModule"); at != std::string::npos;
       at = text.find("HloModule", at)) {
    text.replace(at, text.find('\n', at) - at, "// was a header");
  }
  EXPECT_EQ(ExpectSameInParts(text, 5), 0);
}

TEST(ReportParts, RandomEditsGiveTheSameReportOrError) {
  HloDumpOptions options;
  options.target_bytes = 24 << 10;
  options.modules = 2;
  options.distinct_shapes = 16;
  const std::string base = GenerateHloDump(options).text;
  const std::string pieces[] = {"}",          "{",
                                "\n",         "\"",
                                "ROOT ",      "ENTRY ",
                                "/*",         "*/",
                                ")",          "%x = f32[] negate(%y)\n",
                                "// -----\n", "\n}\n\n%c {\n"};
  std::mt19937_64 random(5);
  for (int trial = 0; trial < SanitizerScaled(60, 4); ++trial) {
    std::string text = base;
    const int edits = 1 + static_cast<int>(random() % 3);
    for (int e = 0; e < edits; ++e) {
      const size_t at = random() % text.size();
      if (random() % 3 == 0) {
        text.erase(at, 1 + random() % 8);
      } else {
        text.insert(at, pieces[random() % (sizeof(pieces) / sizeof(*pieces))]);
      }
    }
    for (bool keep_going : {false, true}) {
      const std::string expected = Describe(Read(text, 1, true, keep_going));
      for (int64_t threads : {2, 3, 7}) {
        EXPECT_EQ(Describe(Read(text, threads, true, keep_going)), expected)
            << "trial " << trial << ", " << threads << " threads";
      }
    }
  }
}

}  // namespace
}  // namespace hlolayout

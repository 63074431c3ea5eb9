// ReadHloModules in parts on several threads: the same modules as read in
// one piece, wherever the cuts fall, or the one-piece reading's error.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/hlo/reader_internal.h"
#include "hlolayout/testing/hlo_test_dump.h"
#include "hlolayout/testing/sanitizer_scale.h"
#include "hlolayout/util/pages.h"

#if defined(__GLIBC__) && defined(__linux__)
#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

namespace hlolayout {
namespace {

// Everything a module holds, one line per item (shapes by their printed
// form: the parts decode their own).
std::string Describe(const absl::StatusOr<std::vector<HloModule>>& modules) {
  if (!modules.ok()) return std::string(modules.status().message());
  std::string out;
  for (const HloModule& m : *modules) {
    absl::StrAppend(&out, "module ", m.header.name, " entry ", m.entry_index,
                    " attributes ", m.header.attributes.size(),
                    " unknown opcodes ", m.unknown_opcodes, "\n");
    for (const HloComputation& c : m.computations) {
      absl::StrAppend(&out, "computation ", c.header.name, " at ",
                      c.header.offset, c.header.entry_marker ? " ENTRY" : "",
                      c.header.written_inline ? " inline" : "", " root ",
                      c.root_index, " thread ", c.execution_thread, "\n");
      for (const HloInstruction& in : c.instructions) {
        absl::StrAppend(
            &out, "  ", in.offset, in.root_marker ? " ROOT " : " ", in.name(),
            " = ", in.shape == nullptr ? "-" : in.shape->ToString(true), " ",
            in.opcode_name(), "/", static_cast<int>(in.opcode), "(");
        for (const HloOperand& o : in.operands()) {
          absl::StrAppend(&out, o.name, "@", o.index, "#", o.output_index, ":",
                          o.shape == nullptr ? "-" : o.shape->ToString(true),
                          " ");
        }
        absl::StrAppend(&out, ") calls ", absl::StrJoin(m.callees(in), ","),
                        " after ",
                        absl::StrJoin(m.control_predecessors(in), ","));
        for (const HloAliasPair& p : m.operand_aliasing(in)) {
          absl::StrAppend(&out, " alias {", absl::StrJoin(p.output_index, ","),
                          "}:", p.number, "{", absl::StrJoin(p.index, ","), "}",
                          p.kind);
        }
        for (const HloAttribute& a : in.attributes()) {
          absl::StrAppend(&out, " ", a.name(), "=", a.value());
        }
        absl::StrAppend(&out, "\n");
      }
    }
  }
  return out;
}
// What the reader recorded of an instruction's attributes
// (HloInstruction::attribute_facts, metadata_attribute, decoded_attribute)
// is what the attributes say.
void ExpectFactsOfAttributes(const HloInstruction& in) {
  ASSERT_NE(in.attribute_facts & kHloFactsKnown, 0) << in.name();
  uint8_t facts = kHloFactsKnown;
  int metadata = -1;
  int64_t index = -1;
  for (size_t i = 0; i < in.attributes().size(); ++i) {
    const absl::string_view name = in.attributes()[i].name();
    if (IsCalleeAttribute(name)) facts |= kHloFactCallee;
    if (name == "control-predecessors") facts |= kHloFactControl;
    if (name == "body" && (facts & kHloFactCondition) == 0 &&
        (facts & kHloFactBody) == 0) {
      facts |= kHloFactBodyFirst;
    }
    if (name == "body") facts |= kHloFactBody;
    if (name == "condition") facts |= kHloFactCondition;
    if (name == "output_to_operand_aliasing") {
      facts |= kHloFactOperandAliasing;
    }
    if (name == "metadata" && metadata < 0) metadata = static_cast<int>(i);
    const bool fusion = in.opcode == HloOpcode::kFusion;
    const bool custom_call = in.opcode == HloOpcode::kCustomCall;
    if (!fusion && !custom_call && name == "index" && index == -1) {
      int32_t n = 0;
      index = absl::SimpleAtoi(in.attributes()[i].value(), &n) && n >= 0
                  ? n
                  : HloInstruction::kAskAttributes;
    }
    if (fusion && name == "kind" && index == -1) {
      const absl::optional<HloFusionKind> kind =
          ParseHloFusionKind(in.attributes()[i].value());
      index = kind.has_value() ? static_cast<int>(*kind)
                               : HloInstruction::kAskAttributes;
    }
    if (custom_call && name == "custom_call_target" && index == -1) {
      index = static_cast<int64_t>(
          i | size_t{HloTargetFamilies(in.custom_call_target())}
                  << kHloTargetFamilyShift);
    }
  }
  EXPECT_EQ(static_cast<int>(in.attribute_facts), static_cast<int>(facts))
      << in.name();
  EXPECT_EQ(in.metadata_attribute, metadata) << in.name();
  EXPECT_EQ(in.decoded_attribute, index) << in.name();
}

// Each operand's index is the latest instruction before it, in its
// computation, of the operand's name (-1 when none), and each instruction's
// callees and control predecessors are those its attributes name: the
// reader links most as it reads, a join of parts the rest, and linking the
// module skips what the reader saw has no such attribute; this looks every
// name up again.
void ExpectLinkedByName(const absl::StatusOr<std::vector<HloModule>>& modules) {
  if (!modules.ok()) return;
  const auto index_of = [](const std::map<absl::string_view, int32_t>& map,
                           absl::string_view name) {
    const auto it = map.find(name);
    return it == map.end() ? -1 : it->second;
  };
  for (const HloModule& m : *modules) {
    std::map<absl::string_view, int32_t> computations;
    for (size_t c = 0; c < m.computations.size(); ++c) {
      computations.emplace(m.computations[c].header.name, c);
    }
    for (const HloComputation& c : m.computations) {
      std::map<absl::string_view, int32_t> latest, all;
      for (size_t i = 0; i < c.instructions.size(); ++i) {
        all[c.instructions[i].name()] = static_cast<int32_t>(i);
      }
      for (size_t i = 0; i < c.instructions.size(); ++i) {
        const HloInstruction& in = c.instructions[i];
        for (const HloOperand& o : in.operands()) {
          EXPECT_EQ(o.index, index_of(latest, o.name))
              << c.header.name << " " << in.name() << " " << o.name;
        }
        latest[in.name()] = static_cast<int32_t>(i);
        std::vector<int32_t> callees, predecessors;
        for (absl::string_view name : CalledComputationNames(in)) {
          callees.push_back(index_of(computations, name));
        }
        if (absl::optional<absl::string_view> value =
                FindHloAttribute(in.attributes(), "control-predecessors")) {
          for (absl::string_view name : HloValueNames(*value)) {
            predecessors.push_back(index_of(all, name));
          }
        }
        EXPECT_EQ(absl::StrJoin(m.callees(in), ","),
                  absl::StrJoin(callees, ","))
            << in.name();
        EXPECT_EQ(absl::StrJoin(m.control_predecessors(in), ","),
                  absl::StrJoin(predecessors, ","))
            << in.name();
        ExpectFactsOfAttributes(in);
      }
    }
  }
}

// The starts of the lines that may begin an instruction (HloCutPoints'
// candidates): every line start past the first line, at its first byte
// that is not a space.
std::vector<size_t> LineStarts(absl::string_view text) {
  std::vector<size_t> starts;
  for (size_t p = text.find('\n'); p != absl::string_view::npos;
       p = text.find('\n', p + 1)) {
    size_t q = p + 1;
    while (q < text.size() && text[q] == ' ') ++q;
    if (q < text.size()) starts.push_back(q);
  }
  return starts;
}

// Reads `text` whole and cut at `cuts` on `threads` threads; returns
// whether the parts were joined.
bool ExpectSame(absl::string_view text, const std::vector<size_t>& cuts,
                int64_t threads = 2) {
  bool joined = false;
  const absl::StatusOr<std::vector<HloModule>> read = ReadHloModules(text);
  const absl::StatusOr<std::vector<HloModule>> read_in_parts =
      hlo_internal::ReadModulesInParts(text, HloReadOptions(), nullptr, cuts,
                                       threads, &joined);
  ExpectLinkedByName(read);
  ExpectLinkedByName(read_in_parts);
  EXPECT_EQ(Describe(read_in_parts), Describe(read))
      << "cuts " << absl::StrJoin(cuts, ",");
  return joined;
}

constexpr char kModules[] = R"(HloModule m, is_scheduled=true

%f (p: f32[2]) -> f32[2] {
  %p = f32[2]{0} parameter(0)
  ROOT %n = f32[2]{0} negate(%p)
}

%c2 (c: (f32[2])) -> pred[] {
  %c = (f32[2]{0}) parameter(0)
  ROOT %k = pred[] constant(false)
}

%f2 (d: (f32[2])) -> (f32[2]) {
  ROOT %d = (f32[2]{0}) parameter(0)
}

%g (q: f32[2]) -> f32[2] {
  %q = f32[2]{0} parameter(0)
  %r = f32[2]{0} abs(%q)
  %o = f32[2]{0} frobnicate(%r)
}, execution_thread="other"

ENTRY %main (a: f32[2]) -> f32[2] {
  %a = f32[2]{0} parameter(0), metadata={op_name="a"}
  %b = f32[2]{0} fusion(%a), kind=kLoop, calls=%f
  %t = (f32[2]{0}) tuple(%b)
  %w = (f32[2]{0}) while(%t), body=%f2, condition=%c2, metadata={op_name="w"}
  %u = f32[2]{0} get-tuple-element(%w), index=0
  %v = f32[2]{0} custom-call(%u), custom_call_target="x", output_to_operand_aliasing={{}: (0, {})}
  ROOT %c = f32[2]{0} abs(%b), control-predecessors={%e}
  %d = f32[2]{0} fusion(%c), kind=kLoop, calls=%g
  %e = f32[2]{0} negate(%a), control-predecessors={%b}
}

// -----

HloModule second

%h (x: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] add(%x, %x)
  %k = f32[] frobnicate(%y)
  ROOT %z = f32[] multiply(%y, %k)
}

%main2 (s: f32[]) -> f32[] {
  %s = f32[] parameter(0)
  ROOT %t = f32[] call(%s), to_apply=%h
}
)";

// The reader counts each module's instructions of unknown opcodes (so that
// nothing looks for them again when there are none); Describe prints the
// counts, so every reading in parts below sums them alike.
TEST(HloModulesInParts, UnknownOpcodesCounted) {
  const absl::StatusOr<std::vector<HloModule>> modules =
      ReadHloModules(kModules);
  ASSERT_TRUE(modules.ok()) << modules.status();
  ASSERT_EQ(modules->size(), 2u);
  EXPECT_EQ((*modules)[0].unknown_opcodes, 1);
  EXPECT_EQ((*modules)[1].unknown_opcodes, 1);
  EXPECT_EQ(HloModule().unknown_opcodes, -1);  // not counted
}

TEST(HloModulesInParts, EveryCutAndPairOfCuts) {
  const std::vector<size_t> starts = LineStarts(kModules);
  int64_t joined = 0;
  for (size_t i = 0; i < starts.size(); ++i) {
    joined += ExpectSame(kModules, {starts[i]});
    for (size_t j = i + 1; j < starts.size(); ++j) {
      joined += ExpectSame(kModules, {starts[i], starts[j]});
    }
  }
  // Not vacuous: cuts at instruction lines join (91 of the 378 readings
  // when written; a cut anywhere else, at a header, a brace or a blank
  // line, makes the text be read whole).
  EXPECT_GE(joined, 91) << joined;
}

// A computation of 200,000 instructions cut in two and in three: each
// later part's records (megabytes of them) move behind the earlier part's
// by their pages (AppendByMovingPages) and are linked in chunks on two
// threads, beside the module's own link (LinkCuts). The operands name
// instructions of the part before and of their own; the ROOT is in the middle
// part. Short lines overflow the first part's reserve (one instruction per 64
// bytes of text), so the list grows to the exact size before the move; long
// ones fit in it. The same on one thread.
TEST(HloModulesInParts, LongComputationMovedAndLinked) {
  // Half under the sanitizers: still megabytes in each later part.
  constexpr int kLength = SanitizerScaled(200000, 2);
  for (const absl::string_view padding :
       {absl::string_view(),
        absl::string_view(
            R"(, metadata={op_name="jit(step)/layer/dense/dot_general"})")}) {
    // The long lines' reading is the slower: a quarter of them.
    const int length = padding.empty() ? kLength : kLength / 4;
    std::string text =
        "HloModule m\n\nENTRY main {\n  p0 = f32[8]{0} parameter(0)\n";
    for (int i = 0; i < length; ++i) {
      const int far = i / 3;
      absl::StrAppend(
          &text, i == kLength / 2 ? "  ROOT " : "  ", "x", i,
          " = f32[8]{0} add(", i == 0 ? "p0" : absl::StrCat("x", i - 1), ", ",
          i == 0 ? "p0" : absl::StrCat("x", far), ")", padding, "\n");
    }
    absl::StrAppend(&text, "}\n");
    const std::vector<size_t> starts = LineStarts(text);
    for (const std::vector<size_t>& cuts :
         {std::vector<size_t>{starts[starts.size() / 2]},
          std::vector<size_t>{starts[starts.size() / 3],
                              starts[2 * starts.size() / 3]}}) {
      // On one thread the parts are read one after the other, and each is
      // linked whole.
      for (int64_t threads : {1, 2}) {
        EXPECT_TRUE(ExpectSame(text, cuts, threads))
            << cuts.size() << " cuts, " << threads << " threads, "
            << text.size() / length << " bytes a line";
      }
    }
  }
}

// Two ENTRYs or two ROOTs across a cut: the one-piece reading's error.
TEST(HloModulesInParts, TwoEntriesOrRootsAcrossACut) {
  const std::string entries = R"(HloModule m

ENTRY %a (p: f32[]) -> f32[] {
  %p = f32[] parameter(0)
  ROOT %n = f32[] negate(%p)
}

ENTRY %b (q: f32[]) -> f32[] {
  %q = f32[] parameter(0)
  ROOT %m = f32[] negate(%q)
}
)";
  const std::string roots = R"(HloModule m

ENTRY %a (p: f32[]) -> f32[] {
  %p = f32[] parameter(0)
  ROOT %n = f32[] negate(%p)
  ROOT %m = f32[] negate(%n)
}
)";
  for (const std::string& text : {entries, roots}) {
    for (size_t start : LineStarts(text)) {
      EXPECT_FALSE(ExpectSame(text, {start}));
    }
    EXPECT_FALSE(ReadHloModules(text).ok());
  }
}

TEST(HloModulesInParts, GeneratedDumps) {
  for (HloDumpStyle style : {HloDumpStyle::kClassic, HloDumpStyle::kXlaTpu,
                             HloDumpStyle::kXlaTpuSmall}) {
    for (int modules : {1, 3}) {
      HloDumpOptions options;
      options.target_bytes = 200 << 10;
      options.modules = modules;
      options.distinct_shapes = 64;
      options.seed = 7 + modules;
      options.style = style;
      const std::string text = GenerateHloDump(options).text;
      int64_t joined = 0;
      for (int64_t parts : {2, 3, 5}) {
        const std::vector<size_t> cuts = HloCutPoints(text, parts);
        ASSERT_EQ(cuts.size(), static_cast<size_t>(parts - 1));
        joined += ExpectSame(text, cuts);
      }
      EXPECT_EQ(joined, 3) << static_cast<int>(style) << " " << modules;
    }
  }
}

// HloReadOptions::passed: ranges of the text the reading has passed, in
// order for each part, within the text and covering most of it; the modules
// are those read without it (an FNV hash of what Describe prints, cheaper
// for a text of 16 MB).
uint64_t Fingerprint(const absl::StatusOr<std::vector<HloModule>>& modules) {
  uint64_t h = 1469598103934665603ull;
  const auto mix = [&h](absl::string_view s) {
    for (char c : s) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    h = (h ^ 0xff) * 1099511628211ull;
  };
  if (!modules.ok()) return 0;
  for (const HloModule& m : *modules) {
    for (const HloComputation& c : m.computations) {
      mix(c.header.name);
      for (const HloInstruction& in : c.instructions) {
        mix(in.name());
        mix(in.opcode_name());
        mix(in.shape_text());
        for (const HloOperand& o : in.operands()) {
          mix(o.name);
          mix(absl::StrCat(o.index));
        }
        mix(absl::StrJoin(m.callees(in), ","));
        mix(absl::StrCat(in.attribute_facts, " ", in.decoded_attribute, " ",
                         m.operand_aliasing(in).size()));
      }
    }
  }
  return h;
}

TEST(HloModulesInParts, PassedRangesAsTheReadingGoes) {
  HloDumpOptions options;
  options.target_bytes = 16 << 20;
  options.style = HloDumpStyle::kXlaTpuSmall;
  const std::string text = GenerateHloDump(options).text;
  const uint64_t plain = Fingerprint(ReadHloModules(text));
  for (int64_t parts : {1, 2}) {
    std::mutex mu;
    std::map<std::thread::id, std::vector<std::pair<size_t, size_t>>> ranges;
    HloReadOptions read;
    read.passed = [&](size_t begin, size_t end) {
      std::lock_guard<std::mutex> lock(mu);
      ranges[std::this_thread::get_id()].emplace_back(begin, end);
    };
    bool joined = false;
    const uint64_t got = Fingerprint(hlo_internal::ReadModulesInParts(
        text, read, nullptr,
        parts > 1 ? HloCutPoints(text, parts) : std::vector<size_t>(), parts,
        &joined));
    EXPECT_EQ(got, plain) << parts;
    EXPECT_EQ(joined, parts > 1);
    size_t covered = 0;
    for (const auto& [thread, list] : ranges) {
      size_t last = 0;
      for (const auto& [begin, end] : list) {
        EXPECT_LT(begin, end);
        EXPECT_LE(end, text.size());
        covered += end - begin;
        last = end;
      }
      EXPECT_GT(last, 0u);
    }
    EXPECT_GE(ranges.size(), static_cast<size_t>(parts));
    // Each part passes what it read but its last few MB; the linking then
    // passes most of the text again.
    EXPECT_GT(covered, text.size() / 2) << parts;
  }
}

// Joining a computation cut in two looks up, in the first part's table,
// the names the second part uses and did not define, reading them in the
// text again: it passes that text back as it goes (1 MB at a time), so
// that the second part's text is not all resident again after the reading
// gave it back. Parts under 2 MB pass nothing themselves, and these
// instructions name no callees (the linking passes nothing): every range
// here is the join's. The second part's 42,000 instructions are linked in
// chunks of 16,384 that the calling thread and a second one take in turn
// (LinkCuts): each chunk passes its text in order, up to where the next
// begins, and together they pass all of the part but its last line.
TEST(HloModulesInParts, JoinPassesTheTextItReadsAgain) {
  std::string text =
      "HloModule m\n\nENTRY main {\n  p0 = f32[8]{0} parameter(0)\n"
      "  x0 = f32[8]{0} negate(p0)\n";
  constexpr int kLength = 84000;  // about 3.6 MB
  for (int i = 1; i < kLength; ++i) {
    absl::StrAppend(&text, i + 1 == kLength ? "  ROOT " : "  ", "x", i,
                    " = f32[8]{0} add(p0, x", i - 1, ")\n");
  }
  absl::StrAppend(&text, "}\n");
  const std::vector<size_t> cuts = HloCutPoints(text, 2);
  ASSERT_EQ(cuts.size(), 1u);
  ASSERT_LT(cuts[0], size_t{2} << 20);
  ASSERT_LT(text.size() - cuts[0], size_t{2} << 20);
  ASSERT_GT(text.size() - cuts[0], size_t{1} << 20);
  std::map<std::thread::id, std::vector<std::pair<size_t, size_t>>> ranges;
  std::mutex mu;
  HloReadOptions read;
  read.passed = [&](size_t begin, size_t end) {
    std::lock_guard<std::mutex> lock(mu);
    ranges[std::this_thread::get_id()].emplace_back(begin, end);
  };
  bool joined = false;
  absl::StatusOr<std::vector<HloModule>> modules =
      hlo_internal::ReadModulesInParts(text, read, nullptr, cuts, 2, &joined);
  ASSERT_TRUE(modules.ok()) << modules.status();
  EXPECT_TRUE(joined);
  EXPECT_EQ(Describe(modules), Describe(ReadHloModules(text)));
  // In text order on each thread (one or two, as the chunks were taken):
  // all of the second part but the last line, and no byte twice.
  ASSERT_GE(ranges.size(), 1u);
  ASSERT_LE(ranges.size(), 2u);
  std::vector<std::pair<size_t, size_t>> all;
  for (const auto& [thread, list] : ranges) {
    size_t last = cuts[0] - 1024;  // the cut falls at a line's start
    for (const auto& [begin, end] : list) {
      EXPECT_GE(begin, last);
      EXPECT_LT(begin, end);
      EXPECT_LE(end, text.size());
      last = end;
      all.emplace_back(begin, end);
    }
  }
  std::sort(all.begin(), all.end());
  size_t covered = 0;
  for (size_t k = 0; k < all.size(); ++k) {
    if (k > 0) {
      EXPECT_LE(all[k - 1].second, all[k].first);
    }
    covered += all[k].second - all[k].first;
  }
  EXPECT_GE(covered + 4096, text.size() - cuts[0]);
}

// A module's list of computations holds no room beyond them once read:
// the reserve for the text's size (a computation per KB) and what joining
// parts grew it by are given back.
TEST(HloModulesInParts, ComputationsFitted) {
  HloDumpOptions options;
  options.target_bytes = 200 << 10;
  options.style = HloDumpStyle::kXlaTpuSmall;
  const std::string text = GenerateHloDump(options).text;
  for (int64_t parts : {1, 2, 3}) {
    bool joined = false;
    std::vector<absl::Status> errors;
    absl::StatusOr<std::vector<HloModule>> modules =
        hlo_internal::ReadModulesInParts(
            text, HloReadOptions(), &errors,
            parts > 1 ? HloCutPoints(text, parts) : std::vector<size_t>(),
            parts, &joined);
    ASSERT_TRUE(modules.ok()) << modules.status();
    EXPECT_EQ(joined, parts > 1);
    ASSERT_EQ(modules->size(), 1u);
    const std::vector<HloComputation>& c = (*modules)[0].computations;
    EXPECT_GT(c.size(), 50u);
    EXPECT_EQ(c.capacity(), c.size()) << parts << " parts";
  }
}

// A module whose entry computation is a chain of `length` negates.
std::string LongChain(int length) {
  std::string text =
      "HloModule m\n\nadd {\n  a = f32[] parameter(0)\n"
      "  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}"
      "\n\nENTRY main {\n  p0 = f32[8]{0} parameter(0)\n";
  for (int i = 1; i < length; ++i) {
    absl::StrAppend(&text, i + 1 == length ? "  ROOT " : "  ", "p", i,
                    " = f32[8]{0} negate(p", i - 1, ")\n");
  }
  absl::StrAppend(&text, "}\n");
  return text;
}

// A computation of thousands of instructions keeps the list it was
// collected in (not copied to one sized exactly: the copy and the freed list
// both cost resident memory); a small one is sized exactly.
TEST(HloModulesInParts, LargeComputationKeepsItsList) {
  constexpr int kLength = 5000;                 // between 4096 and 8192
  const std::string text = LongChain(kLength);  // outlives the module
  absl::StatusOr<std::vector<HloModule>> modules =
      ReadHloModules(text, HloReadOptions(), nullptr, 1);
  ASSERT_TRUE(modules.ok()) << modules.status();
  ASSERT_EQ(modules->size(), 1u);
  const std::vector<HloComputation>& c = (*modules)[0].computations;
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].instructions.size(), 3u);
  EXPECT_EQ(c[0].instructions.capacity(), 3u);
  ASSERT_EQ(c[1].instructions.size(), size_t{kLength});
  EXPECT_EQ(c[1].instructions.capacity(), size_t{8192});
  EXPECT_EQ(c[1].root_index, kLength - 1);
  EXPECT_EQ(c[1].instructions.back().operands()[0].name, "p4998");
}

// A computation cut in two: the first part's list, reserved for the whole
// text, takes the second part's instructions without moving (the join
// copies the second part only).
TEST(HloModulesInParts, TheFirstPartsListTakesTheRest) {
  // Lines of about 100 bytes, as XLA writes them (with metadata).
  std::string text = LongChain(20000);
  text = absl::StrReplaceAll(
      text,
      {{")\n", "), metadata={op_name=\"jit(f)/negate\" source_line=1}\n"}});
  ASSERT_GT(text.size() / 64, size_t{20000});
  const size_t cut = text.find("p10000 = ");
  ASSERT_NE(cut, std::string::npos);
  bool joined = false;
  absl::StatusOr<std::vector<HloModule>> modules =
      hlo_internal::ReadModulesInParts(text, HloReadOptions(), nullptr, {cut},
                                       2, &joined);
  ASSERT_TRUE(modules.ok()) << modules.status();
  ASSERT_TRUE(joined);
  const std::vector<HloInstruction>& entry =
      (*modules)[0].computations[1].instructions;
  ASSERT_EQ(entry.size(), 20000u);
  EXPECT_GE(entry.capacity(), text.size() / 64);
  ExpectLinkedByName(modules);
}

#if defined(__GLIBC__) && defined(__linux__)
// The resident bytes a child process gains while it runs `run`, with the
// CLI's heap settings (cli/heap.cc: one arena, blocks of up to 32 MiB from
// the heap, never trimmed); -1 where they cannot be had. The child first
// gives back the free memory of the heap it inherited (earlier tests' freed
// blocks, which `run` would otherwise reuse without a fault, or give back
// and count as a loss), so that it starts as a new process would.
int64_t ResidentGrowth(const std::function<void()>& run) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    close(fds[0]);
    int64_t growth = -1;
    if (mallopt(M_ARENA_MAX, 1) == 1 &&
        mallopt(M_TRIM_THRESHOLD, 1 << 30) == 1 &&
        mallopt(M_MMAP_THRESHOLD, 32 << 20) == 1) {
      malloc_trim(0);
      const int64_t before = ResidentBytes();
      run();
      growth = ResidentBytes() - before;
    }
    const ssize_t written = write(fds[1], &growth, sizeof growth);
    _exit(written == sizeof growth ? 0 : 1);
  }
  close(fds[1]);
  int64_t growth = -1;
  if (read(fds[0], &growth, sizeof growth) != sizeof growth) growth = -1;
  close(fds[0]);
  waitpid(pid, nullptr, 0);
  return growth;
}

// Joining a computation cut in two leaves neither part's list resident:
// reading in two parts costs about as much resident memory as reading
// whole (it held both parts' lists, 10 MB each, more).
TEST(HloModulesInParts, JoiningACutComputationFreesItsParts) {
  const std::string text = LongChain(120000);
  const size_t cut = text.find("p60000 = ");
  ASSERT_NE(cut, std::string::npos);
  const auto read = [&text](std::vector<size_t> cuts) {
    return [&text, cuts] {
      bool joined = false;
      absl::StatusOr<std::vector<HloModule>> modules =
          hlo_internal::ReadModulesInParts(text, HloReadOptions(), nullptr,
                                           cuts, 2, &joined);
      if (!modules.ok() || joined == cuts.empty()) _exit(2);
    };
  };
  if (kSanitizerBuild) {
    // A sanitizer's allocator takes mallopt's settings and ignores them.
    GTEST_SKIP() << "malloc is a sanitizer's";
  }
  const int64_t whole = ResidentGrowth(read({}));
  const int64_t parts = ResidentGrowth(read({cut}));
  if (whole == -1 || parts == -1) {
    GTEST_SKIP() << "malloc is not glibc's";
  }
  // The whole reading holds the 120,000 records (13 MB) and more: the
  // measure sees them.
  EXPECT_GT(whole, int64_t{8} << 20) << whole;
  EXPECT_LT(parts, whole + (int64_t{8} << 20)) << whole << " " << parts;
}
#endif

// Random edits of a generated dump (some break it): whole and in parts
// alike, errors included.
TEST(HloModulesInParts, RandomEdits) {
  HloDumpOptions options;
  options.target_bytes = 40 << 10;
  options.distinct_shapes = 16;
  const std::string text = GenerateHloDump(options).text;
  std::mt19937 random(38);
  const char* const edits[] = {"ROOT ", "ENTRY ", "}",          "\n", "%",
                               "(",     "x",      "// -----\n", ", "};
  for (int trial = 0; trial < 60; ++trial) {
    std::string edited = text;
    for (int e = 0; e < 3; ++e) {
      const size_t at = random() % edited.size();
      edited.insert(at, edits[random() % (sizeof(edits) / sizeof(edits[0]))]);
    }
    const std::vector<size_t> starts = LineStarts(edited);
    std::vector<size_t> cuts;
    for (int c = 0; c < 2; ++c)
      cuts.push_back(starts[random() % starts.size()]);
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    ExpectSame(edited, cuts);
  }
}

}  // namespace
}  // namespace hlolayout

// XLA's own parser cases (tests/data/xla_parser_cases.txt, taken from XLA's
// hlo_parser_test.cc as facts): every module XLA parses is read with its
// instruction count (inline instructions each counted, shapes inferred
// where the text leaves them out) and the bytes of all instruction results;
// every module XLA refuses for a reason the text shows is refused with a
// located error; the rest is read on purpose (docs/hlo-text.md).
#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gtest/gtest.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/report/report.h"
#include "hlolayout/testing/attribute_lines.h"
#include "hlolayout/testing/sanitizer_scale.h"
#include "hlolayout/testing/test_data.h"

namespace hlolayout {
namespace {

struct Case {
  std::string kind;  // ok, bad, accepted
  std::string name;
  int64_t instructions = -1;
  int64_t bytes = -1;
  std::string at;       // bad: "L:C"
  std::string message;  // bad
  std::string reason;   // accepted
  std::string text;
};

// `key=value` from a header line (the value runs to the next ` key=` or,
// for message= and reason=, to the end).
std::string Field(absl::string_view header, absl::string_view key) {
  const std::string tag = absl::StrCat(" ", key, "=");
  const size_t at = header.find(tag);
  if (at == absl::string_view::npos) return "";
  absl::string_view value = header.substr(at + tag.size());
  if (key != "message" && key != "reason") {
    value = value.substr(0, value.find(' '));
  }
  return std::string(value);
}

// An integer field, -1 when the header has none.
int64_t IntField(absl::string_view header, absl::string_view key) {
  const std::string text = Field(header, key);
  int64_t value = -1;
  if (!text.empty() && !absl::SimpleAtoi(text, &value)) {
    ADD_FAILURE() << key << "=" << text << " is not a number: " << header;
  }
  return value;
}

std::vector<Case> LoadCases() {
  std::ifstream in(TestDataPath("tests/data/xla_parser_cases.txt"),
                   std::ios::binary);
  std::stringstream all;
  all << in.rdbuf();
  std::vector<Case> cases;
  Case* current = nullptr;
  for (absl::string_view line : absl::StrSplit(all.str(), '\n')) {
    if (absl::StartsWith(line, "=== ")) {
      cases.emplace_back();
      current = &cases.back();
      std::vector<std::string> words = absl::StrSplit(line, ' ');
      current->kind = words.size() > 1 ? words[1] : "";
      current->name = words.size() > 2 ? words[2] : "";
      current->instructions = IntField(line, "instructions");
      current->bytes = IntField(line, "bytes");
      current->at = Field(line, "at");
      current->message = Field(line, "message");
      current->reason = Field(line, "reason");
      continue;
    }
    if (current == nullptr || absl::StartsWith(line, "# xla:")) continue;
    absl::StrAppend(&current->text, line, "\n");
  }
  return cases;
}

const std::vector<Case>& Cases() {
  static const std::vector<Case>* cases = new std::vector<Case>(LoadCases());
  return *cases;
}

TEST(XlaParserCases, TheTableIsWhole) {
  int ok = 0, bad = 0, accepted = 0;
  for (const Case& c : Cases()) {
    ok += c.kind == "ok";
    bad += c.kind == "bad";
    accepted += c.kind == "accepted";
    EXPECT_TRUE(c.kind == "ok" || c.kind == "bad" || c.kind == "accepted")
        << c.name << ": " << c.kind;
  }
  // Every module XLA parses is read whole (computations written inline
  // included: 11 of them).
  EXPECT_EQ(ok, 284);
  EXPECT_EQ(bad, 91);
  EXPECT_EQ(accepted, 8);
}

// Two of XLA's cases are about line ends: MS-DOS (`\r\n`) and old Mac
// (`\r` alone), which end a `//` comment as `\n` does. Their bytes are the
// point of the case: an editor or a tool that normalises line ends would
// turn them into the plain case and leave that code untested (the table's
// file is `-text` in .gitattributes for this reason).
TEST(XlaParserCases, LineEndsAreKept) {
  int rows = 0;
  size_t carriage_returns = 0;
  for (const Case& c : Cases()) {
    carriage_returns += std::count(c.text.begin(), c.text.end(), '\r');
    const bool ms_dos = absl::StrContains(c.name, "MsDosEol");
    const bool mac = absl::StrContains(c.name, "MacEol");
    if (!ms_dos && !mac) {
      EXPECT_FALSE(absl::StrContains(c.text, "\r")) << c.name;
      continue;
    }
    ++rows;
    // The table ends every module with its own '\n'.
    ASSERT_TRUE(absl::EndsWith(c.text, "\n")) << c.name;
    const absl::string_view module(c.text.data(), c.text.size() - 1);
    if (ms_dos) {
      std::vector<absl::string_view> lines = absl::StrSplit(module, '\n');
      ASSERT_EQ(lines.size(), 6u) << c.name;
      for (size_t i = 0; i + 1 < lines.size(); ++i) {
        EXPECT_TRUE(absl::EndsWith(lines[i], "\r")) << c.name << " line " << i;
      }
      EXPECT_FALSE(absl::StrContains(lines.back(), "\r")) << c.name;
    } else {
      EXPECT_FALSE(absl::StrContains(module, "\n")) << c.name;
      EXPECT_EQ(std::count(module.begin(), module.end(), '\r'), 5) << c.name;
    }
  }
  EXPECT_EQ(rows, 2);
  EXPECT_EQ(carriage_returns, 10u);
}

class XlaParserCase : public testing::TestWithParam<size_t> {};

TEST_P(XlaParserCase, ReadOrRefused) {
  const Case& c = Cases()[GetParam()];
  SCOPED_TRACE(c.name);
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(c.text);
  absl::StatusOr<Report> report = BuildReport(c.text);
  if (c.kind == "bad") {
    ASSERT_FALSE(modules.ok());
    ASSERT_FALSE(report.ok());
    const std::string message(modules.status().message());
    EXPECT_TRUE(absl::StartsWith(message, c.at + ": ")) << message;
    EXPECT_TRUE(absl::StrContains(message, c.message)) << message;
    // The located form: the source line and a caret under the column.
    EXPECT_NE(message.find("\n"), std::string::npos) << message;
    EXPECT_NE(message.find("^"), std::string::npos) << message;
    EXPECT_EQ(report.status().message(), modules.status().message());
    return;
  }
  ASSERT_TRUE(modules.ok()) << modules.status();
  ASSERT_TRUE(report.ok()) << report.status();
  if (c.kind == "accepted") {
    // Read on purpose: an unknown opcode, named in the report's warnings.
    ASSERT_FALSE(report->unknown_opcodes.empty());
    const std::string opcode(report->unknown_opcodes[0].opcode);
    EXPECT_TRUE(absl::StrContains(c.reason, "unknown opcode " + opcode))
        << c.reason;
    EXPECT_TRUE(absl::StrContains(report->unknown_opcodes[0].first,
                                  "warning: unknown opcode '" + opcode + "'"));
    return;
  }
  // Every opcode of the modules XLA reads is known.
  EXPECT_TRUE(report->unknown_opcodes.empty())
      << report->unknown_opcodes[0].first;
  int64_t instructions = 0;
  for (const HloModule& m : *modules) instructions += m.instruction_count();
  EXPECT_EQ(instructions, c.instructions);
  int64_t counted = 0, bytes = 0, without_shape = 0;
  for (const ModuleReport& m : report->modules) {
    counted += m.totals.instructions;
    bytes += m.totals.bytes.logical_bytes;
    without_shape += m.totals.instructions_without_shape;
  }
  EXPECT_EQ(counted, c.instructions);
  EXPECT_EQ(bytes, c.bytes);
  EXPECT_EQ(without_shape, 0);
}

// What a read in parts must give: the same error, or the same totals.
std::string Outcome(const absl::StatusOr<Report>& report) {
  if (!report.ok()) return std::string(report.status().message());
  std::string out;
  for (const ModuleReport& m : report->modules) {
    absl::StrAppend(&out, m.name, " ", m.totals.computations, " ",
                    m.totals.instructions, " ", m.totals.bytes.logical_bytes,
                    " ", m.totals.instructions_without_shape, "\n");
  }
  return out;
}

// The rules do not depend on where the text is cut for threads (operand
// shapes across a cut, parameter numbers, async callees, called
// computations): read in 2, 3, 4 and 8 parts (cut before instruction lines
// wherever the cost model puts them, however small the text), every case
// gives what one thread gives.
TEST_P(XlaParserCase, SameOnAnyNumberOfThreads) {
  const Case& c = Cases()[GetParam()];
  SCOPED_TRACE(c.name);
  ReportOptions options;
  options.threads = 1;
  options.keep_rows = false;
  const std::string whole = Outcome(BuildReport(c.text, options));
  options.min_bytes_per_thread = 1;
  for (int64_t threads : {2, 3, 4, 8}) {
    options.threads = threads;
    EXPECT_EQ(Outcome(BuildReport(c.text, options)), whole)
        << threads << " threads";
  }
}

// Only the text's space matters between the tokens of an attribute value:
// with every space inside the brackets of attribute values made a line
// break (and breaks after commas and opening braces: testing/
// attribute_lines.h), every module reads as on one line (XLA's lexer skips
// line breaks as it skips spaces; spmd_partitioner_test writes windows
// across lines). Each attribute keeps its value, up to space; every module
// XLA refuses is still refused.
TEST_P(XlaParserCase, SameWithAttributeValuesAcrossLines) {
  const Case& c = Cases()[GetParam()];
  SCOPED_TRACE(c.name);
  // Attribute values, their space taken out.
  auto values = [](const absl::StatusOr<std::vector<HloModule>>& modules) {
    std::string out;
    if (!modules.ok()) return out;
    for (const HloModule& m : *modules) {
      for (const HloAttribute& a : m.header.attributes) {
        absl::StrAppend(&out, a.name(), "=", a.value(), "\n");
      }
      for (const HloComputation& computation : m.computations) {
        for (const HloInstruction& in : computation.instructions) {
          for (const HloAttribute& a : in.attributes()) {
            absl::StrAppend(&out, a.name(), "=", a.value(), "\n");
          }
        }
      }
    }
    out.erase(std::remove_if(out.begin(), out.end(),
                             [](char ch) {
                               return ch == ' ' || ch == '\t' || ch == '\r';
                             }),
              out.end());
    return out;
  };
  ReportOptions options;
  options.threads = 1;
  options.keep_rows = false;
  const std::string whole = Outcome(BuildReport(c.text, options));
  const std::string attributes = values(ReadHloModules(c.text));
  // Under the sanitizers one form proves the paths (sanitizer_scale.h).
  const absl::string_view line_breaks[] = {"\n    ", "\n", "\r\n\t"};
  for (int64_t b = 0; b < SanitizerScaled(3, 3); ++b) {
    const std::string broken = BreakAttributeValues(c.text, line_breaks[b]);
    const absl::StatusOr<Report> report = BuildReport(broken, options);
    if (c.kind == "bad") {
      EXPECT_FALSE(report.ok()) << broken;
      continue;
    }
    EXPECT_EQ(Outcome(report), whole) << broken;
    std::string broken_attributes = values(ReadHloModules(broken));
    broken_attributes.erase(
        std::remove(broken_attributes.begin(), broken_attributes.end(), '\n'),
        broken_attributes.end());
    std::string want = attributes;
    want.erase(std::remove(want.begin(), want.end(), '\n'), want.end());
    EXPECT_EQ(broken_attributes, want);
  }
}

// The test above is not vacuous: most modules XLA reads are read here in
// parts (each part arriving at the next one's start, the parts joined), not
// read again whole. (A part that meets an error makes the text be read again
// whole, which gives the error.)
TEST(XlaParserCases, MostAreReadInParts) {
  ReportOptions options;
  options.keep_rows = false;
  options.min_bytes_per_thread = 1;
  options.threads = 4;
  int64_t read = 0, in_parts = 0;
  for (const Case& c : Cases()) {
    if (c.kind == "bad") continue;
    const absl::StatusOr<Report> report = BuildReport(c.text, options);
    ++read;
    in_parts += report.ok() && report->parallel_parts > 0;
  }
  // 245 of 292 when written; 246 with computations written inline read.
  EXPECT_GT(in_parts, read * 3 / 4) << in_parts << " of " << read;
}

std::string CaseName(const testing::TestParamInfo<size_t>& info) {
  std::string name = Cases()[info.param].name;
  for (char& ch : name) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(ch))) ch = 'X';
  }
  return absl::StrCat(name, "N", info.param);
}

INSTANTIATE_TEST_SUITE_P(Xla, XlaParserCase,
                         testing::Range<size_t>(0, Cases().size()), CaseName);

}  // namespace
}  // namespace hlolayout

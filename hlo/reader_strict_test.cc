// Texts XLA's parser (or its verifier) refuses and the reader read until
// issue 87: each is refused by every way of reading (streaming as `report`
// does, into modules as `memory` does, and in parts on several threads),
// with the same located error.
#include <cstdint>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/hlo/reader_internal.h"

namespace hlolayout {
namespace {

using ::testing::HasSubstr;

// The starts of the lines that begin an instruction (`ROOT` or `name =`),
// where a part may begin.
std::vector<size_t> InstructionLines(absl::string_view text) {
  std::vector<size_t> lines;
  for (size_t p = 0; p < text.size();) {
    size_t q = p;
    while (q < text.size() && text[q] == ' ') ++q;
    const size_t eol = text.find('\n', p);
    const absl::string_view line = text.substr(
        q, (eol == absl::string_view::npos ? text.size() : eol) - q);
    if (q > p && !line.empty() && line[0] != '}' &&
        line.find(" = ") != absl::string_view::npos) {
      lines.push_back(q);
    }
    if (eol == absl::string_view::npos) break;
    p = eol + 1;
  }
  return lines;
}

// Every way of reading `text` refuses it with the same message: streamed
// (ReadHlo), kept (ReadHloModules), and in parts cut at each instruction
// line and at every two of them. Returns that message.
std::string RefusedEverywhere(const std::string& text) {
  HloVisitor none;
  const absl::Status streamed = ReadHlo(text, {}, &none);
  EXPECT_FALSE(streamed.ok()) << text;
  const absl::StatusOr<std::vector<HloModule>> kept = ReadHloModules(text);
  EXPECT_FALSE(kept.ok()) << text;
  if (!kept.ok()) {
    EXPECT_EQ(kept.status().message(), streamed.message());
  }
  const std::vector<size_t> lines = InstructionLines(text);
  std::vector<std::vector<size_t>> cuts;
  for (size_t a = 0; a < lines.size(); ++a) {
    cuts.push_back({lines[a]});
    for (size_t b = a + 1; b < lines.size(); ++b) {
      cuts.push_back({lines[a], lines[b]});
    }
  }
  for (const std::vector<size_t>& cut : cuts) {
    for (int64_t threads : {1, 2}) {
      bool joined = false;
      const absl::StatusOr<std::vector<HloModule>> parts =
          hlo_internal::ReadModulesInParts(text, {}, nullptr, cut, threads,
                                           &joined);
      EXPECT_FALSE(parts.ok()) << "cut at " << cut[0] << "\n" << text;
      if (!parts.ok()) {
        EXPECT_EQ(parts.status().message(), streamed.message());
      }
    }
  }
  return std::string(streamed.message());
}

// The same text with the fault mended is read, whole and in parts.
void ReadEverywhere(const std::string& text) {
  HloVisitor none;
  EXPECT_TRUE(ReadHlo(text, {}, &none).ok()) << text;
  EXPECT_TRUE(ReadHloModules(text).ok()) << text;
  for (size_t cut : InstructionLines(text)) {
    bool joined = false;
    const absl::StatusOr<std::vector<HloModule>> parts =
        hlo_internal::ReadModulesInParts(text, {}, nullptr, {cut}, 2, &joined);
    EXPECT_TRUE(parts.ok()) << parts.status();
  }
}

TEST(StrictReading, DumpCutBeforeEntryIsRefusedByEveryReading) {
  const std::string cut =
      R"(HloModule m, entry_computation_layout={(f32[1024,1024]{1,0})->f32[1024,1024]{1,0}}

%fused (p: f32[2]) -> f32[2] {
  %p = f32[2]{0} parameter(0)
  ROOT %n = f32[2]{0} negate(f32[2]{0} %p)
}
)";
  const std::string message = RefusedEverywhere(cut);
  EXPECT_THAT(message,
              HasSubstr("3:1: the entry computation 'fused' takes f32[2] as "
                        "parameter 0 where the module's "
                        "entry_computation_layout has f32[1024,1024]"));
  EXPECT_THAT(message, HasSubstr("is the text cut before its ENTRY"));
  // A module whose entry follows, marked or last, is read.
  ReadEverywhere(cut + R"(
ENTRY %main (a: f32[1024,1024]) -> f32[1024,1024] {
  %a = f32[1024,1024]{1,0} parameter(0)
  ROOT %b = f32[1024,1024]{1,0} negate(f32[1024,1024]{1,0} %a)
}
)");
}

TEST(StrictReading, EntryCutAcrossPartsWithoutEntryMarkIsChecked) {
  // The last computation is long enough to be cut; no ENTRY: the parts
  // cannot check it alone and the whole reading refuses it.
  std::string text =
      "HloModule m, entry_computation_layout={(f32[4]{0})->f32[4]{0}}\n\n"
      "main (p: f32[5]) -> f32[5] {\n  p = f32[5]{0} parameter(0)\n";
  for (int i = 0; i < 6; ++i) {
    text += "  n" + std::to_string(i) + " = f32[5]{0} negate(p)\n";
  }
  text += "  ROOT r = f32[5]{0} negate(p)\n}\n";
  EXPECT_THAT(RefusedEverywhere(text),
              HasSubstr("3:1: the entry computation 'main' takes f32[5] as "
                        "parameter 0"));
}

TEST(StrictReading, ComputationWithoutInstructionsIsRefused) {
  const std::string empty_fusion = R"(HloModule m

%c {
}

ENTRY %main (p: f32[2]) -> f32[2] {
  ROOT %p = f32[2]{0} parameter(0)
}
)";
  EXPECT_THAT(RefusedEverywhere(empty_fusion),
              HasSubstr("4:1: computation 'c' has no instructions"));
  const std::string empty_entry = R"(HloModule m

ENTRY %main (p: f32[2]) -> f32[2] {
}
)";
  EXPECT_THAT(RefusedEverywhere(empty_entry),
              HasSubstr("4:1: computation 'main' has no instructions"));
  // The window shows the closing brace; `{}` on one line is refused at its
  // `}` (moved from reader_test.cc).
  EXPECT_THAT(
      RefusedEverywhere(R"(HloModule m
%nothing () -> () {
}
ENTRY e {
  ROOT t = () tuple()
}
)"),
      HasSubstr("3:1: computation 'nothing' has no instructions\n}\n^"));
  EXPECT_THAT(RefusedEverywhere("HloModule m\n%also_nothing {}\nENTRY e {\n"
                                "  ROOT t = () tuple()\n}\n"),
              HasSubstr("2:16: computation 'also_nothing' has no "
                        "instructions"));
}

TEST(StrictReading, InstructionNameDefinedTwiceIsRefused) {
  const std::string twice = R"(HloModule m

ENTRY %main (p: f32[2]) -> f32[2] {
  %p = f32[2]{0} parameter(0)
  %n = f32[2]{0} negate(f32[2]{0} %p)
  %n = f32[2]{0} negate(f32[2]{0} %p)
  ROOT %r = f32[2]{0} add(f32[2]{0} %n, f32[2]{0} %n)
}
)";
  EXPECT_THAT(RefusedEverywhere(twice),
              HasSubstr("6:4: instruction 'n' is defined twice in 'main' "
                        "(first on line 5)"));
  // In a computation large enough to be indexed (more than 16 names).
  std::string large = "ENTRY main {\n  p = f32[2]{0} parameter(0)\n";
  for (int i = 0; i < 40; ++i) {
    large += "  n" + std::to_string(i) + " = f32[2]{0} negate(p)\n";
  }
  large += "  n7 = f32[2]{0} negate(p)\n  ROOT r = f32[2]{0} negate(p)\n}\n";
  HloVisitor none;
  const absl::Status status = ReadHlo(large, {}, &none);
  EXPECT_THAT(status.message(),
              HasSubstr("instruction 'n7' is defined twice in 'main' "
                        "(first on line 10)"));
  EXPECT_FALSE(ReadHloModules(large).ok());
  // Two computations may use one name.
  ReadEverywhere(R"(HloModule m

%f (p: f32[2]) -> f32[2] {
  %p = f32[2]{0} parameter(0)
  ROOT %n = f32[2]{0} negate(f32[2]{0} %p)
}

ENTRY %main (p: f32[2]) -> f32[2] {
  %p = f32[2]{0} parameter(0)
  ROOT %n = f32[2]{0} call(f32[2]{0} %p), to_apply=%f
}
)");
}

TEST(StrictReading, ParameterWithoutNumberIsRefused) {
  const std::string text = R"(HloModule m

ENTRY %main () -> f32[2] {
  ROOT %p = f32[2]{0} parameter()
}
)";
  EXPECT_THAT(RefusedEverywhere(text),
              HasSubstr("4:33: expected a parameter number, found ')'"));
}

TEST(StrictReading, ParameterNumberOutOfRangeIsRefused) {
  const std::string text = R"(HloModule m

ENTRY %main (p: f32[2]) -> f32[2] {
  ROOT %p = f32[2]{0} parameter(99)
}
)";
  EXPECT_THAT(RefusedEverywhere(text),
              HasSubstr("4:3: parameter number 99 is out of range: 'main' has "
                        "1 parameter"));
  // 0 and 1 of two, in any order.
  ReadEverywhere(R"(HloModule m

ENTRY %main (a: f32[2], b: f32[2]) -> f32[2] {
  %b = f32[2]{0} parameter(1)
  %a = f32[2]{0} parameter(0)
  ROOT %s = f32[2]{0} add(f32[2]{0} %a, f32[2]{0} %b)
}
)");
}

TEST(StrictReading, CallCycleAndCallBeforeDefinitionAreRefused) {
  const std::string cycle = R"(HloModule m

%a (x: f32[2]) -> f32[2] {
  %x = f32[2]{0} parameter(0)
  ROOT %c = f32[2]{0} call(f32[2]{0} %x), to_apply=%b
}

%b (y: f32[2]) -> f32[2] {
  %y = f32[2]{0} parameter(0)
  ROOT %c = f32[2]{0} call(f32[2]{0} %y), to_apply=%a
}

ENTRY %main (p: f32[2]) -> f32[2] {
  %p = f32[2]{0} parameter(0)
  ROOT %c = f32[2]{0} call(f32[2]{0} %p), to_apply=%a
}
)";
  EXPECT_THAT(RefusedEverywhere(cycle),
              HasSubstr("5:53: computation 'b' is called before it is "
                        "defined"));
  const std::string self = R"(HloModule m

ENTRY %main (p: f32[2]) -> f32[2] {
  %p = f32[2]{0} parameter(0)
  ROOT %c = f32[2]{0} call(f32[2]{0} %p), to_apply=%main
}
)";
  EXPECT_THAT(RefusedEverywhere(self),
              HasSubstr("5:53: computation 'main' is called before it is "
                        "defined"));
  const std::string missing = R"(HloModule m

ENTRY %main (p: f32[2]) -> f32[2] {
  %p = f32[2]{0} parameter(0)
  ROOT %c = f32[2]{0} call(f32[2]{0} %p), to_apply=%nowhere
}
)";
  EXPECT_THAT(RefusedEverywhere(missing),
              HasSubstr("5:53: no computation named 'nowhere'"));
  // An ENTRY need not be last, but what it calls comes before it: XLA's
  // parser looks a callee up among the computations it has read (moved
  // from reader_test.cc, where an ENTRY first is read).
  EXPECT_THAT(RefusedEverywhere(R"(HloModule m
ENTRY main {
  ROOT c = call(), to_apply=f
}
f {
  ROOT z = f32[] constant(0)
}
)"),
              HasSubstr("3:29: computation 'f' is called before it is "
                        "defined"));
}

TEST(StrictReading, TupleIndexOutOfRangeIsRefused) {
  const std::string text = R"(HloModule m

ENTRY %main (p: (f32[2], f32[3])) -> f32[2] {
  %p = (f32[2]{0}, f32[3]{0}) parameter(0)
  ROOT %g = f32[2]{0} get-tuple-element((f32[2]{0}, f32[3]{0}) %p), index=5
}
)";
  EXPECT_THAT(RefusedEverywhere(text),
              HasSubstr("5:75: tuple index 5 is out of range for "
                        "(f32[2], f32[3])"));
  // The operand's shape from its definition when the use prints none.
  const std::string bare = R"(HloModule m

ENTRY %main (p: (f32[2], f32[3])) -> f32[3] {
  %p = (f32[2]{0}, f32[3]{0}) parameter(0)
  ROOT %g = f32[3]{0} get-tuple-element(%p), index=2
}
)";
  EXPECT_THAT(RefusedEverywhere(bare), HasSubstr("tuple index 2 is out of"));
  ReadEverywhere(R"(HloModule m

ENTRY %main (p: (f32[2], f32[3])) -> f32[3] {
  %p = (f32[2]{0}, f32[3]{0}) parameter(0)
  ROOT %g = f32[3]{0} get-tuple-element(%p), index=1
}
)");
}

// The reader reuses the shape it last inferred when the opcode and the
// operands' shapes are equal (a dump of many shapeless `add`s of one shape):
// an operand shape that differs in anything (dimensions, layout, memory
// space, type), another opcode or attributes infer anew, and a shape reused
// in a second module is that module's own.
TEST(HloReaderStrict, ShapelessInstructionsInferFromTheirOwnOperands) {
  const std::string module = R"(HloModule m
ENTRY e {
  a = f32[2,3]{1,0} parameter(0)
  b = f32[2,3]{0,1} parameter(1)
  c = f32[2,3]{1,0:S(1)} parameter(2)
  d = s32[2,3]{1,0} parameter(3)
  x0 = add(a, a)
  x1 = add(a, a)
  x2 = add(b, b)
  x3 = add(c, c)
  x4 = add(d, d)
  x5 = multiply(d, d)
  x6 = compare(a, a), direction=LT
  x7 = compare(a, a), direction=LT
  x8 = add(a, a)
  ROOT t = tuple(x0, x8)
}
)";
  const std::string text = module + "// -----\n" + module;
  absl::StatusOr<std::vector<HloModule>> read = ReadHloModules(text);
  ASSERT_TRUE(read.ok()) << read.status();
  std::vector<HloModule> modules = *std::move(read);
  ASSERT_EQ(modules.size(), 2u);
  const std::vector<std::string> expected = {
      "f32[2,3]{1,0}",  "f32[2,3]{1,0}",
      "f32[2,3]{0,1}",  "f32[2,3]{1,0:S(1)}",
      "s32[2,3]{1,0}",  "s32[2,3]{1,0}",
      "pred[2,3]{1,0}", "pred[2,3]{1,0}",
      "f32[2,3]{1,0}",  "(f32[2,3]{1,0}, f32[2,3]{1,0})"};
  // The second module's shapes outlive the first module.
  const HloModule second = modules[1];
  modules.clear();
  const HloComputation& e = second.entry();
  ASSERT_EQ(e.instructions.size(), expected.size() + 4);
  for (size_t i = 0; i < expected.size(); ++i) {
    const HloInstruction& in = e.instructions[i + 4];
    ASSERT_TRUE(in.has_shape()) << in.name();
    EXPECT_EQ(in.shape->ToString(true), expected[i]) << in.name();
    EXPECT_EQ(in.shape_text(), expected[i]) << in.name();
  }
}

}  // namespace
}  // namespace hlolayout

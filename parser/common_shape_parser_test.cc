// ParseCommonShapeAt against the token-based parser: whenever the common
// path answers, the general parser gives the same shape and end offset, on
// XLA's 1,000 measured shapes, the generated dumps' shapes, a table of edge
// cases, every prefix of those, and random edits of them.
#include "hlolayout/parser/common_shape_parser.h"

#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/testing/hlo_test_dump.h"
#include "hlolayout/testing/test_data.h"

namespace hlolayout {
namespace {

struct Counts {
  int common = 0;   // answered by the common path
  int general = 0;  // left to the general parser
};

// Reads `text` from `offset` both ways under `options`; the common path may
// decline, but when it answers it must agree with the general parser.
void ExpectAgree(const std::string& text, size_t offset,
                 const ShapeParseOptions& options, Counts* counts) {
  Shape common;
  size_t common_end = offset;
  const bool answered = ParseCommonShapeAt(text, &common_end, &common, options);
  ShapeParseOptions general_options = options;
  general_options.try_common_forms = false;
  Shape general;
  size_t general_end = offset;
  const absl::Status status =
      ParseShapeAt(text, &general_end, &general, general_options);
  if (!answered) {
    EXPECT_EQ(common_end, offset) << text;
    ++counts->general;
    return;
  }
  ++counts->common;
  ASSERT_TRUE(status.ok()) << "common path accepted what the parser refuses: "
                           << text << "\n"
                           << status;
  EXPECT_EQ(common, general) << text << "\n"
                             << common.ToString(true) << "\n"
                             << general.ToString(true);
  EXPECT_EQ(common_end, general_end) << text;
  // ParseShapeAt itself (common path first) gives the same too.
  Shape both;
  size_t both_end = offset;
  ASSERT_TRUE(ParseShapeAt(text, &both_end, &both, options).ok()) << text;
  EXPECT_EQ(both, general) << text;
  EXPECT_EQ(both_end, general_end) << text;
}

std::vector<ShapeParseOptions> AllOptions() {
  std::vector<ShapeParseOptions> all;
  for (bool validate : {true, false}) {
    for (bool fill : {true, false}) {
      ShapeParseOptions o;
      o.validate = validate;
      o.fill_missing_layouts = fill;
      all.push_back(o);
    }
  }
  ShapeParseOptions shallow;
  shallow.max_depth = 2;
  all.push_back(shallow);
  return all;
}

const std::vector<std::string>& EdgeCases() {
  static const auto* cases = new std::vector<std::string>{
      "f32[2]",
      "f32[]",
      "f32[2,3]{1,0}",
      "f32[2,3]{0,1}",
      "f32[2] {0}",
      "f32[2]{}",
      "f32[2]{ 0}",
      "f32[2]<0>",
      "f32[2]/*x*/{0}",
      "f32[2]\n{0}",
      "f32[2] %x",
      "f32[2] parameter(0)",
      "(f32[2], s32[])",
      "(f32[2],s32[])",
      "( f32[2])",
      "(f32[2] , s32[])",
      "(f32[2], /*index=1*/s32[])",
      "(f32[2], /*index=1*/ s32[])",
      "(f32[2], /*unterminated s32[])",
      "()",
      "(())",
      "((f32[2]{0}, (pred[]))",
      "((f32[2]{0}, (pred[])), u8[3])",
      "f32[2]{0:T(2)S(1)}",
      "f32[2]{0:S(1)T(2)}",
      "f32[2]{0:T()}",
      "f32[2]{0:T(2,)}",
      "f32[2]{0:T(*)}",
      "f32[4,8]{1,0:T(*,2)}",
      "f32[4,8]{1,0:T(2,4)(2,1)L(8)E(32)S(5)}",
      "s4[64,130]{1,0:T(64,128)(8,1)E(4)}",
      "f32[2]{0:L(0)}",
      "f32[2]{0:E(4)}",
      "f32[2]{0:SC(0:1)}",
      "f32[2]{0:S(-1)}",
      "f32[2]{0:D(D)}",
      "f32[2]{0:#(s32)}",
      "f32[2]{0:TS(1)}",
      "f32[]{:T(128)}",
      "f32[]{:S(1)}",
      "f32[2]{0:}",
      "f32[2]{0,}",
      "f32[2]{1}",
      "f32[2,3]{0}",
      "f32[123456789012345678]",
      "f32[1234567890123456789]",
      "f32[99999999999999999999]",
      "f32[2a]",
      "f32[-2]",
      "f32[<=2]",
      "f32[?]",
      "token[]",
      "opaque[]",
      "b(f32[2])",
      "F32[2]",
      "f33[2]",
      "f32_x[2]",
      "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}",
      "pred[7]{0}",
      " f32[2]",
      "f32[2",
      "f32[2]{0",
      "f32[2]{0:T(2",
  };
  return *cases;
}

std::vector<std::string> TsvShapes() {
  std::ifstream file(TestDataPath("tests/data/shapes_jaxlib_0.11.2.tsv"));
  std::vector<std::string> shapes;
  std::string line;
  std::getline(file, line);  // header
  while (std::getline(file, line)) {
    std::vector<std::string> fields = absl::StrSplit(line, '\t');
    if (fields.size() >= 2) shapes.push_back(fields[1]);
  }
  return shapes;
}

TEST(CommonShapeParser, AgreesOnXlaShapesAndEdgeCases) {
  std::vector<std::string> texts = TsvShapes();
  ASSERT_EQ(texts.size(), 1000u);
  texts.insert(texts.end(), EdgeCases().begin(), EdgeCases().end());
  Counts counts;
  for (const ShapeParseOptions& options : AllOptions()) {
    for (const std::string& text : texts) {
      ExpectAgree(text, 0, options, &counts);
      // The same shape in the middle of a line, as the HLO reader meets it.
      ExpectAgree("  %x = " + text + " parameter(0)", 7, options, &counts);
    }
  }
  // Most of XLA's shapes have the common forms; the exotic ones do not.
  EXPECT_GT(counts.common, 4000);
  EXPECT_GT(counts.general, 1000);
}

TEST(CommonShapeParser, EveryPrefixStopsInsideTheText) {
  Counts counts;
  std::vector<std::string> texts = EdgeCases();
  const std::vector<std::string> tsv = TsvShapes();
  texts.insert(texts.end(), tsv.begin(), tsv.begin() + 200);
  for (const std::string& text : texts) {
    for (size_t n = 0; n <= text.size(); ++n) {
      // A copy of exactly n bytes, so that ASan sees a read past the end.
      const std::string prefix = text.substr(0, n);
      ExpectAgree(prefix, 0, ShapeParseOptions(), &counts);
    }
  }
}

TEST(CommonShapeParser, AgreesOnRandomEdits) {
  std::vector<std::string> texts = EdgeCases();
  const std::vector<std::string> tsv = TsvShapes();
  texts.insert(texts.end(), tsv.begin(), tsv.end());
  static constexpr char kAlphabet[] = "0123456789[]{}(),:*/ <=?TLESDCPMbf3x\n";
  std::mt19937_64 random(7);
  Counts counts;
  for (int trial = 0; trial < 30000; ++trial) {
    std::string text = texts[random() % texts.size()];
    const int edits = 1 + static_cast<int>(random() % 3);
    for (int e = 0; e < edits; ++e) {
      const size_t at = text.empty() ? 0 : random() % (text.size() + 1);
      const char c = kAlphabet[random() % (sizeof(kAlphabet) - 1)];
      switch (random() % 3) {
        case 0:
          text.insert(text.begin() + at, c);
          break;
        case 1:
          if (at < text.size()) text.erase(at, 1);
          break;
        default:
          if (at < text.size()) text[at] = c;
          break;
      }
    }
    ExpectAgree(text, 0, ShapeParseOptions(), &counts);
  }
  EXPECT_GT(counts.common, 2000);
}

TEST(CommonShapeParser, AgreesOnGeneratedDumpShapes) {
  // Every instruction's result shape of both generator styles, read where
  // the reader finds it (after " = ").
  Counts counts;
  for (HloDumpStyle style : {HloDumpStyle::kClassic, HloDumpStyle::kXlaTpu}) {
    HloDumpOptions options;
    options.target_bytes = 256 << 10;
    options.style = style;
    const std::string text = GenerateHloDump(options).text;
    for (size_t at = text.find(" = "); at != std::string::npos;
         at = text.find(" = ", at + 3)) {
      ExpectAgree(text, at + 3, ShapeParseOptions(), &counts);
    }
  }
  EXPECT_GT(counts.common, 1500);
}

}  // namespace
}  // namespace hlolayout

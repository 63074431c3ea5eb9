// Every parser of the project shows a window of a long source line around
// the caret, never the whole line: a one-character error in a 4 MB line gives
// a message of a few hundred bytes (parser/diagnostic.h).

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/parser/diagnostic.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/ttmlir/ttmlir_parse.h"

namespace hlolayout {
namespace {

constexpr size_t kLine = 4 << 20;

// `unit` repeated to about 2 MB, then `bad`, then `unit` to about 4 MB.
std::string AroundBad(absl::string_view unit, absl::string_view bad,
                      size_t* bad_offset) {
  std::string half;
  while (half.size() < kLine / 2) half.append(unit.data(), unit.size());
  *bad_offset = half.size();
  return absl::StrCat(half, bad, half);
}

// The message is short, cut on both sides, and its caret is under `bad_char`.
void ExpectWindow(const absl::Status& status, char bad_char) {
  ASSERT_FALSE(status.ok());
  const std::string message(status.message());
  EXPECT_LT(message.size(), 400u) << message.substr(0, 400);
  const std::vector<std::string> lines = absl::StrSplit(message, '\n');
  ASSERT_GE(lines.size(), 3u);
  const std::string& source = lines[lines.size() - 2];
  const std::string& caret = lines.back();
  EXPECT_EQ(source.substr(0, 3), "...");
  EXPECT_EQ(source.substr(source.size() - 3), "...");
  ASSERT_FALSE(caret.empty());
  EXPECT_EQ(caret.back(), '^');
  ASSERT_LT(caret.size() - 1, source.size());
  EXPECT_EQ(source[caret.size() - 1], bad_char) << source << "\n" << caret;
}

TEST(LongLineDiagnostic, ShapeParserShowsAWindow) {
  size_t bad = 0;
  const std::string text =
      absl::StrCat("(", AroundBad("f32[1], ", "f32[1}, ", &bad), "f32[1])");
  ExpectWindow(ParseShape(text).status(), '}');
}

TEST(LongLineDiagnostic, HloReaderShowsAWindow) {
  size_t bad = 0;
  const std::string tuple = AroundBad("f32[1]{0}, ", "f32[1]{0]}, ", &bad);
  const std::string text = absl::StrCat("HloModule m\nENTRY e {\n  ROOT p = (",
                                        tuple, "f32[1]{0}) parameter(0)\n}\n");
  ExpectWindow(ReadHloModules(text).status(), ']');
}

TEST(LongLineDiagnostic, HloReaderErrorAfterAHugeConstant) {
  size_t bad = 0;
  // A valid literal (the reader checks it against the shape): 0, 0, ..., 0.
  const std::string literal = AroundBad("0, ", "0, ", &bad) + "0";
  const int64_t elements = std::count(literal.begin(), literal.end(), ',') + 1;
  const std::string text =
      absl::StrCat("HloModule m\nENTRY e {\n  ROOT c = f32[", elements,
                   "]{0} constant({", literal, "}) $\n}\n");
  const absl::Status status = ReadHloModules(text).status();
  ASSERT_FALSE(status.ok());
  EXPECT_LT(status.message().size(), 400u);
  const std::vector<std::string> lines =
      absl::StrSplit(std::string(status.message()), '\n');
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[1].substr(0, 3), "...");
  EXPECT_EQ(lines[1][lines[2].size() - 1], '$');
}

TEST(LongLineDiagnostic, CuteParserShowsAWindow) {
  size_t bad = 0;
  const std::string text =
      absl::StrCat("(", AroundBad("1,", "1;", &bad), "1):1");
  ExpectWindow(cute::ParseLayout(text).status(), ';');
}

TEST(LongLineDiagnostic, GridParserShowsAWindow) {
  size_t bad = 0;
  const std::string text =
      absl::StrCat("(d0) -> (d0", AroundBad(" ", "?", &bad), ")");
  ExpectWindow(grid::ParseAffineMap(text).status(), '?');
}

}  // namespace
}  // namespace hlolayout

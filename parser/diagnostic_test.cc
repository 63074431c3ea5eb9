#include "hlolayout/parser/diagnostic.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"

namespace hlolayout {
namespace {

// OffsetLocator against a byte-by-byte count, for offsets in increasing
// order, going back, repeated, and past the end.
TEST(Diagnostic, OffsetLocatorMatchesACount) {
  const std::string text = "ab\n\nc\r\nlonger line\n\nx";
  const auto count = [&text](size_t offset) {
    SourceLocation at;
    size_t start = 0;
    for (size_t i = 0; i < std::min(offset, text.size()); ++i) {
      if (text[i] == '\n') {
        ++at.line;
        start = i + 1;
      }
    }
    at.column = static_cast<int64_t>(std::min(offset, text.size()) - start) + 1;
    return at;
  };
  OffsetLocator locator(text);
  std::vector<size_t> offsets;
  for (size_t i = 0; i <= text.size() + 2; ++i) offsets.push_back(i);
  for (size_t i = text.size() + 2; i-- > 0;) offsets.push_back(i);
  for (size_t i : {3u, 3u, 0u, 17u, 5u, 5u, 40u}) offsets.push_back(i);
  for (size_t offset : offsets) {
    const SourceLocation want = count(offset);
    const SourceLocation got = locator.Locate(offset);
    EXPECT_EQ(got.line, want.line) << offset;
    EXPECT_EQ(got.column, want.column) << offset;
    const SourceLocation alone = LocateOffset(text, offset);
    EXPECT_EQ(alone.line, want.line) << offset;
    EXPECT_EQ(alone.column, want.column) << offset;
  }
  // The same diagnostic through a locator as without one.
  OffsetLocator again(text);
  EXPECT_EQ(FormatDiagnostic(text, 12, "m", "f", &again),
            FormatDiagnostic(text, 12, "m", "f"));
}

TEST(Diagnostic, FirstLineFirstColumn) {
  EXPECT_EQ(FormatDiagnostic("abc", 0, "bad"), "1:1: bad\nabc\n^");
}

TEST(Diagnostic, FirstLineLaterColumn) {
  EXPECT_EQ(FormatDiagnostic("f32[3,5{1,0}", 7, "expected ']'"),
            "1:8: expected ']'\nf32[3,5{1,0}\n       ^");
}

TEST(Diagnostic, LaterLine) {
  EXPECT_EQ(FormatDiagnostic("a\nbcd\ne", 4, "x"), "2:3: x\nbcd\n  ^");
}

TEST(Diagnostic, OffsetAtNewlineBelongsToItsLine) {
  EXPECT_EQ(FormatDiagnostic("ab\ncd", 2, "x"), "1:3: x\nab\n  ^");
}

TEST(Diagnostic, EndOfInput) {
  EXPECT_EQ(FormatDiagnostic("f32[", 4, "x"), "1:5: x\nf32[\n    ^");
  EXPECT_EQ(FormatDiagnostic("", 0, "x"), "1:1: x\n\n^");
}

TEST(Diagnostic, TabsKeptInCaretLine) {
  EXPECT_EQ(FormatDiagnostic("\tab", 2, "x"), "1:3: x\n\tab\n\t ^");
}

TEST(Diagnostic, FileNamePrefix) {
  EXPECT_EQ(FormatDiagnostic("a\nb", 2, "x", "m.txt"), "m.txt:2:1: x\nb\n^");
}

TEST(Diagnostic, CarriageReturnDropped) {
  EXPECT_EQ(SourceLineAt("ab\r\ncd", 1), "ab");
}

// A binary file's error shows its bytes escaped, not raw (issue 84 item
// 6): control characters, DEL and bytes that are not UTF-8 as `\xNN`,
// the caret still under the byte it points at; valid UTF-8 is kept.
TEST(Diagnostic, BytesThatAreNotTextAreEscaped) {
  const std::string text(
      "ab\x01\x1b[2J\xff\x7f"
      "c d",
      12);
  EXPECT_EQ(FormatDiagnostic(text, 8, "bad"),
            "1:9: bad\nab\\x01\\x1b[2J\\xff\\x7fc d\n"
            "                 ^");
  EXPECT_EQ(FormatDiagnostic("x = \xc3\xa9 y", 7, "bad"),
            "1:8: bad\nx = \xc3\xa9 y\n       ^");
  // The message too.
  EXPECT_EQ(FormatDiagnostic(std::string("a\0b", 3), 1, "found '\x02'"),
            "1:2: found '\\x02'\na\\x00b\n ^");
}

TEST(Diagnostic, DescribeToken) {
  EXPECT_EQ(DescribeToken(""), "end of input");
  EXPECT_EQ(DescribeToken("{"), "'{'");
  EXPECT_EQ(DescribeToken("abcdefghijklmnopqrstuvwxyz"),
            "'abcdefghijklmnopqrstuvwx...'");
}

TEST(Diagnostic, ShortLineShownWhole) {
  const std::string line(kDiagnosticWindowWidth, 'a');
  EXPECT_EQ(FormatDiagnostic(line, 99, "x"),
            absl::StrCat("1:100: x\n", line, "\n", std::string(99, ' '), "^"));
}

// A one-character error in a 4 MB line must not echo 4 MB.
TEST(Diagnostic, FourMegabyteLineShowsAWindowAroundTheCaret) {
  std::string text(4 << 20, '0');
  const size_t bad = 2 << 20;
  text[bad] = '?';
  const std::string d = FormatDiagnostic(text, bad, "bad digit");
  EXPECT_LT(d.size(), 3 * kDiagnosticWindowWidth);
  const std::vector<std::string> lines = absl::StrSplit(d, '\n');
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "1:2097153: bad digit");
  EXPECT_EQ(lines[1].substr(0, 3), "...");
  EXPECT_EQ(lines[1].substr(lines[1].size() - 3), "...");
  EXPECT_EQ(lines[1].size(), kDiagnosticWindowWidth + 6);
  // The caret sits under the '?'.
  ASSERT_EQ(lines[2].back(), '^');
  EXPECT_EQ(lines[1][lines[2].size() - 1], '?');
}

TEST(Diagnostic, WindowAtTheStartAndEndOfALongLine) {
  std::string line(1000, 'b');
  line[2] = 'X';
  line[997] = 'Y';
  std::vector<std::string> lines =
      absl::StrSplit(FormatDiagnostic(line, 2, "x"), '\n');
  EXPECT_EQ(lines[1], absl::StrCat(line.substr(0, 100), "..."));
  EXPECT_EQ(lines[2], "  ^");
  lines = absl::StrSplit(FormatDiagnostic(line, 997, "x"), '\n');
  EXPECT_EQ(lines[1], absl::StrCat("...", line.substr(900)));
  EXPECT_EQ(lines[1][lines[2].size() - 1], 'Y');
  // End of input after a long line: the caret is one past the last byte.
  lines = absl::StrSplit(FormatDiagnostic(line, 1000, "x"), '\n');
  EXPECT_EQ(lines[0], "1:1001: x");
  EXPECT_EQ(lines[1], absl::StrCat("...", line.substr(900)));
  EXPECT_EQ(lines[2].size(), 3u + 100u + 1u);
}

TEST(Diagnostic, WindowOnLaterLineOfLongText) {
  const std::string text = absl::StrCat("short\n", std::string(5000, 'c'), "Z",
                                        std::string(5000, 'c'), "\nnext");
  const std::vector<std::string> lines =
      absl::StrSplit(FormatDiagnostic(text, 6 + 5000, "x", "f.hlo"), '\n');
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "f.hlo:2:5001: x");
  EXPECT_EQ(lines[1][lines[2].size() - 1], 'Z');
  EXPECT_EQ(lines[1].size(), 106u);
}

TEST(Diagnostic, WindowNeverCutsAUtf8Character) {
  // Two-byte characters (U+00E9) everywhere: every cut must land on a lead
  // byte.
  std::string line;
  for (int i = 0; i < 300; ++i) line += "\xC3\xA9";
  for (size_t column : {0u, 1u, 101u, 300u, 599u, 600u}) {
    const SourceWindow w = WindowAround(line, column);
    ASSERT_FALSE(w.text.empty());
    EXPECT_NE(static_cast<unsigned char>(w.text.front()) & 0xC0, 0x80u)
        << column;
    EXPECT_EQ(w.text.size() % 2, 0u) << column;
    EXPECT_LE(w.text.size(), kDiagnosticWindowWidth);
  }
}

}  // namespace
}  // namespace hlolayout

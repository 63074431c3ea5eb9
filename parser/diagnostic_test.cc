#include "hlolayout/parser/diagnostic.h"

#include "gtest/gtest.h"

namespace hlolayout {
namespace {

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

TEST(Diagnostic, DescribeToken) {
  EXPECT_EQ(DescribeToken(""), "end of input");
  EXPECT_EQ(DescribeToken("{"), "'{'");
  EXPECT_EQ(DescribeToken("abcdefghijklmnopqrstuvwxyz"),
            "'abcdefghijklmnopqrstuvwx...'");
}

}  // namespace
}  // namespace hlolayout

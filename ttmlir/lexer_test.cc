#include "hlolayout/ttmlir/lexer.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace hlolayout::grid {
namespace {

// Token texts of `text`, all lexed in `mode`.
std::vector<std::string> Texts(absl::string_view text, LexMode mode) {
  Lexer lexer(text);
  std::vector<std::string> out;
  for (Token t = lexer.Next(mode); t.kind != TokenKind::kEof;
       t = lexer.Next(mode)) {
    out.emplace_back(t.text);
  }
  return out;
}

TEST(Lexer, ShapeModeSplitsDims) {
  EXPECT_EQ(Texts("53x63xf32", LexMode::kShape),
            (std::vector<std::string>{"53", "x", "63", "x", "f32"}));
  EXPECT_EQ(Texts("1x1x!tt.tile", LexMode::kShape),
            (std::vector<std::string>{"1", "x", "1", "x", "!tt.tile"}));
  EXPECT_EQ(Texts("32 x 32", LexMode::kShape),
            (std::vector<std::string>{"32", "x", "32"}));
}

TEST(Lexer, NormalModeIdentifiers) {
  EXPECT_EQ(
      Texts("(d0, d1) -> (d0 * 192 + d1, x)", LexMode::kNormal),
      (std::vector<std::string>{"(", "d0", ",", "d1", ")", "->", "(", "d0", "*",
                                "192", "+", "d1", ",", "x", ")"}));
  EXPECT_EQ(
      Texts("#tt.metal_layout<bfp_bf8>", LexMode::kNormal),
      (std::vector<std::string>{"#tt.metal_layout", "<", "bfp_bf8", ">"}));
}

TEST(Lexer, KindsOffsetsAndValues) {
  Lexer lexer("  42 -\n- > ? @ #");
  Token t = lexer.Next();
  EXPECT_EQ(t.kind, TokenKind::kInt);
  EXPECT_EQ(t.value, 42);
  EXPECT_EQ(t.offset, 2u);
  EXPECT_EQ(lexer.Next().kind, TokenKind::kMinus);
  EXPECT_EQ(lexer.Next().kind, TokenKind::kMinus);
  EXPECT_EQ(lexer.Next().kind, TokenKind::kRAngle);
  EXPECT_EQ(lexer.Next().kind, TokenKind::kQuestion);
  t = lexer.Next();
  EXPECT_EQ(t.kind, TokenKind::kError);
  EXPECT_EQ(t.text, "@");
  EXPECT_EQ(lexer.Next().kind, TokenKind::kError);  // a lone '#'
  t = lexer.Next();
  EXPECT_EQ(t.kind, TokenKind::kEof);
  EXPECT_EQ(DescribeGridToken(t), "end of input");
}

TEST(Lexer, IntegerOverflowIsFlagged) {
  Lexer lexer("9223372036854775807 9223372036854775808");
  Token t = lexer.Next();
  EXPECT_FALSE(t.overflow);
  EXPECT_EQ(t.value, INT64_MAX);
  t = lexer.Next();
  EXPECT_TRUE(t.overflow);
  EXPECT_EQ(t.kind, TokenKind::kInt);
}

}  // namespace
}  // namespace hlolayout::grid

#include "hlolayout/parser/lexer.h"

#include <vector>

#include "gtest/gtest.h"

namespace hlolayout {
namespace {

std::vector<TokenKind> Kinds(absl::string_view text) {
  Lexer lexer(text);
  std::vector<TokenKind> kinds;
  while (true) {
    Token token = lexer.Next();
    kinds.push_back(token.kind);
    if (token.kind == TokenKind::kEnd || token.kind == TokenKind::kError) {
      return kinds;
    }
  }
}

TEST(Lexer, ShapeTokens) {
  using K = TokenKind;
  EXPECT_EQ(
      Kinds("f32[<=3,?]{1,0:T(*,2)#(u8)}"),
      (std::vector<K>{
          K::kIdentifier, K::kLeftBracket, K::kLessEqual,    K::kInteger,
          K::kComma,      K::kQuestion,    K::kRightBracket, K::kLeftBrace,
          K::kInteger,    K::kComma,       K::kInteger,      K::kColon,
          K::kIdentifier, K::kLeftParen,   K::kStar,         K::kComma,
          K::kInteger,    K::kRightParen,  K::kHash,         K::kLeftParen,
          K::kIdentifier, K::kRightParen,  K::kRightBrace,   K::kEnd}));
  EXPECT_EQ(Kinds("<>+~=->"),
            (std::vector<K>{K::kLess, K::kGreater, K::kPlus, K::kTilde,
                            K::kEqual, K::kArrow, K::kEnd}));
}

TEST(Lexer, IntegersAtTheLimits) {
  Lexer lexer("9223372036854775807 -9223372036854775808 0 -0");
  EXPECT_EQ(lexer.Next().value, INT64_MAX);
  EXPECT_EQ(lexer.Next().value, INT64_MIN);
  EXPECT_EQ(lexer.Next().value, 0);
  EXPECT_EQ(lexer.Next().value, 0);
  Token big = Lexer("9223372036854775808").Next();
  EXPECT_EQ(big.kind, TokenKind::kError);
  EXPECT_EQ(big.error, "integer out of range");
  EXPECT_EQ(Lexer("-9223372036854775809").Next().kind, TokenKind::kError);
  EXPECT_EQ(Lexer("18446744073709551616").Next().kind, TokenKind::kError);
}

TEST(Lexer, CommentsAndWhitespaceAreSkipped) {
  Lexer lexer(" /*index=5*/\n\t// line comment\nf32 /**/[");
  Token t = lexer.Next();
  EXPECT_EQ(t.text, "f32");
  EXPECT_EQ(t.offset, 30u);
  EXPECT_EQ(lexer.Next().kind, TokenKind::kLeftBracket);
  EXPECT_EQ(lexer.Next().kind, TokenKind::kEnd);
}

TEST(Lexer, UnterminatedComment) {
  Token t = Lexer("f32 /* x").Next();
  EXPECT_EQ(t.kind, TokenKind::kIdentifier);
  Lexer lexer("f32 /* x");
  lexer.Next();
  Token e = lexer.Next();
  EXPECT_EQ(e.kind, TokenKind::kError);
  EXPECT_EQ(e.offset, 4u);
  EXPECT_EQ(e.error, "unterminated comment");
}

TEST(Lexer, PeekDoesNotMove) {
  Lexer lexer("a b");
  EXPECT_EQ(lexer.Peek().text, "a");
  EXPECT_EQ(lexer.Next().text, "a");
  EXPECT_EQ(lexer.Next().text, "b");
}

TEST(Lexer, BadCharacterIsOneUtf8Character) {
  Token t = Lexer("\xc3\xa9x").Next();
  EXPECT_EQ(t.kind, TokenKind::kError);
  EXPECT_EQ(t.text.size(), 2u);
  EXPECT_EQ(t.error, "unexpected character");
}

TEST(Lexer, KindNames) {
  EXPECT_EQ(TokenKindName(TokenKind::kLessEqual), "'<='");
  EXPECT_EQ(TokenKindName(TokenKind::kEnd), "end of input");
}

}  // namespace
}  // namespace hlolayout

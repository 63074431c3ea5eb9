#include "hlolayout/cute/lexer.h"

#include <vector>

#include "gtest/gtest.h"

namespace hlolayout::cute {
namespace {

std::vector<TokenKind> Kinds(absl::string_view text) {
  Lexer lex(text);
  std::vector<TokenKind> out;
  while (true) {
    Token t = lex.Next();
    out.push_back(t.kind);
    if (t.kind == TokenKind::kEnd || t.kind == TokenKind::kError) break;
  }
  return out;
}

TEST(Lexer, Tokens) {
  using K = TokenKind;
  EXPECT_EQ(Kinds("(6,2):(_8,2)"),
            (std::vector<K>{K::kLParen, K::kInt, K::kComma, K::kInt, K::kRParen,
                            K::kColon, K::kLParen, K::kInt, K::kComma, K::kInt,
                            K::kRParen, K::kEnd}));
  EXPECT_EQ(Kinds(" < _ , 3 > "),
            (std::vector<K>{K::kLAngle, K::kUnderscore, K::kComma, K::kInt,
                            K::kRAngle, K::kEnd}));
}

TEST(Lexer, Integers) {
  Lexer lex("_4 -12 _-1 9223372036854775807 -9223372036854775808");
  EXPECT_EQ(lex.Next().value, 4);
  EXPECT_EQ(lex.Next().value, -12);
  Token t = lex.Next();
  EXPECT_EQ(t.value, -1);
  EXPECT_EQ(t.text, "_-1");
  EXPECT_EQ(t.offset, 7u);
  EXPECT_EQ(lex.Next().value, INT64_MAX);
  EXPECT_EQ(lex.Next().value, INT64_MIN);
  EXPECT_EQ(lex.Next().kind, TokenKind::kEnd);
}

TEST(Lexer, Errors) {
  Lexer a("9223372036854775808");
  Token t = a.Next();
  EXPECT_EQ(t.kind, TokenKind::kError);
  EXPECT_EQ(t.error, "integer out of range");
  Lexer b("(4;");
  b.Next();
  b.Next();
  t = b.Next();
  EXPECT_EQ(t.kind, TokenKind::kError);
  EXPECT_EQ(t.error, "unexpected character");
  EXPECT_EQ(t.text, ";");
  EXPECT_EQ(t.offset, 2u);
  Lexer c("-x");
  t = c.Next();
  EXPECT_EQ(t.kind, TokenKind::kError);
  EXPECT_EQ(t.error, "expected digits");
}

TEST(Lexer, PeekDoesNotAdvance) {
  Lexer lex("12:3");
  EXPECT_EQ(lex.Peek().kind, TokenKind::kInt);
  EXPECT_EQ(lex.Next().value, 12);
  EXPECT_EQ(lex.Peek().kind, TokenKind::kColon);
}

}  // namespace
}  // namespace hlolayout::cute

#include "hlolayout/ttmlir/lexer.h"

#include <string>

#include "hlolayout/parser/diagnostic.h"

namespace hlolayout::grid {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsLetter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool IsIdentChar(char c) {
  return IsLetter(c) || IsDigit(c) || c == '$' || c == '.';
}
bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
         c == '\v';
}

}  // namespace

Token Lexer::Make(TokenKind kind, size_t begin, size_t end) {
  pos_ = end;
  Token t;
  t.kind = kind;
  t.text = text_.substr(begin, end - begin);
  t.offset = begin;
  return t;
}

Token Lexer::Next(LexMode mode) {
  while (pos_ < text_.size() && IsSpace(text_[pos_])) ++pos_;
  const size_t begin = pos_;
  if (pos_ >= text_.size()) return Make(TokenKind::kEof, begin, begin);
  const char c = text_[pos_];
  if (IsDigit(c)) {
    size_t end = begin;
    int64_t value = 0;
    bool overflow = false;
    while (end < text_.size() && IsDigit(text_[end])) {
      overflow |= __builtin_mul_overflow(value, int64_t{10}, &value) ||
                  __builtin_add_overflow(value, text_[end] - '0', &value);
      ++end;
    }
    Token t = Make(TokenKind::kInt, begin, end);
    t.value = overflow ? 0 : value;
    t.overflow = overflow;
    return t;
  }
  if (mode == LexMode::kShape && c == 'x') {
    return Make(TokenKind::kX, begin, begin + 1);
  }
  if (IsLetter(c) || c == '#' || c == '!') {
    size_t end = begin + 1;
    // In a dimension list `f32x` cannot occur, but `i1>` and `f32,` can;
    // identifiers stop at the first non-identifier character either way.
    while (end < text_.size() && IsIdentChar(text_[end])) ++end;
    const TokenKind kind = c == '#'   ? TokenKind::kHashIdent
                           : c == '!' ? TokenKind::kBangIdent
                                      : TokenKind::kIdent;
    if (kind != TokenKind::kIdent && end == begin + 1) {
      return Make(TokenKind::kError, begin, end);
    }
    return Make(kind, begin, end);
  }
  switch (c) {
    case '(':
      return Make(TokenKind::kLParen, begin, begin + 1);
    case ')':
      return Make(TokenKind::kRParen, begin, begin + 1);
    case '<':
      return Make(TokenKind::kLAngle, begin, begin + 1);
    case '>':
      return Make(TokenKind::kRAngle, begin, begin + 1);
    case '[':
      return Make(TokenKind::kLSquare, begin, begin + 1);
    case ']':
      return Make(TokenKind::kRSquare, begin, begin + 1);
    case '{':
      return Make(TokenKind::kLBrace, begin, begin + 1);
    case '}':
      return Make(TokenKind::kRBrace, begin, begin + 1);
    case ',':
      return Make(TokenKind::kComma, begin, begin + 1);
    case ':':
      return Make(TokenKind::kColon, begin, begin + 1);
    case '*':
      return Make(TokenKind::kStar, begin, begin + 1);
    case '+':
      return Make(TokenKind::kPlus, begin, begin + 1);
    case '?':
      return Make(TokenKind::kQuestion, begin, begin + 1);
    case '=':
      return Make(TokenKind::kEqual, begin, begin + 1);
    case '"': {
      size_t end = begin + 1;
      while (end < text_.size() && text_[end] != '"' && text_[end] != '\n') {
        end += text_[end] == '\\' && end + 1 < text_.size() ? 2 : 1;
      }
      if (end >= text_.size() || text_[end] != '"') {
        return Make(TokenKind::kError, begin, begin + 1);
      }
      return Make(TokenKind::kString, begin, end + 1);
    }
    case '-':
      if (begin + 1 < text_.size() && text_[begin + 1] == '>') {
        return Make(TokenKind::kArrow, begin, begin + 2);
      }
      return Make(TokenKind::kMinus, begin, begin + 1);
    default:
      return Make(TokenKind::kError, begin, begin + 1);
  }
}

std::string DescribeGridToken(const Token& token) {
  if (token.kind == TokenKind::kEof) return "end of input";
  return DescribeToken(token.text);
}

}  // namespace hlolayout::grid

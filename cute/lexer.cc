// cute/lexer.cc: a hand-written lexer switching on the current character.
#include "hlolayout/cute/lexer.h"

namespace hlolayout::cute {

namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool IsLetter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

}  // namespace

Token Lexer::Next() { return Scan(pos_); }

Token Lexer::Peek() const {
  size_t pos = pos_;
  return Scan(pos);
}

Token Lexer::Scan(size_t& pos) const {
  while (pos < text_.size() && IsSpace(text_[pos])) ++pos;
  Token token;
  token.offset = pos;
  if (pos >= text_.size()) {
    token.kind = TokenKind::kEnd;
    return token;
  }
  const size_t start = pos;
  auto single = [&](TokenKind kind) {
    token.kind = kind;
    token.text = text_.substr(start, 1);
    ++pos;
    return token;
  };
  switch (text_[pos]) {
    case '(':
      return single(TokenKind::kLParen);
    case ')':
      return single(TokenKind::kRParen);
    case ',':
      return single(TokenKind::kComma);
    case ':':
      return single(TokenKind::kColon);
    case '<':
      return single(TokenKind::kLAngle);
    case '>':
      return single(TokenKind::kRAngle);
    case '@':
      return single(TokenKind::kAt);
    case '[':
      return single(TokenKind::kLBracket);
    case ']':
      return single(TokenKind::kRBracket);
    default:
      break;
  }
  if (IsLetter(text_[pos])) {
    size_t p = pos + 1;
    while (p < text_.size() &&
           (IsLetter(text_[p]) || IsDigit(text_[p]) || text_[p] == '_')) {
      ++p;
    }
    token.kind = TokenKind::kIdent;
    token.text = text_.substr(start, p - start);
    pos = p;
    return token;
  }
  size_t p = pos;
  if (text_[p] == '_') {
    ++p;
    if (p >= text_.size() || !(IsDigit(text_[p]) || text_[p] == '-')) {
      return single(TokenKind::kUnderscore);
    }
  }
  bool negative = false;
  if (p < text_.size() && text_[p] == '-') {
    negative = true;
    ++p;
  }
  if (p >= text_.size() || !IsDigit(text_[p])) {
    // Not an integer: report the offending character (or the dangling
    // sign).
    token.kind = TokenKind::kError;
    token.text = text_.substr(start, p < text_.size() ? p + 1 - start : 1);
    token.error = p > start ? "expected digits" : "unexpected character";
    return token;
  }
  // Accumulate negatively so that INT64_MIN is representable.
  int64_t value = 0;
  bool overflow = false;
  while (p < text_.size() && IsDigit(text_[p])) {
    const int digit = text_[p] - '0';
    if (__builtin_mul_overflow(value, 10, &value) ||
        __builtin_sub_overflow(value, digit, &value)) {
      overflow = true;
    }
    ++p;
  }
  if (!negative && !overflow && __builtin_mul_overflow(value, -1, &value)) {
    overflow = true;
  }
  token.text = text_.substr(start, p - start);
  pos = p;
  if (overflow) {
    token.kind = TokenKind::kError;
    token.error = "integer out of range";
    return token;
  }
  token.kind = TokenKind::kInt;
  token.value = value;
  token.is_static = text_[start] == '_';
  return token;
}

}  // namespace hlolayout::cute

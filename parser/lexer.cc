#include "parser/lexer.h"

namespace hlolayout {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsIdentifierStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool IsIdentifierChar(char c) { return IsIdentifierStart(c) || IsDigit(c); }

}  // namespace

bool Lexer::SkipTrivia() {
  const size_t size = text_.size();
  // Common case: the next token follows at once.
  if (pos_ < size && text_[pos_] > ' ' && text_[pos_] != '/') return true;
  while (pos_ < size) {
    const char c = text_[pos_];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
        c == '\v') {
      ++pos_;
    } else if (c == '/' && pos_ + 1 < size && text_[pos_ + 1] == '*') {
      const size_t close = text_.find("*/", pos_ + 2);
      if (close == absl::string_view::npos) return false;
      pos_ = close + 2;
    } else if (c == '/' && pos_ + 1 < size && text_[pos_ + 1] == '/') {
      const size_t newline = text_.find('\n', pos_ + 2);
      pos_ = newline == absl::string_view::npos ? size : newline + 1;
    } else {
      break;
    }
  }
  return true;
}

Token Lexer::Make(TokenKind kind, size_t begin, size_t end) {
  Token token;
  token.kind = kind;
  token.text = text_.substr(begin, end - begin);
  token.offset = begin;
  pos_ = end;
  return token;
}

Token Lexer::LexNumber(size_t begin) {
  const bool negative = text_[begin] == '-';
  size_t end = begin + (negative ? 1 : 0);
  // Fast path: up to 18 digits cannot overflow int64.
  {
    size_t digits_end = end;
    int64_t fast = 0;
    while (digits_end < text_.size() && digits_end - end < 19 &&
           IsDigit(text_[digits_end])) {
      fast = fast * 10 + (text_[digits_end] - '0');
      ++digits_end;
    }
    if (digits_end - end <= 18 && (digits_end == text_.size() ||
                                   (!IsDigit(text_[digits_end]) &&
                                    !IsIdentifierStart(text_[digits_end])))) {
      Token token = Make(TokenKind::kInteger, begin, digits_end);
      token.value = negative ? -fast : fast;
      return token;
    }
  }
  // Accumulate as a negative number so that INT64_MIN is representable.
  int64_t value = 0;
  bool overflow = false;
  while (end < text_.size() && IsDigit(text_[end])) {
    const int digit = text_[end] - '0';
    if (!overflow && (__builtin_mul_overflow(value, 10, &value) ||
                      __builtin_sub_overflow(value, digit, &value))) {
      overflow = true;
    }
    ++end;
  }
  if (!negative && !overflow) {
    if (value == INT64_MIN) {
      overflow = true;
    } else {
      value = -value;
    }
  }
  // An identifier character right after the digits ("12ab") is malformed.
  if (end < text_.size() && IsIdentifierStart(text_[end])) {
    while (end < text_.size() && IsIdentifierChar(text_[end])) ++end;
    Token token = Make(TokenKind::kError, begin, end);
    token.error = "malformed integer";
    return token;
  }
  Token token =
      Make(overflow ? TokenKind::kError : TokenKind::kInteger, begin, end);
  if (overflow) {
    token.error = "integer out of range";
  } else {
    token.value = value;
  }
  return token;
}

Token Lexer::Lex() {
  if (!SkipTrivia()) {
    Token token;
    token.kind = TokenKind::kError;
    token.offset = pos_;
    token.text = text_.substr(pos_, 2);
    token.error = "unterminated comment";
    return token;
  }
  const size_t begin = pos_;
  if (begin >= text_.size()) {
    Token token;
    token.offset = begin;
    return token;
  }
  const char c = text_[begin];
  const char next = begin + 1 < text_.size() ? text_[begin + 1] : '\0';
  if (IsDigit(c) || (c == '-' && IsDigit(next))) return LexNumber(begin);
  if (IsIdentifierStart(c)) {
    size_t end = begin + 1;
    while (end < text_.size() && IsIdentifierChar(text_[end])) ++end;
    return Make(TokenKind::kIdentifier, begin, end);
  }
  switch (c) {
    case '[':
      return Make(TokenKind::kLeftBracket, begin, begin + 1);
    case ']':
      return Make(TokenKind::kRightBracket, begin, begin + 1);
    case '{':
      return Make(TokenKind::kLeftBrace, begin, begin + 1);
    case '}':
      return Make(TokenKind::kRightBrace, begin, begin + 1);
    case '(':
      return Make(TokenKind::kLeftParen, begin, begin + 1);
    case ')':
      return Make(TokenKind::kRightParen, begin, begin + 1);
    case '<':
      if (next == '=') return Make(TokenKind::kLessEqual, begin, begin + 2);
      return Make(TokenKind::kLess, begin, begin + 1);
    case '>':
      return Make(TokenKind::kGreater, begin, begin + 1);
    case ',':
      return Make(TokenKind::kComma, begin, begin + 1);
    case ':':
      return Make(TokenKind::kColon, begin, begin + 1);
    case '?':
      return Make(TokenKind::kQuestion, begin, begin + 1);
    case '*':
      return Make(TokenKind::kStar, begin, begin + 1);
    case '#':
      return Make(TokenKind::kHash, begin, begin + 1);
    case '+':
      return Make(TokenKind::kPlus, begin, begin + 1);
    case '~':
      return Make(TokenKind::kTilde, begin, begin + 1);
    case '=':
      return Make(TokenKind::kEqual, begin, begin + 1);
    case '-':
      if (next == '>') return Make(TokenKind::kArrow, begin, begin + 2);
      break;
    default:
      break;
  }
  // One UTF-8 character (lead byte plus continuation bytes) for the caret.
  size_t end = begin + 1;
  while (end < text_.size() &&
         (static_cast<unsigned char>(text_[end]) & 0xC0) == 0x80) {
    ++end;
  }
  Token token = Make(TokenKind::kError, begin, end);
  token.error = "unexpected character";
  return token;
}

absl::string_view TokenKindName(TokenKind kind) {
  switch (kind) {
    case TokenKind::kEnd:
      return "end of input";
    case TokenKind::kError:
      return "invalid token";
    case TokenKind::kInteger:
      return "integer";
    case TokenKind::kIdentifier:
      return "identifier";
    case TokenKind::kLeftBracket:
      return "'['";
    case TokenKind::kRightBracket:
      return "']'";
    case TokenKind::kLeftBrace:
      return "'{'";
    case TokenKind::kRightBrace:
      return "'}'";
    case TokenKind::kLeftParen:
      return "'('";
    case TokenKind::kRightParen:
      return "')'";
    case TokenKind::kLess:
      return "'<'";
    case TokenKind::kGreater:
      return "'>'";
    case TokenKind::kLessEqual:
      return "'<='";
    case TokenKind::kComma:
      return "','";
    case TokenKind::kColon:
      return "':'";
    case TokenKind::kQuestion:
      return "'?'";
    case TokenKind::kStar:
      return "'*'";
    case TokenKind::kHash:
      return "'#'";
    case TokenKind::kPlus:
      return "'+'";
    case TokenKind::kTilde:
      return "'~'";
    case TokenKind::kEqual:
      return "'='";
    case TokenKind::kArrow:
      return "'->'";
  }
  return "token";
}

}  // namespace hlolayout

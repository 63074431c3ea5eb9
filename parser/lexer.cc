#include "hlolayout/parser/lexer.h"

namespace hlolayout {
namespace lexer_internal {
namespace {

constexpr std::array<TokenKind, 256> OneCharacterKinds() {
  std::array<TokenKind, 256> kinds = {};
  for (TokenKind& kind : kinds) kind = TokenKind::kError;
  kinds['['] = TokenKind::kLeftBracket;
  kinds[']'] = TokenKind::kRightBracket;
  kinds['{'] = TokenKind::kLeftBrace;
  kinds['}'] = TokenKind::kRightBrace;
  kinds['('] = TokenKind::kLeftParen;
  kinds[')'] = TokenKind::kRightParen;
  kinds['>'] = TokenKind::kGreater;
  kinds[','] = TokenKind::kComma;
  kinds[':'] = TokenKind::kColon;
  kinds['?'] = TokenKind::kQuestion;
  kinds['*'] = TokenKind::kStar;
  kinds['#'] = TokenKind::kHash;
  kinds['+'] = TokenKind::kPlus;
  kinds['~'] = TokenKind::kTilde;
  kinds['='] = TokenKind::kEqual;
  return kinds;
}

}  // namespace

constexpr std::array<TokenKind, 256> kOneCharacterKind = OneCharacterKinds();

}  // namespace lexer_internal

namespace {

using lexer_internal::kOneCharacterKind;

// Character classes for Lex's dispatch: one table load per character instead
// of chains of range compares (lexing was most of ParseShape's time).
enum CharClass : uint8_t {
  kOther,        // not valid in shape text
  kSpace,        // whitespace
  kSlash,        // '/', maybe a comment
  kDigit,        // 0-9
  kLetter,       // A-Z a-z _
  kPunctuation,  // a one-character token, see kOneCharacterKind
  kMinus,        // '-': a negative integer or '->'
  kLessSign,     // '<': '<' or '<='
};

struct CharClasses {
  CharClass of[256];
  constexpr CharClasses() : of() {
    for (int c = 0; c < 256; ++c) {
      of[c] = kOneCharacterKind[c] != TokenKind::kError ? kPunctuation : kOther;
    }
    for (char c : {' ', '\t', '\n', '\r', '\f', '\v'}) {
      Set(c, kSpace);
    }
    for (int c = '0'; c <= '9'; ++c) of[c] = kDigit;
    for (int c = 'a'; c <= 'z'; ++c) of[c] = kLetter;
    for (int c = 'A'; c <= 'Z'; ++c) of[c] = kLetter;
    Set('/', kSlash);
    Set('_', kLetter);
    Set('-', kMinus);
    Set('<', kLessSign);
  }
  // A char indexes through unsigned char (clang's -Wchar-subscripts).
  constexpr void Set(char c, CharClass cls) {
    of[static_cast<unsigned char>(c)] = cls;
  }
};
constexpr CharClasses kCharClasses;

CharClass ClassOf(char c) {
  return kCharClasses.of[static_cast<unsigned char>(c)];
}
bool IsDigit(char c) { return ClassOf(c) == kDigit; }
bool IsIdentifierChar(char c) {
  const CharClass k = ClassOf(c);
  return k == kLetter || k == kDigit;
}

}  // namespace

bool Lexer::SkipTrivia() {
  const size_t size = text_.size();
  while (pos_ < size) {
    const char c = text_[pos_];
    if (ClassOf(c) == kSpace) {
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

void Lexer::LexNumber(size_t begin) {
  // Non-negative and at most 18 digits, so no overflow checks: the numbers
  // of shape text. Longer runs and "12ab" go to LexLongNumber.
  const char* data = text_.data();
  const size_t size = text_.size();
  const size_t limit = size - begin < 18 ? size : begin + 18;
  size_t end = begin;
  uint64_t value = 0;
  for (; end < limit; ++end) {
    const unsigned digit = static_cast<unsigned char>(data[end]) - '0';
    if (digit > 9) break;
    value = value * 10 + digit;
  }
  if (end < size && IsIdentifierChar(data[end])) {
    LexLongNumber(begin);
    return;
  }
  Set(TokenKind::kInteger, begin, end);
  current_.value = static_cast<int64_t>(value);
}

void Lexer::LexLongNumber(size_t begin) {
  const bool negative = text_[begin] == '-';
  size_t end = begin + (negative ? 1 : 0);
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
  if (end < text_.size() && ClassOf(text_[end]) == kLetter) {
    while (end < text_.size() && IsIdentifierChar(text_[end])) ++end;
    SetError(begin, end, "malformed integer");
    return;
  }
  if (overflow) {
    SetError(begin, end, "integer out of range");
    return;
  }
  Set(TokenKind::kInteger, begin, end);
  current_.value = value;
}

// The fast path: a token that starts right at pos_ with one of the classes
// that make up almost all shape text. Everything else (spaces, comments,
// '<', '-', the end, bad characters) is LexSlow's; keeping this function
// small lets the compiler keep it free of register spills.
void Lexer::Lex() {
  const size_t begin = pos_;
  const size_t size = text_.size();
  if (begin < size) {
    const char c = text_[begin];
    switch (ClassOf(c)) {
      case kPunctuation:
        Set(kOneCharacterKind[static_cast<unsigned char>(c)], begin, begin + 1);
        return;
      case kDigit:
        LexNumber(begin);
        return;
      case kLetter: {
        size_t end = begin + 1;
        while (end < size && IsIdentifierChar(text_[end])) ++end;
        Set(TokenKind::kIdentifier, begin, end);
        return;
      }
      default:
        break;
    }
  }
  LexSlow();
}

void Lexer::LexSlow() {
  if (!SkipTrivia()) {
    SetError(pos_, pos_ + 2, "unterminated comment");
    return;
  }
  const char* data = text_.data();
  const size_t size = text_.size();
  const size_t begin = pos_;
  if (begin >= size) {
    Set(TokenKind::kEnd, begin, begin);
    return;
  }
  const char c = data[begin];
  const char next = begin + 1 < size ? data[begin + 1] : '\0';
  switch (ClassOf(c)) {
    case kPunctuation:
    case kDigit:
    case kLetter:
      Lex();
      return;
    case kLessSign:
      if (next == '=') {
        Set(TokenKind::kLessEqual, begin, begin + 2);
      } else {
        Set(TokenKind::kLess, begin, begin + 1);
      }
      return;
    case kMinus:
      if (IsDigit(next)) {
        LexLongNumber(begin);
        return;
      }
      if (next == '>') {
        Set(TokenKind::kArrow, begin, begin + 2);
        return;
      }
      break;
    default:
      break;
  }
  // One UTF-8 character (lead byte plus continuation bytes) for the caret.
  size_t end = begin + 1;
  while (end < size && (static_cast<unsigned char>(data[end]) & 0xC0) == 0x80) {
    ++end;
  }
  SetError(begin, end, "unexpected character");
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

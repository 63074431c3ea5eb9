// parser/lexer.h: tokens of HLO shape and layout text.
//
// A hand-written lexer over a string view: no regex, no allocation, token
// texts are views into the input. Whitespace and comments (`/* ... */`,
// `// ...` to the end of the line) are skipped between tokens.
//
//   Lexer lexer("f32[3,5]{1,0:T(2,2)}");
//   lexer.Next();  // kIdentifier "f32"
//   lexer.Next();  // kLeftBracket "["
//   lexer.Next();  // kInteger "3", value() == 3
//
// Integers are decimal, optionally negative; a value outside int64 is a
// kError token ("integer out of range"), never a wrap.
#ifndef HLOLAYOUT_PARSER_LEXER_H_
#define HLOLAYOUT_PARSER_LEXER_H_

#include <array>
#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"

namespace hlolayout {

enum class TokenKind : uint8_t {
  kEnd,           // end of input
  kError,         // bad character, bad integer or unterminated comment
  kInteger,       // -?[0-9]+
  kIdentifier,    // [A-Za-z_][A-Za-z0-9_]*  (no '.' or '-': see below)
  kLeftBracket,   // [
  kRightBracket,  // ]
  kLeftBrace,     // {
  kRightBrace,    // }
  kLeftParen,     // (
  kRightParen,    // )
  kLess,          // <
  kGreater,       // >
  kLessEqual,     // <=
  kComma,         // ,
  kColon,         // :
  kQuestion,      // ?
  kStar,          // *
  kHash,          // #
  kPlus,          // +
  kTilde,         // ~
  kEqual,         // =
  kArrow,         // ->
};

// Identifiers here stop at '.' and '-', which only appear in HLO names, not
// in shape text; the HLO module reader has its own name scanner.

struct Token {
  TokenKind kind = TokenKind::kEnd;
  absl::string_view text;  // the token's characters in the input
  size_t offset = 0;       // byte offset of text in the input
  int64_t value = 0;       // for kInteger
  // For kError: a short lowercase message ("integer out of range").
  absl::string_view error;
};

namespace lexer_internal {
// The kind of each character that is a whole token by itself ('[', ','),
// kError for the others (including '<' and '-', which start longer tokens).
extern const std::array<TokenKind, 256> kOneCharacterKind;
}  // namespace lexer_internal

class Lexer {
 public:
  // Lexes `text` from byte `offset`. The first token is lexed at once; each
  // token is lexed exactly once however often it is peeked.
  explicit Lexer(absl::string_view text, size_t offset = 0)
      : text_(text), pos_(offset), consumed_end_(offset) {
    Lex();
  }

  // Returns the next token and moves past it. After kEnd or kError, every
  // further call returns the same token again.
  Token Next() {
    const Token token = current_;
    Skip();
    return token;
  }
  // Moves past the next token, as Next() without returning it: parsers peek,
  // decide, then skip, so no token is copied on the hot path.
  void Skip() {
    if (current_.kind == TokenKind::kEnd ||
        current_.kind == TokenKind::kError) {
      return;
    }
    consumed_end_ = pos_;
    // Inline fast path: about half the tokens of shape text are one
    // character ('[', ',', '(' ...) right after the previous token.
    if (pos_ < text_.size()) {
      const TokenKind kind =
          lexer_internal::kOneCharacterKind[static_cast<unsigned char>(
              text_[pos_])];
      if (kind != TokenKind::kError) {
        Set(kind, pos_, pos_ + 1);
        return;
      }
    }
    Lex();
  }
  // The next token, without moving.
  const Token& Peek() const { return current_; }
  TokenKind PeekKind() const { return current_.kind; }
  // The token after the next one, without moving.
  Token PeekSecond() const {
    Lexer copy = *this;
    copy.Skip();
    return copy.Peek();
  }

  // Offset just past the last token returned by Next (comments and spaces
  // after it are not consumed); the start offset before any Next.
  size_t offset() const { return consumed_end_; }
  absl::string_view text() const { return text_; }

 private:
  // Lexes the token at pos_ into current_ and moves pos_ past it.
  void Lex();
  void LexSlow();
  // Skips spaces and comments. Returns false on an unterminated comment,
  // leaving pos_ at its start.
  bool SkipTrivia();
  void Set(TokenKind kind, size_t begin, size_t end) {
    current_.kind = kind;
    current_.text = absl::string_view(text_.data() + begin, end - begin);
    current_.offset = begin;
    current_.value = 0;
    // current_.error stays empty: the lexer never moves past an error.
    pos_ = end;
  }
  void SetError(size_t begin, size_t end, absl::string_view message) {
    Set(TokenKind::kError, begin, end);
    current_.error = message;
  }
  void LexNumber(size_t begin);      // [0-9]+ (the common case)
  void LexLongNumber(size_t begin);  // any integer, with overflow checks

  absl::string_view text_;
  size_t pos_;           // where lexing continues (end of current_)
  size_t consumed_end_;  // end of the last token returned by Next
  Token current_;
};

// Name of a token kind for messages: "'['", "integer", "identifier".
absl::string_view TokenKindName(TokenKind kind);

}  // namespace hlolayout

#endif  // HLOLAYOUT_PARSER_LEXER_H_

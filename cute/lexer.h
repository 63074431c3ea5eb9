// cute/lexer.h: tokens of CuTe's layout notation.
//
// The notation is small: integers (an optional static prefix `_` and an
// optional `-`, as in `_4` and `_-1`), `(`, `)`, `,`, `:`, `<`, `>`, `@`
// (ScaledBasis strides, `1@0`), `[`, `]`, names (a letter, then letters,
// digits and `_`: `Sw`, `o`, `smem_ptr`) and the underscore `_` (CuTe's
// Underscore) on its own. Spaces, tabs and newlines separate tokens and are
// otherwise ignored.
//
//   Lexer lex("(6,2):(_8,2)");
//   lex.Next() -> kLParen "(" at 0; kInt 6 at 1; kComma; kInt 2; kRParen;
//   kColon; kLParen; kInt 8 (text "_8"); kComma; kInt 2; kRParen; kEnd.
//
// Integers are lexed with overflow checks: a literal outside int64 is a
// kError token with a message. The lexer never allocates.
#ifndef HLOLAYOUT_CUTE_LEXER_H_
#define HLOLAYOUT_CUTE_LEXER_H_

#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"

namespace hlolayout::cute {

enum class TokenKind {
  kInt,
  kLParen,
  kRParen,
  kComma,
  kColon,
  kLAngle,
  kRAngle,
  kUnderscore,
  kAt,  // '@', ScaledBasis strides (cute/coord_layout.h)
  kLBracket,
  kRBracket,
  kIdent,  // a name: `Sw`, `o`, `smem_ptr`, `unset`, `b`
  kEnd,
  kError,
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  // The token's text in the source (empty for kEnd).
  absl::string_view text;
  // Byte offset of the token in the source.
  size_t offset = 0;
  // kInt: the value, and whether it was written static (`_4`).
  int64_t value = 0;
  bool is_static = false;
  // kError: what is wrong, a short lowercase phrase.
  absl::string_view error;
};

class Lexer {
 public:
  // `text` must outlive the lexer and its tokens.
  explicit Lexer(absl::string_view text) : text_(text) {}

  // Next
  //
  // Returns the next token and advances past it. After kEnd or kError every
  // call returns kEnd again; the parser stops at the first kError.
  Token Next();

  // Peek
  //
  // Returns the next token without advancing.
  Token Peek() const;

  absl::string_view text() const { return text_; }

 private:
  Token Scan(size_t& pos) const;

  absl::string_view text_;
  size_t pos_ = 0;
};

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_LEXER_H_

// ttmlir/lexer.h: tokens of tt-mlir tensor types and their layouts
// (`#tt.metal_layout`, `#ttcore.metal_layout`, `#ttnn.ttnn_layout`) and of
// the alias definitions of an .mlir file.
//
//   tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>,
//          memref<1x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>>>
//   #dram = #ttnn.buffer_type<dram>
//
// The lexer works on demand over a string_view, with no allocation: the
// parser asks for the next token and says whether it is inside a dimension
// list. MLIR writes `53x63xf32` without separators, so in kShape mode an
// `x` is a token of its own and identifiers cannot start with it; in
// kNormal mode `x` starts an identifier like any letter.
//
// Integers are decimal and overflow-checked: a literal above INT64_MAX is a
// kInt token with `overflow` set, which the parser reports.
#ifndef HLOLAYOUT_TTMLIR_LEXER_H_
#define HLOLAYOUT_TTMLIR_LEXER_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace hlolayout::grid {

enum class TokenKind {
  kEof,
  kError,      // a character no token starts with
  kIdent,      // d0, f32, undef, memref, bfp_bf8
  kInt,        // 53
  kHashIdent,  // #tt.metal_layout, #tt.memory_space
  kBangIdent,  // !tt.tile
  kX,          // `x` between dims (kShape mode only)
  kLParen,
  kRParen,
  kLAngle,
  kRAngle,
  kLSquare,
  kRSquare,
  kLBrace,
  kRBrace,
  kComma,
  kColon,
  kStar,
  kPlus,
  kMinus,
  kArrow,     // ->
  kQuestion,  // ? (dynamic dim)
  kEqual,     // =
  kString,    // "mesh" (with its quotes; an unterminated one is kError)
};

struct Token {
  TokenKind kind = TokenKind::kEof;
  absl::string_view text;  // a view into the lexed text; empty at kEof
  size_t offset = 0;       // byte offset of the token in the text
  int64_t value = 0;       // kInt only
  bool overflow = false;   // kInt only: the literal exceeds INT64_MAX
};

enum class LexMode { kNormal, kShape };

class Lexer {
 public:
  // `text` must outlive the lexer and its tokens.
  explicit Lexer(absl::string_view text) : text_(text) {}

  // Skips whitespace and returns the next token.
  Token Next(LexMode mode = LexMode::kNormal);

  absl::string_view text() const { return text_; }

 private:
  Token Make(TokenKind kind, size_t begin, size_t end);

  absl::string_view text_;
  size_t pos_ = 0;
};

// A short name for messages: "'<'", "'d0'", "end of input".
std::string DescribeGridToken(const Token& token);

}  // namespace hlolayout::grid

#endif  // HLOLAYOUT_TTMLIR_LEXER_H_

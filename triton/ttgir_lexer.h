// triton/ttgir_lexer.h: tokens of TTGIR (MLIR text as Triton writes it:
// `.ttgir` dumps, layout attributes).
//
//   TtgirLexer lex("#blocked = #ttg.blocked<{order = [1, 0]}>");
//   lex.Next() -> {kHashId, "#blocked"}, {kPunct, "="}, {kHashId,
//   "#ttg.blocked"}, {kPunct, "<"}, {kPunct, "{"}, {kIdent, "order"}, ...
//
// The lexer accepts any text: what it does not know becomes a one-character
// kPunct token, an unterminated string a kError token. Comments (`//` to the
// end of the line) are skipped. Tensor shapes such as `128x64xf16` lex as an
// integer then an identifier (as in MLIR); the parser reads dimension lists
// with LexDimensions.
#ifndef HLOLAYOUT_TRITON_TTGIR_LEXER_H_
#define HLOLAYOUT_TRITON_TTGIR_LEXER_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"

namespace hlolayout::triton {

struct TtgirToken {
  enum class Kind {
    kEnd,
    kHashId,     // #ttg.blocked, #blocked1, #loc3
    kBangId,     // !ttg.memdesc, !tt.ptr
    kPercentId,  // %x_18
    kAtId,       // @matmul
    kIdent,      // tensor, true, ttg.convert_layout, f16, x64xf16
    kInt,        // 12, -1, 0xFF
    kFloat,      // 1.5e+00
    kString,     // "kernels.py" (text keeps the quotes)
    kArrow,      // ->
    kPunct,      // any other single character
    kError,      // an unterminated string
  };
  Kind kind = Kind::kEnd;
  absl::string_view text;
  size_t offset = 0;

  bool Is(Kind k, absl::string_view t) const { return kind == k && text == t; }
  bool IsPunct(char c) const {
    return kind == Kind::kPunct && text.size() == 1 && text[0] == c;
  }
};

class TtgirLexer {
 public:
  explicit TtgirLexer(absl::string_view text) : text_(text) {}

  TtgirToken Next();
  TtgirToken Peek();
  size_t position() const { return pos_; }
  void Seek(size_t pos) { pos_ = pos; }
  absl::string_view text() const { return text_; }

  // LexDimensions
  //
  // At the current position (after white space), reads `D x D x ... x`
  // (digits, or `?` for a dynamic size) up to the element type, e.g. the
  // `128x64x` of `128x64xf16`, and returns the sizes (-1 for `?`). Returns
  // false (position unchanged) when no dimension list starts here; a scalar
  // type (`f32`) has an empty list and returns true.
  bool LexDimensions(std::vector<int64_t>* dims);

 private:
  void SkipSpaceAndComments();
  absl::string_view text_;
  size_t pos_ = 0;
};

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_TTGIR_LEXER_H_

// hlo/attribute_value.h: reading the inside of an attribute value
// (window=, metadata=, input_output_alias=, output_to_operand_aliasing=,
// result_accuracy=, ...) token by token, as XLA's HLO lexer separates
// tokens: between two tokens, any run of spaces, tabs, line breaks (\n,
// \r) and /*...*/ comments is one separator. So a value may be broken
// across lines wherever a space may stand; XLA's own tests write
//
//   window={size=1x1 pad=0_0x0_0
//     rhs_reversal=0x0}
//
// Every reader of an attribute value's inside goes through these, so that
// none of them treats a line break differently from a space.
//
//   HloValueWords("size=1x1 pad=0_0x0_0\n    rhs_reversal=0x0")
//     == {"size=1x1", "pad=0_0x0_0", "rhs_reversal=0x0"}
//   ParseHloAliasPairs("{ {0}: (1, {}, may-alias),\n  {1}: (0, {2}) }")
//     == {{{0}, 1, {}, "may-alias"}, {{1}, 0, {2}, ""}}
#ifndef HLOLAYOUT_HLO_ATTRIBUTE_VALUE_H_
#define HLOLAYOUT_HLO_ATTRIBUTE_VALUE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"

namespace hlolayout {

// Space between tokens: ' ', '\t', '\n' or '\r'.
inline bool IsHloSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// The first position at or after `pos` that is neither space nor inside a
// /*...*/ comment (an unterminated comment runs to the end of `text`).
size_t SkipHloSpace(absl::string_view text, size_t pos);

// `text` without the separators at its two ends.
absl::string_view StripHloSpace(absl::string_view text);

// A quoted value without its separators and its two quotes
// (` "__cublas$gemm"` -> `__cublas$gemm`, escapes as written); any other
// value without its separators.
absl::string_view StripHloQuotes(absl::string_view value);

// The tokens of `text` that separators delimit ("size=1x1", "pad=0_0x0_0"),
// in order; none is empty.
std::vector<absl::string_view> HloValueWords(absl::string_view text);

// A cursor over the tokens of a value, for readers that expect a grammar
// (`{0}: (1, {}, may-alias)`). Every call first skips separators. `base`:
// the value's offset in the whole text, for error positions.
class HloValueCursor {
 public:
  explicit HloValueCursor(absl::string_view text, size_t base = 0)
      : text_(text), base_(base) {}
  void Space() { pos_ = SkipHloSpace(text_, pos_); }
  // Moves past `c` when it comes next.
  bool Eat(char c);
  // The next byte, '\0' at the end.
  char Peek();
  // The text of an integer (`-`? digits), moving past it; "" with the
  // cursor where it was when there is none.
  absl::string_view Integer();
  // Moves past a decimal integer and returns it: -1 when there is none or
  // it does not fit in int64.
  int64_t Number();
  // Moves past a word of [A-Za-z0-9_-] and returns it (empty when none).
  absl::string_view Word();
  // Offset in the whole text (base + position).
  size_t offset() const { return base_ + pos_; }
  bool AtEnd();

 private:
  absl::string_view text_;
  size_t base_;
  size_t pos_ = 0;
};

// One pair of input_output_alias={...} (output index: parameter number and
// index) or output_to_operand_aliasing={...} (output index: operand number
// and index): `{1}: (0, {2}, may-alias)`.
struct HloAliasPair {
  std::vector<int64_t> output_index;
  int64_t number = -1;
  std::vector<int64_t> index;
  absl::string_view kind;  // "may-alias", "must-alias" or empty
};

// The pairs of an aliasing value (`{ {0}: (1, {}, may-alias), ... }`) in
// order. Reading stops at the first pair that does not follow that grammar
// (the reader refuses a malformed input_output_alias; this only reads); a
// pair with a number past int64 is left out.
std::vector<HloAliasPair> ParseHloAliasPairs(absl::string_view value);

}  // namespace hlolayout

#endif  // HLOLAYOUT_HLO_ATTRIBUTE_VALUE_H_

// ttmlir/alias_lexer.h (used by ttmlir/ttmlir_parse.cc only): the tokens of a
// tt-mlir text whose types use alias definitions, and the definitions.
//
//   #l1 = #ttnn.buffer_type<l1>
//   tensor<32x32xbf16, #ttnn.ttnn_layout<..., memref<..., #l1>, ...>>
//
// AliasDefinition reads `#l1 = ...` into an AliasTable; a TokenStream over
// the tensor type then yields ttmlir/lexer.h's tokens with `#l1` replaced by
// the tokens of its value, at their offsets in the definition (so a
// diagnostic points there). InlineAliases gives the same text with the
// values written in, for printing. As in MLIR, a definition sees only the
// aliases defined before it.
#ifndef HLOLAYOUT_TTMLIR_ALIAS_LEXER_H_
#define HLOLAYOUT_TTMLIR_ALIAS_LEXER_H_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/ttmlir/lexer.h"

namespace hlolayout::grid {

// Aliases may expand to at most this many bytes (one, and all of a text's
// definitions), and nest this deep.
inline constexpr size_t kMaxInlined = size_t{1} << 20;
inline constexpr size_t kMaxInlinedTotal = size_t{16} << 20;
inline constexpr int kMaxAliasDepth = 32;

// Characters of MLIR identifiers (`#tt.memory_space`, `d0`), and blanks
// within a line.
inline bool IsIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
inline bool IsIdentChar(char c) {
  return IsIdentStart(c) || (c >= '0' && c <= '9') || c == '$' || c == '.';
}
inline bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// One alias definition: its value's place in the text and the value with
// every alias it references inlined.
struct Alias {
  size_t begin = 0;
  size_t end = 0;
  std::string inlined;
  // Definition order: a value may only use aliases defined before it.
  int64_t order = 0;
};
// The aliases defined so far, by name (a later definition replaces an
// earlier one of the same name).
class AliasTable {
 public:
  using Map = absl::flat_hash_map<std::string, Alias>;
  Map::const_iterator find(absl::string_view name) const {
    return map_.find(name);
  }
  Map::const_iterator end() const { return map_.end(); }
  bool empty() const { return map_.empty(); }
  void clear() { map_.clear(); }
  void Define(absl::string_view name, Alias alias) {
    alias.order = next_order_++;
    inlined_bytes_ += alias.inlined.size();
    map_[std::string(name)] = std::move(alias);
  }
  // Bytes of every inlined value defined (replaced ones included).
  size_t inlined_bytes() const { return inlined_bytes_; }

 private:
  Map map_;
  int64_t next_order_ = 0;
  size_t inlined_bytes_ = 0;
};

// The end of the identifier starting at text[i] ('#' or '!' included).
size_t IdentEnd(absl::string_view text, size_t i);

// `text` with every alias reference replaced by its inlined value.
absl::StatusOr<std::string> InlineAliases(absl::string_view text,
                                          const AliasTable& aliases);

// The end (exclusive) of the bracket group opening at text[start] ('<',
// '(', '[' or '{'), or npos when it does not close. '->' is an arrow.
size_t BalancedEnd(absl::string_view text, size_t start);

// `text` on one line: runs of whitespace become one space, none at the ends.
std::string CollapseWhitespace(absl::string_view text);

// The end of the line holding text[i] (the '\n' or the end).
size_t LineEnd(absl::string_view text, size_t i);

// Reads an alias definition at `i` (a '#' or '!' at the start of a line's
// content) into `aliases`; returns the offset after it, or 0 when there is
// none at `i`. Errors (ParseErrors): brackets that never close, a value
// that expands past kMaxInlined, definitions past kMaxInlinedTotal in all.
absl::StatusOr<size_t> AliasDefinition(absl::string_view text, size_t i,
                                       AliasTable* aliases);

// Tokens of a range of the text, alias references expanded in place: a
// reference pushes a lexer over the alias's value, whose offsets are those
// of the whole text, so diagnostics point into the definition.
class TokenStream {
 public:
  TokenStream(absl::string_view text, size_t begin, size_t end,
              const AliasTable* aliases)
      : text_(text), aliases_(aliases) {
    frames_.push_back({Lexer(text.substr(begin, end - begin)), begin,
                       std::numeric_limits<int64_t>::max()});
  }

  // The next token; an alias reference is replaced by its value's tokens
  // (a kError token when aliases nest deeper than kMaxAliasDepth or expand
  // past kMaxInlined, and too_deep() is then set).
  Token Next(LexMode mode);

  bool too_deep() const { return too_deep_; }

 private:
  struct Frame {
    Lexer lexer;
    size_t base;
    int64_t order;  // the order of the alias lexed (outermost: none)
  };
  absl::string_view text_;
  const AliasTable* aliases_;
  std::vector<Frame> frames_;
  size_t expanded_ = 0;  // bytes of alias values entered
  bool too_deep_ = false;
};

}  // namespace hlolayout::grid

#endif  // HLOLAYOUT_TTMLIR_ALIAS_LEXER_H_

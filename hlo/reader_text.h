// hlo/reader_text.h: the HLO reader's lexical helpers that need no reader
// state (reader_internal.h): comments and whitespace skipped, `// -----`
// module separators told from comment lines, words at a position, and the
// attribute names whose values name called computations. Not for use
// outside hlo/'s reader sources.
//
//   size_t next = SkipTriviaAt(text, pos);  // past spaces and comments
//   if (IsDashLine(text, next) &&
//   ModuleStartProbe(text).HloModuleFollows(next))
//     ...  // a new module starts
#ifndef HLOLAYOUT_HLO_READER_TEXT_H_
#define HLOLAYOUT_HLO_READER_TEXT_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "absl/strings/string_view.h"
#include "hlolayout/hlo/module.h"
#include "hlolayout/hlo/scan.h"

namespace hlolayout {
namespace hlo_internal {

// `s == literal` with the length known at compile time, inlined (the
// string_view operator== was a call per instruction).
template <size_t N>
inline bool Eq(absl::string_view s, const char (&literal)[N]) {
  return s.size() == N - 1 && std::memcmp(s.data(), literal, N - 1) == 0;
}

// True for the attributes whose value names called computations (or holds
// computations written inline): IsCalleeAttribute (hlo/module.h), for
// FastInstruction, which asks for every attribute whose value opens with
// '{'. Most names fail on their first letter (`metadata`, `dimensions`:
// callee names begin with b, c, f, s or t), most others on their length
// and first letter (`backend_config`, `sharding`); the few left are
// compared whole.
// IsCalleeAttribute, called (FastInstruction inlines the test of letters
// only: most names fail it).
bool IsCalleeAttributeOutOfLine(absl::string_view n);
struct CalleeNameLetters {
  // Bit (c & 31) of `first`: some callee name begins with c. Bit c - 'a' of
  // by_length[k]: a callee name of k letters begins with c.
  uint32_t first = 0;
  uint32_t by_length[32] = {};
  constexpr CalleeNameLetters() {
    const char* const names[] = {"body",
                                 "calls",
                                 "select",
                                 "scatter",
                                 "to_apply",
                                 "condition",
                                 "true_computation",
                                 "false_computation",
                                 "branch_computations",
                                 "called_computations"};
    for (const char* name : names) {
      size_t k = 0;
      while (name[k] != '\0') ++k;
      first |= 1u << (name[0] & 31);
      by_length[k] |= 1u << (name[0] - 'a');
    }
  }
};
inline constexpr CalleeNameLetters kCalleeNameLetters;
inline bool IsCalleeAttributeName(absl::string_view n) {
  const uint32_t c = static_cast<unsigned char>(n[0]);
  if (((kCalleeNameLetters.first >> (c & 31)) & 1u) == 0) return false;
  if (n.size() >= 32 || c < 'a' || c > 'z' ||
      ((kCalleeNameLetters.by_length[n.size()] >> (c - 'a')) & 1u) == 0) {
    return false;
  }
  return IsCalleeAttributeOutOfLine(n);
}

// The callee attributes whose value is a list (`{%a, %b}`).
inline bool IsCalleeListName(absl::string_view n) {
  return n.size() == 19 &&
         (Eq(n, "branch_computations") || Eq(n, "called_computations"));
}

// The tables XLA:TPU dumps write after the module header.
inline bool IsStackTableKind(absl::string_view word) {
  return word == "FileNames" || word == "FunctionNames" ||
         word == "FileLocations" || word == "StackFrames";
}

inline constexpr absl::string_view kSplitMarker = "// -----";

// True at a line that begins with `// -----`. Such a line is a module
// separator (lit's --split-input-file) or a decorative comment (XLA's tests
// put `// ----------` above and below a description); DashLineSplits decides.
inline bool IsDashLine(absl::string_view text, size_t pos) {
  return (pos == 0 || text[pos - 1] == '\n') &&
         text.substr(pos, kSplitMarker.size()) == kSplitMarker;
}

// Never stops: every `//` line is a comment.
struct NoStop {
  bool operator()(size_t) const { return false; }
};

// Skips whitespace and comments from `pos`, stopping at a dash line for which
// `stop_at(pos)` is true; returns the new position, or npos for an
// unterminated block comment (whose offset goes to `*bad`).
template <typename StopAt = NoStop>
inline size_t SkipTriviaAt(absl::string_view text, size_t pos,
                           size_t* bad = nullptr,
                           const StopAt& stop_at = StopAt()) {
  const size_t n = text.size();
  while (pos < n) {
    const char c = text[pos];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++pos;
    } else if (c == '/' && pos + 1 < n && text[pos + 1] == '/') {
      if (IsDashLine(text, pos) && stop_at(pos)) break;
      // To the end of the line: '\n', or a '\r' (old Mac line ends, as
      // XLA's lexer reads them).
      const void* nl = std::memchr(text.data() + pos, '\n', n - pos);
      size_t end =
          nl == nullptr ? n : static_cast<const char*>(nl) - text.data();
      const void* cr = std::memchr(text.data() + pos, '\r', end - pos);
      if (cr != nullptr) end = static_cast<const char*>(cr) - text.data();
      pos = end;
    } else if (c == '/' && pos + 1 < n && text[pos + 1] == '*') {
      const size_t close = text.find("*/", pos + 2);
      if (close == absl::string_view::npos) {
        if (bad != nullptr) *bad = pos;
        return absl::string_view::npos;
      }
      pos = close + 2;
    } else {
      break;
    }
  }
  return pos;
}

inline bool StartsWord(absl::string_view text, size_t pos,
                       absl::string_view word) {
  const size_t end = pos + word.size();
  return text.substr(pos, word.size()) == word &&
         (end >= text.size() || !Is(text[end], kNameChar));
}

// Answers "does a new module (`HloModule`) start after the dash line at
// `pos`?", past blank lines and comments (other dash lines included). A run
// of k comment lines is scanned once, not k times: every dash line inside the
// last scanned run has the same answer.
class ModuleStartProbe {
 public:
  explicit ModuleStartProbe(absl::string_view text) : text_(text) {}
  bool HloModuleFollows(size_t pos) {
    if (pos < from_ || pos >= to_) {
      const size_t next = SkipTriviaAt(text_, pos);
      from_ = pos;
      to_ = next == absl::string_view::npos ? text_.size() : next;
      follows_ = next != absl::string_view::npos &&
                 StartsWord(text_, next, "HloModule");
    }
    return follows_;
  }

 private:
  absl::string_view text_;
  size_t from_ = 0;
  size_t to_ = 0;
  bool follows_ = false;
};

}  // namespace hlo_internal
}  // namespace hlolayout

#endif  // HLOLAYOUT_HLO_READER_TEXT_H_

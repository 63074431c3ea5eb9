#include "hlolayout/ttmlir/alias_lexer.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/parser/diagnostic.h"

namespace hlolayout::grid {

// The end of the identifier starting at text[i] ('#' or '!' included).
size_t IdentEnd(absl::string_view text, size_t i) {
  size_t j = i + 1;
  while (j < text.size() && IsIdentChar(text[j])) ++j;
  return j;
}

// `text` with every alias reference replaced by its inlined value.
absl::StatusOr<std::string> InlineAliases(absl::string_view text,
                                          const AliasTable& aliases) {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if ((c == '#' || c == '!') && i + 1 < text.size() &&
        IsIdentStart(text[i + 1])) {
      const size_t j = IdentEnd(text, i);
      auto it = aliases.find(text.substr(i, j - i));
      if (it != aliases.end()) {
        out += it->second.inlined;
      } else {
        out.append(text.data() + i, j - i);
      }
      i = j;
    } else if (c == '"') {
      size_t j = i + 1;
      while (j < text.size() && text[j] != '"' && text[j] != '\n') ++j;
      j = j < text.size() && text[j] == '"' ? j + 1 : j;
      out.append(text.data() + i, j - i);
      i = j;
    } else {
      out.push_back(c);
      ++i;
    }
    if (out.size() > kMaxInlined) {
      return absl::InvalidArgumentError("aliases expand past 1 MB");
    }
  }
  return out;
}

// The end (exclusive) of the bracket group opening at text[start] ('<',
// '(', '[' or '{'), or npos when it does not close. '->' is an arrow.
size_t BalancedEnd(absl::string_view text, size_t start) {
  int64_t depth = 0;
  for (size_t i = start; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      ++i;
      while (i < text.size() && text[i] != '"' && text[i] != '\n') ++i;
      continue;
    }
    if (c == '<' || c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == '>' || c == ')' || c == ']' || c == '}') {
      if (c == '>' && i > 0 && text[i - 1] == '-') continue;
      if (--depth == 0) return i + 1;
    }
  }
  return absl::string_view::npos;
}

std::string CollapseWhitespace(absl::string_view text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (absl::ascii_isspace(static_cast<unsigned char>(c))) {
      space = !out.empty();
    } else {
      if (space) out.push_back(' ');
      space = false;
      out.push_back(c);
    }
  }
  return out;
}

// The end of the line holding text[i] (the '\n' or the end).
size_t LineEnd(absl::string_view text, size_t i) {
  const size_t nl = text.find('\n', i);
  return nl == absl::string_view::npos ? text.size() : nl;
}

// Reads an alias definition at `i` (a '#' or '!' at the start of a line's
// content) into `aliases`; returns the offset after it, or 0 when there is
// none at `i`.
absl::StatusOr<size_t> AliasDefinition(absl::string_view text, size_t i,
                                       AliasTable* aliases) {
  if (i + 1 >= text.size() || (text[i] != '#' && text[i] != '!') ||
      !IsIdentStart(text[i + 1])) {
    return 0;
  }
  const size_t name_end = IdentEnd(text, i);
  size_t j = name_end;
  while (j < text.size() && IsBlank(text[j])) ++j;
  if (j >= text.size() || text[j] != '=') return 0;
  ++j;
  while (j < text.size() && IsBlank(text[j])) ++j;
  // The value runs to the end of the line where its brackets are closed.
  size_t end = j;
  int64_t depth = 0;
  for (;;) {
    const size_t line_end = LineEnd(text, end);
    for (size_t k = end; k < line_end; ++k) {
      const char c = text[k];
      if (c == '<' || c == '(' || c == '[' || c == '{') ++depth;
      if (c == ')' || c == ']' || c == '}' ||
          (c == '>' && !(k > 0 && text[k - 1] == '-'))) {
        --depth;
      }
    }
    end = line_end;
    if (depth <= 0 || end >= text.size()) break;
    ++end;  // the next line continues the value
  }
  if (depth > 0) {
    return ParseError(text, i,
                      absl::StrCat("the definition of ",
                                   DescribeToken(text.substr(i, name_end - i)),
                                   " never closes its brackets"));
  }
  size_t value_end = end;
  while (value_end > j &&
         absl::ascii_isspace(static_cast<unsigned char>(text[value_end - 1]))) {
    --value_end;
  }
  absl::StatusOr<std::string> inlined =
      InlineAliases(text.substr(j, value_end - j), *aliases);
  if (!inlined.ok()) return ParseError(text, i, inlined.status().message());
  if (aliases->inlined_bytes() + inlined->size() > kMaxInlinedTotal) {
    return ParseError(text, i, "alias definitions expand past 16 MB in all");
  }
  aliases->Define(text.substr(i, name_end - i),
                  Alias{j, value_end, *std::move(inlined), 0});
  return end;
}

Token TokenStream::Next(LexMode mode) {
  for (;;) {
    Frame& f = frames_.back();
    Token t = f.lexer.Next(mode);
    t.offset += f.base;
    if (t.kind == TokenKind::kEof && frames_.size() > 1) {
      frames_.pop_back();
      continue;
    }
    if ((t.kind == TokenKind::kHashIdent || t.kind == TokenKind::kBangIdent) &&
        aliases_ != nullptr) {
      auto it = aliases_->find(t.text);
      // As in MLIR, a definition only sees the aliases defined before it
      // (so no alias can refer to itself).
      if (it != aliases_->end() && it->second.order < f.order) {
        const Alias& alias = it->second;
        expanded_ += alias.end - alias.begin;
        if (static_cast<int>(frames_.size()) > kMaxAliasDepth ||
            expanded_ > kMaxInlined) {
          too_deep_ = true;
          t.kind = TokenKind::kError;
          return t;
        }
        frames_.push_back(
            {Lexer(text_.substr(alias.begin, alias.end - alias.begin)),
             alias.begin, alias.order});
        continue;
      }
    }
    return t;
  }
}

}  // namespace hlolayout::grid

#include "hlolayout/testing/attribute_lines.h"

#include <string>

namespace hlolayout {
namespace {

bool IsNameByte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
}

// The '=' at `eq` ends an attribute name: `, name=` or ` name=`.
bool AfterAttributeName(absl::string_view text, size_t eq) {
  size_t k = eq;
  while (k > 0 && IsNameByte(text[k - 1])) --k;
  return k < eq && k > 0 &&
         (text[k - 1] == ' ' || text[k - 1] == ',' || text[k - 1] == '\t');
}

// The '{' at `open` starts a computation written inline: an instruction
// follows (`ROOT ...`, or `name = ` and a shape or an opcode and its '('),
// not `key=value` items (`{size=3 pad=1_1}`).
bool OpensInlineComputation(absl::string_view text, size_t open) {
  const auto blank = [&](size_t p) {
    return p < text.size() && (text[p] == ' ' || text[p] == '\t' ||
                               text[p] == '\n' || text[p] == '\r');
  };
  size_t p = open + 1;
  while (blank(p)) ++p;
  if (text.substr(p, 5) == "ROOT ") return true;
  if (p < text.size() && text[p] == '%') ++p;
  const size_t name = p;
  while (p < text.size() && IsNameByte(text[p])) ++p;
  if (p == name) return false;
  while (blank(p)) ++p;
  if (p >= text.size() || text[p] != '=') return false;
  ++p;
  while (blank(p)) ++p;
  if (p < text.size() && text[p] == '(') return true;  // a tuple shape
  const size_t word = p;
  while (p < text.size() && IsNameByte(text[p])) ++p;
  return p > word && p < text.size() && (text[p] == '[' || text[p] == '(');
}

// The end of the string whose '"' is at `i` (past its closing quote).
size_t StringEnd(absl::string_view text, size_t i) {
  ++i;
  while (i < text.size() && text[i] != '"') i += text[i] == '\\' ? 2 : 1;
  return i < text.size() ? i + 1 : text.size();
}

// The end of the bracketed text at `open` (past its closing bracket).
size_t BracketsEnd(absl::string_view text, size_t open) {
  int depth = 0;
  size_t i = open;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '"') {
      i = StringEnd(text, i);
      continue;
    }
    if (c == '{' || c == '[' || c == '(') ++depth;
    if ((c == '}' || c == ']' || c == ')') && --depth == 0) return i + 1;
    ++i;
  }
  return text.size();
}

}  // namespace

std::string BreakAttributeValues(absl::string_view text,
                                 absl::string_view line_break) {
  std::string out;
  out.reserve(text.size() * 2);
  bool in_value = false;
  int depth = 0;
  size_t i = 0;
  const size_t n = text.size();
  while (i < n) {
    const char c = text[i];
    if (c == '"') {
      const size_t end = StringEnd(text, i);
      out.append(text.data() + i, end - i);
      i = end;
      continue;
    }
    if (!in_value) {
      if (c == '=' && i + 1 < n &&
          (text[i + 1] == '{' || text[i + 1] == '[' || text[i + 1] == '(') &&
          AfterAttributeName(text, i)) {
        if (text[i + 1] == '{' && OpensInlineComputation(text, i + 1)) {
          const size_t end = BracketsEnd(text, i + 1);
          out.append(text.data() + i, end - i);
          i = end;
          continue;
        }
        in_value = true;
        depth = 0;
      }
      out += c;
      ++i;
      continue;
    }
    if (c == '{' || c == '[' || c == '(') {
      ++depth;
      out += c;
      ++i;
      if (c == '{' && i < n &&
          (text[i] == '%' || (text[i] >= 'a' && text[i] <= 'z') ||
           (text[i] >= 'A' && text[i] <= 'Z'))) {
        out.append(line_break.data(), line_break.size());
      }
      continue;
    }
    if (c == '}' || c == ']' || c == ')') {
      --depth;
      out += c;
      ++i;
      if (depth == 0) {
        // `mesh['a'=2] {'a'}`: a bracket after spaces goes on the value.
        size_t j = i;
        while (j < n && (text[j] == ' ' || text[j] == '\t')) ++j;
        if (j < n && (text[j] == '{' || text[j] == '[')) {
          out.append(text.data() + i, j - i);
          i = j;
        } else {
          in_value = false;
        }
      }
      continue;
    }
    if (depth > 0 && c == ' ') {
      while (i < n && text[i] == ' ') ++i;
      out.append(line_break.data(), line_break.size());
      continue;
    }
    out += c;
    ++i;
    if (depth > 0 && c == ',' && i < n && text[i] != ' ') {
      out.append(line_break.data(), line_break.size());
    }
  }
  return out;
}

}  // namespace hlolayout

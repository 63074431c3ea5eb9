// cute/atom/tile.cc: parsing and printing CuTe's Tile<...>.
#include "hlolayout/cute/atom/tile.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/cute/atom/static_text.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/parser/diagnostic.h"
#include "hlolayout/util/check.h"

namespace hlolayout::cute {

TileMode TileMode::Integer(int64_t n) {
  HLOLAYOUT_CHECK(n > 0);
  TileMode m;
  m.kind_ = Kind::kInteger;
  // CuTe's make_layout(Int<n>): a size-1 mode gets stride 0.
  m.layout_ = *Layout::Compact(IntTuple::Static(n));
  return m;
}

TileMode TileMode::Of(Layout layout) {
  TileMode m;
  m.kind_ = Kind::kLayout;
  m.layout_ = std::move(layout);
  return m;
}

int64_t TileMode::integer() const {
  HLOLAYOUT_CHECK(kind_ == Kind::kInteger);
  return layout_.size();
}

const Layout& TileMode::layout() const {
  HLOLAYOUT_CHECK(kind_ != Kind::kUnderscore);
  return layout_;
}

int64_t TileMode::size() const {
  HLOLAYOUT_CHECK(kind_ != Kind::kUnderscore);
  return layout_.size();
}

namespace {

constexpr int kMaxModes = 8;

// Re-anchors an error of ParseLayout(text.substr(offset)) into `text`.
absl::Status Relocate(absl::string_view text, size_t offset,
                      absl::string_view element, const absl::Status& inner) {
  // The inner message is "1:C: message\n<line>\n<caret>".
  absl::string_view msg = inner.message();
  size_t colon1 = msg.find(':');
  size_t colon2 =
      colon1 == absl::string_view::npos ? colon1 : msg.find(':', colon1 + 1);
  int64_t column = 1;
  if (colon2 == absl::string_view::npos ||
      !absl::SimpleAtoi(msg.substr(colon1 + 1, colon2 - colon1 - 1), &column)) {
    return ParseError(text, offset, "bad tile mode");
  }
  absl::string_view rest = msg.substr(colon2 + 1);
  rest = rest.substr(0, rest.find('\n'));
  rest = absl::StripLeadingAsciiWhitespace(rest);
  size_t at = offset + static_cast<size_t>(column - 1);
  if (at > offset + element.size()) at = offset + element.size();
  return ParseError(text, at, rest);
}

bool IsIntegerText(absl::string_view s) {
  if (!s.empty() && s[0] == '_') s.remove_prefix(1);
  if (!s.empty() && s[0] == '-') s.remove_prefix(1);
  if (s.empty()) return false;
  for (char c : s) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

// The modes of the tile text[begin, end) (trimmed, text[begin] is '<' or
// '('): the [start, stop) of each part between top-level commas, checked
// for balance, the closing bracket at the end and at most kMaxModes.
absl::StatusOr<std::vector<std::pair<size_t, size_t>>> SplitModes(
    absl::string_view text, size_t begin, size_t end) {
  const char close = text[begin] == '<' ? '>' : ')';
  std::vector<std::pair<size_t, size_t>> parts;  // [start, stop)
  int depth = 0;
  size_t start = begin + 1;
  size_t i = begin + 1;
  for (; i < end; ++i) {
    const char c = text[i];
    if (c == '(') {
      ++depth;
    } else if (c == ')') {
      if (depth == 0) {
        if (close != ')') {
          return ParseError(text, i, "unbalanced ')' in the tile");
        }
        break;
      }
      --depth;
    } else if (c == '>' && depth == 0) {
      if (close != '>') return ParseError(text, i, "unexpected '>'");
      break;
    } else if (c == '<') {
      return ParseError(text, i, "a tile cannot nest '<'");
    } else if (c == ',' && depth == 0) {
      parts.emplace_back(start, i);
      start = i + 1;
    }
  }
  if (i >= end) {
    return ParseError(text, end,
                      absl::StrCat("expected '", std::string(1, close),
                                   "' to close the tile"));
  }
  if (i + 1 != end) {
    return ParseError(text, i + 1,
                      absl::StrCat("expected end of input, found ",
                                   DescribeToken(text.substr(i + 1, 1))));
  }
  parts.emplace_back(start, i);
  if (parts.size() > kMaxModes) {
    return ParseError(text, parts[kMaxModes].first,
                      absl::StrCat("a tile has at most ", kMaxModes, " modes"));
  }
  return parts;
}

// One mode, text[s, e) trimmed: '_', a positive integer or a layout
// shape:stride (made static, as CuTe requires of a permutation).
absl::StatusOr<TileMode> ParseMode(absl::string_view text, size_t s, size_t e) {
  while (s < e && absl::ascii_isspace(static_cast<unsigned char>(text[s]))) {
    ++s;
  }
  while (e > s &&
         absl::ascii_isspace(static_cast<unsigned char>(text[e - 1]))) {
    --e;
  }
  absl::string_view element = text.substr(s, e - s);
  if (element.empty()) {
    return ParseError(text, s,
                      "expected a tile mode ('_', an integer or a layout)");
  }
  if (element == "_") return TileMode();
  if (IsIntegerText(element)) {
    absl::string_view digits = element;
    if (digits[0] == '_') digits.remove_prefix(1);
    int64_t n = 0;
    if (!absl::SimpleAtoi(digits, &n)) {
      return ParseError(text, s, "integer out of range");
    }
    if (n <= 0) {
      return ParseError(text, s,
                        absl::StrCat("a tile mode must be positive, found ",
                                     DescribeToken(element)));
    }
    return TileMode::Integer(n);
  }
  if (element.find(':') == absl::string_view::npos) {
    return ParseError(text, s,
                      absl::StrCat("a tile mode is '_', an integer or a layout "
                                   "shape:stride, found ",
                                   DescribeToken(element)));
  }
  absl::StatusOr<Layout> layout = ParseLayout(element);
  if (!layout.ok()) return Relocate(text, s, element, layout.status());
  // Every integer of a permutation is static (CuTe requires it).
  return TileMode::Of(Layout::Make(WithTags(layout->shape(), true),
                                   WithTags(layout->stride(), true)));
}

}  // namespace

absl::StatusOr<Tile> ParseTile(absl::string_view text) {
  size_t begin = 0;
  while (begin < text.size() &&
         absl::ascii_isspace(static_cast<unsigned char>(text[begin]))) {
    ++begin;
  }
  size_t end = text.size();
  while (end > begin &&
         absl::ascii_isspace(static_cast<unsigned char>(text[end - 1]))) {
    --end;
  }
  if (begin == end) return ParseError(text, begin, "expected a tile");
  const char open = text[begin];
  if (open != '<' && open != '(') {
    return ParseError(text, begin,
                      absl::StrCat("expected '<' or '(' to open a tile, found ",
                                   DescribeToken(text.substr(begin, 1))));
  }
  absl::StatusOr<std::vector<std::pair<size_t, size_t>>> parts =
      SplitModes(text, begin, end);
  if (!parts.ok()) return parts.status();
  Tile tile;
  for (const auto& [s, e] : *parts) {
    absl::StatusOr<TileMode> mode = ParseMode(text, s, e);
    if (!mode.ok()) return mode.status();
    tile.push_back(*std::move(mode));
  }
  return tile;
}

std::string TileModeText(const TileMode& mode) {
  switch (mode.kind()) {
    case TileMode::Kind::kUnderscore:
      return "_";
    case TileMode::Kind::kInteger:
      return absl::StrCat("_", mode.integer());
    case TileMode::Kind::kLayout:
      return StaticText(mode.layout());
  }
  return "";
}

std::string TileText(const Tile& tile) {
  std::vector<std::string> parts;
  parts.reserve(tile.size());
  for (const TileMode& m : tile) parts.push_back(TileModeText(m));
  return absl::StrCat("(", absl::StrJoin(parts, ","), ")");
}

Tiler ToTiler(const Tile& tile) {
  std::vector<Tiler> elements;
  elements.reserve(tile.size());
  for (const TileMode& m : tile) {
    elements.push_back(m.is_underscore() ? Tiler::Underscore()
                                         : Tiler::Of(m.layout()));
  }
  return Tiler::Tuple(std::move(elements));
}

}  // namespace hlolayout::cute

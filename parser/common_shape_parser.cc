#include "hlolayout/parser/common_shape_parser.h"

#include <cstdint>
#include <utility>
#include <vector>

#include "absl/types/optional.h"
#include "hlolayout/layout/layout_validation.h"
#include "hlolayout/shape/primitive_type.h"

namespace hlolayout {
namespace {

bool IsDigitChar(char c) { return c >= '0' && c <= '9'; }
bool IsLetterChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
// The general lexer's identifier characters: a number followed by one of
// these is not an integer token.
bool IsIdentifierChar(char c) { return IsLetterChar(c) || IsDigitChar(c); }

// A cursor over the text. Every method returns false where the common form
// ends; the caller then gives up and the general parser takes over.
class CommonShapeParser {
 public:
  CommonShapeParser(absl::string_view text, size_t offset,
                    const ShapeParseOptions& options)
      : data_(text.data()),
        size_(text.size()),
        pos_(offset),
        options_(options) {}

  size_t pos() const { return pos_; }

  bool ParseShape(Shape* shape, int depth) {
    if (depth >= options_.max_depth || pos_ >= size_) return false;
    if (data_[pos_] == '(') return ParseTuple(shape, depth);
    return ParseArray(shape);
  }

 private:
  bool At(char c) const { return pos_ < size_ && data_[pos_] == c; }
  bool Take(char c) {
    if (!At(c)) return false;
    ++pos_;
    return true;
  }

  // At most 18 digits (the general lexer's fast integers), not followed by
  // an identifier character.
  bool ParseInteger(int64_t* value) {
    const size_t begin = pos_;
    const size_t limit = size_ - pos_ < 18 ? size_ : pos_ + 18;
    uint64_t v = 0;
    while (pos_ < limit && IsDigitChar(data_[pos_])) {
      v = v * 10 + static_cast<unsigned>(data_[pos_] - '0');
      ++pos_;
    }
    if (pos_ == begin || (pos_ < size_ && IsIdentifierChar(data_[pos_]))) {
      return false;
    }
    *value = static_cast<int64_t>(v);
    return true;
  }

  // `(` element {`,` element} `)`, elements separated by ", " or "," and
  // optionally `/*...*/` comments, as XLA prints tuples.
  bool ParseTuple(Shape* shape, int depth) {
    ++pos_;  // '('
    std::vector<Shape> elements;
    if (Take(')')) {
      *shape = Shape::MakeTuple({});
      return true;
    }
    elements.reserve(8);
    while (true) {
      elements.emplace_back();
      if (!ParseShape(&elements.back(), depth + 1)) return false;
      if (Take(')')) break;
      if (!Take(',')) return false;
      Take(' ');
      if (At('/')) {
        if (!SkipComment()) return false;
        Take(' ');
      }
    }
    // Room for 8 was reserved: most tuples are smaller, and a decoded shape
    // can live as long as a module does (272 bytes an unused element).
    elements.shrink_to_fit();
    *shape = Shape::MakeTuple(std::move(elements));
    return true;
  }

  // `/*...*/` at pos_.
  bool SkipComment() {
    if (pos_ + 1 >= size_ || data_[pos_ + 1] != '*') return false;
    for (size_t p = pos_ + 2; p + 1 < size_; ++p) {
      if (data_[p] == '*' && data_[p + 1] == '/') {
        pos_ = p + 2;
        return true;
      }
    }
    return false;
  }

  bool ParseArray(Shape* shape) {
    const size_t begin = pos_;
    if (!IsLetterChar(data_[pos_])) return false;
    while (pos_ < size_ && IsIdentifierChar(data_[pos_])) ++pos_;
    if (!At('[')) return false;
    const absl::optional<PrimitiveType> type =
        PrimitiveTypeFromName(absl::string_view(data_ + begin, pos_ - begin));
    if (!type.has_value() || !IsArrayType(*type)) return false;
    ++pos_;  // '['
    if (!Take(']')) {
      while (true) {
        int64_t size;
        if (!ParseInteger(&size)) return false;
        shape->add_dimension(size);
        if (Take(']')) break;
        if (!Take(',')) return false;
      }
    }
    shape->set_element_type(*type);
    // '{' starts a layout when an integer or ':' follows; other forms ('{}',
    // '{ 1}', '<...>') are left to the general parser.
    if (At('{')) {
      if (pos_ + 1 >= size_) return false;
      const char next = data_[pos_ + 1];
      if (!IsDigitChar(next) && next != ':') return false;
      ++pos_;
      if (!ParseLayoutBody(shape->mutable_layout())) return false;
      if (static_cast<int64_t>(shape->layout().minor_to_major().size()) !=
          shape->rank()) {
        return false;
      }
    } else if (At('<') || LayoutAfterTrivia()) {
      return false;
    } else if (options_.fill_missing_layouts) {
      Layout* layout = shape->mutable_layout();
      for (int64_t i = shape->rank() - 1; i >= 0; --i) {
        layout->add_minor_to_major(i);
      }
    }
    return !options_.validate || ValidateShape(*shape).ok();
  }

  // The general parser looks past whitespace and comments after ']' for a
  // layout (`f32[2] {0}` has one): true when one may follow.
  bool LayoutAfterTrivia() const {
    size_t p = pos_;
    while (p < size_ &&
           (data_[p] == ' ' || data_[p] == '\t' || data_[p] == '\n' ||
            data_[p] == '\r' || data_[p] == '\v' || data_[p] == '\f')) {
      ++p;
    }
    return p < size_ && (data_[p] == '{' || data_[p] == '<' || data_[p] == '/');
  }

  // After '{': minor_to_major, then ':' and the attributes T, L, E, S in
  // XLA's order, then '}'.
  bool ParseLayoutBody(Layout* layout) {
    if (!At(':')) {
      while (true) {
        int64_t dimension;
        if (!ParseInteger(&dimension)) return false;
        layout->add_minor_to_major(dimension);
        if (!Take(',')) break;
      }
    }
    if (Take(':')) {
      if (At('T') && !ParseTiles(layout)) return false;
      int64_t value;
      if (At('L')) {
        if (!ParseParenthesized(&value)) return false;
        layout->set_tail_padding_alignment_in_elements(value);
      }
      if (At('E')) {
        if (!ParseParenthesized(&value)) return false;
        layout->set_element_size_in_bits(value);
      }
      if (At('S')) {
        // `SC(...)` (split configs) is left to the general parser.
        if (pos_ + 1 < size_ && data_[pos_ + 1] == 'C') return false;
        if (!ParseParenthesized(&value)) return false;
        layout->set_memory_space(value);
      }
    }
    return Take('}');
  }

  // `T` then one or more `(` size {`,` size} `)`, sizes integers or '*'.
  bool ParseTiles(Layout* layout) {
    ++pos_;  // 'T'
    if (!At('(')) return false;
    while (Take('(')) {
      Tile tile;
      while (true) {
        if (Take('*')) {
          tile.add_dimension(Tile::kCombineDimension);
        } else {
          int64_t size;
          if (!ParseInteger(&size)) return false;
          tile.add_dimension(size);
        }
        if (Take(')')) break;
        if (!Take(',')) return false;
      }
      layout->add_tile(std::move(tile));
    }
    return true;
  }

  // A one-letter attribute and its `(integer)`.
  bool ParseParenthesized(int64_t* value) {
    ++pos_;  // the letter
    return Take('(') && ParseInteger(value) && Take(')');
  }

  const char* data_;
  size_t size_;
  size_t pos_;
  const ShapeParseOptions& options_;
};

}  // namespace

bool ParseCommonShapeAt(absl::string_view text, size_t* offset, Shape* shape,
                        const ShapeParseOptions& options) {
  CommonShapeParser parser(text, *offset, options);
  if (!parser.ParseShape(shape, 0)) return false;
  *offset = parser.pos();
  return true;
}

}  // namespace hlolayout

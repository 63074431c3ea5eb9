#include "hlolayout/ttmlir/ttmlir_parse.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "hlolayout/parser/diagnostic.h"
#include "hlolayout/ttmlir/alias_lexer.h"
#include "hlolayout/ttmlir/element_type.h"
#include "hlolayout/ttmlir/lexer.h"

namespace hlolayout::grid {
namespace {

constexpr absl::string_view kTtnnLayout = "#ttnn.ttnn_layout";
constexpr absl::string_view kTtcoreMetal = "#ttcore.metal_layout";
constexpr absl::string_view kTtMetal = "#tt.metal_layout";
// Dims, grid entries, intervals and core ranges per list.
constexpr size_t kMaxListLength = 4096;

// A linear expression of a layout map while it is read: a coefficient per
// dim plus a constant.
struct Linear {
  std::vector<int64_t> coefficients;
  int64_t constant = 0;

  bool IsConstant() const {
    for (int64_t c : coefficients) {
      if (c != 0) return false;
    }
    return true;
  }
};

// The parts of a 2024-form `#tt.metal_layout<...>` as read, before
// MetalLayout::Create checks them together.
struct SeedParts {
  AffineMap map;
  OobVal oob = OobVal::kUndef;
  std::vector<int64_t> grid;
  std::vector<int64_t> memref;
  absl::optional<TileType> tile;
  MemorySpace space = MemorySpace::kSystem;
  size_t memref_offset = 0;
};

// How a tensor type is read: every encoding (ParseGridTensor), or the 2024
// form alone with its own messages (ParseTensorType).
enum class ReadMode { kAny, kSeedOnly };

class Parser {
 public:
  Parser(absl::string_view text, size_t begin, size_t end,
         const AliasTable* aliases, ReadMode mode = ReadMode::kAny)
      : text_(text),
        stream_(text, begin, end, aliases),
        begin_(begin),
        end_(end),
        aliases_(aliases),
        mode_(mode) {}

  absl::StatusOr<GridTensorText> TensorType();
  // A layout map alone, up to the end of the text.
  absl::StatusOr<AffineMap> StandaloneMap();

 private:
  void Advance(LexMode mode = LexMode::kNormal) { tok_ = stream_.Next(mode); }
  absl::Status Error(size_t offset, absl::string_view message) const {
    return ParseError(text_, offset, message);
  }
  absl::Status Unexpected(absl::string_view expected) const {
    if (stream_.too_deep()) {
      return Error(tok_.offset, "aliases nest too deeply or expand past 1 MB");
    }
    if (tok_.kind == TokenKind::kError && tok_.text == "\"") {
      return Error(tok_.offset, "unterminated string");
    }
    return Error(tok_.offset, absl::StrCat("expected ", expected, ", found ",
                                           DescribeGridToken(tok_)));
  }
  absl::Status Expect(TokenKind kind, absl::string_view expected,
                      LexMode next_mode = LexMode::kNormal) {
    if (tok_.kind != kind) return Unexpected(expected);
    Advance(next_mode);
    return absl::OkStatus();
  }
  absl::Status ExpectWord(absl::string_view word,
                          LexMode next_mode = LexMode::kNormal,
                          TokenKind kind = TokenKind::kIdent) {
    if (tok_.kind != kind || tok_.text != word) {
      return Unexpected(absl::StrCat("'", word, "'"));
    }
    Advance(next_mode);
    return absl::OkStatus();
  }
  // An integer, optionally negative; the current token is its first.
  absl::StatusOr<int64_t> SignedInteger(LexMode next_mode);
  absl::StatusOr<int64_t> Integer(LexMode next_mode);

  // `2x3x4` up to the token after it (kShape mode inside); the current
  // token is the first dim. `allow_empty`: the list may be empty.
  absl::Status DimList(std::vector<int64_t>* dims, bool allow_empty);
  // `2x3xf32` in a tensor or memref: the dims (kShape mode), then the
  // element (a scalar type or a tile).
  absl::Status ShapeAndElement(std::vector<int64_t>* dims,
                               std::vector<size_t>* offsets,
                               MlirElement* element);
  absl::Status ShapeDims(std::vector<int64_t>* dims,
                         std::vector<size_t>* offsets);
  absl::Status Element(MlirElement* element);
  absl::StatusOr<TileType> Tile();
  absl::Status TtnnLayout(TtnnLayoutText* out);
  // TtnnLayout's parts: the map, kept as text and read when it can be; one
  // option after the memref (a memory layout, `core_ranges = ...` or
  // `ignorePhysicalLayout = ...`), the ',' before it consumed.
  absl::Status TtnnMap(TtnnLayoutText* out);
  absl::Status TtnnLayoutOption(TtnnLayoutText* out);
  absl::Status Memref(TtnnLayoutText* out);
  absl::Status CoreRangeSet(std::vector<tenstorrent::CoreRange>* out);
  absl::Status MetalLayoutHead(MetalLayoutText* out);
  absl::Status Dense(MetalLayoutText* out);
  // Dense's parts: the nested lists of intervals into `out->intervals`,
  // their shape (rows, row length) into `rows_shape`; the checks of the
  // intervals' type `out->intervals_type` (at `type_offset`).
  absl::Status IntervalRows(MetalLayoutText* out,
                            std::vector<int64_t>* rows_shape);
  absl::Status CheckIntervalsType(const MetalLayoutText& out,
                                  size_t type_offset);
  // Skips a balanced attribute value (`mesh = ...`) and returns its text.
  absl::StatusOr<std::string> SkipAttribute();

  // The layout map `(d0, d1) -> (d0 * 64 + d1)`: dims, then a sum of
  // products of factors (a dim, an integer, a parenthesized sum).
  absl::StatusOr<AffineMap> Map();
  absl::StatusOr<Linear> Sum(size_t num_dims);
  absl::StatusOr<Linear> Product(size_t num_dims);
  absl::StatusOr<Linear> Factor(size_t num_dims);

  // The 2024 form: the tensor's own checks (dims of size 1 or more, a
  // scalar element); the attribute after its '<' up to its '>'; its grid
  // `<3x2>`, memref and optional `, #tt.memory_space<...>`; the
  // MetalLayout of the parts, once the tensor type is closed.
  absl::Status CheckSeedTensor(const GridTensorText& tensor,
                               const std::vector<size_t>& dim_offsets,
                               size_t element_offset);
  absl::Status SeedLayout(const GridTensorText& tensor, SeedParts* out);
  absl::Status SeedGrid(std::vector<int64_t>* dims);
  absl::Status SeedMemref(const GridTensorText& tensor, SeedParts* out);
  absl::Status SeedMemorySpace(MemorySpace* space);
  absl::Status BuildSeed(SeedParts parts, GridTensorText* out);
  // TensorType's encodings after `tensor<SHAPExELEMENT, `: reads one into
  // `out` (its '<' to its '>'); `seed` receives a 2024 form's parts.
  absl::Status Encoding(GridTensorText* out, SeedParts* seed,
                        const std::vector<size_t>& dim_offsets,
                        size_t element_offset);

  // Parentheses in a map expression nest at most this deep.
  static constexpr int kMaxDepth = 64;

  absl::string_view text_;
  TokenStream stream_;
  size_t begin_;
  size_t end_;
  const AliasTable* aliases_;
  ReadMode mode_;
  Token tok_;
  int depth_ = 0;  // of parentheses in a map expression
  std::vector<absl::string_view> dim_names_;
};

absl::StatusOr<int64_t> Parser::Integer(LexMode next_mode) {
  if (tok_.kind != TokenKind::kInt) return Unexpected("an integer");
  if (tok_.overflow) {
    return Error(tok_.offset, absl::StrCat("integer ", DescribeGridToken(tok_),
                                           " is too large"));
  }
  const int64_t v = tok_.value;
  Advance(next_mode);
  return v;
}

absl::StatusOr<int64_t> Parser::SignedInteger(LexMode next_mode) {
  if (tok_.kind == TokenKind::kMinus) {
    Advance();
    absl::StatusOr<int64_t> v = Integer(next_mode);
    if (!v.ok()) return v;
    return -*v;
  }
  return Integer(next_mode);
}

absl::Status Parser::DimList(std::vector<int64_t>* dims, bool allow_empty) {
  if (tok_.kind != TokenKind::kInt) {
    if (allow_empty) return absl::OkStatus();
    return Unexpected("a dim");
  }
  for (;;) {
    if (dims->size() == kMaxListLength) {
      return Error(tok_.offset, "too many dims");
    }
    absl::StatusOr<int64_t> d = Integer(LexMode::kShape);
    if (!d.ok()) return d.status();
    dims->push_back(*d);
    if (tok_.kind != TokenKind::kX) return absl::OkStatus();
    Advance(LexMode::kShape);
    if (tok_.kind != TokenKind::kInt) return Unexpected("a dim after 'x'");
  }
}

absl::StatusOr<TileType> Parser::Tile() {
  const size_t tile_offset = tok_.offset;
  if (tok_.text != "!ttcore.tile" && tok_.text != "!tt.tile") {
    return Unexpected("a scalar type or '!ttcore.tile'");
  }
  Advance();
  absl::Status s = Expect(TokenKind::kLAngle, "'<'", LexMode::kShape);
  if (!s.ok()) return s;
  absl::StatusOr<int64_t> height = Integer(LexMode::kShape);
  if (!height.ok()) return height.status();
  s = Expect(TokenKind::kX, "'x' in the tile shape", LexMode::kShape);
  if (!s.ok()) return s;
  absl::StatusOr<int64_t> width = Integer(LexMode::kNormal);
  if (!width.ok()) return width.status();
  s = Expect(TokenKind::kComma, "',' after the tile shape");
  if (!s.ok()) return s;
  if (tok_.kind != TokenKind::kIdent) return Unexpected("a tile data type");
  absl::optional<TileDataType> dtype = TileDataTypeFromName(tok_.text);
  if (!dtype) {
    return Error(tok_.offset, absl::StrCat("unknown tile data type ",
                                           DescribeGridToken(tok_)));
  }
  Advance();
  s = Expect(TokenKind::kRAngle, "'>' after the tile data type");
  if (!s.ok()) return s;
  absl::StatusOr<TileType> tile = MakeTileType(*height, *width, *dtype);
  if (!tile.ok()) return Error(tile_offset, tile.status().message());
  return tile;
}

absl::Status Parser::ShapeDims(std::vector<int64_t>* dims,
                               std::vector<size_t>* offsets) {
  for (;;) {
    if (tok_.kind == TokenKind::kInt) {
      if (dims->size() == kMaxListLength) {
        return Error(tok_.offset, "too many dims");
      }
      if (offsets != nullptr) offsets->push_back(tok_.offset);
      absl::StatusOr<int64_t> d = Integer(LexMode::kShape);
      if (!d.ok()) return d.status();
      dims->push_back(*d);
      absl::Status s =
          Expect(TokenKind::kX, "'x' after a dim", LexMode::kShape);
      if (!s.ok()) return s;
      continue;
    }
    if (tok_.kind == TokenKind::kQuestion) {
      return Error(tok_.offset, "dynamic dims are not supported");
    }
    if (tok_.kind == TokenKind::kStar) {
      return Error(tok_.offset, "unranked types are not supported");
    }
    return absl::OkStatus();
  }
}

absl::Status Parser::Element(MlirElement* element) {
  if (tok_.kind == TokenKind::kBangIdent) {
    absl::StatusOr<TileType> tile = Tile();
    if (!tile.ok()) return tile.status();
    element->tile = *tile;
    absl::optional<PrimitiveType> p = TileDataTypeToPrimitiveType(tile->dtype);
    element->scalar = ScalarType{p.value_or(BF16), false};
    return absl::OkStatus();
  }
  if (tok_.kind != TokenKind::kIdent) {
    return Unexpected("a dim or an element type");
  }
  absl::optional<ScalarType> scalar = ScalarTypeFromName(tok_.text);
  if (!scalar) {
    return Error(tok_.offset, absl::StrCat("unknown element type ",
                                           DescribeGridToken(tok_)));
  }
  element->scalar = *scalar;
  Advance();
  return absl::OkStatus();
}

absl::Status Parser::ShapeAndElement(std::vector<int64_t>* dims,
                                     std::vector<size_t>* offsets,
                                     MlirElement* element) {
  absl::Status s = ShapeDims(dims, offsets);
  if (!s.ok()) return s;
  return Element(element);
}

absl::StatusOr<std::string> Parser::SkipAttribute() {
  const size_t start = tok_.offset;
  size_t end = start;
  int depth = 0;
  for (;;) {
    if (tok_.kind == TokenKind::kEof) return Unexpected("'>'");
    if (depth == 0 &&
        (tok_.kind == TokenKind::kComma || tok_.kind == TokenKind::kRAngle)) {
      break;
    }
    if (tok_.kind == TokenKind::kLAngle || tok_.kind == TokenKind::kLParen ||
        tok_.kind == TokenKind::kLSquare || tok_.kind == TokenKind::kLBrace) {
      ++depth;
    } else if (tok_.kind == TokenKind::kRAngle ||
               tok_.kind == TokenKind::kRParen ||
               tok_.kind == TokenKind::kRSquare ||
               tok_.kind == TokenKind::kRBrace) {
      --depth;
    }
    end = tok_.offset + tok_.text.size();
    Advance();
  }
  if (end == start) return Unexpected("an attribute");
  // Offsets may jump into alias definitions; keep the text of the range
  // only when it is one piece of the source.
  if (end > start) return CollapseWhitespace(text_.substr(start, end - start));
  return std::string("...");
}

absl::StatusOr<Linear> Parser::Factor(size_t num_dims) {
  Linear value;
  value.coefficients.assign(num_dims, 0);
  switch (tok_.kind) {
    case TokenKind::kInt: {
      absl::StatusOr<int64_t> n = Integer(LexMode::kNormal);
      if (!n.ok()) return n.status();
      value.constant = *n;
      return value;
    }
    case TokenKind::kIdent: {
      for (size_t d = 0; d < dim_names_.size(); ++d) {
        if (dim_names_[d] == tok_.text) {
          value.coefficients[d] = 1;
          Advance();
          return value;
        }
      }
      if (tok_.text == "floordiv" || tok_.text == "ceildiv" ||
          tok_.text == "mod") {
        return Error(tok_.offset,
                     absl::StrCat(DescribeGridToken(tok_),
                                  " is not supported in a layout map"));
      }
      return Error(tok_.offset,
                   absl::StrCat("unknown dim ", DescribeGridToken(tok_)));
    }
    case TokenKind::kLParen: {
      if (depth_ == kMaxDepth) {
        return Error(tok_.offset, "parentheses nested too deeply");
      }
      Advance();
      ++depth_;
      absl::StatusOr<Linear> inner = Sum(num_dims);
      --depth_;
      if (!inner.ok()) return inner.status();
      absl::Status s = Expect(TokenKind::kRParen, "')'");
      if (!s.ok()) return s;
      return inner;
    }
    case TokenKind::kMinus:
      return Error(tok_.offset,
                   "'-' is not supported: layout maps have nonnegative "
                   "coefficients");
    default:
      return Unexpected("a dim, an integer or '('");
  }
}

absl::StatusOr<Linear> Parser::Product(size_t num_dims) {
  absl::StatusOr<Linear> left = Factor(num_dims);
  if (!left.ok()) return left;
  while (tok_.kind == TokenKind::kStar ||
         (tok_.kind == TokenKind::kIdent &&
          (tok_.text == "floordiv" || tok_.text == "ceildiv" ||
           tok_.text == "mod"))) {
    if (tok_.kind == TokenKind::kIdent) {
      return Error(tok_.offset,
                   absl::StrCat(DescribeGridToken(tok_),
                                " is not supported in a layout map"));
    }
    const size_t star = tok_.offset;
    Advance();
    absl::StatusOr<Linear> right = Factor(num_dims);
    if (!right.ok()) return right;
    if (!left->IsConstant() && !right->IsConstant()) {
      return Error(star, "a product needs a constant factor");
    }
    Linear& variable = left->IsConstant() ? *right : *left;
    const int64_t factor =
        left->IsConstant() ? left->constant : right->constant;
    for (int64_t& c : variable.coefficients) {
      if (__builtin_mul_overflow(c, factor, &c)) {
        return Error(star, "coefficient overflows int64");
      }
    }
    if (__builtin_mul_overflow(variable.constant, factor, &variable.constant)) {
      return Error(star, "constant overflows int64");
    }
    Linear result = std::move(variable);
    *left = std::move(result);
  }
  return left;
}

absl::StatusOr<Linear> Parser::Sum(size_t num_dims) {
  absl::StatusOr<Linear> sum = Product(num_dims);
  if (!sum.ok()) return sum;
  for (;;) {
    if (tok_.kind == TokenKind::kMinus) {
      return Error(tok_.offset,
                   "'-' is not supported: layout maps have nonnegative "
                   "coefficients");
    }
    if (tok_.kind != TokenKind::kPlus) return sum;
    const size_t plus = tok_.offset;
    Advance();
    absl::StatusOr<Linear> term = Product(num_dims);
    if (!term.ok()) return term;
    for (size_t d = 0; d < num_dims; ++d) {
      if (__builtin_add_overflow(sum->coefficients[d], term->coefficients[d],
                                 &sum->coefficients[d])) {
        return Error(plus, "coefficient overflows int64");
      }
    }
    if (__builtin_add_overflow(sum->constant, term->constant, &sum->constant)) {
      return Error(plus, "constant overflows int64");
    }
  }
}

absl::StatusOr<AffineMap> Parser::Map() {
  absl::Status s = Expect(TokenKind::kLParen, "'(' to start the map");
  if (!s.ok()) return s;
  dim_names_.clear();
  if (tok_.kind != TokenKind::kRParen) {
    for (;;) {
      if (tok_.kind != TokenKind::kIdent) return Unexpected("a dim name");
      for (absl::string_view name : dim_names_) {
        if (name == tok_.text) {
          return Error(tok_.offset, absl::StrCat("duplicate dim name ",
                                                 DescribeGridToken(tok_)));
        }
      }
      dim_names_.push_back(tok_.text);
      Advance();
      if (tok_.kind == TokenKind::kRParen) break;
      s = Expect(TokenKind::kComma, "',' or ')'");
      if (!s.ok()) return s;
    }
  }
  Advance();  // ')'
  if (tok_.kind == TokenKind::kLSquare) {
    return Error(tok_.offset, "symbols are not supported in a layout map");
  }
  s = Expect(TokenKind::kArrow, "'->'");
  if (!s.ok()) return s;
  s = Expect(TokenKind::kLParen, "'(' to start the results");
  if (!s.ok()) return s;
  const size_t num_dims = dim_names_.size();
  std::vector<AffineResult> results;
  if (tok_.kind != TokenKind::kRParen) {
    for (;;) {
      absl::StatusOr<Linear> e = Sum(num_dims);
      if (!e.ok()) return e.status();
      AffineResult r;
      for (size_t d = 0; d < num_dims; ++d) {
        if (e->coefficients[d] != 0) {
          r.terms.push_back({static_cast<int64_t>(d), e->coefficients[d]});
        }
      }
      r.constant = e->constant;
      results.push_back(std::move(r));
      if (tok_.kind == TokenKind::kRParen) break;
      s = Expect(TokenKind::kComma, "'+', '*', ',' or ')'");
      if (!s.ok()) return s;
    }
  }
  Advance();  // ')'
  return AffineMap(static_cast<int64_t>(num_dims), std::move(results));
}

absl::StatusOr<AffineMap> Parser::StandaloneMap() {
  Advance();
  absl::StatusOr<AffineMap> map = Map();
  if (!map.ok()) return map;
  if (tok_.kind != TokenKind::kEof) {
    return Error(
        tok_.offset,
        absl::StrCat("unexpected ", DescribeGridToken(tok_), " after the map"));
  }
  return map;
}

absl::Status Parser::CoreRangeSet(std::vector<tenstorrent::CoreRange>* out) {
  if (tok_.kind == TokenKind::kHashIdent) {
    if (tok_.text != "#ttnn.core_range_set") {
      return Unexpected("a core range set");
    }
    Advance();
  }
  absl::Status s = Expect(TokenKind::kLAngle, "'<' before the core ranges");
  if (!s.ok()) return s;
  if (tok_.kind == TokenKind::kRAngle) {
    Advance();
    return absl::OkStatus();
  }
  s = Expect(TokenKind::kLSquare, "'[' or '>'");
  if (!s.ok()) return s;
  while (tok_.kind != TokenKind::kRSquare) {
    if (out->size() == kMaxListLength) {
      return Error(tok_.offset, "too many core ranges");
    }
    const size_t range_offset = tok_.offset;
    if (tok_.kind != TokenKind::kHashIdent || tok_.text != "#ttnn.core_range") {
      return Unexpected("'#ttnn.core_range'");
    }
    Advance();
    s = Expect(TokenKind::kLAngle, "'<'");
    if (!s.ok()) return s;
    int64_t v[4];
    for (int k = 0; k < 4; ++k) {
      if (k % 2 == 0) {
        s = Expect(TokenKind::kLParen, "'(' before a core coordinate");
        if (!s.ok()) return s;
      }
      absl::StatusOr<int64_t> n = Integer(LexMode::kNormal);
      if (!n.ok()) return n.status();
      v[k] = *n;
      s = Expect(k % 2 == 0 ? TokenKind::kComma : TokenKind::kRParen,
                 k % 2 == 0 ? "',' between x and y" : "')'");
      if (!s.ok()) return s;
      if (k == 1) {
        s = Expect(TokenKind::kComma, "',' between the two corners");
        if (!s.ok()) return s;
      }
    }
    s = Expect(TokenKind::kRAngle, "'>' after the core range");
    if (!s.ok()) return s;
    tenstorrent::CoreRange r{{v[0], v[1]}, {v[2], v[3]}};
    if (r.end.x < r.start.x || r.end.y < r.start.y) {
      return Error(
          range_offset,
          absl::StrCat("core range (", r.start.x, ",", r.start.y, ")-(",
                       r.end.x, ",", r.end.y, ") ends before it starts"));
    }
    if (r.end.x > 1 << 20 || r.end.y > 1 << 20) {
      return Error(range_offset, "core coordinate above 2^20");
    }
    out->push_back(r);
    if (tok_.kind == TokenKind::kComma) {
      Advance();
      continue;
    }
    if (tok_.kind != TokenKind::kRSquare) return Unexpected("',' or ']'");
  }
  Advance();
  return Expect(TokenKind::kRAngle, "'>' after the core ranges");
}

absl::Status Parser::Memref(TtnnLayoutText* out) {
  absl::Status s = ExpectWord("memref");
  if (!s.ok()) return s;
  s = Expect(TokenKind::kLAngle, "'<'", LexMode::kShape);
  if (!s.ok()) return s;
  std::vector<size_t> offsets;
  s = ShapeAndElement(&out->memref_shape, &offsets, &out->memref_element);
  if (!s.ok()) return s;
  s = Expect(TokenKind::kComma, "',' and a buffer type");
  if (!s.ok()) return s;
  if (tok_.kind != TokenKind::kHashIdent || tok_.text != "#ttnn.buffer_type") {
    return Unexpected("'#ttnn.buffer_type'");
  }
  Advance();
  s = Expect(TokenKind::kLAngle, "'<'");
  if (!s.ok()) return s;
  if (tok_.kind != TokenKind::kIdent) return Unexpected("a buffer type");
  absl::optional<tenstorrent::BufferType> buffer =
      BufferTypeFromMlirName(tok_.text);
  if (!buffer) {
    return Error(tok_.offset,
                 absl::StrCat("unknown buffer type ", DescribeGridToken(tok_),
                              " (dram, l1, system_memory, l1_small, trace)"));
  }
  out->buffer_type = *buffer;
  Advance();
  s = Expect(TokenKind::kRAngle, "'>'");
  if (!s.ok()) return s;
  return Expect(TokenKind::kRAngle, "'>' to close the memref");
}

absl::Status Parser::TtnnMap(TtnnLayoutText* out) {
  // The map: its text up to the ')' closing the results, read on its own.
  if (tok_.kind != TokenKind::kLParen)
    return Unexpected("'(' to start the map");
  const size_t map_offset = tok_.offset;
  size_t map_end = map_offset;
  int depth = 0;
  bool arrow = false;
  for (;;) {
    if (tok_.kind == TokenKind::kEof) return Unexpected("')'");
    if (tok_.kind == TokenKind::kLParen || tok_.kind == TokenKind::kLSquare) {
      ++depth;
    } else if (tok_.kind == TokenKind::kRParen ||
               tok_.kind == TokenKind::kRSquare) {
      --depth;
    } else if (tok_.kind == TokenKind::kArrow && depth == 0) {
      arrow = true;
    }
    map_end = tok_.offset + tok_.text.size();
    Advance();
    if (depth == 0 && arrow && tok_.kind != TokenKind::kArrow &&
        map_end > map_offset && text_[map_end - 1] == ')') {
      break;
    }
  }
  const absl::string_view map_text =
      map_end > map_offset ? text_.substr(map_offset, map_end - map_offset)
                           : absl::string_view();
  out->map_text = CollapseWhitespace(map_text);
  absl::StatusOr<AffineMap> map =
      Parser(map_text, 0, map_text.size(), nullptr).StandaloneMap();
  if (map.ok()) {
    out->map = *std::move(map);
  } else {
    // "1:12: floordiv is not supported ..." -> the message alone.
    absl::string_view m = map.status().message();
    const size_t colon = m.find(": ");
    const size_t nl = m.find('\n');
    out->map_note = std::string(
        m.substr(colon == absl::string_view::npos ? 0 : colon + 2,
                 nl == absl::string_view::npos ? absl::string_view::npos
                                               : nl - (colon + 2)));
  }
  return absl::OkStatus();
}

absl::Status Parser::TtnnLayoutOption(TtnnLayoutText* out) {
  absl::Status s;
  if (tok_.kind == TokenKind::kLAngle ||
      (tok_.kind == TokenKind::kHashIdent &&
       tok_.text == "#ttnn.tensor_memory_layout")) {
    if (out->mem_layout || out->core_ranges) {
      return Error(tok_.offset,
                   "the memory layout comes right after the memref");
    }
    if (tok_.kind == TokenKind::kHashIdent) Advance();
    s = Expect(TokenKind::kLAngle, "'<'");
    if (!s.ok()) return s;
    if (tok_.kind != TokenKind::kIdent) return Unexpected("a memory layout");
    absl::optional<tenstorrent::TensorMemoryLayout> ml =
        MemoryLayoutFromMlirName(tok_.text);
    if (!ml) {
      return Error(tok_.offset, absl::StrCat("unknown memory layout ",
                                             DescribeGridToken(tok_),
                                             " (interleaved, height_sharded, "
                                             "width_sharded, block_sharded)"));
    }
    out->mem_layout = *ml;
    Advance();
    return Expect(TokenKind::kRAngle, "'>'");
  }
  if (tok_.kind == TokenKind::kIdent && tok_.text == "core_ranges") {
    if (out->core_ranges) {
      return Error(tok_.offset, "core_ranges given twice");
    }
    Advance();
    s = Expect(TokenKind::kEqual, "'=' after 'core_ranges'");
    if (!s.ok()) return s;
    out->core_ranges.emplace();
    return CoreRangeSet(&*out->core_ranges);
  }
  if (tok_.kind == TokenKind::kIdent && tok_.text == "ignorePhysicalLayout") {
    Advance();
    s = Expect(TokenKind::kEqual, "'=' after 'ignorePhysicalLayout'");
    if (!s.ok()) return s;
    if (tok_.kind != TokenKind::kIdent ||
        (tok_.text != "true" && tok_.text != "false")) {
      return Unexpected("true or false");
    }
    out->ignore_physical_layout = tok_.text == "true";
    Advance();
    return absl::OkStatus();
  }
  return Unexpected("a memory layout, 'core_ranges' or 'ignorePhysicalLayout'");
}

absl::Status Parser::TtnnLayout(TtnnLayoutText* out) {
  absl::Status s = TtnnMap(out);
  if (!s.ok()) return s;
  s = Expect(TokenKind::kComma, "',' after the map");
  if (!s.ok()) return s;
  s = Expect(TokenKind::kLAngle, "'<' before the grid shape", LexMode::kShape);
  if (!s.ok()) return s;
  s = DimList(&out->grid, /*allow_empty=*/false);
  if (!s.ok()) return s;
  s = Expect(TokenKind::kRAngle, "'x' or '>' in the grid shape");
  if (!s.ok()) return s;
  s = Expect(TokenKind::kComma, "',' after the grid");
  if (!s.ok()) return s;
  if (tok_.kind == TokenKind::kIdent && tok_.text == "mesh") {
    Advance();
    s = Expect(TokenKind::kEqual, "'=' after 'mesh'");
    if (!s.ok()) return s;
    absl::StatusOr<std::string> mesh = SkipAttribute();
    if (!mesh.ok()) return mesh.status();
    out->mesh = *mesh;
    s = Expect(TokenKind::kComma, "',' after the mesh");
    if (!s.ok()) return s;
  }
  s = Memref(out);
  if (!s.ok()) return s;
  while (tok_.kind == TokenKind::kComma) {
    Advance();
    s = TtnnLayoutOption(out);
    if (!s.ok()) return s;
  }
  return Expect(TokenKind::kRAngle, "'>' to close the layout");
}

absl::Status Parser::IntervalRows(MetalLayoutText* out,
                                  std::vector<int64_t>* rows_shape) {
  Advance();
  int64_t rows = 0;
  int64_t row_length = -1;
  while (tok_.kind != TokenKind::kRSquare) {
    if (out->intervals.size() >= 2 * kMaxListLength) {
      return Error(tok_.offset, "too many intervals");
    }
    const size_t row_offset = tok_.offset;
    absl::Status s = Expect(TokenKind::kLSquare, "'[' to start an interval");
    if (!s.ok()) return s;
    int64_t n = 0;
    while (tok_.kind != TokenKind::kRSquare) {
      absl::StatusOr<int64_t> v = SignedInteger(LexMode::kNormal);
      if (!v.ok()) return v.status();
      out->intervals.push_back(*v);
      ++n;
      if (n > 2) {
        return Error(row_offset,
                     "collapsed_intervals must have pairs (second dim "
                     "size 2)");
      }
      if (tok_.kind == TokenKind::kComma) {
        Advance();
      } else if (tok_.kind != TokenKind::kRSquare) {
        return Unexpected("',' or ']'");
      }
    }
    Advance();
    if (row_length >= 0 && n != row_length) {
      return Error(row_offset, "intervals of different lengths");
    }
    row_length = n;
    ++rows;
    if (tok_.kind == TokenKind::kComma) {
      Advance();
    } else if (tok_.kind != TokenKind::kRSquare) {
      return Unexpected("',' or ']'");
    }
  }
  Advance();
  *rows_shape = {rows, row_length < 0 ? 0 : row_length};
  return absl::OkStatus();
}

absl::Status Parser::CheckIntervalsType(const MetalLayoutText& out,
                                        size_t type_offset) {
  const std::vector<int64_t>& t = out.intervals_type;
  if (t.size() != 2) {
    return Error(type_offset,
                 absl::StrCat("collapsed_intervals must be a 2D array, got "
                              "rank ",
                              t.size()));
  }
  if (t[1] != 2) {
    return Error(type_offset,
                 absl::StrCat("collapsed_intervals must have pairs (second "
                              "dim size 2), got ",
                              t[1]));
  }
  if (t[0] > static_cast<int64_t>(kMaxListLength)) {
    return Error(type_offset, "too many intervals");
  }
  return absl::OkStatus();
}

absl::Status Parser::Dense(MetalLayoutText* out) {
  const size_t dense_offset = tok_.offset;
  absl::Status s = ExpectWord("dense");
  if (!s.ok()) return s;
  s = Expect(TokenKind::kLAngle, "'<' after 'dense'");
  if (!s.ok()) return s;
  // Values: nothing, a splat integer, or nested lists of integers.
  bool splat = false;
  int64_t splat_value = 0;
  std::vector<int64_t> rows_shape;  // lengths seen at depth 1 and 2
  if (tok_.kind == TokenKind::kInt || tok_.kind == TokenKind::kMinus) {
    absl::StatusOr<int64_t> v = SignedInteger(LexMode::kNormal);
    if (!v.ok()) return v.status();
    splat = true;
    splat_value = *v;
  } else if (tok_.kind == TokenKind::kLSquare) {
    s = IntervalRows(out, &rows_shape);
    if (!s.ok()) return s;
  }
  s = Expect(TokenKind::kRAngle, "'>' to close the dense values");
  if (!s.ok()) return s;
  s = Expect(TokenKind::kColon, "':' and the intervals' type");
  if (!s.ok()) return s;
  s = ExpectWord("tensor");
  if (!s.ok()) return s;
  s = Expect(TokenKind::kLAngle, "'<'", LexMode::kShape);
  if (!s.ok()) return s;
  MlirElement element;
  const size_t type_offset = tok_.offset;
  s = ShapeAndElement(&out->intervals_type, nullptr, &element);
  if (!s.ok()) return s;
  if (element.tiled() || element.scalar != ScalarType{S64, true}) {
    return Error(type_offset, "collapsed_intervals must be a tensor of i64");
  }
  s = Expect(TokenKind::kRAngle, "'>' to close the intervals' type");
  if (!s.ok()) return s;
  s = CheckIntervalsType(*out, type_offset);
  if (!s.ok()) return s;
  const std::vector<int64_t>& t = out->intervals_type;
  if (splat) {
    out->intervals.assign(2 * t[0], splat_value);
  } else if (rows_shape.empty()) {
    if (t[0] != 0) {
      return Error(dense_offset,
                   absl::StrCat("dense<> holds no value but the type has ",
                                t[0], " intervals"));
    }
  } else if (rows_shape[0] != t[0] || rows_shape[1] != t[1]) {
    return Error(
        dense_offset,
        absl::StrCat("dense values have shape ", rows_shape[0], "x",
                     rows_shape[1], " but the type says ", t[0], "x", t[1]));
  }
  return absl::OkStatus();
}

absl::Status Parser::MetalLayoutHead(MetalLayoutText* out) {
  absl::Status s = ExpectWord("logical_shape");
  if (!s.ok()) return s;
  s = Expect(TokenKind::kEqual, "'='", LexMode::kShape);
  if (!s.ok()) return s;
  s = DimList(&out->logical_shape, /*allow_empty=*/true);
  if (!s.ok()) return s;
  s = Expect(TokenKind::kComma, "',' after the logical shape");
  if (!s.ok()) return s;
  s = ExpectWord("dim_alignments");
  if (!s.ok()) return s;
  s = Expect(TokenKind::kEqual, "'='", LexMode::kShape);
  if (!s.ok()) return s;
  s = DimList(&out->dim_alignments, /*allow_empty=*/true);
  if (!s.ok()) return s;
  s = Expect(TokenKind::kComma, "',' after the dim alignments");
  if (!s.ok()) return s;
  s = ExpectWord("collapsed_intervals");
  if (!s.ok()) return s;
  s = Expect(TokenKind::kEqual, "'='");
  if (!s.ok()) return s;
  s = Dense(out);
  if (!s.ok()) return s;
  s = Expect(TokenKind::kComma, "',' after the collapsed intervals");
  if (!s.ok()) return s;
  if (tok_.kind == TokenKind::kIdent) {
    absl::optional<OobVal> oob = OobValFromName(tok_.text);
    if (oob) {
      out->oob = *oob;
      Advance();
      s = Expect(TokenKind::kComma, "',' after the oob value");
      if (!s.ok()) return s;
    }
  }
  // The memory space: `l1` or `#ttcore.memory_space<l1>`.
  bool wrapped = false;
  if (tok_.kind == TokenKind::kHashIdent &&
      (tok_.text == "#ttcore.memory_space" ||
       tok_.text == "#tt.memory_space")) {
    Advance();
    s = Expect(TokenKind::kLAngle, "'<'");
    if (!s.ok()) return s;
    wrapped = true;
  }
  if (tok_.kind != TokenKind::kIdent) {
    return Unexpected("a memory space (system, mmio, dram, l1)");
  }
  if (tok_.text == "dst") {
    return Error(tok_.offset,
                 "memory space dst (the destination registers) holds no "
                 "tensor layout hlolayout models");
  }
  absl::optional<MemorySpace> space = MemorySpaceFromName(tok_.text);
  if (!space) return Unexpected("a memory space (system, mmio, dram, l1)");
  out->memory_space = *space;
  Advance();
  if (wrapped) {
    s = Expect(TokenKind::kRAngle, "'>'");
    if (!s.ok()) return s;
  }
  s = Expect(TokenKind::kComma, "',' after the memory space");
  if (!s.ok()) return s;
  if (tok_.kind != TokenKind::kIdent) {
    return Unexpected("a memory layout (interleaved, sharded)");
  }
  absl::optional<MetalMemoryLayout> ml = MetalMemoryLayoutFromName(tok_.text);
  if (!ml) return Unexpected("a memory layout (interleaved, sharded)");
  out->memory_layout = *ml;
  Advance();
  return Expect(TokenKind::kRAngle, "'>' to close the layout");
}

absl::Status Parser::Encoding(GridTensorText* out, SeedParts* seed,
                              const std::vector<size_t>& dim_offsets,
                              size_t element_offset) {
  const bool seed_only = mode_ == ReadMode::kSeedOnly;
  if (tok_.kind == TokenKind::kHashIdent && tok_.text == kTtnnLayout &&
      !seed_only) {
    Advance();
    absl::Status s = Expect(TokenKind::kLAngle, "'<'");
    if (!s.ok()) return s;
    out->kind = GridEncodingKind::kTtnnLayout;
    out->ttnn.emplace();
    return TtnnLayout(&*out->ttnn);
  }
  if (tok_.kind != TokenKind::kHashIdent ||
      (tok_.text != kTtcoreMetal && tok_.text != kTtMetal)) {
    if (seed_only) return Unexpected("'#tt.metal_layout'");
    if (tok_.kind == TokenKind::kHashIdent) {
      return Error(
          out->encoding_offset,
          absl::StrCat("unknown layout or alias ", DescribeGridToken(tok_),
                       " (expected #ttnn.ttnn_layout or "
                       "#ttcore.metal_layout)"));
    }
    return Unexpected("a layout (#ttnn.ttnn_layout, #ttcore.metal_layout)");
  }
  // tt-mlir renamed the dialect `tt` to `ttcore` in 2025; its test files
  // still hold the 2024 form under the new name.
  const std::string dialect(tok_.text == kTtMetal ? "tt" : "ttcore");
  Advance();
  absl::Status s = Expect(TokenKind::kLAngle, "'<'");
  if (!s.ok()) return s;
  if (!seed_only && tok_.kind == TokenKind::kIdent &&
      tok_.text == "logical_shape") {
    out->kind = GridEncodingKind::kMetalLayout;
    out->metal.emplace();
    return MetalLayoutHead(&*out->metal);
  }
  out->kind = GridEncodingKind::kSeedMetalLayout;
  out->seed_dialect = dialect;
  s = CheckSeedTensor(*out, dim_offsets, element_offset);
  if (!s.ok()) return s;
  return SeedLayout(*out, seed);
}

absl::StatusOr<GridTensorText> Parser::TensorType() {
  Advance();
  GridTensorText out;
  absl::Status s = ExpectWord("tensor");
  if (!s.ok()) return s;
  s = Expect(TokenKind::kLAngle, "'<'", LexMode::kShape);
  if (!s.ok()) return s;
  std::vector<size_t> offsets;
  s = ShapeDims(&out.shape, &offsets);
  if (!s.ok()) return s;
  const size_t element_offset = tok_.offset;
  s = Element(&out.element);
  if (!s.ok()) return s;
  const bool seed_only = mode_ == ReadMode::kSeedOnly;
  if (seed_only) {
    s = CheckSeedTensor(out, offsets, element_offset);
    if (!s.ok()) return s;
  }
  if (tok_.kind == TokenKind::kRAngle) {
    return Error(tok_.offset,
                 seed_only ? "expected ',' and a #tt.metal_layout encoding"
                           : "expected ',' and a layout (#ttnn.ttnn_layout, "
                             "#ttcore.metal_layout)");
  }
  s = Expect(TokenKind::kComma, "',' before the encoding");
  if (!s.ok()) return s;
  out.encoding_offset = tok_.offset;
  SeedParts seed;
  s = Encoding(&out, &seed, offsets, element_offset);
  if (!s.ok()) return s;
  s = Expect(TokenKind::kRAngle, "'>' to close the tensor type");
  if (!s.ok()) return s;
  if (tok_.kind != TokenKind::kEof) {
    return Error(tok_.offset,
                 absl::StrCat("unexpected ", DescribeGridToken(tok_),
                              " after the tensor type"));
  }
  if (out.kind == GridEncodingKind::kSeedMetalLayout) {
    s = BuildSeed(std::move(seed), &out);
    if (!s.ok()) return s;
  }
  absl::StatusOr<std::string> inlined =
      aliases_ == nullptr
          ? std::string(text_.substr(begin_, end_ - begin_))
          : InlineAliases(text_.substr(begin_, end_ - begin_), *aliases_);
  if (!inlined.ok()) return inlined.status();
  out.text = CollapseWhitespace(*inlined);
  return out;
}

absl::Status Parser::CheckSeedTensor(const GridTensorText& tensor,
                                     const std::vector<size_t>& dim_offsets,
                                     size_t element_offset) {
  for (size_t d = 0; d < tensor.shape.size(); ++d) {
    if (tensor.shape[d] < 1) {
      return Error(dim_offsets[d], absl::StrCat("tensor dim ", d, " has size ",
                                                tensor.shape[d]));
    }
  }
  if (tensor.element.tiled()) {
    return Error(element_offset,
                 "expected a scalar element type (the 2024 form tiles the "
                 "memref, not the tensor), found a tile");
  }
  return absl::OkStatus();
}

absl::Status Parser::SeedGrid(std::vector<int64_t>* dims) {
  absl::Status s =
      Expect(TokenKind::kLAngle, "'<' before the grid shape", LexMode::kShape);
  if (!s.ok()) return s;
  for (;;) {
    const size_t offset = tok_.offset;
    absl::StatusOr<int64_t> dim = Integer(LexMode::kShape);
    if (!dim.ok()) return dim.status();
    if (*dim < 1) {
      return Error(offset,
                   absl::StrCat("grid dim ", dims->size(), " is ", *dim));
    }
    dims->push_back(*dim);
    if (tok_.kind == TokenKind::kRAngle) {
      Advance();
      return absl::OkStatus();
    }
    s = Expect(TokenKind::kX, "'x' or '>' in the grid shape", LexMode::kShape);
    if (!s.ok()) return s;
  }
}

absl::Status Parser::SeedMemref(const GridTensorText& tensor, SeedParts* out) {
  absl::Status s = ExpectWord("memref");
  if (!s.ok()) return s;
  s = Expect(TokenKind::kLAngle, "'<'", LexMode::kShape);
  if (!s.ok()) return s;
  out->memref_offset = tok_.offset;
  s = ShapeDims(&out->memref, nullptr);
  if (!s.ok()) return s;
  if (tok_.kind != TokenKind::kIdent && tok_.kind != TokenKind::kBangIdent) {
    return Unexpected("a dim or an element type");
  }
  if (out->memref.size() != out->grid.size()) {
    return Error(out->memref_offset,
                 absl::StrCat("memref has rank ", out->memref.size(),
                              " but the grid has rank ", out->grid.size()));
  }
  const size_t element_offset = tok_.offset;
  MlirElement element;
  s = Element(&element);
  if (!s.ok()) return s;
  if (element.tiled()) {
    if (out->grid.size() < 2) {
      return Error(element_offset,
                   absl::StrCat("a tiled memref needs rank >= 2, the grid has "
                                "rank ",
                                out->grid.size()));
    }
    out->tile = element.tile;
  } else if (element.scalar != tensor.element.scalar) {
    return Error(
        element_offset,
        absl::StrCat("memref element type ", ScalarTypeName(element.scalar),
                     " does not match the tensor's ",
                     ScalarTypeName(tensor.element.scalar)));
  }
  return SeedMemorySpace(&out->space);
}

absl::Status Parser::SeedMemorySpace(MemorySpace* space) {
  if (tok_.kind != TokenKind::kComma) return absl::OkStatus();
  Advance();
  absl::Status s =
      ExpectWord(tok_.text == "#ttcore.memory_space" ? "#ttcore.memory_space"
                                                     : "#tt.memory_space",
                 LexMode::kNormal, TokenKind::kHashIdent);
  if (!s.ok()) return s;
  s = Expect(TokenKind::kLAngle, "'<'");
  if (!s.ok()) return s;
  absl::optional<MemorySpace> named = tok_.kind == TokenKind::kIdent
                                          ? MemorySpaceFromName(tok_.text)
                                          : absl::nullopt;
  if (!named) return Unexpected("a memory space (system, mmio, dram, l1)");
  *space = *named;
  Advance();
  return Expect(TokenKind::kRAngle, "'>'");
}

absl::Status Parser::SeedLayout(const GridTensorText& tensor, SeedParts* out) {
  const size_t map_offset = tok_.offset;
  absl::StatusOr<AffineMap> map = Map();
  if (!map.ok()) return map.status();
  absl::Status s = ValidateLayoutMap(*map, tensor.shape);
  if (!s.ok()) return Error(map_offset, s.message());
  out->map = *std::move(map);
  s = Expect(TokenKind::kComma, "',' after the map");
  if (!s.ok()) return s;
  if (tok_.kind != TokenKind::kIdent) return Unexpected("an oob_val");
  absl::optional<OobVal> oob = OobValFromName(tok_.text);
  if (!oob) return Unexpected("an oob_val (undef, zero, one, inf, neginf)");
  out->oob = *oob;
  Advance();
  s = Expect(TokenKind::kComma, "',' after the oob_val");
  if (!s.ok()) return s;
  const size_t grid_offset = tok_.offset;
  s = SeedGrid(&out->grid);
  if (!s.ok()) return s;
  if (static_cast<int64_t>(out->grid.size()) != out->map.num_results()) {
    return Error(grid_offset, absl::StrCat("map has ", out->map.num_results(),
                                           " results but the grid has rank ",
                                           out->grid.size()));
  }
  s = Expect(TokenKind::kComma, "',' after the grid");
  if (!s.ok()) return s;
  s = SeedMemref(tensor, out);
  if (!s.ok()) return s;
  s = Expect(TokenKind::kRAngle, "'>' to close the memref");
  if (!s.ok()) return s;
  return Expect(TokenKind::kRAngle, "'>' to close the layout");
}

absl::Status Parser::BuildSeed(SeedParts parts, GridTensorText* out) {
  absl::StatusOr<MetalLayout> layout =
      MetalLayout::Create(out->shape, out->element.scalar, std::move(parts.map),
                          parts.oob, parts.grid, parts.tile, parts.space);
  if (!layout.ok()) {
    return Error(out->encoding_offset, layout.status().message());
  }
  if (layout->memref_shape() != parts.memref) {
    return Error(parts.memref_offset,
                 absl::StrCat("memref shape ", DimsToString(parts.memref),
                              " does not match the computed shard shape ",
                              DimsToString(layout->memref_shape()),
                              parts.tile ? " (in tiles)" : ""));
  }
  out->seed = *std::move(layout);
  return absl::OkStatus();
}

bool IsSplitMarker(absl::string_view line) {
  // `// -----` (tt-mlir's --split-input-file separator).
  absl::string_view s = absl::StripLeadingAsciiWhitespace(line);
  if (!absl::ConsumePrefix(&s, "//")) return false;
  s = absl::StripLeadingAsciiWhitespace(s);
  return absl::StartsWith(s, "-----");
}

}  // namespace

bool MentionsGridLayout(absl::string_view text) {
  return absl::StrContains(text, "#ttnn.ttnn_layout<") ||
         absl::StrContains(text, "#ttcore.metal_layout<") ||
         absl::StrContains(text, "#tt.metal_layout<");
}

namespace {

// Skips blank lines, comment lines and alias definitions (read into
// `aliases`) at the start of `text`; returns where the rest starts.
absl::StatusOr<size_t> SkipPrologue(absl::string_view text,
                                    AliasTable* aliases) {
  size_t i = 0;
  for (;;) {
    while (i < text.size() &&
           absl::ascii_isspace(static_cast<unsigned char>(text[i]))) {
      ++i;
    }
    if (i >= text.size()) return i;
    if (text.substr(i, 2) == "//") {
      i = LineEnd(text, i);
      continue;
    }
    absl::StatusOr<size_t> next = AliasDefinition(text, i, aliases);
    if (!next.ok()) return next.status();
    if (*next == 0) return i;
    i = *next;
  }
}

}  // namespace

bool IsSingleTensorText(absl::string_view text) {
  AliasTable aliases;
  absl::StatusOr<size_t> i = SkipPrologue(text, &aliases);
  if (!i.ok()) return true;  // ParseGridTensor reports the error
  absl::string_view rest = text.substr(*i);
  return rest.empty() || absl::StartsWith(rest, "tensor");
}

absl::StatusOr<GridTensorText> ParseGridTensor(absl::string_view text) {
  AliasTable aliases;
  absl::StatusOr<size_t> i = SkipPrologue(text, &aliases);
  if (!i.ok()) return i.status();
  if (*i >= text.size()) {
    return ParseError(text, *i, "expected a tensor type, found end of input");
  }
  Parser parser(text, *i, text.size(), aliases.empty() ? nullptr : &aliases);
  return parser.TensorType();
}

absl::StatusOr<MetalLayout> ParseTensorType(absl::string_view text) {
  absl::StatusOr<GridTensorText> t =
      Parser(text, 0, text.size(), nullptr, ReadMode::kSeedOnly).TensorType();
  if (!t.ok()) return t.status();
  return *std::move(t->seed);
}

absl::StatusOr<AffineMap> ParseAffineMap(absl::string_view text) {
  return Parser(text, 0, text.size(), nullptr).StandaloneMap();
}

absl::StatusOr<MlirFileScan> ScanMlirFile(absl::string_view text) {
  MlirFileScan scan;
  AliasTable aliases;
  absl::flat_hash_map<std::string, size_t> index;  // whitespace-free key
  // Line numbers, counted forward as the scan goes.
  size_t counted_to = 0;
  int64_t line = 1;
  size_t line_begin = 0;
  auto line_of = [&](size_t offset) {
    for (; counted_to < offset; ++counted_to) {
      if (text[counted_to] == '\n') {
        ++line;
        line_begin = counted_to + 1;
      }
    }
    return line;
  };
  size_t i = 0;
  bool line_start = true;
  while (i < text.size()) {
    const size_t line_end = LineEnd(text, i);
    if (line_start) {
      size_t j = i;
      while (j < line_end && IsBlank(text[j])) ++j;
      if (text.substr(j, 2) == "//") {
        if (IsSplitMarker(text.substr(j, line_end - j))) {
          aliases.clear();
          ++scan.sections;
        }
        i = line_end + 1;
        continue;
      }
      absl::StatusOr<size_t> def = AliasDefinition(text, j, &aliases);
      if (!def.ok()) return def.status();
      if (*def != 0) {
        ++scan.aliases;
        i = *def + 1;
        continue;
      }
    }
    // The next tensor type on this line (it may run onto later lines).
    const size_t at = text.substr(0, line_end).find("tensor<", i);
    if (at == absl::string_view::npos) {
      i = line_end + 1;
      line_start = true;
      continue;
    }
    line_start = false;
    if (at > 0 && IsIdentChar(text[at - 1])) {
      i = at + 7;
      continue;
    }
    const size_t end = BalancedEnd(text, at + 6);
    const size_t stop = end == absl::string_view::npos ? line_end : end;
    const absl::string_view written = text.substr(at, stop - at);
    absl::StatusOr<std::string> inlined = InlineAliases(written, aliases);
    if (!inlined.ok()) return ParseError(text, at, inlined.status().message());
    if (MentionsGridLayout(*inlined)) {
      std::string key;
      for (char c : *inlined) {
        if (!absl::ascii_isspace(static_cast<unsigned char>(c))) {
          key.push_back(c);
        }
      }
      auto it = index.find(key);
      if (it != index.end()) {
        ++scan.types[it->second].uses;
      } else {
        index.emplace(std::move(key), scan.types.size());
        MlirFileType t;
        t.line = line_of(at);
        t.column = static_cast<int64_t>(at - line_begin + 1);
        t.uses = 1;
        t.written = CollapseWhitespace(written);
        t.text = CollapseWhitespace(*inlined);
        Parser parser(text, at, stop, &aliases);
        t.parsed = parser.TensorType();
        scan.types.push_back(std::move(t));
      }
    }
    if (end == absl::string_view::npos) {
      i = line_end + 1;
      line_start = true;
    } else {
      i = end;  // the rest of the line where the type ended
    }
  }
  return scan;
}

}  // namespace hlolayout::grid

#include "hlolayout/grid/parse.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/grid/element_type.h"
#include "hlolayout/grid/lexer.h"
#include "hlolayout/parser/diagnostic.h"

namespace hlolayout::grid {
namespace {

// A linear expression while parsing: coefficient per dim plus a constant.
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

class Parser {
 public:
  explicit Parser(absl::string_view text) : lexer_(text) {}

  absl::StatusOr<MetalLayout> TensorType();
  absl::StatusOr<AffineMap> StandaloneMap();

 private:
  void Advance(LexMode mode = LexMode::kNormal) { tok_ = lexer_.Next(mode); }
  absl::Status Error(size_t offset, absl::string_view message) const {
    return ParseError(lexer_.text(), offset, message);
  }
  absl::Status Unexpected(absl::string_view expected) const {
    return Error(tok_.offset, absl::StrCat("expected ", expected, ", found ",
                                           DescribeGridToken(tok_)));
  }
  // Consumes a token of `kind` (described as `expected` in the error) and
  // lexes the next one in `next_mode`.
  absl::Status Expect(TokenKind kind, absl::string_view expected,
                      LexMode next_mode = LexMode::kNormal) {
    if (tok_.kind != kind) return Unexpected(expected);
    Advance(next_mode);
    return absl::OkStatus();
  }
  absl::Status ExpectWord(absl::string_view word, TokenKind kind,
                          LexMode next_mode = LexMode::kNormal) {
    if (tok_.kind != kind || tok_.text != word) {
      return Unexpected(absl::StrCat("'", word, "'"));
    }
    Advance(next_mode);
    return absl::OkStatus();
  }
  absl::StatusOr<int64_t> Integer() {
    if (tok_.kind != TokenKind::kInt) return Unexpected("an integer");
    if (tok_.overflow) {
      return Error(
          tok_.offset,
          absl::StrCat("integer ", DescribeGridToken(tok_), " is too large"));
    }
    return tok_.value;
  }

  // `53x63x` in kShape mode, up to the element; the current token is the
  // first dim or the element.
  absl::Status ShapeDims(std::vector<int64_t>* dims,
                         std::vector<size_t>* offsets = nullptr);
  // `<3x2>`; the current token is '<'.
  absl::Status GridDims(std::vector<int64_t>* dims);
  absl::StatusOr<AffineMap> Map();
  absl::StatusOr<Linear> Sum(size_t num_dims);
  absl::StatusOr<Linear> Product(size_t num_dims);
  absl::StatusOr<Linear> Factor(size_t num_dims);
  absl::StatusOr<TileType> Tile();
  // TensorType's parts: `tensor<` dims and element type; the memref's
  // element (a tile or the tensor's scalar type); the optional
  // `, #tt.memory_space<...>`; the three closing '>' and the end.
  absl::Status TensorShapeAndElement(std::vector<int64_t>* shape,
                                     ScalarType* element);
  absl::Status MemrefElement(size_t grid_rank, ScalarType element,
                             absl::optional<TileType>* tile);
  absl::Status OptionalMemorySpace(MemorySpace* space);
  absl::Status CloseTensorType();

  // Parentheses in a map expression nest at most this deep.
  static constexpr int kMaxDepth = 64;

  Lexer lexer_;
  Token tok_;
  int depth_ = 0;
  std::vector<absl::string_view> dim_names_;
};

absl::Status Parser::ShapeDims(std::vector<int64_t>* dims,
                               std::vector<size_t>* offsets) {
  for (;;) {
    switch (tok_.kind) {
      case TokenKind::kInt: {
        absl::StatusOr<int64_t> dim = Integer();
        if (!dim.ok()) return dim.status();
        dims->push_back(*dim);
        if (offsets != nullptr) offsets->push_back(tok_.offset);
        Advance(LexMode::kShape);
        absl::Status x =
            Expect(TokenKind::kX, "'x' after a dim", LexMode::kShape);
        if (!x.ok()) return x;
        break;
      }
      case TokenKind::kQuestion:
        return Error(tok_.offset, "dynamic dims are not supported");
      case TokenKind::kStar:
        return Error(tok_.offset, "unranked types are not supported");
      case TokenKind::kIdent:
      case TokenKind::kBangIdent:
        return absl::OkStatus();
      default:
        return Unexpected("a dim or an element type");
    }
  }
}

absl::Status Parser::GridDims(std::vector<int64_t>* dims) {
  absl::Status s =
      Expect(TokenKind::kLAngle, "'<' before the grid shape", LexMode::kShape);
  if (!s.ok()) return s;
  for (;;) {
    absl::StatusOr<int64_t> dim = Integer();
    if (!dim.ok()) return dim.status();
    if (*dim < 1) {
      return Error(tok_.offset,
                   absl::StrCat("grid dim ", dims->size(), " is ", *dim));
    }
    dims->push_back(*dim);
    Advance(LexMode::kShape);
    if (tok_.kind == TokenKind::kRAngle) {
      Advance();
      return absl::OkStatus();
    }
    s = Expect(TokenKind::kX, "'x' or '>' in the grid shape", LexMode::kShape);
    if (!s.ok()) return s;
  }
}

absl::StatusOr<Linear> Parser::Factor(size_t num_dims) {
  Linear value;
  value.coefficients.assign(num_dims, 0);
  switch (tok_.kind) {
    case TokenKind::kInt: {
      absl::StatusOr<int64_t> n = Integer();
      if (!n.ok()) return n.status();
      value.constant = *n;
      Advance();
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

absl::StatusOr<TileType> Parser::Tile() {
  const size_t tile_offset = tok_.offset;
  if (tok_.text != "!tt.tile" && tok_.text != "!ttcore.tile") {
    return Unexpected("a scalar type or '!tt.tile'");
  }
  Advance();
  absl::Status s = Expect(TokenKind::kLAngle, "'<'", LexMode::kShape);
  if (!s.ok()) return s;
  absl::StatusOr<int64_t> height = Integer();
  if (!height.ok()) return height.status();
  Advance(LexMode::kShape);
  s = Expect(TokenKind::kX, "'x' in the tile shape", LexMode::kShape);
  if (!s.ok()) return s;
  absl::StatusOr<int64_t> width = Integer();
  if (!width.ok()) return width.status();
  Advance();
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

absl::Status Parser::TensorShapeAndElement(std::vector<int64_t>* shape,
                                           ScalarType* element) {
  absl::Status s = ExpectWord("tensor", TokenKind::kIdent);
  if (!s.ok()) return s;
  s = Expect(TokenKind::kLAngle, "'<'", LexMode::kShape);
  if (!s.ok()) return s;
  std::vector<size_t> shape_offsets;
  s = ShapeDims(shape, &shape_offsets);
  if (!s.ok()) return s;
  for (size_t d = 0; d < shape->size(); ++d) {
    if ((*shape)[d] < 1) {
      return Error(shape_offsets[d],
                   absl::StrCat("tensor dim ", d, " has size ", (*shape)[d]));
    }
  }
  if (tok_.kind != TokenKind::kIdent) return Unexpected("an element type");
  absl::optional<ScalarType> named = ScalarTypeFromName(tok_.text);
  if (!named) {
    return Error(tok_.offset, absl::StrCat("unknown element type ",
                                           DescribeGridToken(tok_)));
  }
  *element = *named;
  Advance();
  return absl::OkStatus();
}

absl::Status Parser::MemrefElement(size_t grid_rank, ScalarType element,
                                   absl::optional<TileType>* tile) {
  if (tok_.kind == TokenKind::kBangIdent) {
    const size_t tile_offset = tok_.offset;
    absl::StatusOr<TileType> t = Tile();
    if (!t.ok()) return t.status();
    if (grid_rank < 2) {
      return Error(tile_offset, absl::StrCat("a tiled memref needs rank >= 2, "
                                             "the grid has rank ",
                                             grid_rank));
    }
    *tile = *t;
    return absl::OkStatus();
  }
  absl::optional<ScalarType> memref_element = ScalarTypeFromName(tok_.text);
  if (!memref_element) {
    return Error(tok_.offset, absl::StrCat("unknown element type ",
                                           DescribeGridToken(tok_)));
  }
  if (*memref_element != element) {
    return Error(
        tok_.offset,
        absl::StrCat("memref element type ", ScalarTypeName(*memref_element),
                     " does not match the tensor's ", ScalarTypeName(element)));
  }
  Advance();
  return absl::OkStatus();
}

absl::Status Parser::OptionalMemorySpace(MemorySpace* space) {
  if (tok_.kind != TokenKind::kComma) return absl::OkStatus();
  Advance();
  absl::Status s =
      tok_.text == "#ttcore.memory_space"
          ? ExpectWord("#ttcore.memory_space", TokenKind::kHashIdent)
          : ExpectWord("#tt.memory_space", TokenKind::kHashIdent);
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

absl::Status Parser::CloseTensorType() {
  absl::Status s = Expect(TokenKind::kRAngle, "'>' to close the memref");
  if (!s.ok()) return s;
  s = Expect(TokenKind::kRAngle, "'>' to close the layout");
  if (!s.ok()) return s;
  s = Expect(TokenKind::kRAngle, "'>' to close the tensor type");
  if (!s.ok()) return s;
  if (tok_.kind != TokenKind::kEof) {
    return Error(tok_.offset,
                 absl::StrCat("unexpected ", DescribeGridToken(tok_),
                              " after the tensor type"));
  }
  return absl::OkStatus();
}

absl::StatusOr<MetalLayout> Parser::TensorType() {
  Advance();
  std::vector<int64_t> shape;
  ScalarType element;
  absl::Status s = TensorShapeAndElement(&shape, &element);
  if (!s.ok()) return s;
  if (tok_.kind == TokenKind::kRAngle) {
    return Error(tok_.offset, "expected ',' and a #tt.metal_layout encoding");
  }
  s = Expect(TokenKind::kComma, "',' before the encoding");
  if (!s.ok()) return s;
  const size_t encoding_offset = tok_.offset;
  // tt-mlir renamed the dialect `tt` to `ttcore` in 2025; its test files
  // still hold the seed form under the new name.
  s = tok_.text == "#ttcore.metal_layout"
          ? ExpectWord("#ttcore.metal_layout", TokenKind::kHashIdent)
          : ExpectWord("#tt.metal_layout", TokenKind::kHashIdent);
  if (!s.ok()) return s;
  s = Expect(TokenKind::kLAngle, "'<'");
  if (!s.ok()) return s;

  const size_t map_offset = tok_.offset;
  absl::StatusOr<AffineMap> map = Map();
  if (!map.ok()) return map.status();
  s = ValidateLayoutMap(*map, shape);
  if (!s.ok()) return Error(map_offset, s.message());
  s = Expect(TokenKind::kComma, "',' after the map");
  if (!s.ok()) return s;

  if (tok_.kind != TokenKind::kIdent) return Unexpected("an oob_val");
  absl::optional<OobVal> oob = OobValFromName(tok_.text);
  if (!oob) {
    return Unexpected("an oob_val (undef, zero, one, inf, neginf)");
  }
  Advance();
  s = Expect(TokenKind::kComma, "',' after the oob_val");
  if (!s.ok()) return s;

  const size_t grid_offset = tok_.offset;
  std::vector<int64_t> grid;
  s = GridDims(&grid);
  if (!s.ok()) return s;
  if (static_cast<int64_t>(grid.size()) != map->num_results()) {
    return Error(grid_offset,
                 absl::StrCat("map has ", map->num_results(),
                              " results but the grid has rank ", grid.size()));
  }
  s = Expect(TokenKind::kComma, "',' after the grid");
  if (!s.ok()) return s;

  s = ExpectWord("memref", TokenKind::kIdent);
  if (!s.ok()) return s;
  s = Expect(TokenKind::kLAngle, "'<'", LexMode::kShape);
  if (!s.ok()) return s;
  const size_t memref_offset = tok_.offset;
  std::vector<int64_t> memref;
  s = ShapeDims(&memref);
  if (!s.ok()) return s;
  if (memref.size() != grid.size()) {
    return Error(memref_offset,
                 absl::StrCat("memref has rank ", memref.size(),
                              " but the grid has rank ", grid.size()));
  }
  absl::optional<TileType> tile;
  s = MemrefElement(grid.size(), element, &tile);
  if (!s.ok()) return s;
  MemorySpace space = MemorySpace::kSystem;
  s = OptionalMemorySpace(&space);
  if (!s.ok()) return s;
  s = CloseTensorType();
  if (!s.ok()) return s;

  absl::StatusOr<MetalLayout> layout = MetalLayout::Create(
      shape, element, *std::move(map), *oob, grid, tile, space);
  if (!layout.ok()) return Error(encoding_offset, layout.status().message());
  if (layout->memref_shape() != memref) {
    return Error(memref_offset,
                 absl::StrCat("memref shape ", DimsToString(memref),
                              " does not match the computed shard shape ",
                              DimsToString(layout->memref_shape()),
                              tile ? " (in tiles)" : ""));
  }
  return layout;
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

}  // namespace

absl::StatusOr<MetalLayout> ParseTensorType(absl::string_view text) {
  return Parser(text).TensorType();
}

absl::StatusOr<AffineMap> ParseAffineMap(absl::string_view text) {
  return Parser(text).StandaloneMap();
}

}  // namespace hlolayout::grid

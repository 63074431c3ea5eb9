#include "parser/shape_parser.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "layout/layout_validation.h"
#include "parser/diagnostic.h"
#include "parser/lexer.h"

namespace hlolayout {
namespace {

// Layout attributes in the order XLA prints and accepts them.
enum Attribute : int {
  kDimLevels,
  kTiles,
  kTailPadding,
  kIndexType,
  kPointerType,
  kElementSize,
  kMemorySpace,
  kSplitConfigs,
  kPhysicalShape,
  kMetadataPrefix,
};

constexpr const char* kAttributeText[] = {"D", "T", "L",  "#", "*",
                                          "E", "S", "SC", "P", "M"};

class ShapeParser {
 public:
  ShapeParser(absl::string_view text, size_t offset,
              const ShapeParseOptions& options)
      : lexer_(text, offset), options_(options) {}

  absl::Status ParseShape(Shape* shape, int depth);
  absl::Status ParseLayout(Layout* layout, int depth);
  size_t offset() const { return lexer_.offset(); }
  const Token& Peek() const { return lexer_.Peek(); }

  // An error at `token`: its own message for error tokens.
  absl::Status ErrorAt(const Token& token, absl::string_view message) {
    if (token.kind == TokenKind::kError) {
      return ParseError(lexer_.text(), token.offset, token.error,
                        options_.file_name);
    }
    return ParseError(lexer_.text(), token.offset, message, options_.file_name);
  }
  absl::Status Expected(const Token& token, absl::string_view what) {
    return ErrorAt(
        token, absl::StrCat("expected ", what, ", found ", Describe(token)));
  }

 private:
  static std::string Describe(const Token& token) {
    if (token.kind == TokenKind::kEnd) return "end of input";
    return DescribeToken(token.text);
  }

  absl::Status Expect(TokenKind kind, absl::string_view what, Token* out) {
    *out = lexer_.Next();
    if (out->kind != kind) return Expected(*out, what);
    return absl::OkStatus();
  }
  absl::Status ExpectInteger(absl::string_view what, int64_t* value) {
    Token token;
    absl::Status status = Expect(TokenKind::kInteger, what, &token);
    *value = token.value;
    return status;
  }
  absl::Status ParseArray(const Token& type_token, PrimitiveType type,
                          Shape* shape, int depth);
  absl::Status ParseAttributes(Layout* layout, int depth);
  absl::Status ParseDimLevels(Layout* layout);
  absl::Status ParseTiles(Layout* layout);
  absl::Status ParseParenthesizedInt(absl::string_view attribute,
                                     int64_t* value);
  absl::Status ParseParenthesizedType(absl::string_view attribute,
                                      PrimitiveType* type);
  absl::Status ParseSplitConfigs(Layout* layout);

  Lexer lexer_;
  const ShapeParseOptions& options_;
};

absl::Status ShapeParser::ParseShape(Shape* shape, int depth) {
  const Token token = lexer_.Next();
  if (depth >= options_.max_depth) {
    return ErrorAt(token, absl::StrCat("shape nested deeper than ",
                                       options_.max_depth, " levels"));
  }
  if (token.kind == TokenKind::kLeftParen) {
    std::vector<Shape> elements;
    elements.reserve(8);
    if (lexer_.Peek().kind == TokenKind::kRightParen) {
      lexer_.Next();
      *shape = Shape::MakeTuple({});
      return absl::OkStatus();
    }
    while (true) {
      elements.emplace_back();
      absl::Status status = ParseShape(&elements.back(), depth + 1);
      if (!status.ok()) return status;
      const Token next = lexer_.Next();
      if (next.kind == TokenKind::kRightParen) break;
      if (next.kind != TokenKind::kComma) {
        return Expected(next, "',' or ')' in tuple");
      }
    }
    *shape = Shape::MakeTuple(std::move(elements));
    return absl::OkStatus();
  }
  if (token.kind != TokenKind::kIdentifier) {
    return Expected(token, "a shape");
  }
  if (token.text == "b" && lexer_.Peek().kind == TokenKind::kLeftParen) {
    lexer_.Next();
    const Token inner_start = lexer_.Peek();
    Shape inner;
    absl::Status status = ParseShape(&inner, depth + 1);
    if (!status.ok()) return status;
    if (!inner.IsArray()) {
      return ErrorAt(inner_start, "a buffer b(...) must hold an array shape");
    }
    Token close;
    status = Expect(TokenKind::kRightParen, "')' after buffer shape", &close);
    if (!status.ok()) return status;
    *shape = Shape::MakeBuffer(std::move(inner));
    return absl::OkStatus();
  }
  const absl::optional<PrimitiveType> type = PrimitiveTypeFromName(token.text);
  if (!type.has_value()) {
    return ErrorAt(token,
                   absl::StrCat("unknown element type ", Describe(token)));
  }
  return ParseArray(token, *type, shape, depth);
}

absl::Status ShapeParser::ParseArray(const Token& type_token,
                                     PrimitiveType type, Shape* shape,
                                     int depth) {
  Token token;
  absl::Status status =
      Expect(TokenKind::kLeftBracket, "'[' after element type", &token);
  if (!status.ok()) return status;
  // Dimensions go straight into the result; token[] and opaque[] are
  // rebuilt below.
  *shape = Shape::MakeArray(IsArrayType(type) ? type : PRED, {});
  if (lexer_.Peek().kind == TokenKind::kRightBracket) {
    lexer_.Next();
  } else {
    while (true) {
      token = lexer_.Next();
      if (token.kind == TokenKind::kQuestion) {
        shape->add_dimension(Shape::kUnboundedSize, /*dynamic=*/true);
      } else {
        const bool bounded = token.kind == TokenKind::kLessEqual;
        if (bounded) token = lexer_.Next();
        if (token.kind != TokenKind::kInteger) {
          return Expected(token, bounded ? "a bound after '<='"
                                         : "a dimension size, '<=' or '?'");
        }
        if (token.value < 0) {
          return ErrorAt(token, absl::StrCat("dimension size must not be "
                                             "negative, found ",
                                             token.value));
        }
        shape->add_dimension(token.value, bounded);
      }
      token = lexer_.Next();
      if (token.kind == TokenKind::kRightBracket) break;
      if (token.kind != TokenKind::kComma) {
        return Expected(token, "',' or ']' in dimensions");
      }
    }
  }
  if (!IsArrayType(type)) {  // token[] and opaque[]
    if (shape->rank() != 0) {
      return ErrorAt(type_token, absl::StrCat(PrimitiveTypeName(type),
                                              " shapes have no dimensions"));
    }
    *shape = type == TOKEN ? Shape::MakeToken() : Shape::MakeOpaque();
    return absl::OkStatus();
  }
  // As in XLA, '{' starts a layout only when an integer or ':' follows, so
  // `f32[]{}` leaves "{}" unparsed. '<' is the angle-bracket layout form.
  const Token open = lexer_.Peek();
  bool has_layout = false;
  if (open.kind == TokenKind::kLeftBrace || open.kind == TokenKind::kLess) {
    const TokenKind after = lexer_.PeekSecond().kind;
    has_layout = after == TokenKind::kInteger || after == TokenKind::kColon ||
                 open.kind == TokenKind::kLess;
  }
  if (has_layout) {
    Layout& layout = *shape->mutable_layout();
    status = ParseLayout(&layout, depth);
    if (!status.ok()) return status;
    // XLA's parser makes this check itself.
    if (layout.has_physical_shape()) {
      bool sparse = false;
      for (const DimLevel& level : layout.dim_levels()) {
        sparse |= level.type != DIM_DENSE;
      }
      if (!sparse) {
        return ErrorAt(open, "P(...) is only allowed on sparse arrays");
      }
    }
    if (static_cast<int64_t>(layout.minor_to_major().size()) != shape->rank()) {
      return ErrorAt(
          open, absl::StrCat("layout has ", layout.minor_to_major().size(),
                             " dimension",
                             layout.minor_to_major().size() == 1 ? "" : "s",
                             " but the shape has rank ", shape->rank()));
    }
  } else if (options_.fill_missing_layouts) {
    Layout& layout = *shape->mutable_layout();
    for (int64_t i = shape->rank() - 1; i >= 0; --i) {
      layout.add_minor_to_major(i);
    }
  }
  if (options_.validate) {
    status = ValidateShape(*shape);
    if (!status.ok()) {
      return ParseError(lexer_.text(),
                        has_layout ? open.offset : type_token.offset,
                        status.message(), options_.file_name);
    }
  }
  return absl::OkStatus();
}

absl::Status ShapeParser::ParseLayout(Layout* layout, int depth) {
  const Token open = lexer_.Next();
  TokenKind close_kind;
  if (open.kind == TokenKind::kLeftBrace) {
    close_kind = TokenKind::kRightBrace;
  } else if (open.kind == TokenKind::kLess) {
    close_kind = TokenKind::kGreater;
  } else {
    return Expected(open, "'{' or '<' to start a layout");
  }
  const absl::string_view close_text =
      close_kind == TokenKind::kRightBrace ? "'}'" : "'>'";
  Token token = lexer_.Next();
  if (token.kind == TokenKind::kInteger) {
    while (true) {
      layout->add_minor_to_major(token.value);
      token = lexer_.Next();
      if (token.kind != TokenKind::kComma) break;
      token = lexer_.Next();
      if (token.kind != TokenKind::kInteger) {
        return Expected(token, "a dimension number in minor_to_major");
      }
    }
  }
  if (token.kind == TokenKind::kColon) {
    absl::Status status = ParseAttributes(layout, depth);
    if (!status.ok()) return status;
    token = lexer_.Next();
  }
  if (token.kind != close_kind) {
    return Expected(
        token, layout->minor_to_major().empty() && layout->tiles().empty()
                   ? absl::StrCat("a dimension number, ':' or ", close_text)
                   : absl::StrCat("',', ':' or ", close_text, " in layout"));
  }
  return absl::OkStatus();
}

absl::Status ShapeParser::ParseAttributes(Layout* layout, int depth) {
  int last = -1;
  while (true) {
    const Token token = lexer_.Peek();
    int attribute;
    if (token.kind == TokenKind::kHash) {
      attribute = kIndexType;
    } else if (token.kind == TokenKind::kStar) {
      attribute = kPointerType;
    } else if (token.kind == TokenKind::kIdentifier) {
      attribute = -1;
      for (int a = 0; a <= kMetadataPrefix; ++a) {
        if (token.text == kAttributeText[a]) attribute = a;
      }
      if (attribute < 0) {
        return ErrorAt(token, absl::StrCat("unknown layout attribute ",
                                           DescribeToken(token.text)));
      }
    } else {
      return absl::OkStatus();
    }
    if (attribute <= last) {
      return ErrorAt(
          token,
          attribute == last
              ? absl::StrCat("layout attribute '", kAttributeText[attribute],
                             "' given twice")
              : absl::StrCat("layout attribute '", kAttributeText[attribute],
                             "' must come before '", kAttributeText[last],
                             "' (order: D T L # * E S SC P M)"));
    }
    last = attribute;
    lexer_.Next();
    absl::Status status;
    switch (attribute) {
      case kDimLevels:
        status = ParseDimLevels(layout);
        break;
      case kTiles:
        status = ParseTiles(layout);
        break;
      case kTailPadding: {
        int64_t value;
        status = ParseParenthesizedInt("L", &value);
        layout->set_tail_padding_alignment_in_elements(value);
        break;
      }
      case kIndexType: {
        PrimitiveType type;
        status = ParseParenthesizedType("#", &type);
        layout->set_index_primitive_type(type);
        break;
      }
      case kPointerType: {
        PrimitiveType type;
        status = ParseParenthesizedType("*", &type);
        layout->set_pointer_primitive_type(type);
        break;
      }
      case kElementSize: {
        int64_t value;
        status = ParseParenthesizedInt("E", &value);
        layout->set_element_size_in_bits(value);
        break;
      }
      case kMemorySpace: {
        int64_t value;
        status = ParseParenthesizedInt("S", &value);
        layout->set_memory_space(value);
        break;
      }
      case kSplitConfigs:
        status = ParseSplitConfigs(layout);
        break;
      case kPhysicalShape: {
        Token paren;
        status = Expect(TokenKind::kLeftParen, "'(' after P", &paren);
        if (!status.ok()) return status;
        Shape physical;
        status = ParseShape(&physical, depth + 1);
        if (!status.ok()) return status;
        status = Expect(TokenKind::kRightParen, "')' after P(shape", &paren);
        layout->set_physical_shape(physical);
        break;
      }
      case kMetadataPrefix: {
        int64_t value;
        status = ParseParenthesizedInt("M", &value);
        layout->set_dynamic_shape_metadata_prefix_bytes(value);
        break;
      }
    }
    if (!status.ok()) return status;
  }
}

absl::Status ShapeParser::ParseDimLevels(Layout* layout) {
  Token token;
  absl::Status status = Expect(TokenKind::kLeftParen, "'(' after D", &token);
  if (!status.ok()) return status;
  while (true) {
    token = lexer_.Next();
    DimLevel level;
    // Letters may run together with nothing between them ("D(D,C)").
    if (token.kind != TokenKind::kIdentifier || token.text.size() != 1) {
      return Expected(token, "a dim level type D, C, S or H");
    }
    switch (token.text[0]) {
      case 'D':
        level.type = DIM_DENSE;
        break;
      case 'C':
        level.type = DIM_COMPRESSED;
        break;
      case 'S':
        level.type = DIM_SINGLETON;
        break;
      case 'H':
        level.type = DIM_LOOSE_COMPRESSED;
        break;
      default:
        return Expected(token, "a dim level type D, C, S or H");
    }
    token = lexer_.Next();
    if (token.kind == TokenKind::kPlus) {
      level.unique = false;
      token = lexer_.Next();
    }
    if (token.kind == TokenKind::kTilde) {
      level.ordered = false;
      token = lexer_.Next();
    }
    layout->add_dim_level(level);
    if (token.kind == TokenKind::kRightParen) return absl::OkStatus();
    if (token.kind != TokenKind::kComma) {
      return Expected(token, "',', '+', '~' or ')' in D(...)");
    }
  }
}

absl::Status ShapeParser::ParseTiles(Layout* layout) {
  if (lexer_.Peek().kind != TokenKind::kLeftParen) {
    return Expected(lexer_.Next(), "'(' after T");
  }
  while (lexer_.Peek().kind == TokenKind::kLeftParen) {
    lexer_.Next();
    Tile tile;
    Token token = lexer_.Next();
    if (token.kind != TokenKind::kRightParen) {
      while (true) {
        if (token.kind == TokenKind::kStar) {
          tile.add_dimension(Tile::kCombineDimension);
        } else if (token.kind == TokenKind::kInteger) {
          tile.add_dimension(token.value);
        } else {
          return Expected(token, "a tile size or '*'");
        }
        token = lexer_.Next();
        if (token.kind == TokenKind::kRightParen) break;
        if (token.kind != TokenKind::kComma) {
          return Expected(token, "',' or ')' in tile");
        }
        token = lexer_.Next();
      }
    }
    layout->add_tile(std::move(tile));
  }
  return absl::OkStatus();
}

absl::Status ShapeParser::ParseParenthesizedInt(absl::string_view attribute,
                                                int64_t* value) {
  // Messages are built only on failure: this runs for every attribute.
  Token token = lexer_.Next();
  if (token.kind != TokenKind::kLeftParen) {
    return Expected(token, absl::StrCat("'(' after ", attribute));
  }
  token = lexer_.Next();
  if (token.kind != TokenKind::kInteger) {
    return Expected(token, absl::StrCat("an integer in ", attribute, "(...)"));
  }
  *value = token.value;
  token = lexer_.Next();
  if (token.kind != TokenKind::kRightParen) {
    return Expected(token, absl::StrCat("')' after ", attribute, "(", *value));
  }
  return absl::OkStatus();
}

absl::Status ShapeParser::ParseParenthesizedType(absl::string_view attribute,
                                                 PrimitiveType* type) {
  Token token = lexer_.Next();
  if (token.kind != TokenKind::kLeftParen) {
    return Expected(token, absl::StrCat("'(' after ", attribute));
  }
  token = lexer_.Next();
  const absl::optional<PrimitiveType> parsed =
      token.kind == TokenKind::kIdentifier ? PrimitiveTypeFromName(token.text)
                                           : absl::nullopt;
  if (!parsed.has_value() || !IsIntegralType(*parsed)) {
    return Expected(token,
                    absl::StrCat("an integral type in ", attribute, "(...)"));
  }
  *type = *parsed;
  token = lexer_.Next();
  if (token.kind != TokenKind::kRightParen) {
    return Expected(token, absl::StrCat("')' after ", attribute, "(type"));
  }
  return absl::OkStatus();
}

absl::Status ShapeParser::ParseSplitConfigs(Layout* layout) {
  if (lexer_.Peek().kind != TokenKind::kLeftParen) {
    return Expected(lexer_.Next(), "'(' after SC");
  }
  while (lexer_.Peek().kind == TokenKind::kLeftParen) {
    lexer_.Next();
    SplitConfig config;
    absl::Status status =
        ExpectInteger("a physical dimension in SC(...)", &config.dimension);
    if (!status.ok()) return status;
    Token token;
    status = Expect(TokenKind::kColon, "':' after the SC dimension", &token);
    if (!status.ok()) return status;
    while (true) {
      int64_t index;
      status = ExpectInteger("a split index", &index);
      if (!status.ok()) return status;
      config.split_indices.push_back(index);
      token = lexer_.Next();
      if (token.kind == TokenKind::kRightParen) break;
      if (token.kind != TokenKind::kComma) {
        return Expected(token, "',' or ')' in SC(...)");
      }
    }
    layout->add_split_config(std::move(config));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ParseShapeAt(absl::string_view text, size_t* offset, Shape* shape,
                          const ShapeParseOptions& options) {
  ShapeParser parser(text, *offset, options);
  absl::Status status = parser.ParseShape(shape, 0);
  if (status.ok()) *offset = parser.offset();
  return status;
}

absl::StatusOr<Shape> ParseShape(absl::string_view text,
                                 const ShapeParseOptions& options) {
  ShapeParser parser(text, 0, options);
  Shape shape;
  absl::Status status = parser.ParseShape(&shape, 0);
  if (!status.ok()) return status;
  const Token extra = parser.Peek();
  if (extra.kind != TokenKind::kEnd) {
    return parser.ErrorAt(extra, absl::StrCat("extra content after shape: ",
                                              DescribeToken(extra.text)));
  }
  return shape;
}

absl::StatusOr<Layout> ParseLayout(absl::string_view text) {
  ShapeParseOptions options;
  ShapeParser parser(text, 0, options);
  Layout layout;
  absl::Status status = parser.ParseLayout(&layout, 0);
  if (!status.ok()) return status;
  const Token extra = parser.Peek();
  if (extra.kind != TokenKind::kEnd) {
    return parser.ErrorAt(extra, absl::StrCat("extra content after layout: ",
                                              DescribeToken(extra.text)));
  }
  return layout;
}

}  // namespace hlolayout

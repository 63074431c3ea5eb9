#include "hlolayout/parser/shape_parser.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "hlolayout/layout/layout_validation.h"
#include "hlolayout/parser/common_shape_parser.h"
#include "hlolayout/parser/diagnostic.h"
#include "hlolayout/parser/lexer.h"

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

// The attribute a layout attribute token names, or -1. A switch on the
// first character instead of comparing the text with all ten names.
int AttributeOf(const Token& token) {
  switch (token.kind) {
    case TokenKind::kHash:
      return kIndexType;
    case TokenKind::kStar:
      return kPointerType;
    case TokenKind::kIdentifier:
      break;
    default:
      return -1;
  }
  if (token.text.size() == 2) {
    return token.text[0] == 'S' && token.text[1] == 'C' ? kSplitConfigs : -1;
  }
  if (token.text.size() != 1) return -1;
  switch (token.text[0]) {
    case 'D':
      return kDimLevels;
    case 'T':
      return kTiles;
    case 'L':
      return kTailPadding;
    case 'E':
      return kElementSize;
    case 'S':
      return kMemorySpace;
    case 'P':
      return kPhysicalShape;
    case 'M':
      return kMetadataPrefix;
  }
  return -1;
}

// The parser peeks at the lexer's current token and skips it once used
// (Lexer::Skip), so the hot paths copy no tokens; error paths take the
// token with Next() for the message.
class ShapeParser {
 public:
  ShapeParser(absl::string_view text, size_t offset,
              const ShapeParseOptions& options)
      : lexer_(text, offset), options_(options) {}

  // Precondition: *shape is default-constructed (it is filled in place).
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
    return ErrorAtOffset(token.offset, message);
  }
  absl::Status ErrorAtOffset(size_t offset, absl::string_view message) {
    return ParseError(lexer_.text(), offset, message, options_.file_name);
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

  // Skips a token of `kind`, else reports "expected `what`" at the token.
  absl::Status Expect(TokenKind kind, absl::string_view what) {
    if (lexer_.PeekKind() != kind) return Expected(lexer_.Next(), what);
    lexer_.Skip();
    return absl::OkStatus();
  }
  absl::Status ExpectInteger(absl::string_view what, int64_t* value) {
    if (lexer_.PeekKind() != TokenKind::kInteger) {
      return Expected(lexer_.Next(), what);
    }
    *value = lexer_.Peek().value;
    lexer_.Skip();
    return absl::OkStatus();
  }
  absl::Status ParseTuple(Shape* shape, int depth);
  absl::Status ParseDimensions(Shape* shape);
  absl::Status ParseArray(const Token& type_token, PrimitiveType type,
                          Shape* shape, int depth);
  absl::Status ParseLayoutBody(Layout* layout, TokenKind close_kind, int depth);
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
  if (token.kind == TokenKind::kLeftParen) return ParseTuple(shape, depth);
  if (token.kind != TokenKind::kIdentifier) {
    return Expected(token, "a shape");
  }
  if (token.text.size() == 1 && token.text[0] == 'b' &&
      lexer_.PeekKind() == TokenKind::kLeftParen) {
    lexer_.Skip();
    const Token inner_start = lexer_.Peek();
    Shape inner;
    absl::Status status = ParseShape(&inner, depth + 1);
    if (!status.ok()) return status;
    if (!inner.IsArray()) {
      return ErrorAt(inner_start, "a buffer b(...) must hold an array shape");
    }
    status = Expect(TokenKind::kRightParen, "')' after buffer shape");
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

absl::Status ShapeParser::ParseTuple(Shape* shape, int depth) {
  std::vector<Shape> elements;
  if (lexer_.PeekKind() == TokenKind::kRightParen) {
    lexer_.Skip();
    *shape = Shape::MakeTuple({});
    return absl::OkStatus();
  }
  elements.reserve(8);
  while (true) {
    elements.emplace_back();
    absl::Status status = ParseShape(&elements.back(), depth + 1);
    if (!status.ok()) return status;
    const TokenKind next = lexer_.PeekKind();
    if (next != TokenKind::kRightParen && next != TokenKind::kComma) {
      return Expected(lexer_.Next(), "',' or ')' in tuple");
    }
    lexer_.Skip();
    if (next == TokenKind::kRightParen) break;
  }
  // Room for 8 was reserved: most tuples are smaller, and a decoded shape
  // can live as long as a module does (272 bytes an unused element).
  elements.shrink_to_fit();
  *shape = Shape::MakeTuple(std::move(elements));
  return absl::OkStatus();
}

// `[` dims `]`, straight into shape's dimensions.
absl::Status ShapeParser::ParseDimensions(Shape* shape) {
  absl::Status status =
      Expect(TokenKind::kLeftBracket, "'[' after element type");
  if (!status.ok()) return status;
  if (lexer_.PeekKind() == TokenKind::kRightBracket) {
    lexer_.Skip();
    return absl::OkStatus();
  }
  while (true) {
    const Token& token = lexer_.Peek();
    if (token.kind == TokenKind::kInteger && token.value >= 0) {
      // The common case: a static size.
      shape->add_dimension(token.value);
      lexer_.Skip();
    } else if (token.kind == TokenKind::kQuestion) {
      shape->add_dimension(Shape::kUnboundedSize, /*dynamic=*/true);
      lexer_.Skip();
    } else {
      const bool bounded = token.kind == TokenKind::kLessEqual;
      if (bounded) lexer_.Skip();
      const Token size = lexer_.Next();
      if (size.kind != TokenKind::kInteger) {
        return Expected(size, bounded ? "a bound after '<='"
                                      : "a dimension size, '<=' or '?'");
      }
      if (size.value < 0) {
        return ErrorAt(size, absl::StrCat("dimension size must not be "
                                          "negative, found ",
                                          size.value));
      }
      shape->add_dimension(size.value, bounded);
    }
    const TokenKind next = lexer_.PeekKind();
    if (next != TokenKind::kRightBracket && next != TokenKind::kComma) {
      return Expected(lexer_.Next(), "',' or ']' in dimensions");
    }
    lexer_.Skip();
    if (next == TokenKind::kRightBracket) return absl::OkStatus();
  }
}

absl::Status ShapeParser::ParseArray(const Token& type_token,
                                     PrimitiveType type, Shape* shape,
                                     int depth) {
  absl::Status status = ParseDimensions(shape);
  if (!status.ok()) return status;
  if (!IsArrayType(type)) {  // token[] and opaque[]
    if (shape->rank() != 0) {
      return ErrorAt(type_token, absl::StrCat(PrimitiveTypeName(type),
                                              " shapes have no dimensions"));
    }
    shape->set_element_type(type);
    return absl::OkStatus();
  }
  shape->set_element_type(type);
  // As in XLA, '{' starts a layout only when an integer or ':' follows, so
  // `f32[]{}` leaves "{}" unparsed. '<' is the angle-bracket layout form.
  // The lexer is saved and restored to look past '{' (cheaper than
  // PeekSecond, which lexes the token after '{' twice).
  const size_t open_offset = lexer_.Peek().offset;
  const TokenKind open = lexer_.PeekKind();
  Layout* layout = nullptr;  // set when the text has a layout
  if (open == TokenKind::kLess) {
    lexer_.Skip();
    layout = shape->mutable_layout();
    status = ParseLayoutBody(layout, TokenKind::kGreater, depth);
  } else if (open == TokenKind::kLeftBrace) {
    const Lexer saved = lexer_;
    lexer_.Skip();
    const TokenKind after = lexer_.PeekKind();
    if (after == TokenKind::kInteger || after == TokenKind::kColon) {
      layout = shape->mutable_layout();
      status = ParseLayoutBody(layout, TokenKind::kRightBrace, depth);
    } else {
      lexer_ = saved;
    }
  }
  if (!status.ok()) return status;
  const bool has_layout = layout != nullptr;
  if (has_layout) {
    // XLA's parser makes this check itself.
    if (layout->has_physical_shape()) {
      bool sparse = false;
      for (const DimLevel& level : layout->dim_levels()) {
        sparse |= level.type != DIM_DENSE;
      }
      if (!sparse) {
        return ErrorAtOffset(open_offset,
                             "P(...) is only allowed on sparse arrays");
      }
    }
    const size_t entries = layout->minor_to_major().size();
    if (static_cast<int64_t>(entries) != shape->rank()) {
      return ErrorAtOffset(
          open_offset, absl::StrCat("layout has ", entries, " dimension",
                                    entries == 1 ? "" : "s",
                                    " but the shape has rank ", shape->rank()));
    }
  } else if (options_.fill_missing_layouts) {
    layout = shape->mutable_layout();
    for (int64_t i = shape->rank() - 1; i >= 0; --i) {
      layout->add_minor_to_major(i);
    }
  }
  if (options_.validate) {
    status = ValidateShape(*shape);
    if (!status.ok()) {
      return ErrorAtOffset(has_layout ? open_offset : type_token.offset,
                           status.message());
    }
  }
  return absl::OkStatus();
}

absl::Status ShapeParser::ParseLayout(Layout* layout, int depth) {
  const TokenKind open = lexer_.PeekKind();
  if (open != TokenKind::kLeftBrace && open != TokenKind::kLess) {
    return Expected(lexer_.Next(), "'{' or '<' to start a layout");
  }
  lexer_.Skip();
  return ParseLayoutBody(layout,
                         open == TokenKind::kLeftBrace ? TokenKind::kRightBrace
                                                       : TokenKind::kGreater,
                         depth);
}

// What follows '{' or '<': minor_to_major, then ':' and attributes, then
// `close_kind`.
absl::Status ShapeParser::ParseLayoutBody(Layout* layout, TokenKind close_kind,
                                          int depth) {
  if (lexer_.PeekKind() == TokenKind::kInteger) {
    while (true) {
      layout->add_minor_to_major(lexer_.Peek().value);
      lexer_.Skip();
      if (lexer_.PeekKind() != TokenKind::kComma) break;
      lexer_.Skip();
      if (lexer_.PeekKind() != TokenKind::kInteger) {
        return Expected(lexer_.Next(), "a dimension number in minor_to_major");
      }
    }
  }
  if (lexer_.PeekKind() == TokenKind::kColon) {
    lexer_.Skip();
    absl::Status status = ParseAttributes(layout, depth);
    if (!status.ok()) return status;
  }
  if (lexer_.PeekKind() != close_kind) {
    const absl::string_view close_text =
        close_kind == TokenKind::kRightBrace ? "'}'" : "'>'";
    return Expected(
        lexer_.Next(),
        layout->minor_to_major().empty() && layout->tiles().empty()
            ? absl::StrCat("a dimension number, ':' or ", close_text)
            : absl::StrCat("',', ':' or ", close_text, " in layout"));
  }
  lexer_.Skip();
  return absl::OkStatus();
}

absl::Status ShapeParser::ParseAttributes(Layout* layout, int depth) {
  int last = -1;
  while (true) {
    const Token& token = lexer_.Peek();
    const int attribute = AttributeOf(token);
    if (attribute < 0) {
      if (token.kind != TokenKind::kIdentifier) return absl::OkStatus();
      return ErrorAt(token, absl::StrCat("unknown layout attribute ",
                                         DescribeToken(token.text)));
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
    lexer_.Skip();
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
        status = Expect(TokenKind::kLeftParen, "'(' after P");
        if (!status.ok()) return status;
        Shape physical;
        status = ParseShape(&physical, depth + 1);
        if (!status.ok()) return status;
        status = Expect(TokenKind::kRightParen, "')' after P(shape");
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
  absl::Status status = Expect(TokenKind::kLeftParen, "'(' after D");
  if (!status.ok()) return status;
  while (true) {
    Token token = lexer_.Next();
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
    // Today's XLA parses D(...) and drops it; keep it only when asked.
    if (options_.keep_dim_levels) layout->add_dim_level(level);
    if (token.kind == TokenKind::kRightParen) return absl::OkStatus();
    if (token.kind != TokenKind::kComma) {
      return Expected(token, "',', '+', '~' or ')' in D(...)");
    }
  }
}

absl::Status ShapeParser::ParseTiles(Layout* layout) {
  if (lexer_.PeekKind() != TokenKind::kLeftParen) {
    return Expected(lexer_.Next(), "'(' after T");
  }
  while (lexer_.PeekKind() == TokenKind::kLeftParen) {
    lexer_.Skip();
    Tile tile;
    if (lexer_.PeekKind() == TokenKind::kRightParen) {
      lexer_.Skip();
    } else {
      while (true) {
        const Token& token = lexer_.Peek();
        if (token.kind == TokenKind::kInteger) {
          tile.add_dimension(token.value);
        } else if (token.kind == TokenKind::kStar) {
          tile.add_dimension(Tile::kCombineDimension);
        } else {
          return Expected(lexer_.Next(), "a tile size or '*'");
        }
        lexer_.Skip();
        const TokenKind next = lexer_.PeekKind();
        if (next != TokenKind::kRightParen && next != TokenKind::kComma) {
          return Expected(lexer_.Next(), "',' or ')' in tile");
        }
        lexer_.Skip();
        if (next == TokenKind::kRightParen) break;
      }
    }
    layout->add_tile(std::move(tile));
  }
  return absl::OkStatus();
}

absl::Status ShapeParser::ParseParenthesizedInt(absl::string_view attribute,
                                                int64_t* value) {
  // Messages are built only on failure: this runs for every attribute.
  if (lexer_.PeekKind() != TokenKind::kLeftParen) {
    return Expected(lexer_.Next(), absl::StrCat("'(' after ", attribute));
  }
  lexer_.Skip();
  if (lexer_.PeekKind() != TokenKind::kInteger) {
    return Expected(lexer_.Next(),
                    absl::StrCat("an integer in ", attribute, "(...)"));
  }
  *value = lexer_.Peek().value;
  lexer_.Skip();
  if (lexer_.PeekKind() != TokenKind::kRightParen) {
    return Expected(lexer_.Next(),
                    absl::StrCat("')' after ", attribute, "(", *value));
  }
  lexer_.Skip();
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
  if (lexer_.PeekKind() != TokenKind::kLeftParen) {
    return Expected(lexer_.Next(), "'(' after SC");
  }
  while (lexer_.PeekKind() == TokenKind::kLeftParen) {
    lexer_.Skip();
    SplitConfig config;
    absl::Status status =
        ExpectInteger("a physical dimension in SC(...)", &config.dimension);
    if (!status.ok()) return status;
    status = Expect(TokenKind::kColon, "':' after the SC dimension");
    if (!status.ok()) return status;
    while (true) {
      int64_t index;
      status = ExpectInteger("a split index", &index);
      if (!status.ok()) return status;
      config.split_indices.push_back(index);
      const Token token = lexer_.Next();
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
  // Both parsers fill a default-constructed shape in place. The common
  // forms first (parser/common_shape_parser.h); anything else, errors
  // included, is read by the token-based parser.
  *shape = Shape();
  if (options.try_common_forms &&
      ParseCommonShapeAt(text, offset, shape, options)) {
    return absl::OkStatus();
  }
  *shape = Shape();
  ShapeParser parser(text, *offset, options);
  absl::Status status = parser.ParseShape(shape, 0);
  if (status.ok()) *offset = parser.offset();
  return status;
}

absl::StatusOr<Shape> ParseShape(absl::string_view text,
                                 const ShapeParseOptions& options) {
  // Built inside the StatusOr and returned by NRVO: no Shape is moved.
  absl::StatusOr<Shape> result(absl::in_place);
  size_t end = 0;
  if (options.try_common_forms &&
      ParseCommonShapeAt(text, &end, &*result, options) && end == text.size()) {
    return result;
  }
  *result = Shape();
  ShapeParser parser(text, 0, options);
  absl::Status status = parser.ParseShape(&*result, 0);
  if (status.ok()) {
    const Token& extra = parser.Peek();
    if (extra.kind != TokenKind::kEnd) {
      status = parser.ErrorAt(extra, absl::StrCat("extra content after shape: ",
                                                  DescribeToken(extra.text)));
    }
  }
  if (!status.ok()) result = std::move(status);
  return result;
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

// cute/parse.cc: a recursive-descent parser over cute/lexer.h.
#include "hlolayout/cute/parse.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/types/optional.h"
#include "hlolayout/cute/int_tuple_reader.h"
#include "hlolayout/cute/lexer.h"
#include "hlolayout/parser/diagnostic.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::cute {

namespace {

// A number for a message, cut to 24 characters (a 4 MB token stays short).
std::string ShortText(absl::string_view text) {
  constexpr size_t kMaxShown = 24;
  if (text.size() <= kMaxShown) return std::string(text);
  return absl::StrCat(text.substr(0, kMaxShown), "...");
}

constexpr int kMaxDepth = kMaxTupleDepth;

class Parser {
 public:
  explicit Parser(absl::string_view text) : lexer_(text) {}

  absl::StatusOr<IntTuple> IntTupleAlone() {
    HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple t, ParseIntTuple(0));
    HLOLAYOUT_RETURN_IF_ERROR(ExpectEnd());
    return t;
  }

  absl::StatusOr<Layout> LayoutAlone() {
    HLOLAYOUT_ASSIGN_OR_RETURN(Layout l, ParseLayout());
    HLOLAYOUT_RETURN_IF_ERROR(ExpectEnd());
    return l;
  }

  absl::StatusOr<Tiler> TilerAlone() {
    HLOLAYOUT_ASSIGN_OR_RETURN(Tiler t, ParseTiler(0));
    HLOLAYOUT_RETURN_IF_ERROR(ExpectEnd());
    return t;
  }

  absl::StatusOr<Swizzle> SwizzleAlone() {
    HLOLAYOUT_ASSIGN_OR_RETURN(Swizzle s, ParseSwizzle());
    HLOLAYOUT_RETURN_IF_ERROR(ExpectEnd());
    return s;
  }

  absl::StatusOr<AnyLayout> AnyLayoutAlone() {
    HLOLAYOUT_ASSIGN_OR_RETURN(AnyLayout l, ParseAny(0));
    HLOLAYOUT_RETURN_IF_ERROR(ExpectEnd());
    return l;
  }

 private:
  absl::Status Error(const Token& at, absl::string_view message) {
    return TokenError(lexer_, at, message);
  }

  // An error for an unexpected token; lexer errors win.
  absl::Status Unexpected(const Token& t, absl::string_view expected) {
    return UnexpectedToken(lexer_, t, expected);
  }

  absl::Status ExpectEnd() {
    Token t = lexer_.Next();
    if (t.kind != TokenKind::kEnd) return Unexpected(t, "end of input");
    return absl::OkStatus();
  }

  absl::Status Expect(TokenKind kind, absl::string_view what) {
    Token t = lexer_.Next();
    if (t.kind != kind) return Unexpected(t, what);
    return absl::OkStatus();
  }

  bool PeekIdent(absl::string_view name) {
    const Token t = lexer_.Peek();
    return t.kind == TokenKind::kIdent && t.text == name;
  }

  // Parses an IntTuple (cute/int_tuple_reader.h). Records the first leaf
  // <= 0 (for shapes).
  absl::StatusOr<IntTuple> ParseIntTuple(int depth) {
    return ReadIntTuple(
        lexer_,
        [this](const Token& t) {
          if (t.value <= 0 && !bad_leaf_) bad_leaf_ = t;
          return absl::OkStatus();
        },
        depth);
  }

  // The stride after `shape:` (the colon already read), and the layout.
  absl::StatusOr<Layout> ParseStrideOf(IntTuple shape, size_t start) {
    const Token stride_start = lexer_.Peek();
    HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple stride, ParseIntTuple(0));
    if (!Congruent(shape, stride)) {
      return Error(stride_start, "stride is not congruent with the shape");
    }
    absl::StatusOr<Layout> l =
        Layout::Create(std::move(shape), std::move(stride));
    if (!l.ok()) return ParseError(lexer_.text(), start, l.status().message());
    return l;
  }

  // A layout `shape:stride` or a shape alone.
  struct LayoutOrShape {
    bool is_shape = false;
    IntTuple shape;
    Layout layout;
  };

  absl::StatusOr<LayoutOrShape> ParseLayoutOrShape() {
    const size_t start = lexer_.Peek().offset;
    bad_leaf_.reset();
    LayoutOrShape out;
    HLOLAYOUT_ASSIGN_OR_RETURN(out.shape, ParseIntTuple(0));
    if (bad_leaf_) {
      return Error(*bad_leaf_, absl::StrCat("shape must be positive, found ",
                                            ShortText(bad_leaf_->text)));
    }
    if (lexer_.Peek().kind != TokenKind::kColon) {
      out.is_shape = true;
      return out;
    }
    lexer_.Next();
    HLOLAYOUT_ASSIGN_OR_RETURN(out.layout, ParseStrideOf(out.shape, start));
    return out;
  }

  absl::StatusOr<Layout> ParseLayout() {
    const size_t start = lexer_.Peek().offset;
    HLOLAYOUT_ASSIGN_OR_RETURN(LayoutOrShape ls, ParseLayoutOrShape());
    if (!ls.is_shape) return std::move(ls.layout);
    absl::StatusOr<Layout> l = Layout::Compact(std::move(ls.shape));
    if (!l.ok()) return ParseError(lexer_.text(), start, l.status().message());
    return l;
  }

  // A tiler element: a shape (kept as an IntTuple while it could still be
  // the shape of a layout) or a tiler.
  struct TilerNode {
    bool is_shape = false;
    IntTuple shape;
    Tiler tiler;
    Token at;  // Where the node starts (for errors about its shape).
    absl::optional<Token> bad_leaf;  // A shape's first leaf <= 0.
  };

  absl::Status BadLeaf(const Token& leaf) {
    return Error(leaf, absl::StrCat("shape must be positive, found ",
                                    ShortText(leaf.text)));
  }

  absl::StatusOr<Tiler> ShapeToTiler(const TilerNode& node) {
    if (node.bad_leaf) return BadLeaf(*node.bad_leaf);
    absl::StatusOr<Tiler> tiler = Tiler::FromShape(node.shape);
    if (!tiler.ok()) return Error(node.at, tiler.status().message());
    return tiler;
  }

  // A tiler: `_`, `<T0, T1, ...>`, a layout, a shape, or CuTe's printed
  // tuple of tilers `(_8:_1,(_4,_2):(_2,_1))`.
  absl::StatusOr<TilerNode> ParseTilerNode(int depth) {
    const Token t = lexer_.Peek();
    TilerNode node;
    if (t.kind == TokenKind::kUnderscore) {
      lexer_.Next();
      node.tiler = Tiler::Underscore();
      return node;
    }
    if (depth >= kMaxDepth) {
      return Error(t, absl::StrCat("nesting deeper than ", kMaxDepth));
    }
    if (t.kind == TokenKind::kLAngle) {
      lexer_.Next();
      std::vector<Tiler> elements;
      while (true) {
        HLOLAYOUT_ASSIGN_OR_RETURN(Tiler e, ParseTiler(depth + 1));
        elements.push_back(std::move(e));
        Token sep = lexer_.Next();
        if (sep.kind == TokenKind::kRAngle) break;
        if (sep.kind != TokenKind::kComma) {
          return Unexpected(sep, "',' or '>'");
        }
      }
      node.tiler = Tiler::Tuple(std::move(elements));
      return node;
    }
    if (t.kind == TokenKind::kInt) {
      lexer_.Next();
      node.is_shape = true;
      node.shape = IntTuple(Int{t.value, t.is_static});
      if (t.value <= 0) node.bad_leaf = t;
    } else if (t.kind == TokenKind::kLParen) {
      lexer_.Next();
      std::vector<TilerNode> elements;
      if (lexer_.Peek().kind != TokenKind::kRParen) {
        while (true) {
          const Token at = lexer_.Peek();
          HLOLAYOUT_ASSIGN_OR_RETURN(TilerNode e, ParseTilerNode(depth + 1));
          e.at = at;
          elements.push_back(std::move(e));
          Token sep = lexer_.Next();
          if (sep.kind == TokenKind::kRParen) break;
          if (sep.kind != TokenKind::kComma) {
            return Unexpected(sep, "',' or ')'");
          }
        }
      } else {
        lexer_.Next();
      }
      bool all_shapes = true;
      for (const TilerNode& e : elements) all_shapes &= e.is_shape;
      if (all_shapes) {
        std::vector<IntTuple> shapes;
        for (TilerNode& e : elements) {
          if (e.bad_leaf && !node.bad_leaf) node.bad_leaf = e.bad_leaf;
          shapes.push_back(std::move(e.shape));
        }
        node.is_shape = true;
        node.shape = IntTuple::Tuple(std::move(shapes));
      } else {
        std::vector<Tiler> tilers;
        for (TilerNode& e : elements) {
          if (e.is_shape) {
            HLOLAYOUT_ASSIGN_OR_RETURN(Tiler s, ShapeToTiler(e));
            tilers.push_back(std::move(s));
          } else {
            tilers.push_back(std::move(e.tiler));
          }
        }
        node.tiler = Tiler::Tuple(std::move(tilers));
        return node;
      }
    } else {
      lexer_.Next();
      return Unexpected(t, "layout, shape, '_' or '<'");
    }
    // A shape: a layout when a stride follows.
    if (lexer_.Peek().kind == TokenKind::kColon) {
      lexer_.Next();
      if (node.bad_leaf) return BadLeaf(*node.bad_leaf);
      HLOLAYOUT_ASSIGN_OR_RETURN(Layout l, ParseStrideOf(node.shape, t.offset));
      node.is_shape = false;
      node.tiler = Tiler::Of(std::move(l));
    }
    return node;
  }

  absl::StatusOr<Tiler> ParseTiler(int depth) {
    const Token at = lexer_.Peek();
    HLOLAYOUT_ASSIGN_OR_RETURN(TilerNode node, ParseTilerNode(depth));
    node.at = at;
    if (node.is_shape) return ShapeToTiler(node);
    return std::move(node.tiler);
  }

  // `Sw<B,M,S>`.
  absl::StatusOr<Swizzle> ParseSwizzle() {
    const Token name = lexer_.Next();
    if (name.kind != TokenKind::kIdent || name.text != "Sw") {
      return Unexpected(name, "'Sw<B,M,S>'");
    }
    HLOLAYOUT_RETURN_IF_ERROR(Expect(TokenKind::kLAngle, "'<'"));
    int v[3];
    for (int i = 0; i < 3; ++i) {
      const Token t = lexer_.Next();
      if (t.kind != TokenKind::kInt) return Unexpected(t, "integer");
      if (t.value < -64 || t.value > 64) {
        return Error(t, "swizzle parameter out of range");
      }
      v[i] = static_cast<int>(t.value);
      if (i < 2) HLOLAYOUT_RETURN_IF_ERROR(Expect(TokenKind::kComma, "','"));
    }
    HLOLAYOUT_RETURN_IF_ERROR(Expect(TokenKind::kRAngle, "'>'"));
    absl::StatusOr<Swizzle> sw = Swizzle::Create(v[0], v[1], v[2]);
    if (!sw.ok()) return Error(name, sw.status().message());
    return sw;
  }

  // An offset of a composed layout: an integer or `smem_ptr[16b](unset)`.
  absl::StatusOr<ComposedOffset> ParseOffset() {
    const Token t = lexer_.Next();
    if (t.kind == TokenKind::kInt) {
      return ComposedOffset::Of(Int{t.value, t.is_static});
    }
    if (t.kind != TokenKind::kIdent || t.text != "smem_ptr") {
      return Unexpected(t, "offset (integer or smem_ptr[Nb](unset))");
    }
    HLOLAYOUT_RETURN_IF_ERROR(Expect(TokenKind::kLBracket, "'['"));
    const Token bits = lexer_.Next();
    if (bits.kind != TokenKind::kInt) return Unexpected(bits, "integer");
    if (bits.value <= 0 || bits.value > 1024) {
      return Error(bits, "smem_ptr element width must be 1 to 1024 bits");
    }
    const Token b = lexer_.Next();
    if (b.kind != TokenKind::kIdent || b.text != "b") {
      return Unexpected(b, "'b'");
    }
    HLOLAYOUT_RETURN_IF_ERROR(Expect(TokenKind::kRBracket, "']'"));
    HLOLAYOUT_RETURN_IF_ERROR(Expect(TokenKind::kLParen, "'('"));
    const Token unset = lexer_.Next();
    if (unset.kind != TokenKind::kIdent || unset.text != "unset") {
      return Unexpected(unset, "'unset'");
    }
    HLOLAYOUT_RETURN_IF_ERROR(Expect(TokenKind::kRParen, "')'"));
    return ComposedOffset::SmemPtr(static_cast<int>(bits.value));
  }

  // One part of a composed layout: a swizzle or a layout.
  absl::StatusOr<AnyLayout> ParsePart() {
    if (PeekIdent("Sw")) {
      HLOLAYOUT_ASSIGN_OR_RETURN(Swizzle s, ParseSwizzle());
      return AnyLayout(s);
    }
    HLOLAYOUT_ASSIGN_OR_RETURN(Layout l, ParseLayout());
    return AnyLayout(std::move(l));
  }

  // `A`, `A o O o B` (B again composed, to the right) or `A o B` (offset
  // `_0`).
  absl::StatusOr<AnyLayout> ParseAny(int depth) {
    const Token start = lexer_.Peek();
    if (depth >= kMaxDepth) {
      return Error(start, absl::StrCat("nesting deeper than ", kMaxDepth));
    }
    HLOLAYOUT_ASSIGN_OR_RETURN(AnyLayout outer, ParsePart());
    if (!PeekIdent("o")) return outer;
    lexer_.Next();
    ComposedOffset offset;
    // An offset is an integer or pointer marker followed by another `o`.
    {
      Lexer saved = lexer_;
      const Token t = lexer_.Peek();
      bool is_offset = false;
      if (t.kind == TokenKind::kInt ||
          (t.kind == TokenKind::kIdent && t.text == "smem_ptr")) {
        absl::StatusOr<ComposedOffset> o = ParseOffset();
        if (o.ok() && PeekIdent("o")) {
          lexer_.Next();
          offset = *o;
          is_offset = true;
        } else if (!o.ok() && t.kind == TokenKind::kIdent) {
          return o.status();
        }
      }
      if (!is_offset) lexer_ = saved;
    }
    const Token inner_start = lexer_.Peek();
    HLOLAYOUT_ASSIGN_OR_RETURN(AnyLayout inner, ParseAny(depth + 1));
    absl::StatusOr<ComposedLayout> c =
        ComposedLayout::Create(std::move(outer), offset, std::move(inner));
    if (!c.ok()) return Error(inner_start, c.status().message());
    return AnyLayout(*std::move(c));
  }

  Lexer lexer_;
  absl::optional<Token> bad_leaf_;
};

}  // namespace

absl::StatusOr<IntTuple> ParseIntTuple(absl::string_view text) {
  return Parser(text).IntTupleAlone();
}

absl::StatusOr<Layout> ParseLayout(absl::string_view text) {
  return Parser(text).LayoutAlone();
}

absl::StatusOr<Tiler> ParseTiler(absl::string_view text) {
  return Parser(text).TilerAlone();
}

absl::StatusOr<Swizzle> ParseSwizzle(absl::string_view text) {
  return Parser(text).SwizzleAlone();
}

absl::StatusOr<AnyLayout> ParseAnyLayout(absl::string_view text) {
  return Parser(text).AnyLayoutAlone();
}

}  // namespace hlolayout::cute

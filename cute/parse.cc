// cute/parse.cc: a recursive-descent parser over cute/lexer.h.
#include "hlolayout/cute/parse.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/types/optional.h"
#include "hlolayout/cute/internal/status_macros.h"
#include "hlolayout/cute/lexer.h"
#include "hlolayout/parser/diagnostic.h"

namespace hlolayout::cute {

namespace {

// A number for a message, cut to 24 characters (a 4 MB token stays short).
std::string ShortText(absl::string_view text) {
  constexpr size_t kMaxShown = 24;
  if (text.size() <= kMaxShown) return std::string(text);
  return absl::StrCat(text.substr(0, kMaxShown), "...");
}

constexpr int kMaxDepth = 64;

class Parser {
 public:
  explicit Parser(absl::string_view text) : lexer_(text) {}

  absl::StatusOr<IntTuple> IntTupleAlone() {
    CUTE_ASSIGN_OR_RETURN(IntTuple t, ParseIntTuple(0));
    CUTE_RETURN_IF_ERROR(ExpectEnd());
    return t;
  }

  absl::StatusOr<Layout> LayoutAlone() {
    CUTE_ASSIGN_OR_RETURN(Layout l, ParseLayout());
    CUTE_RETURN_IF_ERROR(ExpectEnd());
    return l;
  }

  absl::StatusOr<Tiler> TilerAlone() {
    CUTE_ASSIGN_OR_RETURN(Tiler t, ParseTiler(0));
    CUTE_RETURN_IF_ERROR(ExpectEnd());
    return t;
  }

 private:
  absl::Status Error(const Token& at, absl::string_view message) {
    return ParseError(lexer_.text(), at.offset, message);
  }

  // An error for an unexpected token; lexer errors win.
  absl::Status Unexpected(const Token& t, absl::string_view expected) {
    // A stray character reads better as what was expected; malformed
    // integers keep the lexer's message.
    if (t.kind == TokenKind::kError && t.error != "unexpected character") {
      return Error(t, t.error);
    }
    return Error(t, absl::StrCat("expected ", expected, ", found ",
                                 DescribeToken(t.text)));
  }

  absl::Status ExpectEnd() {
    Token t = lexer_.Next();
    if (t.kind != TokenKind::kEnd) return Unexpected(t, "end of input");
    return absl::OkStatus();
  }

  // Parses an IntTuple. Records the first leaf <= 0 (for shapes).
  absl::StatusOr<IntTuple> ParseIntTuple(int depth) {
    Token t = lexer_.Next();
    if (t.kind == TokenKind::kInt) {
      if (t.value <= 0 && !bad_leaf_) bad_leaf_ = t;
      return IntTuple(t.value);
    }
    if (t.kind != TokenKind::kLParen) {
      return Unexpected(t, "integer or '('");
    }
    if (depth >= kMaxDepth) {
      return Error(t, absl::StrCat("nesting deeper than ", kMaxDepth));
    }
    std::vector<IntTuple> elements;
    if (lexer_.Peek().kind == TokenKind::kRParen) {
      lexer_.Next();
      return IntTuple::Tuple(std::move(elements));
    }
    while (true) {
      CUTE_ASSIGN_OR_RETURN(IntTuple e, ParseIntTuple(depth + 1));
      elements.push_back(std::move(e));
      Token sep = lexer_.Next();
      if (sep.kind == TokenKind::kRParen) break;
      if (sep.kind != TokenKind::kComma) return Unexpected(sep, "',' or ')'");
    }
    return IntTuple::Tuple(std::move(elements));
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
    CUTE_ASSIGN_OR_RETURN(out.shape, ParseIntTuple(0));
    if (bad_leaf_) {
      return Error(*bad_leaf_, absl::StrCat("shape must be positive, found ",
                                            ShortText(bad_leaf_->text)));
    }
    if (lexer_.Peek().kind != TokenKind::kColon) {
      out.is_shape = true;
      return out;
    }
    lexer_.Next();
    const Token stride_start = lexer_.Peek();
    CUTE_ASSIGN_OR_RETURN(IntTuple stride, ParseIntTuple(0));
    if (!Congruent(out.shape, stride)) {
      return Error(stride_start, "stride is not congruent with the shape");
    }
    absl::StatusOr<Layout> l = Layout::Create(out.shape, std::move(stride));
    if (!l.ok()) return ParseError(lexer_.text(), start, l.status().message());
    out.layout = *std::move(l);
    return out;
  }

  absl::StatusOr<Layout> ParseLayout() {
    const size_t start = lexer_.Peek().offset;
    CUTE_ASSIGN_OR_RETURN(LayoutOrShape ls, ParseLayoutOrShape());
    if (!ls.is_shape) return std::move(ls.layout);
    absl::StatusOr<Layout> l = Layout::Compact(std::move(ls.shape));
    if (!l.ok()) return ParseError(lexer_.text(), start, l.status().message());
    return l;
  }

  absl::StatusOr<Tiler> ParseTiler(int depth) {
    Token t = lexer_.Peek();
    if (t.kind == TokenKind::kUnderscore) {
      lexer_.Next();
      return Tiler::Underscore();
    }
    if (t.kind == TokenKind::kLAngle) {
      lexer_.Next();
      if (depth >= kMaxDepth) {
        return Error(t, absl::StrCat("nesting deeper than ", kMaxDepth));
      }
      std::vector<Tiler> elements;
      while (true) {
        CUTE_ASSIGN_OR_RETURN(Tiler e, ParseTiler(depth + 1));
        elements.push_back(std::move(e));
        Token sep = lexer_.Next();
        if (sep.kind == TokenKind::kRAngle) break;
        if (sep.kind != TokenKind::kComma) {
          return Unexpected(sep, "',' or '>'");
        }
      }
      return Tiler::Tuple(std::move(elements));
    }
    if (t.kind != TokenKind::kInt && t.kind != TokenKind::kLParen) {
      return Unexpected(t, "layout, shape, '_' or '<'");
    }
    CUTE_ASSIGN_OR_RETURN(LayoutOrShape ls, ParseLayoutOrShape());
    if (!ls.is_shape) return Tiler::Of(std::move(ls.layout));
    absl::StatusOr<Tiler> tiler = Tiler::FromShape(ls.shape);
    if (!tiler.ok()) return Error(t, tiler.status().message());
    return tiler;
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

}  // namespace hlolayout::cute

#include "hlolayout/cute/int_tuple_reader.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "hlolayout/parser/diagnostic.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::cute {

absl::Status TokenError(const Lexer& lexer, const Token& at,
                        absl::string_view message) {
  return ParseError(lexer.text(), at.offset, message);
}

absl::Status UnexpectedToken(const Lexer& lexer, const Token& t,
                             absl::string_view expected) {
  if (t.kind == TokenKind::kError && t.error != "unexpected character") {
    return TokenError(lexer, t, t.error);
  }
  return TokenError(
      lexer, t,
      absl::StrCat("expected ", expected, ", found ", DescribeToken(t.text)));
}

absl::StatusOr<IntTuple> ReadIntTuple(
    Lexer& lexer, absl::FunctionRef<absl::Status(const Token&)> check_leaf,
    int depth) {
  Token t = lexer.Next();
  if (t.kind == TokenKind::kInt) {
    HLOLAYOUT_RETURN_IF_ERROR(check_leaf(t));
    return IntTuple(Int{t.value, t.is_static});
  }
  if (t.kind != TokenKind::kLParen) {
    return UnexpectedToken(lexer, t, "integer or '('");
  }
  if (depth >= kMaxTupleDepth) {
    return TokenError(lexer, t,
                      absl::StrCat("nesting deeper than ", kMaxTupleDepth));
  }
  std::vector<IntTuple> elements;
  if (lexer.Peek().kind == TokenKind::kRParen) {
    lexer.Next();
    return IntTuple::Tuple(std::move(elements));
  }
  while (true) {
    HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple e,
                               ReadIntTuple(lexer, check_leaf, depth + 1));
    elements.push_back(std::move(e));
    Token sep = lexer.Next();
    if (sep.kind == TokenKind::kRParen) break;
    if (sep.kind != TokenKind::kComma) {
      return UnexpectedToken(lexer, sep, "',' or ')'");
    }
  }
  return IntTuple::Tuple(std::move(elements));
}

}  // namespace hlolayout::cute

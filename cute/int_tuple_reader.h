// cute/int_tuple_reader.h: the one reader of an IntTuple's text ("3",
// "((2,_2),3)", "()") from CuTe's tokens (cute/lexer.h), which every CuTe
// parser uses: layouts, tilers and swizzled layouts (cute/parse.h) and
// layouts with scaled-basis strides (cute/coord_layout.h).
//
//   Lexer lexer("(2,(_3,4)):(1,0)");
//   ReadIntTuple(lexer, [](const Token&) { return absl::OkStatus(); });
//   // ((2,(_3,4))); the lexer is then at ':'
//
// Errors carry line:column and a caret (parser/diagnostic.h), as every
// error of CuTe text does.
#ifndef HLOLAYOUT_CUTE_INT_TUPLE_READER_H_
#define HLOLAYOUT_CUTE_INT_TUPLE_READER_H_

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/cute/lexer.h"

namespace hlolayout::cute {

// How deep an IntTuple (or a stride) may nest.
inline constexpr int kMaxTupleDepth = 64;

// The error `message` at token `at` of `lexer`'s text.
absl::Status TokenError(const Lexer& lexer, const Token& at,
                        absl::string_view message);

// "expected EXPECTED, found TOKEN" at `t` ("... found end of input"); the
// lexer's own message for a malformed token (a stray character reads
// better as what was expected).
absl::Status UnexpectedToken(const Lexer& lexer, const Token& t,
                             absl::string_view expected);

// ReadIntTuple
//
// Reads an integer or a parenthesized tuple of IntTuples from `lexer`,
// each integer with its static tag (`_4`). `check_leaf` sees every integer
// token first and may refuse it (its error is returned). Errors: "expected
// integer or '('", "expected ',' or ')'", "nesting deeper than 64", the
// lexer's.
absl::StatusOr<IntTuple> ReadIntTuple(
    Lexer& lexer, absl::FunctionRef<absl::Status(const Token&)> check_leaf,
    int depth = 0);

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_INT_TUPLE_READER_H_

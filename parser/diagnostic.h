// parser/diagnostic.h: error statuses that point into the text being parsed.
//
// Every parser in hlolayout reports bad input the same way: a short
// lowercase message prefixed by the 1-based line and column, followed by the
// source line and a caret under the offending token:
//
//   1:8: expected ']' or ',', found '{'
//   f32[3,5{1,0}
//          ^
//
// Positions are computed only when an error is built, so parsers pay nothing
// for them on the success path.
#ifndef HLOLAYOUT_PARSER_DIAGNOSTIC_H_
#define HLOLAYOUT_PARSER_DIAGNOSTIC_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace hlolayout {

// A 1-based line and column of a byte offset in a text. The column counts
// bytes from the start of the line, so a tab counts as one column.
struct SourceLocation {
  int64_t line = 1;
  int64_t column = 1;
};

// LocateOffset
//
// Returns the line and column of `offset` in `text`. An offset at or past
// the end points just after the last character.
SourceLocation LocateOffset(absl::string_view text, size_t offset);

// SourceLineAt
//
// Returns the whole line of `text` that contains `offset`, without its
// newline (a trailing '\r' is dropped too).
absl::string_view SourceLineAt(absl::string_view text, size_t offset);

// FormatDiagnostic
//
// Returns "L:C: message\n<source line>\n<spaces>^". Tabs in the source line
// are kept in the caret line so that the caret lines up in a terminal.
// `file_name`, when not empty, is prefixed as "file:L:C: message".
std::string FormatDiagnostic(absl::string_view text, size_t offset,
                             absl::string_view message,
                             absl::string_view file_name = "");

// ParseError
//
// An InvalidArgument status whose message is FormatDiagnostic(...).
absl::Status ParseError(absl::string_view text, size_t offset,
                        absl::string_view message,
                        absl::string_view file_name = "");

// DescribeToken
//
// Quotes a token for a message: "'{'", "'abc'", "end of input" for an empty
// token. Long tokens are cut to 24 characters followed by "...".
std::string DescribeToken(absl::string_view token);

}  // namespace hlolayout

#endif  // HLOLAYOUT_PARSER_DIAGNOSTIC_H_

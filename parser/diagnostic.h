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
// A long source line is not echoed whole: the diagnostic shows a window of
// about kDiagnosticWindowWidth columns around the caret, with "..." where the
// line is cut (a one-character error in a 4 MB `constant(...)` line prints a
// few hundred bytes, not 4 MB). A 4.8 MB tuple with one bad dimension:
//
//   1:2400007: expected ',' or ']' in dimensions, found '}'
//   ...[1], f32[1], f32[1], f32[1], f32[1], f32[1], f32[1}, f32[1], f32[1],...
//                                                        ^
//
// Every parser of the project (shapes, HLO text, CuTe, tt-mlir grids) builds
// its errors here, so they all behave the same way. Positions are computed
// only when an error is built, so parsers pay nothing for them on the success
// path.
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

// OffsetLocator
//
// LocateOffset for many offsets of one text: each call scans only from the
// offset located before when the offsets come in increasing order (the
// warnings of a file, in text order, cost one pass over it together).
class OffsetLocator {
 public:
  explicit OffsetLocator(absl::string_view text) : text_(text) {}
  SourceLocation Locate(size_t offset);

 private:
  absl::string_view text_;
  size_t offset_ = 0;      // the offset located last
  int64_t line_ = 1;       // its line
  size_t line_start_ = 0;  // where its line starts
};

// SourceLineAt
//
// Returns the whole line of `text` that contains `offset`, without its
// newline (a trailing '\r' is dropped too).
absl::string_view SourceLineAt(absl::string_view text, size_t offset);

// The number of source columns a diagnostic shows at most (plus "..." on
// each side where the line is cut).
inline constexpr size_t kDiagnosticWindowWidth = 100;

// The part of a source line a diagnostic shows.
struct SourceWindow {
  absl::string_view text;   // a view into the line
  bool cut_before = false;  // the line goes on to the left of `text`
  bool cut_after = false;   // the line goes on to the right of `text`
  size_t caret_column = 0;  // 0-based column of the caret within `text`
};

// WindowAround
//
// The window of at most `width` bytes of `line` around the 0-based `column`
// (which may be at or past the end of the line): the whole line when it fits,
// otherwise a window with the caret near its middle, never cutting a UTF-8
// character in two.
SourceWindow WindowAround(absl::string_view line, size_t column,
                          size_t width = kDiagnosticWindowWidth);

// FormatDiagnostic
//
// Returns "L:C: message\n<source line>\n<spaces>^", the source line cut to
// WindowAround(...) with "..." where cut. Tabs in the source line are kept in
// the caret line so that the caret lines up in a terminal.
// `file_name`, when not empty, is prefixed as "file:L:C: message".
std::string FormatDiagnostic(absl::string_view text, size_t offset,
                             absl::string_view message,
                             absl::string_view file_name = "");
// The same, with the offset located by `locator` (an OffsetLocator of
// `text`).
std::string FormatDiagnostic(absl::string_view text, size_t offset,
                             absl::string_view message,
                             absl::string_view file_name,
                             OffsetLocator* locator);

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

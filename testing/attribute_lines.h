// testing/attribute_lines.h: HLO text with its attribute values broken
// across lines, for tests that every reader of an attribute value treats a
// line break as the space it is (XLA's lexer does; its own tests write
// `window={size=1x1 pad=0_0x0_0` and `rhs_reversal=0x0}` on two lines).
//
//   BreakAttributeValues("f(x), window={size=3 pad=1_1}", "\n  ")
//     == "f(x), window={\n  size=3\n  pad=1_1}"
#ifndef HLOLAYOUT_TESTING_ATTRIBUTE_LINES_H_
#define HLOLAYOUT_TESTING_ATTRIBUTE_LINES_H_

#include <string>

#include "absl/strings/string_view.h"

namespace hlolayout {

// `text` with, inside the brackets of every attribute value (`name={...}`,
// `name=[...]`, `name=(...)`, in module headers and instructions), each run
// of spaces replaced by `line_break`, `line_break` added after each comma
// not followed by a space and after each '{' that a name follows. Strings
// and computations written inline (`to_apply={ p0 = ... }`) are left as
// they are; so is everything outside attribute values. `line_break` should
// hold a '\n' or '\r' and otherwise only spaces or tabs.
std::string BreakAttributeValues(absl::string_view text,
                                 absl::string_view line_break);

}  // namespace hlolayout

#endif  // HLOLAYOUT_TESTING_ATTRIBUTE_LINES_H_

// util/json_string.h: a string as a JSON string literal (RFC 8259), the
// one escaper every `--json` writer of the project uses.
//
//   std::string out;
//   AppendJsonString(&out, "op_name=\"a\"\n");   // "\"op_name=\\\"a\\\"\\n\""
//
// Quotes and backslashes are escaped, \n \r \t \b \f by name, other
// control bytes as \u00XX; every other byte (UTF-8 included) is copied.
#ifndef HLOLAYOUT_UTIL_JSON_STRING_H_
#define HLOLAYOUT_UTIL_JSON_STRING_H_

#include <ostream>
#include <string>

#include "absl/strings/string_view.h"

namespace hlolayout {

// Appends `value` to `*out` quoted and escaped.
void AppendJsonString(std::string* out, absl::string_view value);

// The same, written to a stream.
void WriteJsonString(std::ostream& out, absl::string_view value);

}  // namespace hlolayout

#endif  // HLOLAYOUT_UTIL_JSON_STRING_H_

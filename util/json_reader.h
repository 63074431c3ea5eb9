// util/json_reader.h: the one JSON reader, with located errors, for every
// room that reads JSON (Triton's bases, TTNN's specs, test data).
//
//   absl::StatusOr<JsonValue> v = ParseJson(R"({"register": [[0, 1]]})");
//   v->Find("register")->array[0].array[1].integer == 1
//
// Numbers keep their int64 value when they are integers in range
// (is_integer); other numbers only have `number`. Objects keep their keys
// in order (a repeated key is an error). Bad text gives an InvalidArgument
// status "L:C: message" with the source line and a caret
// (parser/diagnostic.h). Nesting deeper than kMaxJsonDepth is refused, so
// hostile input cannot exhaust the stack; time and memory are linear in the
// input.
#ifndef HLOLAYOUT_UTIL_JSON_READER_H_
#define HLOLAYOUT_UTIL_JSON_READER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace hlolayout {

inline constexpr int kMaxJsonDepth = 128;

struct JsonValue {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  bool boolean = false;
  bool is_integer = false;
  int64_t integer = 0;
  double number = 0;
  std::string string;
  std::vector<JsonValue> array;
  std::vector<std::pair<std::string, JsonValue>> object;
  size_t offset = 0;  // where the value starts in the text

  // The member `key` of an object, or nullptr.
  const JsonValue* Find(absl::string_view key) const;
  bool is_array() const { return kind == Kind::kArray; }
  bool is_object() const { return kind == Kind::kObject; }
  bool is_string() const { return kind == Kind::kString; }
};

// ParseJson
//
// One JSON value, with nothing but white space after it.
absl::StatusOr<JsonValue> ParseJson(absl::string_view text,
                                    absl::string_view file_name = "");

// The name of a kind for messages: "an array", "a string", ...
const char* JsonKindName(JsonValue::Kind kind);

}  // namespace hlolayout

#endif  // HLOLAYOUT_UTIL_JSON_READER_H_

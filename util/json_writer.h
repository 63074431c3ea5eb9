// util/json_writer.h: a small JSON writer, for every `--json` output and
// the library types that render themselves as JSON.
//
//   JsonWriter json;
//   json.BeginObject();
//   json.Key("shape").String("f32[3,5]{1,0}");
//   json.Key("dimensions").BeginArray().Int(3).Int(5).EndArray();
//   json.EndObject();
//   json.str() == "{\"shape\": \"f32[3,5]{1,0}\", \"dimensions\": [3, 5]}"
//
// Output is compact on one line unless constructed with `pretty` (two-space
// indentation). Strings are escaped per RFC 8259; non-finite doubles are
// written as null. Misuse (a value without a key inside an object,
// unbalanced End calls) CHECK-fails.
#ifndef HLOLAYOUT_UTIL_JSON_WRITER_H_
#define HLOLAYOUT_UTIL_JSON_WRITER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "hlolayout/util/json_string.h"  // AppendJsonString

namespace hlolayout {

// `value` in its shortest form that reads back identically ("0.1", "1e+20");
// null when it is not finite.
void AppendJsonDouble(std::string* out, double value);

class JsonWriter {
 public:
  explicit JsonWriter(bool pretty = false) : pretty_(pretty) {}

  JsonWriter& BeginObject();
  JsonWriter& EndObject();
  JsonWriter& BeginArray();
  JsonWriter& EndArray();
  JsonWriter& Key(absl::string_view key);
  JsonWriter& String(absl::string_view value);
  JsonWriter& Int(int64_t value);
  JsonWriter& Double(double value);
  JsonWriter& Bool(bool value);
  JsonWriter& Null();
  // An array of integers: IntArray({3, 5}) writes [3, 5].
  JsonWriter& IntArray(absl::Span<const int64_t> values);

  // The document so far. Complete once every Begin has its End.
  const std::string& str() const { return out_; }

 private:
  struct Scope {
    bool is_object;
    int count;
  };
  void BeforeValue();
  void Newline();

  bool pretty_;
  bool after_key_ = false;
  std::string out_;
  std::vector<Scope> scopes_;
};

}  // namespace hlolayout

#endif  // HLOLAYOUT_UTIL_JSON_WRITER_H_

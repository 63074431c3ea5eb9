#include "hlolayout/util/json_writer.h"

#include <cmath>
#include <cstdio>

#include "absl/strings/str_cat.h"
#include "hlolayout/util/check.h"

namespace hlolayout {

void JsonWriter::Newline() {
  if (!pretty_) return;
  out_.push_back('\n');
  out_.append(2 * scopes_.size(), ' ');
}

void JsonWriter::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (scopes_.empty()) {
    HLOLAYOUT_CHECK(out_.empty()) << "JSON: second top-level value";
    return;
  }
  Scope& scope = scopes_.back();
  HLOLAYOUT_CHECK(!scope.is_object) << "JSON: value without a key";
  if (scope.count++ > 0) out_.append(pretty_ ? "," : ", ");
  Newline();
}

void AppendJsonDouble(std::string* out, double value) {
  if (!std::isfinite(value)) {
    out->append("null");
    return;
  }
  // The shortest form that reads back identically.
  for (int precision = 1; precision < 17; ++precision) {
    char shorter[32];
    std::snprintf(shorter, sizeof(shorter), "%.*g", precision, value);
    if (std::strtod(shorter, nullptr) == value) {
      out->append(shorter);
      return;
    }
  }
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.17g", value);
  out->append(buffer);
}

JsonWriter& JsonWriter::BeginObject() {
  BeforeValue();
  out_.push_back('{');
  scopes_.push_back({true, 0});
  return *this;
}

JsonWriter& JsonWriter::EndObject() {
  HLOLAYOUT_CHECK(!scopes_.empty() && scopes_.back().is_object && !after_key_);
  const bool empty = scopes_.back().count == 0;
  scopes_.pop_back();
  if (!empty) Newline();
  out_.push_back('}');
  return *this;
}

JsonWriter& JsonWriter::BeginArray() {
  BeforeValue();
  out_.push_back('[');
  scopes_.push_back({false, 0});
  return *this;
}

JsonWriter& JsonWriter::EndArray() {
  HLOLAYOUT_CHECK(!scopes_.empty() && !scopes_.back().is_object);
  const bool empty = scopes_.back().count == 0;
  scopes_.pop_back();
  if (!empty) Newline();
  out_.push_back(']');
  return *this;
}

JsonWriter& JsonWriter::Key(absl::string_view key) {
  HLOLAYOUT_CHECK(!scopes_.empty() && scopes_.back().is_object && !after_key_)
      << "JSON: key outside an object";
  Scope& scope = scopes_.back();
  if (scope.count++ > 0) out_.append(pretty_ ? "," : ", ");
  Newline();
  AppendJsonString(&out_, key);
  out_.append(": ");
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::String(absl::string_view value) {
  BeforeValue();
  AppendJsonString(&out_, value);
  return *this;
}

JsonWriter& JsonWriter::Int(int64_t value) {
  BeforeValue();
  absl::StrAppend(&out_, value);
  return *this;
}

JsonWriter& JsonWriter::Double(double value) {
  BeforeValue();
  AppendJsonDouble(&out_, value);
  return *this;
}

JsonWriter& JsonWriter::Bool(bool value) {
  BeforeValue();
  out_.append(value ? "true" : "false");
  return *this;
}

JsonWriter& JsonWriter::IntArray(absl::Span<const int64_t> values) {
  BeginArray();
  for (int64_t v : values) Int(v);
  return EndArray();
}

JsonWriter& JsonWriter::Null() {
  BeforeValue();
  out_.append("null");
  return *this;
}

}  // namespace hlolayout

// The reader's attribute lists (reader_internal.h): `, name=value` pairs
// after an instruction's operands and a module's name, each value scanned
// to its end (brackets and strings skipped whole).
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "hlolayout/hlo/reader_internal.h"
#include "hlolayout/hlo/scan.h"

namespace hlolayout {
namespace hlo_internal {

absl::Status Reader::ScanValue(absl::string_view name,
                               absl::string_view* value) {
  const size_t begin = pos_;
  const size_t n = text_.size();
  while (pos_ < n) {
    const char c = text_[pos_];
    if (!Is(c, kValueStop)) {
      ++pos_;
      continue;
    }
    if (c == '{' || c == '(' || c == '[') {
      absl::Status status = SkipBalanced();
      if (!status.ok()) return status;
      continue;
    }
    if (c == '"') {
      absl::Status status = SkipString();
      if (!status.ok()) return status;
      continue;
    }
    if (c == ' ' || c == '\t') {
      // `mesh['a'=2] {'a'}`: a bracket after spaces continues the value.
      size_t p = pos_;
      while (p < n && Is(text_[p], kHorizontalSpace)) ++p;
      if (pos_ > begin && p < n && (text_[p] == '{' || text_[p] == '[')) {
        pos_ = p;
        continue;
      }
    }
    if (c == '/' &&
        !(pos_ + 1 < n && (text_[pos_ + 1] == '*' || text_[pos_ + 1] == '/'))) {
      ++pos_;
      continue;
    }
    break;  // ',' newline space '}' ')' ']' or a comment
  }
  if (pos_ == begin) {
    return Expected(absl::StrCat("a value for attribute '", name, "'"));
  }
  *value = text_.substr(begin, pos_ - begin);
  return absl::OkStatus();
}

absl::Status Reader::ParseAttributes(std::vector<HloAttribute>* attributes) {
  while (true) {
    const size_t save = pos_;
    absl::Status status = SkipTrivia();
    if (!status.ok()) return status;
    if (Peek() != ',') {
      pos_ = save;
      return absl::OkStatus();
    }
    ++pos_;
    status = SkipTrivia();
    if (!status.ok()) return status;
    const absl::string_view name = ScanName();
    absl::string_view value;
    if (name.empty()) return Expected("an attribute name");
    SkipHorizontalSpace();
    if (Peek() != '=') {
      return Expected(absl::StrCat("'=' after attribute '", name, "'"));
    }
    ++pos_;
    SkipHorizontalSpace();
    // A computation written inline (`to_apply={ p0 = ... }`), or a list that
    // may hold some.
    status = Peek() == '{' && in_computation_ && IsCalleeAttributeName(name)
                 ? ReadCalleeValue(name, &value)
                 : ScanValue(name, &value);
    if (!status.ok()) return status;
    if (name == "literal") {
      // A shape and a value: `literal=f32[] 0.1`, `literal=s32[2] {1, 2}`.
      const size_t save = pos_;
      SkipHorizontalSpace();
      const char c = Peek();
      if (pos_ > save && c != '\0' && c != ',' && c != '\n' && c != '\r' &&
          c != '}' && c != ')' && c != '/') {
        absl::string_view rest;
        status = ScanValue(name, &rest);
        if (!status.ok()) return status;
        const size_t begin = value.data() - text_.data();
        value = text_.substr(begin, pos_ - begin);
      } else {
        pos_ = save;
      }
    }
    // Kept with 32-bit sizes (HloAttribute).
    const size_t begin = name.data() - text_.data();
    if (pos_ - begin > UINT32_MAX) {
      return Error(begin, "attribute longer than 4 GiB");
    }
    attributes->emplace_back(name, value);
  }
}

}  // namespace hlo_internal
}  // namespace hlolayout

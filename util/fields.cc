#include "hlolayout/util/fields.h"

#include <algorithm>
#include <deque>
#include <mutex>  // NOLINT
#include <string>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/util/check.h"

namespace hlolayout::fields_internal {
namespace {

// "memdesc_shape" -> "MemdescShape": each word's first letter upper case,
// the underscores dropped.
std::string CamelCase(absl::string_view name) {
  std::string out;
  bool upper = true;
  for (char c : name) {
    if (c == '_') {
      upper = true;
      continue;
    }
    out.push_back(upper ? absl::ascii_toupper(static_cast<unsigned char>(c))
                        : c);
    upper = false;
  }
  return out;
}

}  // namespace

void SpecBuilder::Add(const char* name, const char* doc, std::string type,
                      const FieldOptions& o) {
  // The specs live as long as the program; so do their type names. Two
  // types' specs may be made at once on two threads.
  static auto* mutex = new std::mutex();
  static auto* types = new std::deque<std::string>();
  const char* type_name;
  const char* camel_key = nullptr;
  {
    std::lock_guard<std::mutex> lock(*mutex);
    types->push_back(std::move(type));
    type_name = types->back().c_str();
    if (o.camel_key) {
      types->push_back(CamelCase(name));
      camel_key = types->back().c_str();
    }
  }
  FieldSpec f{name, doc != nullptr ? doc : "", type_name};
  f.json = o.json;
  f.json_name = camel_key != nullptr ? camel_key : o.json_name;
  f.in_repr = o.in_repr;
  f.deprecated_name = o.deprecated_name;
  f.item_indent = o.item_indent;
  f.key_indent = o.key_indent;
  f.close_after_last_item = o.close_after_last_item;
  spec_->fields.push_back(f);
}

void CheckSpec(const RecordSpec& spec, const char* cxx_name) {
  HLOLAYOUT_CHECK(spec.name != nullptr)
      << cxx_name << ": its HlolayoutFields hook calls no f.Type(name, doc)";
  for (size_t i = 0; i < spec.fields.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      HLOLAYOUT_CHECK(absl::string_view(spec.fields[i].name) !=
                      spec.fields[j].name)
          << spec.name << ": field " << spec.fields[i].name << " twice";
    }
  }
}

std::string AlignedLines(
    absl::string_view title, absl::string_view indent,
    const std::vector<std::pair<const char*, std::string>>& lines) {
  size_t width = 0;
  for (const auto& [name, value] : lines) {
    width = std::max(width, absl::string_view(name).size());
  }
  std::string out;
  if (!title.empty()) absl::StrAppend(&out, title, "\n");
  for (const auto& [name, value] : lines) {
    const size_t n = absl::string_view(name).size();
    absl::StrAppend(&out, indent, name, ":", std::string(width - n + 1, ' '),
                    value, "\n");
  }
  return out;
}

}  // namespace hlolayout::fields_internal

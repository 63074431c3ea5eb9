// cute/atom/static_text.cc: `_N` text of IntTuples and Layouts.
#include "hlolayout/cute/atom/static_text.h"

#include <string>

#include "absl/strings/str_cat.h"

namespace hlolayout::cute {

namespace {

void Append(const IntTuple& t, std::string& out) {
  if (t.is_int()) {
    absl::StrAppend(&out, "_", t.value());
    return;
  }
  out += '(';
  for (size_t i = 0; i < t.elements().size(); ++i) {
    if (i > 0) out += ',';
    Append(t.elements()[i], out);
  }
  out += ')';
}

}  // namespace

std::string StaticText(const IntTuple& t) {
  std::string out;
  Append(t, out);
  return out;
}

std::string StaticText(const Layout& layout) {
  std::string out;
  Append(layout.shape(), out);
  out += ':';
  Append(layout.stride(), out);
  return out;
}

}  // namespace hlolayout::cute

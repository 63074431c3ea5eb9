// testing/stringify.h: what a type's AbslStringify hook and operator<<
// print, for tests of both.
//
//   EXPECT_EQ(Stringified(shape), "f32[8,128]{1,0:T(8,128)}");
//   EXPECT_EQ(Streamed(shape), "f32[8,128]{1,0:T(8,128)}");
//
// Stringified calls the hook with a sink of its own, as absl::StrCat does
// (Append of a view or of repeated characters), so the hook is checked with
// any Abseil, also one older than absl::StrCat's support for it.
#ifndef HLOLAYOUT_TESTING_STRINGIFY_H_
#define HLOLAYOUT_TESTING_STRINGIFY_H_

#include <cstddef>
#include <sstream>
#include <string>

#include "absl/strings/string_view.h"

namespace hlolayout {
struct StringSink {
  std::string text;
  void Append(absl::string_view s) { text.append(s.data(), s.size()); }
  void Append(size_t count, char c) { text.append(count, c); }
};

template <typename T>
std::string Stringified(const T& value) {
  StringSink sink;
  AbslStringify(sink, value);
  return sink.text;
}

template <typename T>
std::string Streamed(const T& value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

}  // namespace hlolayout

#endif  // HLOLAYOUT_TESTING_STRINGIFY_H_

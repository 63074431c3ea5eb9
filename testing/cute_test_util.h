// testing/cute_test_util.h: terse helpers for cute tests.
//
//   Layout a = L("(6,2):(8,2)");       // aborts on a parse error
//   Tiler t = T("<3:4, 8:2>");
//   EXPECT_EQ(S(Composition(a, b)), "((2,2),3):((24,2),8)");
//   EXPECT_EQ(S(Composition(a, bad)), "error: ...");
#ifndef HLOLAYOUT_TESTING_CUTE_TEST_UTIL_H_
#define HLOLAYOUT_TESTING_CUTE_TEST_UTIL_H_

#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/cute/layout.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/cute/print.h"
#include "hlolayout/cute/tiler.h"

namespace hlolayout::cute::internal {

inline Layout L(absl::string_view text) {
  absl::StatusOr<Layout> l = ParseLayout(text);
  if (!l.ok()) {
    std::fprintf(stderr, "bad test layout: %s\n",
                 std::string(l.status().message()).c_str());
    std::abort();
  }
  return *l;
}

inline Tiler T(absl::string_view text) {
  absl::StatusOr<Tiler> t = ParseTiler(text);
  if (!t.ok()) {
    std::fprintf(stderr, "bad test tiler: %s\n",
                 std::string(t.status().message()).c_str());
    std::abort();
  }
  return *t;
}

inline IntTuple I(absl::string_view text) {
  absl::StatusOr<IntTuple> t = ParseIntTuple(text);
  if (!t.ok()) {
    std::fprintf(stderr, "bad test tuple: %s\n",
                 std::string(t.status().message()).c_str());
    std::abort();
  }
  return *t;
}

// The printed layout, or "error: " + message.
inline std::string S(const absl::StatusOr<Layout>& l) {
  if (!l.ok()) return "error: " + std::string(l.status().message());
  return ToString(*l);
}

}  // namespace hlolayout::cute::internal

#endif  // HLOLAYOUT_TESTING_CUTE_TEST_UTIL_H_

// fuzz/fuzz_util.h: helpers shared by the libFuzzer harnesses.
#ifndef HLOLAYOUT_FUZZ_FUZZ_UTIL_H_
#define HLOLAYOUT_FUZZ_FUZZ_UTIL_H_

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace hlolayout::fuzz {

// The largest input every harness accepts (fuzz/run.sh passes the same
// -max_len): 64 KB reaches shapes with thousands of tile levels (1000
// levels of `T(2)` are 3 KB, 10000 are 40 KB), HLO modules with long
// `constant(...)` lines and many `#N` operands, which once took cubic time
// or printed whole lines in errors.
inline constexpr size_t kMaxInputSize = 65536;

// Stops the fuzzer with a message: a broken invariant is a finding.
[[noreturn]] inline void Fail(absl::string_view what, absl::string_view a,
                              absl::string_view b = "") {
  std::fprintf(stderr, "FUZZ INVARIANT BROKEN: %.*s\n  [%.*s]\n  [%.*s]\n",
               static_cast<int>(what.size()), what.data(),
               static_cast<int>(a.size()), a.data(), static_cast<int>(b.size()),
               b.data());
  std::abort();
}

// The project rule: errors are short statuses with a message, never OK
// pretending to be an error and never empty.
inline void CheckError(const absl::Status& status, absl::string_view input) {
  if (status.ok()) return;
  if (status.message().empty()) Fail("error status without a message", input);
}

// Splits `text` at `sep`, at most `max_parts` parts (the last one keeps the
// rest).
inline std::vector<absl::string_view> SplitN(absl::string_view text, char sep,
                                             size_t max_parts) {
  std::vector<absl::string_view> parts;
  while (parts.size() + 1 < max_parts) {
    size_t at = text.find(sep);
    if (at == absl::string_view::npos) break;
    parts.push_back(text.substr(0, at));
    text.remove_prefix(at + 1);
  }
  parts.push_back(text);
  return parts;
}

}  // namespace hlolayout::fuzz

#endif  // HLOLAYOUT_FUZZ_FUZZ_UTIL_H_

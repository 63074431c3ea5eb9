// util/check.h: CHECK for internal invariants and API misuse.
//
// Debian's Abseil (LTS 20220623) predates absl/log, so hlolayout has its own
// minimal CHECK. It is for broken invariants and precondition violations by
// the calling program, never for untrusted input (that returns a Status).
//
//   HLOLAYOUT_CHECK(rank >= 0) << "rank " << rank;
//
// A failed check prints "file:line: check failed: cond <message>" to stderr
// and aborts, in every build mode.
#ifndef HLOLAYOUT_UTIL_CHECK_H_
#define HLOLAYOUT_UTIL_CHECK_H_

#include <sstream>

namespace hlolayout::internal {

class CheckFailure {
 public:
  CheckFailure(const char* file, int line, const char* condition);
  [[noreturn]] ~CheckFailure();
  std::ostream& stream() { return stream_; }

 private:
  std::ostringstream stream_;
};

// Lets `HLOLAYOUT_CHECK(c) << x` be a void expression in a ternary.
struct Voidify {
  void operator&(std::ostream&) {}
};

}  // namespace hlolayout::internal

#define HLOLAYOUT_CHECK(condition)                                          \
  (condition) ? (void)0                                                     \
              : ::hlolayout::internal::Voidify() &                          \
                    ::hlolayout::internal::CheckFailure(__FILE__, __LINE__, \
                                                        #condition)         \
                        .stream()

#endif  // HLOLAYOUT_UTIL_CHECK_H_

// testing/sanitizer_scale.h: smaller samples for the property tests that run
// again under the sanitizers in CI.
//
//   for (uint64_t seed = 0; seed < SanitizerScaled(1000); ++seed) ...
//
// `./bazelw test //...` runs every property test on its whole sample and
// proves the property; `.ci/run` then runs the library's tests again under
// AddressSanitizer and UndefinedBehaviorSanitizer (.bazelrc's --config=asan),
// which prove that the same code paths touch no memory they do not own and
// have no undefined behaviour. That second run needs the paths, not every
// case again: under the sanitizers the largest samples shrink, so that CI
// stays within its time (docs/hardening.md).
#ifndef HLOLAYOUT_TESTING_SANITIZER_SCALE_H_
#define HLOLAYOUT_TESTING_SANITIZER_SCALE_H_

#include <cstdint>

namespace hlolayout {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitizerBuild = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
inline constexpr bool kSanitizerBuild = true;
#else
inline constexpr bool kSanitizerBuild = false;
#endif
#else
inline constexpr bool kSanitizerBuild = false;
#endif

// `n` in a normal build; n / divisor, at least 1, under the sanitizers.
constexpr int64_t SanitizerScaled(int64_t n, int64_t divisor = 8) {
  return !kSanitizerBuild ? n : (n / divisor > 0 ? n / divisor : 1);
}

}  // namespace hlolayout

#endif  // HLOLAYOUT_TESTING_SANITIZER_SCALE_H_

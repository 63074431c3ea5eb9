// util/edit_distance.h: how far apart two names are, for the "nearest known
// names" of an error message.
//
//   EditDistance("threadPerWarp", "threadsPerWarp")        == 1
//   EditDistance("K_sw128", "K_SW128", Case::kIgnore)       == 0
//   NearestNames("SM80_16x8x16_F16F16F16F16_TM", known, 3)  // closest first
//
// Levenshtein distance (insertions, deletions and substitutions of one byte
// cost 1). Time O(max(|a|, |b|)) when one is at most 256 bytes (up to four
// machine words per byte of the other), else O(|a| * |b|); memory O(|b|):
// meant for names, not texts. NearestNames bounds each comparison by the best
// found so far.
#ifndef HLOLAYOUT_UTIL_EDIT_DISTANCE_H_
#define HLOLAYOUT_UTIL_EDIT_DISTANCE_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace hlolayout {

enum class Case { kSensitive, kIgnore };

// EditDistance
//
// The number of one-byte insertions, deletions and substitutions that turn
// `a` into `b`; with Case::kIgnore, ASCII letters compare without case.
int EditDistance(absl::string_view a, absl::string_view b,
                 Case letter_case = Case::kSensitive);

// EditDistanceUpTo
//
// EditDistance(a, b) when it is at most `bound`, else bound + 1, in time
// O(max(|a|, |b|)) when one is at most 256 bytes, else O(bound * min(|a|,
// |b|)): for finding near names among many far ones.
int EditDistanceUpTo(absl::string_view a, absl::string_view b, int bound,
                     Case letter_case = Case::kSensitive);

// NearestNames
//
// The `count` names of `candidates` nearest to `query` by EditDistance,
// nearest first; names at the same distance keep their order in
// `candidates`. Duplicates are kept once. A query longer than
// kMaxNearestQuery bytes has none (it is no misspelt name, and the time
// would grow with its length times the candidates).
inline constexpr size_t kMaxNearestQuery = 1024;
std::vector<std::string> NearestNames(absl::string_view query,
                                      absl::Span<const std::string> candidates,
                                      size_t count,
                                      Case letter_case = Case::kSensitive);

// CloseEnough
//
// Whether `name` reads as a misspelling of `known`, so that a message may
// ask "did you mean 'known'?": at most 2 edits, and at most half the
// length of the longer name ("x" is no misspelling of "y").
bool CloseEnough(absl::string_view name, absl::string_view known);

}  // namespace hlolayout

#endif  // HLOLAYOUT_UTIL_EDIT_DISTANCE_H_

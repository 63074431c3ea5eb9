// util/edit_distance.cc
#include "hlolayout/util/edit_distance.h"

#include <algorithm>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"

namespace hlolayout {

int EditDistance(absl::string_view a, absl::string_view b, Case letter_case) {
  auto same = [letter_case](char x, char y) {
    return letter_case == Case::kIgnore
               ? absl::ascii_tolower(static_cast<unsigned char>(x)) ==
                     absl::ascii_tolower(static_cast<unsigned char>(y))
               : x == y;
  };
  // One row of the distance table: row[j] is the distance between the
  // first i bytes of a and the first j bytes of b.
  std::vector<int> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    int diagonal = row[0];
    row[0] = static_cast<int>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      const int above = row[j];
      row[j] = std::min({above + 1, row[j - 1] + 1,
                         diagonal + (same(a[i - 1], b[j - 1]) ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::vector<std::string> NearestNames(absl::string_view query,
                                      absl::Span<const std::string> candidates,
                                      size_t count, Case letter_case) {
  std::vector<std::pair<int, size_t>> scored;  // (distance, index)
  absl::flat_hash_set<absl::string_view> seen;
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (!seen.insert(candidates[i]).second) continue;
    scored.emplace_back(EditDistance(query, candidates[i], letter_case), i);
  }
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (size_t i = 0; i < scored.size() && out.size() < count; ++i) {
    out.push_back(candidates[scored[i].second]);
  }
  return out;
}

}  // namespace hlolayout

// util/edit_distance.cc
#include "hlolayout/util/edit_distance.h"

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"

namespace hlolayout {

namespace {

bool Same(char x, char y, Case letter_case) {
  return letter_case == Case::kIgnore
             ? absl::ascii_tolower(static_cast<unsigned char>(x)) ==
                   absl::ascii_tolower(static_cast<unsigned char>(y))
             : x == y;
}

}  // namespace

int EditDistance(absl::string_view a, absl::string_view b, Case letter_case) {
  return EditDistanceUpTo(a, b, static_cast<int>(std::max(a.size(), b.size())),
                          letter_case);
}

int EditDistanceUpTo(absl::string_view a, absl::string_view b, int bound,
                     Case letter_case) {
  const int n = static_cast<int>(a.size());
  const int m = static_cast<int>(b.size());
  const int over = bound + 1;
  if (bound < 0 || std::abs(n - m) > bound) return over;
  // One row of the distance table, row[j] = D(i, j), capped at `over`. Only
  // the band |i - j| <= bound can hold a distance within the bound; cells to
  // its right keep the first row's `over` until the band reaches them.
  std::vector<int> row(m + 1);
  for (int j = 0; j <= m; ++j) row[j] = std::min(j, over);
  for (int i = 1; i <= n; ++i) {
    const int lo = std::max(1, i - bound);
    const int hi = std::min(m, i + bound);
    int diagonal = row[lo - 1];                        // D(i - 1, lo - 1)
    row[lo - 1] = lo == 1 ? std::min(i, over) : over;  // D(i, lo - 1)
    int row_min = row[lo - 1];
    for (int j = lo; j <= hi; ++j) {
      const int above = row[j];  // D(i - 1, j)
      const int here = std::min(
          {above + 1, row[j - 1] + 1,
           diagonal + (Same(a[i - 1], b[j - 1], letter_case) ? 0 : 1)});
      row[j] = std::min(here, over);
      diagonal = above;
      row_min = std::min(row_min, row[j]);
    }
    if (row_min > bound) return over;
  }
  return row[m];
}

std::vector<std::string> NearestNames(absl::string_view query,
                                      absl::Span<const std::string> candidates,
                                      size_t count, Case letter_case) {
  if (count == 0) return {};
  // The best so far, (distance, index), nearest first; a later candidate
  // enters only when strictly nearer than the last kept one, so ties keep
  // the order of `candidates`.
  std::vector<std::pair<int, size_t>> best;
  absl::flat_hash_set<absl::string_view> seen;
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (!seen.insert(candidates[i]).second) continue;
    const int bound =
        best.size() < count
            ? static_cast<int>(std::max(query.size(), candidates[i].size()))
            : best.back().first - 1;
    const int d = EditDistanceUpTo(query, candidates[i], bound, letter_case);
    if (d > bound) continue;
    const std::pair<int, size_t> entry(d, i);
    best.insert(std::upper_bound(best.begin(), best.end(), entry), entry);
    if (best.size() > count) best.pop_back();
  }
  std::vector<std::string> out;
  for (const auto& [distance, index] : best) out.push_back(candidates[index]);
  return out;
}

bool CloseEnough(absl::string_view name, absl::string_view known) {
  const int d = EditDistanceUpTo(name, known, 2);
  const size_t longer = std::max(name.size(), known.size());
  return d <= 2 && static_cast<size_t>(2 * d) <= longer;
}

}  // namespace hlolayout

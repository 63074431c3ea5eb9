// util/edit_distance.cc
#include "hlolayout/util/edit_distance.h"

#include <algorithm>
#include <cstdint>
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

// Levenshtein distance of `pattern` (1 to 64 bytes) and `text` by Myers'
// bit-parallel algorithm (in Hyyro's form): column j of the distance table
// is kept as two bit vectors, the rows where it rises (vp) and falls (vn)
// by one from the row above, and each text byte updates every row at once.
// `score` follows the last row: D(|pattern|, j).
int BitParallelDistance(absl::string_view pattern, absl::string_view text,
                        Case letter_case) {
  const int m = static_cast<int>(pattern.size());
  uint64_t match[256] = {};  // rows whose pattern byte equals the key
  for (int i = 0; i < m; ++i) {
    const unsigned char c = static_cast<unsigned char>(pattern[i]);
    const uint64_t bit = uint64_t{1} << i;
    match[c] |= bit;
    if (letter_case == Case::kIgnore) {
      match[static_cast<unsigned char>(absl::ascii_tolower(c))] |= bit;
      match[static_cast<unsigned char>(absl::ascii_toupper(c))] |= bit;
    }
  }
  const uint64_t last = uint64_t{1} << (m - 1);
  uint64_t vp = ~uint64_t{0}, vn = 0;  // column 0: D(i, 0) = i
  int score = m;
  for (const char t : text) {
    const uint64_t eq = match[static_cast<unsigned char>(t)];
    const uint64_t xv = eq | vn;
    const uint64_t xh = (((eq & vp) + vp) ^ vp) | eq;
    uint64_t hp = vn | ~(xh | vp);  // rows where D(i, j) - D(i, j - 1) = +1
    uint64_t hn = vp & xh;          // ... and -1
    if (hp & last) ++score;
    if (hn & last) --score;
    // Row 0 rises by one per byte (D(0, j) = j). Bits above m - 1 are
    // never read: carries and shifts only move upwards.
    hp = (hp << 1) | 1;
    hn <<= 1;
    vp = hn | ~(xv | hp);
    vn = hp & xv;
  }
  return score;
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
  if (n == 0 || m == 0) return std::max(n, m);  // within the bound (above)
  if (std::min(n, m) <= 64) {  // one machine word per text byte
    const int d = n <= m ? BitParallelDistance(a, b, letter_case)
                         : BitParallelDistance(b, a, letter_case);
    return d <= bound ? d : over;
  }
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
  if (count == 0 || query.size() > kMaxNearestQuery) return {};
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

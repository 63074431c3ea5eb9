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

// The longest pattern BitParallelDistance takes: four words of rows.
constexpr int kMaxBitParallel = 4 * 64;

// Levenshtein distance of `pattern` (1 to kMaxBitParallel bytes) and `text`
// by Myers' bit-parallel algorithm: column j of the distance table is kept
// as bit vectors, 64 rows a word, of the rows where it rises (vp) and falls
// (vn) by one from the row above, and each text byte updates 64 rows at
// once. A word passes the horizontal change of its last row (+1, 0 or -1)
// to the next word's first row; row 0 rises by one per byte (D(0, j) = j).
// `score` follows the last row: D(|pattern|, j).
int BitParallelDistance(absl::string_view pattern, absl::string_view text,
                        Case letter_case) {
  const int m = static_cast<int>(pattern.size());
  const int words = (m + 63) / 64;
  // match[c * words + w]: the rows of word w whose pattern byte is c.
  uint64_t match[256 * (kMaxBitParallel / 64)];
  std::fill(match, match + 256 * words, uint64_t{0});
  for (int i = 0; i < m; ++i) {
    const unsigned char c = static_cast<unsigned char>(pattern[i]);
    const uint64_t bit = uint64_t{1} << (i % 64);
    const int w = i / 64;
    match[c * words + w] |= bit;
    if (letter_case == Case::kIgnore) {
      match[static_cast<unsigned char>(absl::ascii_tolower(c)) * words + w] |=
          bit;
      match[static_cast<unsigned char>(absl::ascii_toupper(c)) * words + w] |=
          bit;
    }
  }
  uint64_t vp[kMaxBitParallel / 64], vn[kMaxBitParallel / 64];
  std::fill(vp, vp + words, ~uint64_t{0});  // column 0: D(i, 0) = i
  std::fill(vn, vn + words, uint64_t{0});
  const uint64_t last = uint64_t{1} << ((m - 1) % 64);
  constexpr uint64_t kTop = uint64_t{1} << 63;
  int score = m;
  for (const char t : text) {
    const uint64_t* eqs = &match[static_cast<unsigned char>(t) * words];
    int carry = 1;  // the change along row 0
    for (int w = 0; w < words; ++w) {
      uint64_t eq = eqs[w];
      const uint64_t xv = eq | vn[w];
      if (carry < 0) eq |= 1;
      const uint64_t xh = (((eq & vp[w]) + vp[w]) ^ vp[w]) | eq;
      uint64_t hp = vn[w] | ~(xh | vp[w]);  // rows rising from column j - 1
      uint64_t hn = vp[w] & xh;             // ... and falling
      // Bits above row m - 1 of the last word are never read: carries
      // and shifts only move upwards.
      const uint64_t out = w + 1 == words ? last : kTop;
      const int next = (hp & out) ? 1 : (hn & out) ? -1 : 0;
      hp <<= 1;
      hn <<= 1;
      if (carry > 0) hp |= 1;
      if (carry < 0) hn |= 1;
      vp[w] = hn | ~(xv | hp);
      vn[w] = hp & xv;
      carry = next;
    }
    score += carry;
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
  if (std::min(n, m) <= kMaxBitParallel) {      // a few words per text byte
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

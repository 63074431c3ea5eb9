// Tests of EditDistance and NearestNames (util/edit_distance.h): the
// definition's small cases, symmetry and the triangle inequality over every
// pair of short strings of a two-letter alphabet, case folding, and the
// order of nearest names.
#include "hlolayout/util/edit_distance.h"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/sanitizer_scale.h"

namespace hlolayout {
namespace {

TEST(EditDistance, SmallCases) {
  EXPECT_EQ(EditDistance("", ""), 0);
  EXPECT_EQ(EditDistance("abc", ""), 3);
  EXPECT_EQ(EditDistance("", "abc"), 3);
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3);
  EXPECT_EQ(EditDistance("threadPerWarp", "threadsPerWarp"), 1);
  EXPECT_EQ(EditDistance("flaw", "lawn"), 2);
  EXPECT_EQ(EditDistance("K_sw128", "K_SW128"), 2);
  EXPECT_EQ(EditDistance("K_sw128", "K_SW128", Case::kIgnore), 0);
}

// Every string of length 0..4 over {a, b}.
std::vector<std::string> AllShortStrings() {
  std::vector<std::string> out = {""};
  for (size_t begin = 0, len = 1; len <= 4; ++len) {
    const size_t end = out.size();
    for (size_t i = begin; i < end; ++i) {
      out.push_back(out[i] + "a");
      out.push_back(out[i] + "b");
    }
    begin = end;
  }
  return out;
}

// Against the definition: a metric, bounded by the longer length, at least
// the difference of lengths, and one edit away from every one-byte change.
TEST(EditDistance, IsAMetricOnEveryPairOfShortStrings) {
  const std::vector<std::string> all = AllShortStrings();
  ASSERT_EQ(all.size(), 31u);
  for (const std::string& a : all) {
    for (const std::string& b : all) {
      const int d = EditDistance(a, b);
      EXPECT_EQ(d == 0, a == b);
      EXPECT_EQ(d, EditDistance(b, a));
      EXPECT_LE(d, static_cast<int>(std::max(a.size(), b.size())));
      EXPECT_GE(d, std::abs(static_cast<int>(a.size() - b.size())));
      for (int bound = -1; bound <= 5; ++bound) {
        EXPECT_EQ(EditDistanceUpTo(a, b, bound), d <= bound ? d : bound + 1)
            << a << " " << b << " " << bound;
      }
      for (const std::string& c : all) {
        EXPECT_LE(d, EditDistance(a, c) + EditDistance(c, b))
            << a << " " << b << " " << c;
      }
    }
    for (size_t i = 0; i < a.size(); ++i) {
      std::string changed = a;
      changed[i] = a[i] == 'a' ? 'b' : 'a';
      EXPECT_EQ(EditDistance(a, changed), 1);
      EXPECT_EQ(EditDistance(a, a.substr(0, i) + a.substr(i + 1)), 1);
    }
  }
}

// The table of the definition, filled whole: the reference for the fast
// paths (one word per byte up to 64 bytes, a band beyond).
int TableDistance(const std::string& a, const std::string& b, Case c) {
  const auto same = [c](char x, char y) {
    return c == Case::kIgnore ? absl::ascii_tolower(x) == absl::ascii_tolower(y)
                              : x == y;
  };
  std::vector<std::vector<int>> d(a.size() + 1, std::vector<int>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = static_cast<int>(i);
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] =
          std::min({d[i - 1][j] + 1, d[i][j - 1] + 1,
                    d[i - 1][j - 1] + (same(a[i - 1], b[j - 1]) ? 0 : 1)});
    }
  }
  return d[a.size()][b.size()];
}

// Random pairs of every length from 0 to 300 (one to four words of 64 rows,
// and the band beyond), over small alphabets (many matches) and with
// letters in both cases.
TEST(EditDistance, MatchesTheTableOnRandomPairs) {
  std::mt19937 rng(45);
  for (const absl::string_view alphabet : {"ab", "abcA", "xXyY_0"}) {
    for (int round = 0; round < SanitizerScaled(600); ++round) {
      std::string s[2];
      for (std::string& t : s) {
        const int length = static_cast<int>(rng() % 301);
        for (int k = 0; k < length; ++k) t += alphabet[rng() % alphabet.size()];
      }
      if (round % 3 == 0) s[1] = s[0].substr(0, s[0].size() / 2) + "ab";
      for (const Case c : {Case::kSensitive, Case::kIgnore}) {
        const int want = TableDistance(s[0], s[1], c);
        EXPECT_EQ(EditDistance(s[0], s[1], c), want) << s[0] << " " << s[1];
        const int bound = static_cast<int>(rng() % 310);
        EXPECT_EQ(EditDistanceUpTo(s[0], s[1], bound, c),
                  want <= bound ? want : bound + 1)
            << s[0] << " " << s[1] << " " << bound;
      }
    }
  }
}

// A query longer than kMaxNearestQuery bytes has no nearest names: no known
// name is that long, and comparing it with each would cost its length each.
TEST(NearestNames, LongQueriesHaveNone) {
  std::vector<std::string> known;
  for (int k = 0; k < 2000; ++k) {
    known.push_back("SM80_16x8x" + std::to_string(k));
  }
  const std::string longest(kMaxNearestQuery, 'S');
  EXPECT_THAT(NearestNames(longest, known, 2),
              testing::ElementsAre("SM80_16x8x0", "SM80_16x8x1"));
  EXPECT_THAT(NearestNames(longest + "S", known, 2), testing::IsEmpty());
  EXPECT_THAT(NearestNames(std::string(1 << 16, 'S'), known, 2),
              testing::IsEmpty());
}

TEST(NearestNames, NearestFirstTiesInOrderDuplicatesOnce) {
  const std::vector<std::string> known = {"threadsPerWarp", "warpsPerCTA",
                                          "order",          "threadsPerWarp",
                                          "sizePerThread",  "orders"};
  EXPECT_THAT(NearestNames("threadPerWarp", known, 2),
              testing::ElementsAre("threadsPerWarp", "warpsPerCTA"));
  EXPECT_THAT(NearestNames("ordr", known, 3),
              testing::ElementsAre("order", "orders", "warpsPerCTA"));
  EXPECT_THAT(NearestNames("x", known, 10), testing::SizeIs(5));
  EXPECT_THAT(NearestNames("ORDER", known, 1, Case::kIgnore),
              testing::ElementsAre("order"));
  EXPECT_THAT(NearestNames("x", {}, 3), testing::IsEmpty());
}

TEST(CloseEnoughTest, AMisspellingIsAFewEditsOfALongerName) {
  EXPECT_TRUE(CloseEnough("threadPerWarp", "threadsPerWarp"));
  EXPECT_TRUE(CloseEnough("jsno", "json"));
  EXPECT_TRUE(CloseEnough("smen", "smem"));
  EXPECT_FALSE(CloseEnough("x", "y"));
  EXPECT_FALSE(CloseEnough("ab", "ba"));
  EXPECT_FALSE(CloseEnough("order", "dim"));
}

}  // namespace
}  // namespace hlolayout

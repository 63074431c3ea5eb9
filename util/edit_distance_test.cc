// Tests of EditDistance and NearestNames (util/edit_distance.h): the
// definition's small cases, symmetry and the triangle inequality over every
// pair of short strings of a two-letter alphabet, case folding, and the
// order of nearest names.
#include "hlolayout/util/edit_distance.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

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

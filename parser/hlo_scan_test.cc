// The reader's SIMD scanning helpers against plain byte loops.
#include "parser/hlo_scan.h"

#include <random>
#include <string>

#include "gtest/gtest.h"

namespace hlolayout::hlo_internal {
namespace {

size_t ReferenceNameEnd(const std::string& s, size_t p) {
  if (p >= s.size() || !Is(s[p], kNameStart)) return p;
  ++p;
  while (p < s.size() && Is(s[p], kNameChar)) ++p;
  return p;
}

TEST(HloScanTest, NameEndMatchesByteLoopForEveryByte) {
  for (int c = 0; c < 256; ++c) {
    for (size_t len : {0, 3, 15, 16, 17, 40}) {
      std::string s = "a" + std::string(len, 'b') + static_cast<char>(c) +
                      std::string(20, 'x');
      for (size_t cut : {s.size(), len + 1, len + 2}) {
        const std::string t = s.substr(0, cut);
        EXPECT_EQ(NameEnd(t.data(), 0, t.size()), ReferenceNameEnd(t, 0))
            << "byte " << c << " len " << len << " cut " << cut;
      }
    }
  }
}

TEST(HloScanTest, MatchParenMatchesMatchBracket) {
  std::mt19937 rng(7);
  const char alphabet[] = "(()),[]{}ab ";
  for (int round = 0; round < 20000; ++round) {
    std::string s = "(";
    const size_t len = rng() % 200;
    // Sometimes nest deep, past the SIMD path's hand-over depth.
    if (round % 10 == 0) s += std::string(rng() % 130, '(');
    for (size_t i = 0; i < len; ++i)
      s += alphabet[rng() % (sizeof(alphabet) - 1)];
    if (round % 3 == 0) s += std::string(rng() % 140, ')');
    EXPECT_EQ(MatchParen(s.data(), 0, s.size()),
              MatchBracket(s.data(), 0, s.size(), '(', ')'))
        << s;
  }
}

}  // namespace
}  // namespace hlolayout::hlo_internal

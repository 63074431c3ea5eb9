// The reader's SIMD scanning helpers against plain byte loops.
#include "hlolayout/hlo/scan.h"

#include <cstring>
#include <random>
#include <string>

#include "gtest/gtest.h"
#include "hlolayout/hlo/shape_cache.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/shape/shape.h"

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

// The hash of a guessed extent, taken in place, is the hash of the text.
TEST(HloScanTest, InPlaceHashMatchesHashShapeText) {
  std::mt19937 rng(11);
  const char alphabet[] = "f32[8,1]{0:T()} (%";
  for (int round = 0; round < 5000; ++round) {
    std::string s;
    for (int i = 0; i < 80; ++i) s += alphabet[rng() % (sizeof(alphabet) - 1)];
    const size_t size = rng() % 65;
    EXPECT_EQ(HashShapeTextInPlace(s.data(), size),
              HashShapeText(s.data(), size))
        << s.substr(0, size);
  }
  // Texts differing in one byte hash differently (almost always).
  const std::string a = "f32[8,128]{1,0:T(8,128)}",
                    b = "f32[8,128]{1,0:T(8,129)}";
  EXPECT_NE(HashShapeText(a.data(), a.size()),
            HashShapeText(b.data(), b.size()));
}

// GuessShapeLength: the first space not after a comma, for what starts like
// a shape, with 64 bytes readable.
TEST(HloScanTest, GuessShapeLength) {
  auto guess = [](const std::string& head) {
    const std::string s = head + std::string(80, 'x');
    return GuessShapeLength(s.data(), 0, s.size());
  };
  EXPECT_EQ(guess("f32[8]{0} %a"), 9u);
  EXPECT_EQ(guess("(f32[8], s32[]) %a"), 15u);
  EXPECT_EQ(guess("(f32[8],\ts32[]) %a"), 8u + 7u);
  EXPECT_EQ(guess("%a, %b"), 0u);              // not a shape
  EXPECT_EQ(guess("add(f32[] %a)"), 0u);       // an opcode
  EXPECT_EQ(guess("f32[8]"), 0u);              // no space in the window
  const std::string short_text = "f32[8] %a";  // fewer than 64 bytes
  EXPECT_EQ(GuessShapeLength(short_text.data(), 0, short_text.size()), 0u);
}

// Where ShapeKeyEnd vouches for an extent, the shape parser stops exactly
// there (the cache relies on it): after arrays without a layout too, such as
// a signature's result shape before the computation's '{'.
TEST(HloScanTest, ShapeKeyEndIsWhereTheParserStops) {
  const std::string shapes[] = {"f32[8]",          "f32[8]{0}",
                                "(f32[8], s32[])", "bf16[3,200]",
                                "f32[]",           "s32[2,2]{0,1:T(2)}"};
  const std::string continuations[] = {" {\n  %x = f32[] parameter(0)",
                                       " {\n}",
                                       "{\n  ROOT %r",
                                       " {\r\n\t%a",
                                       " {1}",
                                       " {:T(2)}",
                                       "{ 0}",
                                       " { /*c*/ 0}",
                                       " {\n 0}",
                                       " { :T(2)}",
                                       " {\n// c\n 0}",
                                       ", %b",
                                       ")",
                                       " %a",
                                       " add(",
                                       "{_x",
                                       " {",
                                       "{"};
  int vouched = 0;
  for (const std::string& shape : shapes) {
    for (const std::string& next : continuations) {
      const std::string text = shape + next;
      const size_t end = ShapeKeyEnd(text.data(), 0, text.size());
      if (end == absl::string_view::npos) continue;
      ++vouched;
      size_t pos = 0;
      Shape parsed;
      ASSERT_TRUE(ParseShapeAt(text, &pos, &parsed, ShapeParseOptions()).ok())
          << text;
      EXPECT_EQ(pos, end) << text;
    }
  }
  EXPECT_GT(vouched, 30);
  // The signature case is vouched for.
  const std::string signature = "f32[8] {\n  %p = f32[8]{0} parameter(0)";
  EXPECT_EQ(ShapeKeyEnd(signature.data(), 0, signature.size()), 6u);
}

#if defined(__SSE2__)
// The 64-byte skipper, with either block classifier, agrees with the plain
// SkipBalancedByStops on random bracket soup (strings, escapes, comments,
// mismatches, deep nesting): the same end, or npos (the careful path then
// reads the value; the block skipper gives up at a `/*` anywhere in a block,
// even past the end).
TEST(HloScanTest, BlockSkippersMatchSkipBalancedByStops) {
  std::mt19937_64 random(3);
  const char alphabet[] = "{}()[]\"\\/*a  ,";
  int ended = 0;
  int same = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    std::string s(1, "{(["[random() % 3]);
    const size_t length = random() % 400;
    const int rarity = 3 + static_cast<int>(random() % 30);
    for (size_t i = 0; i < length; ++i) {
      // Mostly plain bytes, so that brackets close now and then.
      s += random() % rarity == 0 ? alphabet[random() % (sizeof(alphabet) - 1)]
                                  : 'a';
    }
    const int max_depth = 1 + static_cast<int>(random() % 70);
    const size_t expected =
        SkipBalancedByStops(s.data(), 0, s.size(), max_depth);
    if (expected != absl::string_view::npos) ++ended;
    auto check = [&](size_t end) {
      if (end == 0) end = SkipBalancedByStops(s.data(), 0, s.size(), max_depth);
      if (end != absl::string_view::npos) {
        EXPECT_EQ(end, expected) << s;
      }
      return end == expected;
    };
    const bool sse2 = check(
        SkipBalancedBlocks(s.data(), 0, s.size(), max_depth, Sse2Classifier()));
    if (sse2) ++same;
#if defined(HLOLAYOUT_HLO_SCAN_AVX2)
    if (HasAvx2()) {
      EXPECT_EQ(check(SkipBalancedBlocksAvx2(s.data(), 0, s.size(), max_depth)),
                sse2)
          << s;
    }
#endif
    EXPECT_EQ(check(FastSkipBalanced(s.data(), 0, s.size(), max_depth)), sse2)
        << s;
  }
  EXPECT_GT(ended, 2000);
  EXPECT_GT(same, 15000);
}

#if defined(HLOLAYOUT_HLO_SCAN_AVX2)
TEST(HloScanTest, Classify64Avx2MatchesClassify64) {
  if (!HasAvx2()) GTEST_SKIP() << "no AVX2 here";
  std::mt19937_64 random(4);
  for (int trial = 0; trial < 5000; ++trial) {
    char block[64];
    for (char& c : block) c = static_cast<char>(random());
    const ByteClasses a = Classify64(block);
    const ByteClasses b = Classify64Avx2(block);
    EXPECT_EQ(a.quote, b.quote);
    EXPECT_EQ(a.backslash, b.backslash);
    EXPECT_EQ(a.slash, b.slash);
    EXPECT_EQ(a.open, b.open);
    EXPECT_EQ(a.close, b.close);
  }
}

TEST(HloScanTest, PrefixXorClmulMatchesShifts) {
  if (!HasAvx2()) GTEST_SKIP() << "no AVX2 and PCLMULQDQ here";
  std::mt19937_64 random(5);
  for (uint64_t x : {uint64_t{0}, ~uint64_t{0}, uint64_t{1}, uint64_t{1} << 63,
                     uint64_t{0x8000000000000001}}) {
    EXPECT_EQ(PrefixXorClmul(x), PrefixXorShifts(x)) << x;
  }
  for (int trial = 0; trial < 5000; ++trial) {
    const uint64_t x = random() & random();  // sparse, as quotes are
    EXPECT_EQ(PrefixXorClmul(x), PrefixXorShifts(x)) << x;
  }
}
#endif
#endif

}  // namespace
}  // namespace hlolayout::hlo_internal

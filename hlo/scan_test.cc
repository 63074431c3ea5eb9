// The reader's SIMD scanning helpers against plain byte loops.
#include "hlolayout/hlo/scan.h"

#include <cstring>
#include <random>
#include <string>
#include <vector>

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

// The paths this build and processor run (the portable one always).
std::vector<ScanPath> PathsHere() {
  std::vector<ScanPath> paths;
  for (ScanPath path :
       {ScanPath::kPortable, ScanPath::kSse2, ScanPath::kAvx2}) {
    if (ScanPathRuns(path)) paths.push_back(path);
  }
  return paths;
}

const char* PathName(ScanPath path) {
  return path == ScanPath::kPortable ? "portable"
         : path == ScanPath::kSse2   ? "sse2"
                                     : "avx2";
}

// The 64-byte skipper on every path gives exactly SkipBalancedByStops'
// answer (end or npos) on random bracket soup: strings, escapes, comments,
// mismatches, deep nesting, texts ending inside a value.
TEST(HloScanTest, BlockSkippersMatchSkipBalancedByStops) {
  std::mt19937_64 random(3);
  const char alphabet[] = "{}()[]\"\\/*a  ,";
  int ended = 0;
  int by_blocks = 0;
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
    if (SkipBalancedBlocksOn(ScanPath::kPortable, s.data(), 0, s.size(),
                             max_depth) != 0) {
      ++by_blocks;
    }
    for (ScanPath path : PathsHere()) {
      EXPECT_EQ(FastSkipBalancedOn(path, s.data(), 0, s.size(), max_depth),
                expected)
          << PathName(path) << ": " << s;
    }
    EXPECT_EQ(FastSkipBalanced(s.data(), 0, s.size(), max_depth), expected)
        << s;
  }
  EXPECT_GT(ended, 2000);
  // Most answers come from the blocks, not from the byte-by-byte fallback
  // (which reads the values with a backslash or a `/*` outside a string,
  // common in this soup).
  EXPECT_GT(by_blocks, 12000);
}

// Every text of up to 4 bytes over the bytes that matter (and a plain
// one), and of 5 and 6 bytes over the string and brace bytes, placed across
// a block boundary, inside a string or not, and at the text's end: every
// path gives SkipBalancedByStops' answer.
TEST(HloScanTest, BlockSkippersMatchOnEveryShortText) {
  const std::vector<ScanPath> paths = PathsHere();
  int checked = 0;
  auto every_text = [&](const std::string& alphabet, int min_length,
                        int max_length) {
    const int size = static_cast<int>(alphabet.size());
    for (int length = min_length; length <= max_length; ++length) {
      int count = 1;
      for (int i = 0; i < length; ++i) count *= size;
      for (int code = 0; code < count; ++code) {
        std::string middle;
        for (int i = 0, c = code; i < length; ++i, c /= size) {
          middle += alphabet[c % size];
        }
        // The middle straddles bytes 63/64 and 127/128; the second text
        // ends right after it (the padded last block).
        for (const std::string& head :
             {std::string("{") + std::string(61, 'a'),
              std::string("{\"") + std::string(124, 'a'), std::string("[")}) {
          for (const std::string& s :
               {head + middle + "\"}])}", head + middle}) {
            const size_t expected =
                SkipBalancedByStops(s.data(), 0, s.size(), 8);
            for (ScanPath path : paths) {
              ASSERT_EQ(FastSkipBalancedOn(path, s.data(), 0, s.size(), 8),
                        expected)
                  << PathName(path) << ": " << s;
            }
            ++checked;
          }
        }
      }
    }
  };
  every_text("{}[]()\"\\/*a", 0, 4);
  every_text("{}\"\\/a", 5, 6);
  EXPECT_GT(checked, 400000);
}

// Each classifier's masks are the bytes' classes, byte for byte: every byte
// value at every position of a block, and random blocks. A wrong mask (a
// class missing a byte, or a bit at the wrong place) fails here.
TEST(HloScanTest, ClassifiersGiveEachBytesClass) {
  auto expect = [](const char* block) {
    ByteClasses want;
    for (int i = 0; i < 64; ++i) {
      const uint64_t bit = uint64_t{1} << i;
      const char c = block[i];
      if (c == '"') want.quote |= bit;
      if (c == '\\') want.backslash |= bit;
      if (c == '/') want.slash |= bit;
      if (c == '{' || c == '(' || c == '[') want.open |= bit;
      if (c == '}' || c == ')' || c == ']') want.close |= bit;
    }
    return want;
  };
  auto check = [&](const char* block) {
    const ByteClasses want = expect(block);
    for (ScanPath path : PathsHere()) {
      const ByteClasses got = ClassifyOn(path, block);
      ASSERT_EQ(got.quote, want.quote) << PathName(path);
      ASSERT_EQ(got.backslash, want.backslash) << PathName(path);
      ASSERT_EQ(got.slash, want.slash) << PathName(path);
      ASSERT_EQ(got.open, want.open) << PathName(path);
      ASSERT_EQ(got.close, want.close) << PathName(path);
    }
  };
  for (int c = 0; c < 256; ++c) {
    for (int at = 0; at < 64; ++at) {
      char block[64];
      std::memset(block, 'a', sizeof(block));
      block[at] = static_cast<char>(c);
      check(block);
    }
  }
  std::mt19937_64 random(4);
  for (int trial = 0; trial < 5000; ++trial) {
    char block[64];
    for (char& c : block) c = static_cast<char>(random());
    check(block);
  }
}

// EscapedBytes against a byte loop over two blocks (the carry between
// them), on every pattern of backslashes in the last and first 6 bytes and
// on random ones.
TEST(HloScanTest, EscapedBytesMatchesByteLoop) {
  auto check = [](uint64_t first, uint64_t second) {
    bool backslash[128], escaped[128] = {};
    for (int i = 0; i < 64; ++i) {
      backslash[i] = (first >> i) & 1;
      backslash[64 + i] = (second >> i) & 1;
    }
    for (int i = 0; i + 1 < 128; ++i) {
      if (backslash[i] && !escaped[i]) escaped[i + 1] = true;
    }
    uint64_t carry = 0;
    const uint64_t a = EscapedBytes(first, &carry);
    const uint64_t b = EscapedBytes(second, &carry);
    for (int i = 0; i < 64; ++i) {
      ASSERT_EQ(((a >> i) & 1) != 0, escaped[i]) << first << " " << i;
      ASSERT_EQ(((b >> i) & 1) != 0, escaped[64 + i]) << second << " " << i;
    }
  };
  for (uint64_t low = 0; low < 64; ++low) {
    for (uint64_t high = 0; high < 64; ++high) {
      check(high << 58, low);
    }
  }
  std::mt19937_64 random(6);
  for (int trial = 0; trial < 20000; ++trial) {
    check(random() & random(), random() | random());
  }
}

TEST(HloScanTest, PrefixXorShiftsMatchesByteLoop) {
  std::mt19937_64 random(5);
  for (int trial = 0; trial < 5000; ++trial) {
    const uint64_t x = random() & random();
    uint64_t want = 0, running = 0;
    for (int i = 0; i < 64; ++i) {
      running ^= (x >> i) & 1;
      want |= running << i;
    }
    ASSERT_EQ(PrefixXorShifts(x), want) << x;
  }
}

// A value with escaped quotes and backslashes in its strings (a JSON
// config written as a string inside a config) is skipped by the blocks,
// not by the byte-by-byte fallback.
TEST(HloScanTest, EscapesInStringsStayOnTheBlocks) {
  std::string s = "{\"config\": \"{\\\"body\\\": \\\"a\\\\\\\\b}\\\"}\"";
  while (s.size() < 300) s += ", \"k\\\"}\": [\"\\\\\", {}]";
  s += "} tail";
  const size_t expected = SkipBalancedByStops(s.data(), 0, s.size(), 64);
  ASSERT_EQ(expected, s.size() - 5);
  for (ScanPath path : PathsHere()) {
    EXPECT_EQ(SkipBalancedBlocksOn(path, s.data(), 0, s.size(), 64), expected)
        << PathName(path);
  }
  // Outside a string a backslash is a plain byte: left to the fallback.
  const std::string plain = "{a\\\"b\"}" + std::string(80, ' ') + "}";
  for (ScanPath path : PathsHere()) {
    EXPECT_EQ(SkipBalancedBlocksOn(path, plain.data(), 0, plain.size(), 64), 0u)
        << PathName(path);
    EXPECT_EQ(FastSkipBalancedOn(path, plain.data(), 0, plain.size(), 64),
              SkipBalancedByStops(plain.data(), 0, plain.size(), 64));
  }
}

#if defined(HLOLAYOUT_HLO_SCAN_AVX2)
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

}  // namespace
}  // namespace hlolayout::hlo_internal

#include "hlolayout/hlo/attribute_value.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace hlolayout {
namespace {

using Words = std::vector<absl::string_view>;

TEST(AttributeValue, SpaceIsWhatXlasLexerSkips) {
  for (char c : std::string(" \t\n\r")) EXPECT_TRUE(IsHloSpace(c)) << int(c);
  for (char c : std::string("a0,{}=_\v\f/*")) EXPECT_FALSE(IsHloSpace(c)) << c;
  EXPECT_EQ(SkipHloSpace(" \n\t\r x", 0), 5u);
  EXPECT_EQ(SkipHloSpace("a /* b\n c */\n d", 1), 14u);
  EXPECT_EQ(SkipHloSpace("a /* never closed", 1), 17u);
  EXPECT_EQ(SkipHloSpace("a / b", 1), 2u);  // one slash is a byte
  EXPECT_EQ(SkipHloSpace("ab", 5), 5u);
  EXPECT_EQ(StripHloSpace("\n  {a b}\r\n"), "{a b}");
  EXPECT_EQ(StripHloSpace(" /*c*/ x /*d*/ "), "x");
  EXPECT_EQ(StripHloSpace(" \n "), "");
}

TEST(AttributeValue, WordsAreSeparatedByAnySpaceOrComment) {
  // XLA's spmd_partitioner_test writes a window across two lines.
  EXPECT_EQ(HloValueWords("size=1x1 pad=0_0x0_0\n    rhs_reversal=0x0"),
            (Words{"size=1x1", "pad=0_0x0_0", "rhs_reversal=0x0"}));
  EXPECT_EQ(
      HloValueWords("size=1x1 pad=0_0x0_0 rhs_reversal=0x0"),
      HloValueWords("\r\n\tsize=1x1\r\npad=0_0x0_0/* c */rhs_reversal=0x0 "));
  EXPECT_EQ(HloValueWords(""), Words{});
  EXPECT_EQ(HloValueWords(" \n /* only a comment */ "), Words{});
  EXPECT_EQ(HloValueWords("a"), Words{"a"});
}

TEST(AttributeValue, CursorReadsTokensAcrossLines) {
  HloValueCursor c("{ 12 ,\n  -3 }\n may-alias", 100);
  EXPECT_TRUE(c.Eat('{'));
  EXPECT_EQ(c.Number(), 12);
  EXPECT_FALSE(c.Eat('}'));
  EXPECT_TRUE(c.Eat(','));
  EXPECT_EQ(c.offset(), 106u);
  EXPECT_EQ(c.Integer(), "-3");
  EXPECT_EQ(c.Integer(), "");  // none: the cursor stays
  EXPECT_EQ(c.Peek(), '}');
  EXPECT_TRUE(c.Eat('}'));
  EXPECT_EQ(c.Word(), "may-alias");
  EXPECT_TRUE(c.AtEnd());
  HloValueCursor big("99999999999999999999 x");
  EXPECT_EQ(big.Number(), -1);  // past int64
  EXPECT_EQ(big.Number(), -1);  // no digits
  EXPECT_EQ(big.Word(), "x");
}

// The pairs as text, to compare (and print when they differ).
std::string Show(const std::vector<HloAliasPair>& pairs) {
  std::string s;
  for (const HloAliasPair& p : pairs) {
    s += "[";
    for (int64_t i : p.output_index) s += std::to_string(i) + " ";
    s += ": " + std::to_string(p.number) + " ";
    for (int64_t i : p.index) s += std::to_string(i) + " ";
    s += std::string(p.kind) + "]";
  }
  return s;
}

std::string Index(const std::vector<int64_t>& index, const std::string& sep) {
  std::string s = "{";
  for (size_t i = 0; i < index.size(); ++i) {
    if (i > 0) s += "," + sep;
    s += std::to_string(index[i]);
  }
  return s + sep + "}";
}

TEST(AttributeValue, AliasPairsReadTheSameOnOneLineOrMany) {
  const std::vector<HloAliasPair> want = {{{0}, 1, {}, "may-alias"},
                                          {{1, 2}, 0, {3}, ""},
                                          {{}, 7, {0, 1}, "must-alias"}};
  std::mt19937 random(38);
  // Separators XLA's lexer skips, in random places where it skips them.
  const std::vector<std::string> seps = {
      "", " ", "\n", "\n    ", "\t", "\r\n", "/*x*/", " /* a\n b */ "};
  auto sep = [&] { return seps[random() % seps.size()]; };
  for (int trial = 0; trial < 500; ++trial) {
    std::string text = "{" + sep();
    for (size_t i = 0; i < want.size(); ++i) {
      const HloAliasPair& p = want[i];
      if (i > 0) text += "," + sep();
      text += Index(p.output_index, sep()) + sep() + ":" + sep() + "(" + sep() +
              std::to_string(p.number) + sep() + "," + sep() +
              Index(p.index, sep());
      if (!p.kind.empty()) text += sep() + "," + sep() + std::string(p.kind);
      text += sep() + ")";
    }
    text += sep() + "}";
    EXPECT_EQ(Show(ParseHloAliasPairs(text)), Show(want)) << text;
  }
}

TEST(AttributeValue, AliasPairsStopAtWhatIsNotOne) {
  EXPECT_TRUE(ParseHloAliasPairs("").empty());
  EXPECT_TRUE(ParseHloAliasPairs("{}").empty());
  EXPECT_TRUE(ParseHloAliasPairs("0: (1, {})").empty());
  // The first pair reads; the second has no ':'.
  const std::vector<HloAliasPair> first = {{{0}, 1, {}, ""}};
  EXPECT_EQ(Show(ParseHloAliasPairs("{{0}: (1, {}), {1} (2, {})}")),
            Show(first));
  EXPECT_EQ(Show(ParseHloAliasPairs("{{0}: (1, {}), {1}: (x, {})}")),
            Show(first));
  // A number past int64 leaves its pair out; the next one still reads.
  EXPECT_EQ(Show(ParseHloAliasPairs(
                "{{5}: (99999999999999999999, {}), {0}: (1, {})}")),
            Show(first));
  EXPECT_EQ(Show(ParseHloAliasPairs(
                "{{0}: (1, {}), {1}: (2, {99999999999999999999})}")),
            Show(first));
}

}  // namespace
}  // namespace hlolayout

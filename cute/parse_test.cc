#include "hlolayout/cute/parse.h"

#include <string>

#include "gtest/gtest.h"
#include "hlolayout/cute/print.h"
#include "hlolayout/testing/cute_random_layout.h"

namespace hlolayout::cute {
namespace {

std::string Error(const absl::Status& s) { return std::string(s.message()); }

struct Case {
  const char* text;
  const char* printed;
};

TEST(ParseLayout, ValidTable) {
  const Case cases[] = {
      {"(6,2):(8,2)", "(6,2):(8,2)"},
      {"((2,2),3):((24,2),8)", "((2,2),3):((24,2),8)"},
      {"12:1", "12:1"},
      {"(4):(1)", "(4):(1)"},
      {"4", "4:_1"},
      {"(4)", "(4):(_1)"},
      {"()", "():()"},
      {"():()", "():()"},
      {"(_2,_3):(_1,2)", "(_2,_3):(_1,2)"},
      {"(2,1,3)", "(2,1,3):(_1,2,2)"},
      {"(_2,_1,_3)", "(_2,_1,_3):(_1,_0,_2)"},
      {" ( 2 , ( 3 , 4 ) ) : ( 1 , ( 2 , 6 ) ) ", "(2,(3,4)):(1,(2,6))"},
      {"4:-1", "4:-1"},
      {"4:_-1", "4:_-1"},
      {"(2,\n3):(1,2)", "(2,3):(1,2)"},
  };
  for (const Case& c : cases) {
    absl::StatusOr<Layout> l = ParseLayout(c.text);
    ASSERT_TRUE(l.ok()) << c.text << ": " << l.status().message();
    EXPECT_EQ(ToString(*l), c.printed) << c.text;
  }
}

TEST(ParseLayout, ErrorTable) {
  const Case cases[] = {
      {"(6,2):(8:2)",
       "1:9: expected ',' or ')', found ':'\n(6,2):(8:2)\n        ^"},
      {"(6,2", "1:5: expected ',' or ')', found end of input\n(6,2\n    ^"},
      {"", "1:1: expected integer or '(', found end of input\n\n^"},
      {":3", "1:1: expected integer or '(', found ':'\n:3\n^"},
      {"(6,2):(8,2) x",
       "1:13: expected end of input, found 'x'\n(6,2):(8,2) x\n            ^"},
      {"(6,2):(8,(2,1))",
       "1:7: stride is not congruent with the shape\n(6,2):(8,(2,1))\n      ^"},
      {"(6,0):(8,2)",
       "1:4: shape must be positive, found 0\n(6,0):(8,2)\n   ^"},
      {"(6,-2)", "1:4: shape must be positive, found -2\n(6,-2)\n   ^"},
      {"(4;2)", "1:3: expected ',' or ')', found ';'\n(4;2)\n  ^"},
      {"(4,-)", "1:4: expected digits\n(4,-)\n   ^"},
      {"99999999999999999999",
       "1:1: integer out of range\n99999999999999999999\n^"},
      {"(4294967296,4294967296)",
       "1:1: layout size or cosize overflows int64\n"
       "(4294967296,4294967296)\n^"},
      {"(2,\n3:(1,2)", "2:2: expected ',' or ')', found ':'\n3:(1,2)\n ^"},
      {"<2:1>", "1:1: expected integer or '(', found '<'\n<2:1>\n^"},
  };
  for (const Case& c : cases) {
    absl::StatusOr<Layout> l = ParseLayout(c.text);
    ASSERT_FALSE(l.ok()) << c.text;
    EXPECT_EQ(Error(l.status()), c.printed) << c.text;
  }
}

TEST(ParseLayout, NestingIsCapped) {
  std::string deep(100, '(');
  deep += "1";
  deep += std::string(100, ')');
  absl::StatusOr<Layout> l = ParseLayout(deep);
  ASSERT_FALSE(l.ok());
  // The 201-column line is shown as a window around the caret.
  EXPECT_EQ(Error(l.status()).substr(0, 33),
            "1:65: nesting deeper than 64\n...(");
}

TEST(ParseTiler, Forms) {
  EXPECT_EQ(ToString(*ParseTiler("<3:4, 8:2>")), "<3:4, 8:2>");
  EXPECT_EQ(ToString(*ParseTiler("<3:4,8:2>")), "<3:4, 8:2>");
  EXPECT_EQ(ToString(*ParseTiler("(3,8)")), "<3:_1, 8:_1>");
  EXPECT_EQ(ToString(*ParseTiler("((2,2),8)")), "<<2:_1, 2:_1>, 8:_1>");
  EXPECT_EQ(ToString(*ParseTiler("6")), "6:_1");
  EXPECT_EQ(ToString(*ParseTiler("(4,3):(3,1)")), "(4,3):(3,1)");
  EXPECT_EQ(ToString(*ParseTiler("<_, <2, 3:2>>")), "<_, <2:_1, 3:2>>");
  EXPECT_EQ(ToString(*ParseTiler("_")), "_");
  EXPECT_EQ(Error(ParseTiler("<3:4; 8:2>").status()),
            "1:5: expected ',' or '>', found ';'\n<3:4; 8:2>\n    ^");
  EXPECT_EQ(Error(ParseTiler("<3:4, >").status()),
            "1:7: expected layout, shape, '_' or '<', found '>'\n<3:4, >\n"
            "      ^");
  EXPECT_EQ(Error(ParseTiler("<(2,0)>").status()),
            "1:5: shape must be positive, found 0\n<(2,0)>\n    ^");
}

TEST(ParseIntTuple, Forms) {
  EXPECT_EQ(ToString(*ParseIntTuple("((1,1),1)")), "((1,1),1)");
  EXPECT_EQ(ToString(*ParseIntTuple("-3")), "-3");
  EXPECT_EQ(Error(ParseIntTuple("(1,1").status()),
            "1:5: expected ',' or ')', found end of input\n(1,1\n    ^");
}

TEST(ParseLayout, PropertyPrintParseRoundTrip) {
  internal::LayoutGenerator gen(61);
  for (int trial = 0; trial < 3000; ++trial) {
    const Layout l = gen.Any(true, 100000);
    const std::string text = ToString(l);
    absl::StatusOr<Layout> back = ParseLayout(text);
    ASSERT_TRUE(back.ok()) << text;
    ASSERT_EQ(*back, l) << text;
    ASSERT_EQ(ToString(*back), text);
  }
}

}  // namespace
}  // namespace hlolayout::cute

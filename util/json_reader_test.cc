#include "hlolayout/util/json_reader.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace hlolayout {
namespace {

using ::testing::HasSubstr;

TEST(JsonReaderTest, Values) {
  JsonValue v = *ParseJson(
      R"({"a": [1, -2, 3.5, true, false, null], "s": "x\"\u00e9\ud83d\ude00"})");
  ASSERT_TRUE(v.is_object());
  const JsonValue& a = *v.Find("a");
  EXPECT_EQ(a.array[0].integer, 1);
  EXPECT_EQ(a.array[1].integer, -2);
  EXPECT_FALSE(a.array[2].is_integer);
  EXPECT_DOUBLE_EQ(a.array[2].number, 3.5);
  EXPECT_TRUE(a.array[3].boolean);
  EXPECT_EQ(a.array[5].kind, JsonValue::Kind::kNull);
  EXPECT_EQ(v.Find("s")->string, "x\"\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_EQ(v.Find("missing"), nullptr);
}

TEST(JsonReaderTest, LocatedErrors) {
  EXPECT_EQ(ParseJson("{\"a\": [1,\n 2,]}").status().message(),
            "2:4: expected a JSON value, found ']'\n 2,]}\n   ^");
  EXPECT_THAT(ParseJson("[1] 2").status().message(),
              HasSubstr("expected end of input"));
  EXPECT_THAT(ParseJson("{\"a\": 1, \"a\": 2}").status().message(),
              HasSubstr("1:10: repeated key \"a\""));
  EXPECT_THAT(ParseJson("\"abc").status().message(),
              HasSubstr("unterminated string"));
  EXPECT_THAT(ParseJson("012").status().message(), HasSubstr("leading zero"));
  EXPECT_THAT(ParseJson("99999999999999999999").value().is_integer, false);
  EXPECT_THAT(ParseJson(std::string(1000, '[')).status().message(),
              HasSubstr("nested deeper than 128"));
}

}  // namespace
}  // namespace hlolayout

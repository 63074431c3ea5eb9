#include "hlolayout/triton/json.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/triton/bases_json.h"

namespace hlolayout::triton {
namespace {

using ::testing::HasSubstr;

TEST(JsonTest, Values) {
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

TEST(JsonTest, LocatedErrors) {
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

TEST(JsonTest, LayoutFromFromBasesArguments) {
  LinearLayout l = *LayoutFromJson(
      R"({"bases": [["register", [[0, 1], [1, 0]]], ["lane", [[2, 0]]]],
          "out_dims": ["dim0", "dim1"], "out_sizes": [4, 2],
          "require_surjective": true})");
  EXPECT_EQ(l, *LinearLayout::Create(
                   {{"register", {{0, 1}, {1, 0}}}, {"lane", {{2, 0}}}},
                   {{"dim0", 4}, {"dim1", 2}}, true));
  // Round trip through LayoutToJson.
  EXPECT_EQ(*LayoutFromJson(LayoutToJson(l)), l);
  // Sizes inferred, bases by name, out-dims as pairs.
  EXPECT_EQ(
      *LayoutFromJson(R"({"bases": {"in": [[1], [2]]}, "out_dims": ["o"]})"),
      *LinearLayout::Identity1D(4, "in", "o"));
  EXPECT_EQ(*LayoutFromJson(
                R"({"bases": [["in", [[1]]]], "out_dims": [["o", 4]],
                    "require_surjective": false})"),
            *LinearLayout::Create({{"in", {{1}}}}, {{"o", 4}}, false));
  // The bare form reads like #ttg.linear: out-dims dim0, dim1, ...
  LinearLayout bare =
      *LayoutFromJson(R"({"register": [[0, 1]], "lane": [[1, 0], [2, 0]]})");
  EXPECT_EQ(bare.OutDimNames(), (std::vector<std::string>{"dim0", "dim1"}));
  EXPECT_EQ(bare.OutDimSize(0), 4);
}

TEST(JsonTest, BadBasesAreLocated) {
  EXPECT_EQ(LayoutFromJson("{\"bases\": [[\"in\", [[1], [\"x\"]]]],"
                           " \"out_dims\": [\"o\"]}")
                .status()
                .message(),
            "1:26: expected an integer, found a string\n"
            "{\"bases\": [[\"in\", [[1], [\"x\"]]]], \"out_dims\": [\"o\"]}\n"
            "                         ^");
  EXPECT_THAT(LayoutFromJson(R"({"bases": [], "out_dims": ["o"], "x": 1})")
                  .status()
                  .message(),
              HasSubstr("unknown key \"x\""));
  EXPECT_THAT(
      LayoutFromJson(R"({"bases": [], "out_dims": ["o"], "out_size": [1]})")
          .status()
          .message(),
      HasSubstr("unknown key \"out_size\"; did you mean \"out_sizes\"? "
                "(expected bases, out_dims, out_sizes, require_surjective)"));
  EXPECT_THAT(LayoutFromJson(R"({"bases": [], "out_dims": ["o"],
                                 "require_surjective": false})")
                  .status()
                  .message(),
              HasSubstr("out_dim_sizes must be provided"));
  EXPECT_THAT(LayoutFromJson(R"({"bases": [["in", [[5000000000]]]],
                                 "out_dims": ["o"]})")
                  .status()
                  .message(),
              HasSubstr("expected an int32 integer"));
  // Triton's own refusals come through unchanged.
  EXPECT_THAT(LayoutFromJson(R"({"bases": [["in", [[1]]]], "out_dims": ["o"],
                                 "out_sizes": [4]})")
                  .status()
                  .message(),
              HasSubstr("Layout is expected to be surjective"));
}

}  // namespace
}  // namespace hlolayout::triton

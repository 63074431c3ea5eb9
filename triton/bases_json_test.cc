#include "hlolayout/triton/bases_json.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace hlolayout::triton {
namespace {

using ::testing::HasSubstr;

TEST(BasesJsonTest, LayoutFromFromBasesArguments) {
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

TEST(BasesJsonTest, BadBasesAreLocated) {
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

#include "hlolayout/cute/print.h"

#include <algorithm>

#include "gtest/gtest.h"
#include "hlolayout/cute/parse.h"

namespace hlolayout::cute {
namespace {

std::string Table(absl::string_view text) {
  absl::StatusOr<std::string> t = PrintTable(*ParseLayout(text));
  return t.ok() ? *t : "error: " + std::string(t.status().message());
}

TEST(Print, Notation) {
  EXPECT_EQ(ToString(IntTuple::Tuple({4})), "(4)");
  EXPECT_EQ(ToString(IntTuple(4)), "4");
  EXPECT_EQ(ToString(IntTuple()), "()");
  EXPECT_EQ(
      ToString(Layout::Make(IntTuple::Tuple({2, IntTuple::Tuple({3, 4})}),
                            IntTuple::Tuple({1, IntTuple::Tuple({2, 6})}))),
      "(2,(3,4)):(1,(2,6))");
  EXPECT_EQ(ToString(Layout()), "1:0");
}

TEST(PrintTable, MatchesCutePrintLayout) {
  // CuTe's print_layout for (2,3):(3,1): cell width digits(cosize) = 1.
  EXPECT_EQ(Table("(2,3):(3,1)"),
            "(2,3):(3,1)\n"
            "      0   1   2 \n"
            "    +---+---+---+\n"
            " 0  | 0 | 1 | 2 |\n"
            "    +---+---+---+\n"
            " 1  | 3 | 4 | 5 |\n"
            "    +---+---+---+\n");
}

TEST(PrintTable, WidthFromCosize) {
  // cosize 12: two digits even though every value fits in one or two.
  EXPECT_EQ(Table("(2,2):(1,10)"),
            "(2,2):(1,10)\n"
            "       0    1 \n"
            "    +----+----+\n"
            " 0  |  0 | 10 |\n"
            "    +----+----+\n"
            " 1  |  1 | 11 |\n"
            "    +----+----+\n");
}

TEST(PrintTable, NegativeValuesKeepTheGridAligned) {
  EXPECT_EQ(Table("(2,2):(-10,1)"),
            "(2,2):(-10,1)\n"
            "        0     1 \n"
            "    +-----+-----+\n"
            " 0  |   0 |   1 |\n"
            "    +-----+-----+\n"
            " 1  | -10 |  -9 |\n"
            "    +-----+-----+\n");
}

TEST(PrintTable, RankOneAndErrors) {
  EXPECT_EQ(Table("3:2"),
            "3:2\n"
            "      0 \n"
            "    +---+\n"
            " 0  | 0 |\n"
            "    +---+\n"
            " 1  | 2 |\n"
            "    +---+\n"
            " 2  | 4 |\n"
            "    +---+\n");
  EXPECT_EQ(Table("(2,2,2):(1,2,4)"),
            "error: table needs a layout of rank 1 or 2, found rank 3");
}

// Found by fuzz/cute_fuzzer: a 2233x223 table took seconds (each cell built
// mode 1 anew). Each mode is now evaluated once per coordinate.
TEST(PrintTable, LargeTableEvaluatesEachModeOnce) {
  const std::string table = Table("(2233,(223))");
  EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 2 * 2233 + 3);
  EXPECT_EQ(table.substr(0, table.find('\n')), "(2233,(223)):(1,(2233))");
  // The last cell: row 2232, column 222 holds 2232 + 222 * 2233.
  EXPECT_NE(table.find("| 497958 |\n"), std::string::npos);
}

// Found by fuzz/cute_fuzzer: the empty layout has no mode 0 to print.
TEST(PrintTable, RankZeroIsAnError) {
  EXPECT_EQ(Table("()"),
            "error: table needs a layout of rank 1 or 2, found rank 0");
}

TEST(PrintTable, HierarchicalModes) {
  // Rows and columns follow each mode's own colexicographic order.
  EXPECT_EQ(Table("((2,2),2):((1,4),2)"),
            "((2,2),2):((1,4),2)\n"
            "      0   1 \n"
            "    +---+---+\n"
            " 0  | 0 | 2 |\n"
            "    +---+---+\n"
            " 1  | 1 | 3 |\n"
            "    +---+---+\n"
            " 2  | 4 | 6 |\n"
            "    +---+---+\n"
            " 3  | 5 | 7 |\n"
            "    +---+---+\n");
}

}  // namespace
}  // namespace hlolayout::cute

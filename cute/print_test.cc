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
  EXPECT_EQ(ToString(Layout()), "_1:_0");
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
  const std::string table = Table("(293,(223))");
  EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 2 * 293 + 3);
  EXPECT_EQ(table.substr(0, table.find('\n')), "(293,(223)):(_1,(293))");
  // The last cell: row 292, column 222 holds 292 + 222 * 293.
  EXPECT_NE(table.find("| 65338 |\n"), std::string::npos);
}

// Found by fuzz/cute_fuzzer: the rank-1 layout `991914` printed a
// million-row table (40 MB, over a second under the sanitizers). Tables are
// bounded by kMaxTableCells whatever the integers in the shape are.
TEST(PrintTable, TableSizeIsBoundedIndependentOfShapeIntegers) {
  EXPECT_EQ(Table("991914"),
            "error: table of 991914x1 is too large (more than 65536 cells)");
  EXPECT_EQ(Table("(257,256):(256,1)"),
            "error: table of 257x256 is too large (more than 65536 cells)");
  EXPECT_EQ(Table("(1,9223372036854775807):(0,0)"),
            "error: table of 1x9223372036854775807 is too large (more than "
            "65536 cells)");
  // The largest grid allowed prints: 256x256 cells.
  const std::string table = Table("(256,256):(256,1)");
  EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 2 * 256 + 3);
  EXPECT_NE(table.find("| 65535 |\n"), std::string::npos);
  // Widths come from the smallest and largest values without formatting
  // every cell first.
  EXPECT_EQ(Table("(2,2):(-1000,1)"),
            "(2,2):(-1000,1)\n"
            "          0       1 \n"
            "    +-------+-------+\n"
            " 0  |     0 |     1 |\n"
            "    +-------+-------+\n"
            " 1  | -1000 |  -999 |\n"
            "    +-------+-------+\n");
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

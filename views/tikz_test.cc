#include "hlolayout/draw/tikz.h"

#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/views/cute_picture.h"
#include "hlolayout/views/cute_tikz.h"
#include "hlolayout/views/tv_picture.h"

namespace hlolayout::draw {
namespace {

TikzFill Grey(const GridCell& c) { return {{0, 1, TikzGrey(c.ids.at(0))}}; }

TEST(TikzTest, LayoutCellsAreFilledNodes) {
  absl::StatusOr<CellGrid> g =
      CuteLayoutGrid(*cute::ParseAnyLayout("(2,3):(3,1)"));
  ASSERT_TRUE(g.ok()) << g.status();
  std::vector<std::string> p = GridToTikz(*g, Grey, TikzOptions{});
  // Header, 3 pieces a cell, the grid, 2 + 3 numbers, the end.
  ASSERT_EQ(p.size(), 1 + 3 * 6 + 1 + 5 + 1);
  EXPECT_EQ(p[0],
            "\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/"
            ".style={minimum size=1cm, outer sep=0pt}]");
  EXPECT_EQ(p[1], "\\node[fill=");
  EXPECT_EQ(p[2], "black!00");
  EXPECT_EQ(p[3], "] at (0,0) {0};\n");
  EXPECT_EQ(p[5], "black!40");
  EXPECT_EQ(p[12], "] at (1,0) {3};\n");  // row 1 holds 3, 4, 5
  EXPECT_EQ(p[19],
            "\\draw[color=black,thick,shift={(-0.5,-0.5)}] (0,0) grid "
            "(2,3);\n\n");
  EXPECT_EQ(p[20], "\\node at (0,-1) {\\Large{\\texttt{0}}};\n");
  EXPECT_EQ(p[22], "\\node at (-1,0) {\\Large{\\texttt{0}}};\n");
  EXPECT_EQ(p.back(), "\\end{tikzpicture}");
  std::vector<std::string> doc = TikzDocument("%% Layout: {} (2,3):(3,1)", p);
  EXPECT_EQ(doc[1], "\\documentclass[convert]{standalone}");
  EXPECT_EQ(doc.back(), "\\end{document}");
  EXPECT_EQ(doc.size(), p.size() + 5);
}

TEST(TikzTest, SwizzledLayoutShowsTheComposedIndices) {
  absl::StatusOr<CellGrid> g =
      CuteLayoutGrid(*cute::ParseAnyLayout("Sw<1,1,1> o _0 o (_2,_4):(_4,_1)"));
  ASSERT_TRUE(g.ok()) << g.status();
  std::vector<std::string> p = GridToTikz(*g, Grey, TikzOptions{});
  // Row 1 is 6 7 4 5 (the swizzle flips bit 1 where bit 2 is set).
  EXPECT_EQ(p[15], "] at (1,0) {6};\n");
  EXPECT_EQ(p[14], "black!30");
}

TEST(TikzTest, TvCellsInTheirOwnersOrderWithStripes) {
  // Thread t, value v at index t + 2v of a (4,1) tile: rows 0..3.
  std::vector<int64_t> order;
  absl::StatusOr<CellGrid> g =
      TvTileGrid(*cute::ParseLayout("(2,2):(1,2)"),
                 *cute::ParseLayout("(4,1):(1,0)"), &order);
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(order, (std::vector<int64_t>{0, 2, 1, 3}));
  TikzOptions o;
  o.striped = true;
  o.order = order;
  o.axis_labels = true;
  o.title = {"A_1", ""};
  std::vector<std::string> p = GridToTikz(
      *g,
      [](const GridCell& c) {
        return TikzFill{{0, 0.5, TikzTvColour(c.ids.at(0))},
                        {0.5, 1, TikzHue(c.ids.at(1), 2, 0.45)}};
      },
      o);
  const std::string text = absl::StrJoin(p, "|");
  EXPECT_EQ(p[0].back(), '\n');
  EXPECT_EQ(p[1],
            "\\path[fill={rgb,255:red,175;green,175;blue,255}] (-0.5,-0.5) "
            "rectangle (0,0.5);\n");
  EXPECT_EQ(p[2],
            "\\path[fill={rgb,255:red,255;green,140;blue,140}] (0,-0.5) "
            "rectangle (0.5,0.5);\n");
  EXPECT_EQ(p[3], "\\node at (0,0) {\\shortstack{T0 \\\\ V0}};\n");
  EXPECT_EQ(p[6], "\\node at (2,0) {\\shortstack{T0 \\\\ V1}};\n");
  EXPECT_NE(text.find("\\node at (-1.7,0.5) {\\Large N (col) "
                      "$\\rightarrow$};\n"),
            std::string::npos);
  EXPECT_NE(text.find("\\node[rotate=90] at (2,-2) {\\Large $\\leftarrow$ M "
                      "(row)};\n"),
            std::string::npos);
  EXPECT_NE(text.find("\\node[anchor=south] at (-2.2,0.5) "
                      "{\\shortstack{\\texttt{A\\_1} \\\\ \\texttt{}}};\n"),
            std::string::npos);
}

TEST(TikzTest, TileRules) {
  std::vector<int64_t> order;
  // A row-major tile: index k at (k / 2 % 2, k % 2); indices past the tile
  // wrap, and the cells they reach again keep their first owner.
  absl::StatusOr<CellGrid> g =
      TvTileGrid(*cute::ParseLayout("(2,4):(1,2)"),
                 *cute::ParseLayout("(2,2):(2,1)"), &order);
  ASSERT_TRUE(g.ok()) << g.status();
  // Thread 0's values 0 and 1 (indices 0, 2) come first.
  EXPECT_EQ(order, (std::vector<int64_t>{0, 2, 1, 3}));
  EXPECT_EQ(g->cells[1].ids, (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(g->cells[2].ids, (std::vector<int64_t>{0, 1}));
  absl::StatusOr<CellGrid> bad =
      TvTileGrid(*cute::ParseLayout("(2,2):(1,2)"),
                 *cute::ParseLayout("(2,2):(0,1)"), &order);
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("stride 0"), std::string::npos);
  EXPECT_FALSE(TvTileGrid(*cute::ParseLayout("(2,2):(1,2)"),
                          *cute::ParseLayout("((2,2),2):((1,2),4)"), nullptr)
                   .ok());
}

TEST(TikzTest, Colours) {
  std::vector<int> greys;
  for (int k = 0; k < 9; ++k) greys.push_back(TikzGreyPercent(k));
  EXPECT_EQ(greys, (std::vector<int>{0, 40, 20, 60, 10, 50, 30, 70, 0}));
  EXPECT_EQ(TikzGrey(0), "black!00");
  EXPECT_EQ(TikzTvColour(9), "{rgb,255:red,175;green,255;blue,175}");
  EXPECT_EQ(TikzTvColour(-9), TikzTvColour(1));
  EXPECT_EQ(TikzTvColour(INT64_MIN), TikzTvColour(0));
  EXPECT_EQ(TikzHue(0, 4, 1.0), "{rgb,255:red,255;green,0;blue,0}");
  EXPECT_EQ(TikzHue(1, 4, 1.0), "{rgb,255:red,128;green,255;blue,0}");
  EXPECT_EQ(TikzHue(1, 3, 0.45), "{rgb,255:red,140;green,255;blue,140}");
  EXPECT_EQ(TikzHue(2, 7, 0.45), "{rgb,255:red,173;green,255;blue,140}");
  EXPECT_EQ(TikzEscape("a_b#c\\ d%e&f{g}h$ ~^"),
            "a\\_b\\#c\\textbackslash{} d\\%e\\&f\\{g\\}h\\$ "
            "\\textasciitilde{}\\textasciicircum{}");
}

// The view of cute_dsl.viz: CuTe text in, the same pieces as the grid's.
TEST(TikzTest, CuteViewsReadTheTextAndDrawTheGrid) {
  absl::StatusOr<std::vector<std::string>> p =
      CuteLayoutTikz("(2,3):(3,1)", Grey);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(*p,
            GridToTikz(*CuteLayoutGrid(*cute::ParseAnyLayout("(2,3):(3,1)")),
                       Grey, TikzOptions{}));
  EXPECT_FALSE(CuteLayoutTikz("(2,3):(3,", Grey).ok());

  TikzOptions o;
  o.axis_labels = true;
  absl::StatusOr<std::vector<std::string>> tv =
      CuteTvTikz("(2,2):(1,2)", "(2,2):(1,2)", Grey, o);
  ASSERT_TRUE(tv.ok()) << tv.status();
  TikzOptions want;
  want.striped = true;
  want.axis_labels = true;
  absl::StatusOr<CellGrid> g =
      TvTileGrid(*cute::ParseLayout("(2,2):(1,2)"),
                 *cute::ParseLayout("(2,2):(1,2)"), &want.order);
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(*tv, GridToTikz(*g, Grey, want));
  // Two bad texts: the tile's error, as the binding said it before.
  absl::StatusOr<std::vector<std::string>> bad =
      CuteTvTikz("(2,2):(1,", "(2,2", Grey, TikzOptions{});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            cute::ParseLayout("(2,2").status().message());
}

}  // namespace
}  // namespace hlolayout::draw

#include "hlolayout/views/padding_picture.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/draw/xml_reader.h"
#include "hlolayout/parser/shape_parser.h"

namespace hlolayout {
namespace {

using ::testing::HasSubstr;

struct Tile {
  std::string row, col, rows, cols;
};

struct Picture {
  std::string svg;
  std::vector<Tile> tiles;
  std::vector<std::string> elided;  // data-tiles of the elided boxes
};

Picture Draw(const std::string& shape_text) {
  Picture p;
  absl::StatusOr<Shape> shape = ParseShape(shape_text);
  EXPECT_TRUE(shape.ok()) << shape.status();
  absl::StatusOr<std::string> svg = PaddingPictureSvg(*shape);
  EXPECT_TRUE(svg.ok()) << svg.status();
  if (!svg.ok()) return p;
  p.svg = *svg;
  absl::StatusOr<draw::XmlNode> root = draw::ReadXml(*svg);
  EXPECT_TRUE(root.ok()) << root.status();  // well-formed
  if (!root.ok()) return p;
  root->Visit([&](const draw::XmlNode& node) {
    if (node.HasClass("tile")) {
      p.tiles.push_back({node.Attr("data-row"), node.Attr("data-col"),
                         node.Attr("data-rows"), node.Attr("data-cols")});
    }
    if (node.HasClass("tiles-elided")) {
      p.elided.push_back(node.Attr("data-tiles"));
    }
  });
  return p;
}

// Issue 35: the report drew f32[3,1000] in (8,128) tiles as a strip of 8
// cells a few pixels high. Now one box per tile, 1 x 8, each holding 3 of
// its 8 rows, the last 104 of its 128 columns, the axes labelled.
TEST(PaddingPicture, ATileOfEightRowsHoldingThree) {
  const Picture p = Draw("f32[3,1000]{1,0:T(8,128)}");
  ASSERT_EQ(p.tiles.size(), 8u);
  EXPECT_TRUE(p.elided.empty());
  for (int c = 0; c < 8; ++c) {
    EXPECT_EQ(p.tiles[c].row, "0");
    EXPECT_EQ(p.tiles[c].col, std::to_string(c));
    EXPECT_EQ(p.tiles[c].rows, "3");
    EXPECT_EQ(p.tiles[c].cols, c < 7 ? "128" : "104");
  }
  EXPECT_THAT(p.svg, HasSubstr("dim 1: 1000 -&gt; 1024 (8 tiles of 128, the "
                               "last holds 104)"));
  EXPECT_THAT(p.svg, HasSubstr("dim 0: 3 -&gt; 8<"));
  EXPECT_THAT(p.svg, HasSubstr("(1 tile of 8, holding 3)"));
  EXPECT_THAT(p.svg, HasSubstr(">3 x 104<"));
  EXPECT_THAT(p.svg, HasSubstr("3000 elements, 5192 padding: 12000 B of "
                               "32768 B"));
}

// Many tiles: the first three and the last two of each dimension, the
// others one box that says how many it stands for.
TEST(PaddingPicture, ManyTilesAreElidedButTheLastOnesShow) {
  const Picture p = Draw("bf16[4,1000,1000]{2,1,0:T(8,128)(2,1)}");
  // 125 x 8 tiles: rows 0,1,2,123,124 and columns 0..7 (8 are drawn).
  EXPECT_EQ(p.tiles.size(), 5u * 8u);
  ASSERT_EQ(p.elided.size(), 8u);  // the elided row, one box per column
  EXPECT_EQ(p.elided[0], "120");
  EXPECT_EQ(p.tiles.back().row, "124");
  EXPECT_EQ(p.tiles.back().rows, "8");  // 1000 = 125 * 8
  EXPECT_EQ(p.tiles.back().cols, "104");
  EXPECT_THAT(p.svg, HasSubstr("in all 4 slices (dim 0 4)"));
  // A scalar in a 128-element tile.
  const Picture scalar = Draw("s32[]{:T(128)}");
  ASSERT_EQ(scalar.tiles.size(), 1u);
  EXPECT_EQ(scalar.tiles[0].cols, "1");
  EXPECT_THAT(scalar.svg, HasSubstr("leading 1: 1 -&gt; 128"));
}

TEST(PaddingPicture, UntiledArraysHaveNone) {
  absl::StatusOr<Shape> shape = ParseShape("f32[3,5]{1,0}");
  ASSERT_TRUE(shape.ok());
  EXPECT_FALSE(PaddingPictureSvg(*shape).ok());
  absl::StatusOr<Shape> tuple = ParseShape("(f32[3]{0:T(8)})");
  ASSERT_TRUE(tuple.ok());
  EXPECT_FALSE(PaddingPictureSvg(*tuple).ok());
}

}  // namespace
}  // namespace hlolayout

// CuTe and grid pictures: every cell says what the layout computes.
#include "hlolayout/views/cute_picture.h"

#include <cstdint>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/draw/xml_reader.h"
#include "hlolayout/ttmlir/ttmlir_parse.h"
#include "hlolayout/views/grid_picture.h"

namespace hlolayout::draw {
namespace {

cute::Layout L(const char* text) {
  absl::StatusOr<cute::Layout> l = cute::ParseLayout(text);
  EXPECT_TRUE(l.ok()) << l.status();
  return *l;
}

TEST(CutePicture, EveryCellIsTheLayoutsIndex) {
  for (const char* text : {"(4,(2,2)):(2,(1,8))", "(6,2):(8,2)", "12:1",
                           "(4):(3)", "((2,3),(2,2)):((1,12),(2,6))"}) {
    SCOPED_TRACE(text);
    const cute::Layout l = L(text);
    absl::StatusOr<CellGrid> g = CuteLayoutGrid(l);
    ASSERT_TRUE(g.ok()) << g.status();
    absl::StatusOr<XmlNode> root = ReadXml(GridsToSvg({*g}, text));
    ASSERT_TRUE(root.ok()) << root.status();
    int64_t cells = 0;
    root->Visit([&](const XmlNode& n) {
      if (!n.HasClass("cute-cell")) return;
      ++cells;
      int64_t k = -1, i = 0, j = 0;
      ASSERT_TRUE(absl::SimpleAtoi(n.Attr("data-index"), &k));
      const std::string coord = n.Attr("data-coord");
      const size_t comma = coord.find(',');
      if (comma == std::string::npos) {
        ASSERT_TRUE(absl::SimpleAtoi(coord, &j));
      } else {
        ASSERT_TRUE(absl::SimpleAtoi(coord.substr(0, comma), &i));
        ASSERT_TRUE(absl::SimpleAtoi(coord.substr(comma + 1), &j));
      }
      const int64_t rows = g->rows;
      EXPECT_EQ(k, l(i + j * rows)) << coord;
      EXPECT_NE(n.Child("title"), nullptr);
    });
    EXPECT_EQ(cells, l.size());
  }
  EXPECT_FALSE(CuteLayoutGrid(L("(2,2,2):(1,2,4)")).ok());
  EXPECT_FALSE(CuteLayoutGrid(L("(1000,1000):(1,1000)")).ok());
}

TEST(CutePicture, SwizzledLayoutsDrawTheComposedFunction) {
  // Sw<1,1,1> o _0 o (4,4):(4,1): row i, column j holds the swizzle of
  // 4i + j, which flips bit 1 when bit 2 is set.
  absl::StatusOr<cute::AnyLayout> l =
      cute::ParseAnyLayout("Sw<1,1,1> o _0 o (_4,_4):(_4,_1)");
  ASSERT_TRUE(l.ok()) << l.status();
  absl::StatusOr<CellGrid> g = CuteLayoutGrid(*l);
  ASSERT_TRUE(g.ok()) << g.status();
  ASSERT_EQ(g->rows, 4);
  ASSERT_EQ(g->cols, 4);
  for (int64_t i = 0; i < 4; ++i) {
    for (int64_t j = 0; j < 4; ++j) {
      const int64_t x = 4 * i + j;
      const int64_t want = x ^ ((x & 4) >> 1);
      EXPECT_EQ(g->cells[i * 4 + j].label, absl::StrCat(want)) << i << j;
      absl::StatusOr<int64_t> k = l->TryEvaluate(i + 4 * j);
      ASSERT_TRUE(k.ok());
      EXPECT_EQ(*k, want);
    }
  }
  EXPECT_NE(g->heading.find("Sw<1,1,1> o _0 o"), std::string::npos);
  // A swizzle alone is one row of its period.
  absl::StatusOr<cute::AnyLayout> sw = cute::ParseAnyLayout("Sw<1,1,1>");
  ASSERT_TRUE(sw.ok());
  absl::StatusOr<CellGrid> row = CuteLayoutGrid(*sw);
  ASSERT_TRUE(row.ok()) << row.status();
  EXPECT_EQ(row->rows, 1);
  EXPECT_EQ(row->cols, sw->size());
}

TEST(CutePicture, NestedModesGetHeavyLines) {
  absl::StatusOr<CellGrid> g = CuteLayoutGrid(L("(4,(2,2)):(2,(1,8))"));
  ASSERT_TRUE(g.ok());
  // Columns 0-1 and 2-3 are the two groups of mode 1's (2,2).
  EXPECT_EQ(g->cells[0].group, g->cells[1].group);
  EXPECT_NE(g->cells[1].group, g->cells[2].group);
  const std::string text = GridsToText({*g}, {});
  EXPECT_NE(text.find("0   0   1│  8   9"), std::string::npos) << text;
}

TEST(CutePicture, ThreadValuePartition) {
  absl::StatusOr<CellGrid> g = CuteTvGrid(L("(2,2):(1,2)"), L("2:4"), 2, 4);
  ASSERT_TRUE(g.ok()) << g.status();
  // (t,v) -> t + 4v: index 5 = row 1, column 2 is thread 1 value 1.
  EXPECT_EQ(g->cells[1 * 4 + 2].label, "T1 V1");
  EXPECT_EQ(g->cells[0 * 4 + 1].label, "T2 V0");
  absl::StatusOr<XmlNode> root = ReadXml(GridsToSvg({*g}, "tv"));
  ASSERT_TRUE(root.ok());
  int owned = 0;
  root->Visit([&](const XmlNode& n) {
    if (n.HasClass("tv-cell") && n.HasAttr("data-thread")) ++owned;
  });
  EXPECT_EQ(owned, 8);
  // A partition that leaves cells unowned, and one that leaves the tile.
  g = CuteTvGrid(L("2:1"), L("1:0"), 2, 2);
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->cells[1].css_class, "tv-cell unowned");
  EXPECT_EQ(CuteTvGrid(L("4:1"), L("2:4"), 2, 2).status().message(),
            "thread 0 value 1 maps to index 4, outside the 2x2 tile");
  EXPECT_FALSE(CuteTvGrid(L("4:1"), L("1:0"), 0, 2).ok());
}

TEST(GridPicture, ShardsCoresAndPadding) {
  absl::StatusOr<grid::MetalLayout> layout = grid::ParseTensorType(
      "tensor<5x10xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <2x2>, "
      "memref<3x5xf32, #tt.memory_space<l1>>>>");
  ASSERT_TRUE(layout.ok()) << layout.status();
  absl::StatusOr<CellGrid> g = GridLayoutGrid(*layout);
  ASSERT_TRUE(g.ok()) << g.status();
  ASSERT_EQ(g->rows, 6);
  ASSERT_EQ(g->cols, 10);
  // Row 5 is core (1,x)'s third shard row: collapsed row 5 >= 5, padding.
  int padding = 0;
  absl::StatusOr<XmlNode> root = ReadXml(GridsToSvg({*g}, "grid"));
  ASSERT_TRUE(root.ok()) << root.status();
  root->Visit([&](const XmlNode& n) {
    if (!n.HasClass("grid-cell")) return;
    if (n.HasClass("padding")) {
      ++padding;
      EXPECT_EQ(n.Attr("data-core").substr(0, 2), "1,");
    }
  });
  EXPECT_EQ(padding, 10);
  EXPECT_EQ(g->cells[0].attrs[0].second, "0,0");
  EXPECT_EQ(g->cells[9].attrs[0].second, "0,1");
  EXPECT_EQ(g->cells[3 * 10].attrs[0].second, "1,0");
}

TEST(GridPicture, LargeShardsAtBlockGranularity) {
  absl::StatusOr<grid::MetalLayout> layout = grid::ParseTensorType(
      "tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, "
      "<3x2>, memref<1x1x!tt.tile<32 x 32, bfp_bf8>, "
      "#tt.memory_space<l1>>>>");
  ASSERT_TRUE(layout.ok()) << layout.status();
  absl::StatusOr<CellGrid> g = GridLayoutGrid(*layout);
  ASSERT_TRUE(g.ok());
  EXPECT_LE(g->rows * g->cols, 4096);
  EXPECT_NE(g->notes.back().find("scale: 1 cell = 2x2 scalars"),
            std::string::npos)
      << g->notes.back();
  absl::StatusOr<CellGrid> t = GridLayoutGrid(*layout, /*for_text=*/true);
  ASSERT_TRUE(t.ok());
  EXPECT_LE(t->cols, 48);
}

}  // namespace
}  // namespace hlolayout::draw

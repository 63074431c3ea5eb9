#include "hlolayout/views/layout_picture.h"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <numeric>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "hlolayout/draw/xml_reader.h"
#include "hlolayout/index_util/tiled_indexer.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/shape/tile.h"
#include "hlolayout/testing/test_data.h"
#include "hlolayout/testing/test_shapes.h"

namespace hlolayout::draw {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Shape Parse(const std::string& text) {
  absl::StatusOr<Shape> s = ParseShape(text);
  EXPECT_TRUE(s.ok()) << s.status();
  return *s;
}

std::vector<int64_t> ParseIndex(const std::string& text) {
  std::vector<int64_t> out;
  for (absl::string_view p : absl::StrSplit(text, ',', absl::SkipEmpty())) {
    int64_t v = -1;
    EXPECT_TRUE(absl::SimpleAtoi(p, &v)) << text;
    out.push_back(v);
  }
  return out;
}

// Golden files: regenerate with
//   hlolayout draw SHAPE --svg views/testdata/NAME.svg
//   NO_COLOR=1 hlolayout draw SHAPE > views/testdata/NAME.txt
// after checking the new picture by eye.
TEST(LayoutPicture, SeedFiguresMatchGoldenFiles) {
  struct Case {
    const char* shape;
    const char* name;
  };
  for (const Case& c : {Case{"f32[3,5]{1,0:T(2,2)}", "figure1"},
                        Case{"f32[4,8]{1,0:T(2,4)(2,1)}", "figure2"}}) {
    SCOPED_TRACE(c.shape);
    absl::StatusOr<std::string> svg = LayoutSvg(Parse(c.shape), {});
    ASSERT_TRUE(svg.ok()) << svg.status();
    EXPECT_EQ(*svg, ReadFile(TestDataPath(std::string("views/testdata/") +
                                          c.name + ".svg")));
    absl::StatusOr<std::string> text = LayoutText(Parse(c.shape), {}, {});
    ASSERT_TRUE(text.ok()) << text.status();
    EXPECT_EQ(*text, ReadFile(TestDataPath(std::string("views/testdata/") +
                                           c.name + ".txt")));
  }
}

TEST(LayoutPicture, FigureOneFacts) {
  absl::StatusOr<std::string> svg =
      LayoutSvg(Parse("f32[3,5]{1,0:T(2,2)}"), {});
  ASSERT_TRUE(svg.ok());
  absl::StatusOr<XmlNode> root = ReadXml(*svg);
  ASSERT_TRUE(root.ok()) << root.status();
  int slots = 0, padding = 0;
  std::string at17;
  root->Visit([&](const XmlNode& n) {
    if (!n.HasClass("memory")) return;
    n.Visit([&](const XmlNode& c) {
      if (c.HasClass("element") || c.HasClass("padding")) ++slots;
      if (c.HasClass("padding")) ++padding;
      if (c.HasClass("element") && c.Attr("data-offset") == "17") {
        at17 = c.Attr("data-index");
      }
    });
  });
  EXPECT_EQ(slots, 24);
  EXPECT_EQ(padding, 9);
  EXPECT_EQ(at17, "2,3");
}

// A deterministic generator so every run checks the same shapes.
struct Lcg {
  uint64_t s;
  int64_t Next(int64_t n) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int64_t>((s >> 33) % static_cast<uint64_t>(n));
  }
};

// Checks the SVG contract on one shape: well-formed XML; every element
// cell's data-offset is TiledIndexer's offset of its data-index; the memory
// view has every element once and padded - logical padding slots, each
// with its own offset; every cell has a <title>.
void CheckContract(const Shape& shape) {
  SCOPED_TRACE(shape.ToString(true));
  absl::StatusOr<TiledIndexer> ix = TiledIndexer::Create(shape);
  ASSERT_TRUE(ix.ok()) << ix.status();
  absl::StatusOr<std::string> svg = LayoutSvg(shape, {});
  ASSERT_TRUE(svg.ok()) << svg.status();
  absl::StatusOr<XmlNode> root = ReadXml(*svg);
  ASSERT_TRUE(root.ok()) << root.status();
  int views = 0;
  root->Visit([&](const XmlNode& view) {
    if (!view.HasClass("view")) return;
    ++views;
    const bool memory = view.HasClass("memory");
    int64_t elements = 0, padding = 0;
    std::set<int64_t> offsets;
    view.Visit([&](const XmlNode& c) {
      const bool element = c.HasClass("element");
      const bool pad = c.HasClass("padding");
      if (!element && !pad && !c.HasClass("logical-padding")) return;
      EXPECT_NE(c.Child("title"), nullptr) << "cell without <title>";
      if (c.HasClass("logical-padding")) return;
      int64_t offset = -1;
      ASSERT_TRUE(absl::SimpleAtoi(c.Attr("data-offset"), &offset));
      EXPECT_TRUE(offsets.insert(offset).second) << "offset " << offset;
      EXPECT_GE(offset, 0);
      EXPECT_LT(offset, ix->padded_elements());
      if (element) {
        ++elements;
        ASSERT_TRUE(c.HasAttr("data-index"));
        std::vector<int64_t> idx = ParseIndex(c.Attr("data-index"));
        ASSERT_EQ(static_cast<int64_t>(idx.size()), shape.rank());
        EXPECT_EQ(offset, ix->OffsetInElements(idx)) << c.Attr("data-index");
      } else {
        ++padding;
        std::vector<int64_t> idx(shape.rank());
        EXPECT_NE(ix->ElementAtOffsetInElements(offset, absl::MakeSpan(idx)),
                  OffsetKind::kElement);
      }
    });
    if (memory) {
      EXPECT_EQ(elements, ix->logical_elements());
      EXPECT_EQ(padding, ix->padded_elements() - ix->logical_elements());
    } else {
      EXPECT_EQ(padding, 0);
      // The slice: the product of the two most minor physical dims.
      int64_t expect = 1;
      const auto& m2m = shape.layout().minor_to_major();
      for (int64_t i = 0; i < std::min<int64_t>(2, shape.rank()); ++i) {
        expect *= shape.dimension(m2m[i]);
      }
      EXPECT_EQ(elements, expect);
    }
  });
  EXPECT_EQ(views, 2);
}

TEST(LayoutPicture, SvgContractOnSmallExhaustiveShapes) {
  constexpr int64_t kStar = Tile::kCombineDimension;
  int64_t shapes = 0;
  for (int rank = 0; rank <= 3; ++rank) {
    for (int levels = 0; levels <= 2; ++levels) {
      for (bool star : {false, true}) {
        if (star && levels == 0) continue;
        Lcg rng{static_cast<uint64_t>(rank * 8 + levels * 2 + star) * 7919};
        std::vector<int64_t> dims(rank, 1);
        const int64_t max_dim = rank <= 2 ? 5 : 3;
        while (true) {
          std::vector<int64_t> perm(rank);
          std::iota(perm.begin(), perm.end(), 0);
          do {
            std::vector<std::vector<int64_t>> tiles;
            int64_t cur = std::max(rank, 1);
            for (int l = 0; l < levels; ++l) {
              const int64_t k = 1 + rng.Next(std::min<int64_t>(cur + 1, 3));
              std::vector<int64_t> t;
              for (int64_t j = 0; j < k; ++j) t.push_back(1 + rng.Next(3));
              int64_t stars = 0;
              if (star && k >= 2) {
                t[rng.Next(k - 1)] = kStar;
                stars = 1;
              }
              cur = std::max(cur, k) - stars + (k - stars);
              tiles.push_back(t);
            }
            const int64_t tails[] = {1, 1, 3, 16};
            CheckContract(
                MakeTiled(F32, dims, perm, tiles, tails[rng.Next(4)]));
            if (HasFatalFailure()) return;
            ++shapes;
          } while (std::next_permutation(perm.begin(), perm.end()));
          int64_t d = rank - 1;
          for (; d >= 0; --d) {
            if (++dims[d] <= max_dim) break;
            dims[d] = 1;
          }
          if (d < 0) break;
        }
      }
    }
  }
  EXPECT_GT(shapes, 1000);
  RecordProperty("shapes", static_cast<int>(shapes));
}

TEST(LayoutPicture, SliceSelectsTheOtherDims) {
  const Shape s = Parse("f32[2,3,4]{2,1,0:T(2,2)}");
  LayoutDrawOptions o;
  o.view = View::kLogical;
  o.slice = {1};
  absl::StatusOr<std::string> svg = LayoutSvg(s, o);
  ASSERT_TRUE(svg.ok()) << svg.status();
  EXPECT_NE(svg->find("data-index=\"1,2,3\""), std::string::npos);
  EXPECT_EQ(svg->find("data-index=\"0,"), std::string::npos);
  o.slice = {1, 0, 0};
  EXPECT_TRUE(LayoutSvg(s, o).ok());
  o.slice = {2};
  EXPECT_EQ(LayoutSvg(s, o).status().message(),
            "slice index 2 out of bounds for dim 0 of size 2");
  o.slice = {0, 0};
  EXPECT_EQ(LayoutSvg(s, o).status().message(),
            "slice has 2 entries, expected 3 or 1");
  EXPECT_FALSE(LayoutSvg(Parse("(f32[2], s32[])"), {}).ok());
  EXPECT_EQ(ParseView("x").status().message(),
            "unknown view 'x' (logical, memory or both)");
}

TEST(LayoutPicture, LargeArraysAtTileGranularity) {
  const Shape s = Parse("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}");
  absl::StatusOr<std::string> svg = LayoutSvg(s, {});
  ASSERT_TRUE(svg.ok()) << svg.status();
  EXPECT_LT(svg->size(), 500u * 1024) << "a few hundred KB at most";
  absl::StatusOr<XmlNode> root = ReadXml(*svg);
  ASSERT_TRUE(root.ok()) << root.status();
  int blocks = 0, elements = 0;
  root->Visit([&](const XmlNode& n) {
    blocks += n.HasClass("tile-block");
    elements += n.HasClass("element") || n.HasClass("padding");
  });
  EXPECT_GT(blocks, 100);
  EXPECT_LE(blocks, 2 * 1024);
  EXPECT_EQ(elements, 0) << "no block claims to be an element";
  EXPECT_NE(svg->find("scale: 1 cell = "), std::string::npos);
  absl::StatusOr<std::string> text = LayoutText(s, {}, {});
  ASSERT_TRUE(text.ok());
  EXPECT_NE(text->find("scale: 1 cell = "), std::string::npos);
}

TEST(LayoutPicture, PartialTilesShowHowFullTheyAre) {
  // 100x100 in 8x128 tiles: every tile holds 100 of 128 columns; the last
  // tile row 4 of 8 rows.
  LayoutDrawOptions o;
  o.max_cells = 16;
  absl::StatusOr<std::string> svg =
      LayoutSvg(Parse("f32[100,100]{1,0:T(8,128)}"), o);
  ASSERT_TRUE(svg.ok());
  EXPECT_NE(svg->find("data-fill=\"78%\""), std::string::npos);  // 100/128
  EXPECT_NE(svg->find("data-fill=\"39%\""), std::string::npos);  // 4/8 of it
}

TEST(LayoutPicture, SubByteElementsShareBytes) {
  LayoutDrawOptions o;
  o.view = View::kMemory;
  absl::StatusOr<std::string> svg =
      LayoutSvg(Parse("s4[4,8]{1,0:T(2,4)E(4)}"), o);
  ASSERT_TRUE(svg.ok());
  EXPECT_NE(svg->find("class=\"byte-borders\""), std::string::npos);
  EXPECT_NE(svg->find("offset 3: (0,3) (byte 1, bits 4-7)"), std::string::npos);
  absl::StatusOr<std::string> text =
      LayoutText(Parse("s4[4,8]{1,0:T(2,4)E(4)}"), o, {});
  ASSERT_TRUE(text.ok());
  EXPECT_NE(text->find(" 0,0  0,1┊ 0,2"), std::string::npos) << *text;
}

TEST(LayoutPicture, TextColourAndAscii) {
  const Shape s = Parse("f32[3,5]{1,0:T(2,2)}");
  absl::StatusOr<std::string> plain = LayoutText(s, {}, {});
  absl::StatusOr<std::string> colour = LayoutText(s, {}, {true, false});
  absl::StatusOr<std::string> ascii = LayoutText(s, {}, {false, true});
  ASSERT_TRUE(plain.ok() && colour.ok() && ascii.ok());
  EXPECT_EQ(plain->find('\x1b'), std::string::npos);
  EXPECT_NE(colour->find("\x1b[30;48;5;110m"), std::string::npos);
  EXPECT_NE(colour->find("\x1b[0m"), std::string::npos);
  for (unsigned char c : *ascii) ASSERT_LT(c, 0x80) << *ascii;
  EXPECT_NE(ascii->find("-+-"), std::string::npos) << *ascii;
  EXPECT_NE(plain->find("┼"), std::string::npos);
}

TEST(LayoutPicture, Deterministic) {
  const Shape s = Parse("bf16[9,300]{0,1:T(8,128)(2,1)L(1024)}");
  EXPECT_EQ(*LayoutSvg(s, {}), *LayoutSvg(s, {}));
}

TEST(XmlReader, RejectsMalformedXml) {
  EXPECT_TRUE(ReadXml("<a x='1'><b/>t &amp; &#65;</a>").ok());
  EXPECT_EQ(ReadXml("<a x='1'><b/>t &amp; &#65;</a>")->text, "t & A");
  EXPECT_FALSE(ReadXml("<a><b></a>").ok());
  EXPECT_FALSE(ReadXml("<a x='1' x='2'/>").ok());
  EXPECT_FALSE(ReadXml("<a>&nope;</a>").ok());
  EXPECT_FALSE(ReadXml("<a>1 < 2</a>").ok());
  EXPECT_FALSE(ReadXml("<a/><b/>").ok());
  EXPECT_FALSE(ReadXml("<a").ok());
}

}  // namespace
}  // namespace hlolayout::draw

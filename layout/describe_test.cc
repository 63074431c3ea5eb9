#include "hlolayout/layout/describe.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/parser/shape_parser.h"

namespace hlolayout {
namespace {

// D(...) is kept (2024 sparse layouts) so every attribute can be described.
std::vector<AttributeDescription> Describe(absl::string_view text) {
  ShapeParseOptions options;
  options.keep_dim_levels = true;
  absl::StatusOr<Shape> shape = ParseShape(text, options);
  EXPECT_TRUE(shape.ok()) << shape.status();
  return DescribeLayout(*shape);
}

TEST(Describe, DesignCard) {
  std::vector<AttributeDescription> d =
      Describe("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}");
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].key, "minor_to_major");
  EXPECT_EQ(d[0].description,
            "physical order, major to minor: dim 1 (size 1), dim 0 (size 8), "
            "dim 2 (size 1280), dim 3 (size 16384)");
  EXPECT_EQ(d[1].text, "T(8,128)(2,1)");
  EXPECT_EQ(d[1].description,
            "tiles (8,128) tiles the 2 most minor dimensions of the physical "
            "shape by 8x128; (2,1) then tiles the 2 most minor dimensions of "
            "the result by 2x1; tiles are stored one after another, padding "
            "where a dimension is not a multiple of its tile");
  EXPECT_EQ(d[2].text, "S(1)");
  EXPECT_EQ(d[2].description,
            "memory space 1: alternate fast memory (VMEM on TPU)");
}

TEST(Describe, EveryAttribute) {
  std::vector<AttributeDescription> d = Describe(
      "f32[10,10]{1,0:D(D,C+~)T(*,2)L(4)#(u32)*(u16)E(16)S(5)SC(0:3)P(s32[4]{"
      "0})M(8)}");
  std::vector<std::string> keys;
  for (const auto& a : d) keys.push_back(a.key);
  EXPECT_EQ(keys,
            (std::vector<std::string>{"minor_to_major", "D", "T", "L", "#", "*",
                                      "E", "S", "SC", "P", "M"}));
  EXPECT_EQ(d[1].text, "D(D,C+~)");
  EXPECT_EQ(d[1].description,
            "sparse dimension levels: dim 0 dense; dim 1 compressed, not "
            "unique, not ordered");
  EXPECT_EQ(d[2].description,
            "tile (*,2) tiles the 2 most minor dimensions of the physical "
            "shape by 2 after combining 1 dimension marked '*' into the next "
            "more minor one; tiles are stored one after another, padding "
            "where a dimension is not a multiple of its tile");
  EXPECT_EQ(d[6].description,
            "elements are packed at 16 bits each (the type's own width is "
            "32)");
  EXPECT_EQ(d[7].description, "memory space 5: host memory");
  EXPECT_EQ(d[8].description,
            "split into separate allocations: physical dim 0 (logical dim 0) "
            "at 3");
  EXPECT_EQ(d[10].description,
            "8 bytes of dynamic-shape metadata precede the data");
}

TEST(Describe, ScalarHasNoOrder) {
  EXPECT_TRUE(Describe("f32[]").empty());
  std::vector<AttributeDescription> d = Describe("f32[]{:T(256)}");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].key, "T");
}

TEST(Describe, MajorToMinor) {
  EXPECT_EQ(MajorToMinor(Layout({3, 2, 0, 1})),
            (std::vector<int64_t>{1, 0, 2, 3}));
}

}  // namespace
}  // namespace hlolayout

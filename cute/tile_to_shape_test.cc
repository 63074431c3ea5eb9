#include "hlolayout/cute/tile_to_shape.h"

#include <string>

#include "gtest/gtest.h"
#include "hlolayout/testing/cute_test_util.h"

namespace hlolayout::cute {
namespace {

using internal::I;
using internal::L;
using internal::S;

TEST(MakeOrderedLayout, AsCute) {
  // CuTe's own examples (stride.hpp).
  EXPECT_EQ(S(MakeOrderedLayout(I("(_2,_2,_2,_2)"), I("(_0,_2,_3,_1)"))),
            "(_2,_2,_2,_2):(_1,_4,_8,_2)");
  EXPECT_EQ(S(MakeOrderedLayout(I("(2,3,4,5)"), I("(_2,_0,_1,_3)"))),
            "(2,3,4,5):(12,_1,3,24)");
  EXPECT_EQ(S(MakeOrderedLayout(I("(_8,_1)"), I("(_2,_1)"))),
            "(_8,_1):(_1,_0)");
  EXPECT_EQ(S(MakeOrderedLayout(I("((_2,_2),_4)"), I("(_1,_0)"))),
            "((_2,_2),_4):((_4,_8),_1)");
  EXPECT_EQ(S(MakeOrderedLayout(I("(_2,_4)"), absl::nullopt)),
            "(_2,_4):(_1,_2)");
  EXPECT_EQ(S(MakeOrderedLayout(I("(_2,_4)"), I("(_1,_2,_3)"))),
            "error: order (_1,_2,_3) does not fit shape (_2,_4)");
}

TEST(TileToShape, AsCute) {
  EXPECT_EQ(S(TileToShape(L("(_2,_2):(_1,_2)"), I("(_8,_8)"), absl::nullopt)),
            "((_2,_4),(_2,_4)):((_1,_4),(_2,_16))");
  EXPECT_EQ(S(TileToShape(L("(_8,_64):(_64,_1)"), I("(_64,_128,_2)"),
                          I("(_2,_1,_3)"))),
            "((_8,_8),(_64,_2),(_1,_2)):((_64,_1024),(_1,_512),(_0,_8192))");
  EXPECT_EQ(S(TileToShape(L("_8:_1"), I("_32"), absl::nullopt)),
            "((_8,(_4))):((_1,(_8)))");
  EXPECT_EQ(
      S(TileToShape(L("(_2,_2,_2):(_1,_2,_4)"), I("(_8,_8)"), absl::nullopt)),
      "error: tile_to_shape (_2,_2,_2):(_1,_2,_4) to (_8,_8) fails: the "
      "layout has rank 3, more than the target shape's 2 (CuTe: Rank of "
      "layout must be <= rank of target shape)");
}

TEST(TileToShape, PropertyEveryTileIsTheBlock) {
  // R((b, r)) in mode i is block mode i at b plus the tile offset; the
  // tiles are the block shifted by multiples of cosize(block).
  for (const char* order : {"(_1,_2)", "(_2,_1)"}) {
    absl::StatusOr<Layout> r =
        TileToShape(L("(_2,_4):(_4,_1)"), I("(_8,_16)"), I(order));
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->size(), 128);
    std::vector<bool> seen(128, false);
    for (int64_t i = 0; i < 128; ++i) {
      const int64_t v = (*r)(i);
      ASSERT_GE(v, 0);
      ASSERT_LT(v, 128);
      EXPECT_FALSE(seen[v]);
      seen[v] = true;
    }
  }
}

}  // namespace
}  // namespace hlolayout::cute

#include "hlolayout/cute/xla_bridge.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/cute/print.h"
#include "hlolayout/testing/cute_random_layout.h"

namespace hlolayout::cute {
namespace {

using Tiles = std::vector<std::vector<int64_t>>;
constexpr int64_t kStar = kCombineDim;

// XLA's tiled linear index, straight from the definition (docs/xla-shapes.md,
// "Tiling: where an element lives").
int64_t Reference(const std::vector<int64_t>& dims,
                  const std::vector<int64_t>& minor_to_major,
                  const Tiles& tiles, const std::vector<int64_t>& index) {
  std::vector<int64_t> shape, idx;
  for (size_t i = minor_to_major.size(); i-- > 0;) {
    shape.push_back(dims[minor_to_major[i]]);
    idx.push_back(index[minor_to_major[i]]);
  }
  for (const std::vector<int64_t>& tile_in : tiles) {
    std::vector<int64_t> tile = tile_in;
    while (shape.size() < tile.size()) {
      shape.insert(shape.begin(), 1);
      idx.insert(idx.begin(), 0);
    }
    // Combine `*` dims into the next more minor one.
    size_t first = shape.size() - tile.size();
    for (size_t i = 0; i < tile.size();) {
      if (tile[i] != kStar) {
        ++i;
        continue;
      }
      const size_t p = first + i;
      idx[p + 1] = idx[p] * shape[p + 1] + idx[p + 1];
      shape[p + 1] *= shape[p];
      shape.erase(shape.begin() + p);
      idx.erase(idx.begin() + p);
      tile.erase(tile.begin() + i);
    }
    first = shape.size() - tile.size();
    std::vector<int64_t> new_shape(shape.begin(), shape.begin() + first);
    std::vector<int64_t> new_idx(idx.begin(), idx.begin() + first);
    for (size_t i = 0; i < tile.size(); ++i) {
      new_shape.push_back((shape[first + i] + tile[i] - 1) / tile[i]);
      new_idx.push_back(idx[first + i] / tile[i]);
    }
    for (size_t i = 0; i < tile.size(); ++i) {
      new_shape.push_back(tile[i]);
      new_idx.push_back(idx[first + i] % tile[i]);
    }
    shape = new_shape;
    idx = new_idx;
  }
  int64_t linear = 0;
  for (size_t i = 0; i < shape.size(); ++i) linear = linear * shape[i] + idx[i];
  return linear;
}

int64_t At(const Layout& l, const std::vector<int64_t>& index) {
  std::vector<IntTuple> c(index.begin(), index.end());
  return *l.Evaluate(IntTuple::Tuple(c));
}

TEST(XlaBridge, SeedTwoByTwoTile) {
  const Layout l = *XlaTiledLayoutToCute({3, 5}, {1, 0}, {{2, 2}});
  EXPECT_EQ(ToString(l), "((2,2),(2,3)):((2,12),(1,4))");
  EXPECT_EQ(At(l, {2, 3}), 17);
}

TEST(XlaBridge, SeedRepeatedTiles) {
  const Layout l =
      *XlaTiledLayoutToCute({8, 8}, {1, 0}, {{2, 4}, {2, 1, 1, 1}});
  EXPECT_EQ(At(l, {6, 5}), 51);
  EXPECT_EQ(Reference({8, 8}, {1, 0}, {{2, 4}, {2, 1, 1, 1}}, {6, 5}), 51);
}

TEST(XlaBridge, SeedCombinedDims) {
  // F32[2,7,8,11,10]{4,3,2,1,0} with (*,*,2,*,3): dims 0..2 become 112 and
  // dims 3..4 become 110, tiled by (2,3).
  const std::vector<int64_t> dims = {2, 7, 8, 11, 10};
  const std::vector<int64_t> mtm = {4, 3, 2, 1, 0};
  const Tiles tiles = {{kStar, kStar, 2, kStar, 3}};
  absl::StatusOr<Layout> l = XlaTiledLayoutToCute(dims, mtm, tiles);
  // 10 is not a multiple of 3, so the combined minor dim cannot be split.
  EXPECT_FALSE(l.ok());
  // With (*,*,2,*,5) it can.
  const Tiles ok = {{kStar, kStar, 2, kStar, 5}};
  const Layout m = *XlaTiledLayoutToCute(dims, mtm, ok);
  for (int64_t a = 0; a < 2; ++a)
    for (int64_t b = 0; b < 7; ++b)
      for (int64_t c = 0; c < 8; ++c)
        for (int64_t d = 0; d < 11; ++d)
          for (int64_t e = 0; e < 10; ++e) {
            ASSERT_EQ(At(m, {a, b, c, d, e}),
                      Reference(dims, mtm, ok, {a, b, c, d, e}));
          }
}

TEST(XlaBridge, UntiledIsColumnOfMinorToMajor) {
  EXPECT_EQ(ToString(*XlaTiledLayoutToCute({10, 20}, {0, 1}, {})),
            "(10,20):(1,10)");
  EXPECT_EQ(ToString(*XlaTiledLayoutToCute({4}, {0}, {{8, 128}})), "(4):(1)");
  EXPECT_EQ(ToString(*XlaTiledLayoutToCute({}, {}, {{2}})), "():()");
}

TEST(XlaBridge, Errors) {
  EXPECT_EQ(XlaTiledLayoutToCute({3, 5}, {1, 1}, {}).status().message(),
            "minor_to_major is not a permutation of the dims");
  EXPECT_EQ(XlaTiledLayoutToCute({3, 0}, {1, 0}, {}).status().message(),
            "dim 1 has size 0; sizes must be positive");
  EXPECT_EQ(
      XlaTiledLayoutToCute({3, 5}, {1, 0}, {{2, kStar}}).status().message(),
      "tile 0 ends with '*', which has no more minor dim to join");
  EXPECT_EQ(
      XlaTiledLayoutToCute({3, 5}, {1, 0}, {{kStar, 2}}).status().message(),
      "cannot be expressed as a cute layout: tile 0 splits a dim by 2 "
      "where dim 0 runs at step 5 over a span of 11, neither a multiple "
      "nor a divisor of 2");
  // A second tile that does not divide the first tile's minor dim.
  EXPECT_EQ(
      XlaTiledLayoutToCute({8, 8}, {1, 0}, {{2, 4}, {3}}).status().message(),
      "cannot be expressed as a cute layout: tile 1 cuts a digit of size "
      "4 of dim 1 into parts of 3, which does not divide it");
  const int64_t big = int64_t{1} << 40;
  EXPECT_EQ(XlaTiledLayoutToCute({big, big}, {1, 0}, {}).status().message(),
            "tiled layout size overflows int64");
}

// Every small shape, every minor_to_major, random tiles: whenever the
// bridge answers, it equals the reference at every element; single tiles
// without '*' always have an answer.
TEST(XlaBridge, PropertyMatchesReferenceExhaustively) {
  internal::LayoutGenerator gen(71);
  int answered = 0, refused = 0;
  for (int rank = 1; rank <= 3; ++rank) {
    const int max_dim = rank == 3 ? 4 : 6;
    std::vector<int64_t> dims(rank, 1);
    while (true) {
      std::vector<int64_t> mtm(rank);
      std::iota(mtm.begin(), mtm.end(), 0);
      do {
        for (int trial = 0; trial < 6; ++trial) {
          Tiles tiles;
          const int levels = static_cast<int>(gen.Uniform(0, 3));
          bool simple = levels <= 1;
          for (int t = 0; t < levels; ++t) {
            std::vector<int64_t> tile(gen.Uniform(1, rank + 1));
            for (size_t i = 0; i < tile.size(); ++i) {
              tile[i] = gen.Uniform(1, 5);
              if (i + 1 < tile.size() && gen.Chance(15)) {
                tile[i] = kStar;
                simple = false;
              }
            }
            tiles.push_back(tile);
          }
          absl::StatusOr<Layout> l = XlaTiledLayoutToCute(dims, mtm, tiles);
          if (!l.ok()) {
            ++refused;
            ASSERT_FALSE(simple) << l.status().message();
            continue;
          }
          ++answered;
          std::vector<int64_t> index(rank, 0);
          while (true) {
            ASSERT_EQ(At(*l, index), Reference(dims, mtm, tiles, index))
                << ToString(*l);
            int k = rank - 1;
            while (k >= 0 && ++index[k] == dims[k]) index[k--] = 0;
            if (k < 0) break;
          }
        }
      } while (std::next_permutation(mtm.begin(), mtm.end()));
      int k = rank - 1;
      while (k >= 0 && ++dims[k] > max_dim) dims[k--] = 1;
      if (k < 0) break;
    }
  }
  EXPECT_GT(answered, 2000);
  EXPECT_GT(refused, 20);
}

}  // namespace
}  // namespace hlolayout::cute

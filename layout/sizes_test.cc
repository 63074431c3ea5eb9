#include "hlolayout/layout/sizes.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/layout/tiling.h"
#include "hlolayout/shape/layout.h"
#include "hlolayout/shape/shape.h"
#include "hlolayout/shape/tile.h"
#include "hlolayout/testing/test_shapes.h"

namespace hlolayout {
namespace {

constexpr int64_t kStar = Tile::kCombineDimension;

TEST(ArraySizes, SeedFigureOne) {
  absl::StatusOr<ArraySizes> s =
      ComputeArraySizes(MakeTiled(F32, {3, 5}, {1, 0}, {{2, 2}}));
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->logical_elements, 15);
  EXPECT_EQ(s->tiled_elements, 24);
  EXPECT_EQ(s->padded_elements, 24);
  EXPECT_EQ(s->logical_bytes, 60);
  EXPECT_EQ(s->padded_bytes, 96);
  EXPECT_DOUBLE_EQ(s->expansion, 1.6);
  EXPECT_EQ(FormatExpansion(s->expansion), "1.6x");
  EXPECT_EQ(s->padding_elements(), 9);
}

TEST(ArraySizes, UntiledNoLayout) {
  absl::StatusOr<ArraySizes> s =
      ComputeArraySizes(Shape::MakeArray(BF16, {2, 3}));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->padded_elements, 6);
  EXPECT_EQ(s->padded_bytes, 12);
  EXPECT_DOUBLE_EQ(s->expansion, 1.0);
}

TEST(ArraySizes, SubBytePackedWithTailAlignment) {
  absl::StatusOr<ArraySizes> s =
      ComputeArraySizes(MakeTiled(S4, {9}, {0}, {{4}}, 16, 4));
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->logical_elements, 9);
  EXPECT_EQ(s->tiled_elements, 12);
  EXPECT_EQ(s->padded_elements, 16);
  EXPECT_EQ(s->logical_bytes, 5);  // ceil(9*4/8)
  EXPECT_EQ(s->padded_bytes, 8);
  EXPECT_TRUE(s->packed);
  EXPECT_EQ(s->element_bits, 4);
}

TEST(ArraySizes, SubByteUnpackedIsOneBytePerElement) {
  absl::StatusOr<ArraySizes> s = ComputeArraySizes(Shape::MakeArray(S4, {9}));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->padded_bytes, 9);
}

TEST(ArraySizes, XlaTestShapeEveryTileCounts) {
  // s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}: XLA's ArraySize says 28,311,552
  // bytes; both tiles divide evenly so the exact size agrees.
  absl::StatusOr<ArraySizes> s = ComputeArraySizes(
      MakeTiled(S4, {9216, 6144}, {1, 0}, {{64, 128}, {8, 1}}, 1, 4));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->padded_bytes, 28311552);
}

TEST(ArraySizes, TileLargerThanShape) {
  // f32[2,3]{1,0:T(8,128)} is 8*128 elements; f32[4]{0:T(8,128)} too.
  EXPECT_EQ(ComputeArraySizes(MakeTiled(F32, {2, 3}, {1, 0}, {{8, 128}}))
                ->padded_bytes,
            4096);
  EXPECT_EQ(
      ComputeArraySizes(MakeTiled(F32, {4}, {0}, {{8, 128}}))->tiled_elements,
      1024);
}

TEST(ArraySizes, SecondTileLevelPads) {
  // After T(2,2), f32[3,5] is [2,3,2,2]; (3,1) pads the in-tile dim 2 -> 3.
  absl::StatusOr<ArraySizes> s =
      ComputeArraySizes(MakeTiled(F32, {3, 5}, {1, 0}, {{2, 2}, {3, 1}}));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->tiled_elements, 2 * 3 * 1 * 2 * 3 * 1);
}

TEST(ArraySizes, CombinedDims) {
  // F32[2,7,8,11,10] with (*,*,2,*,3) is [112,110] tiled by (2,3):
  // 112 is even; 110 -> 111.
  absl::StatusOr<ArraySizes> s = ComputeArraySizes(MakeTiled(
      F32, {2, 7, 8, 11, 10}, {4, 3, 2, 1, 0}, {{kStar, kStar, 2, kStar, 3}}));
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->tiled_elements, 112 * 111);
}

TEST(ArraySizes, ZeroElements) {
  absl::StatusOr<ArraySizes> s =
      ComputeArraySizes(MakeTiled(F32, {0, 5}, {1, 0}, {{2, 2}}));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->logical_bytes, 0);
  EXPECT_EQ(s->padded_bytes, 0);
  EXPECT_DOUBLE_EQ(s->expansion, 1.0);
}

TEST(ArraySizes, BoundedDynamicAtBoundUnboundedIsError) {
  Shape s = Shape::MakeDynamicArray(F32, {16, 4}, {true, false});
  EXPECT_EQ(ComputeArraySizes(s)->logical_elements, 64);
  Shape u =
      Shape::MakeDynamicArray(F32, {Shape::kUnboundedSize, 4}, {true, false});
  EXPECT_EQ(ComputeArraySizes(u).status().message(),
            "dimension 0 is unbounded (`?`): no size");
}

TEST(ArraySizes, Errors) {
  EXPECT_EQ(ComputeArraySizes(Shape::MakeTuple({})).status().message(),
            "not an array shape: ()");
  EXPECT_EQ(
      ComputeArraySizes(MakeTiled(F32, {2, 2}, {0, 0}, {})).status().message(),
      "minor_to_major {0,0} is not a permutation of 0..1");
  EXPECT_EQ(ComputeArraySizes(MakeTiled(F32, {2, 2}, {1, 0}, {{2, kStar}}))
                .status()
                .message(),
            "tile (2,*) ends with `*`: a combined dimension needs a more "
            "minor one");
  EXPECT_EQ(ComputeArraySizes(MakeTiled(F32, {2, 2}, {1, 0}, {{0, 2}}))
                .status()
                .message(),
            "tile (0,2) has a dimension 0 (must be > 0)");
  EXPECT_EQ(
      ComputeArraySizes(MakeTiled(F32, {2}, {0}, {}, 0)).status().message(),
      "tail padding alignment L(0) must be > 0");
}

TEST(ArraySizes, OverflowIsAnError) {
  const int64_t big = int64_t{1} << 40;
  EXPECT_EQ(
      ComputeArraySizes(Shape::MakeArray(F32, {big, big})).status().message(),
      "element count overflows int64");
  // Fits as elements, not as bytes.
  EXPECT_EQ(ComputeArraySizes(Shape::MakeArray(F64, {int64_t{1} << 60}))
                .status()
                .message(),
            "byte size overflows int64");
  // Fits as bytes though not as bits: answered (bits only where packed).
  absl::StatusOr<ArraySizes> bytes_fit = ComputeArraySizes(
      Shape::MakeArray(S8, {std::numeric_limits<int64_t>::max()}));
  ASSERT_TRUE(bytes_fit.ok()) << bytes_fit.status();
  EXPECT_EQ(bytes_fit->padded_bytes, std::numeric_limits<int64_t>::max());
  absl::StatusOr<ArraySizes> packed = ComputeArraySizes(
      MakeTiled(S4, {std::numeric_limits<int64_t>::max()}, {0}, {}, 1, 4));
  ASSERT_TRUE(packed.ok()) << packed.status();
  EXPECT_EQ(packed->padded_bytes, int64_t{1} << 62);
  // The padding pushes it over.
  EXPECT_EQ(ComputeArraySizes(MakeTiled(S8, {(int64_t{1} << 62) + 1}, {0},
                                        {{int64_t{1} << 62}}))
                .status()
                .message(),
            "padded dimension overflows int64");
  EXPECT_EQ(
      ComputeArraySizes(MakeTiled(S8, {std::numeric_limits<int64_t>::max() - 1},
                                  {0}, {}, 1000))
          .status()
          .message(),
      "tail-aligned element count overflows int64");
}

TEST(TilePadding, SeedFigureOne) {
  absl::StatusOr<std::vector<TilePadding>> p =
      ExplainTilePadding(MakeTiled(F32, {3, 5}, {1, 0}, {{2, 2}}));
  ASSERT_TRUE(p.ok());
  ASSERT_EQ(p->size(), 2u);
  EXPECT_EQ(
      (*p)[0].reason,
      "dim 0 (size 3) is not a multiple of tile 2 of T(2,2): padded to 4");
  EXPECT_EQ(
      (*p)[1].reason,
      "dim 1 (size 5) is not a multiple of tile 2 of T(2,2): padded to 6");
  EXPECT_EQ((*p)[1].dimension, 1);
  EXPECT_EQ((*p)[1].size, 5);
  EXPECT_EQ((*p)[1].tile_size, 2);
  EXPECT_EQ((*p)[1].padded_size, 6);
  EXPECT_EQ((*p)[1].tile_level, 0);
}

TEST(TilePadding, SecondLevelAndCombined) {
  absl::StatusOr<std::vector<TilePadding>> p =
      ExplainTilePadding(MakeTiled(F32, {4, 4}, {1, 0}, {{2, 2}, {3, 1}}));
  ASSERT_TRUE(p.ok());
  ASSERT_EQ(p->size(), 1u);
  EXPECT_EQ((*p)[0].reason,
            "dim 0 in tile (T0) (size 2) is not a multiple of tile 3 of tile "
            "level 1 (3,1) in T(2,2)(3,1): padded to 3");
  EXPECT_EQ((*p)[0].dimension, 0);
  EXPECT_EQ((*p)[0].tile_level, 1);

  p = ExplainTilePadding(MakeTiled(F32, {3, 5}, {0, 1}, {{kStar, 4}}));
  ASSERT_TRUE(p.ok());
  ASSERT_EQ(p->size(), 1u);
  EXPECT_EQ((*p)[0].reason,
            "dims 1*0 (combined size 15) is not a multiple of tile 4 of "
            "T(*,4): padded to 16");
  EXPECT_EQ((*p)[0].dimension, -1);
}

TEST(TilePadding, NoneWhenAligned) {
  absl::StatusOr<std::vector<TilePadding>> p = ExplainTilePadding(
      MakeTiled(BF16, {16, 256}, {1, 0}, {{8, 128}, {2, 1}}));
  ASSERT_TRUE(p.ok());
  EXPECT_TRUE(p->empty());
}

// ComputeArraySizes answers the usual layouts without building a
// TilingModel (the report sizes every distinct shape of a dump): over random
// shapes, valid and not (non-permutations, zero, negative and `*` tiles,
// more dims than the fast path takes, L(0), E(-1), overflows), it agrees
// with the model to the byte and the message.
TEST(ArraySizes, FastPathAgreesWithTheTilingModel) {
  std::mt19937_64 rng(20261122);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  const PrimitiveType types[] = {F32, BF16, S4, PRED, S8, F64, U4, C64};
  int checked = 0;
  for (int round = 0; round < 20000; ++round) {
    const int64_t rank = pick(0, round % 50 == 0 ? 30 : 5);
    std::vector<int64_t> dims;
    for (int64_t i = 0; i < rank; ++i) {
      const int64_t kind = pick(0, 40);
      dims.push_back(kind == 0   ? 0
                     : kind == 1 ? (int64_t{1} << pick(20, 62))
                                 : pick(1, 300));
    }
    std::vector<int64_t> m2m;
    for (int64_t i = rank - 1; i >= 0; --i) m2m.push_back(i);
    std::shuffle(m2m.begin(), m2m.end(), rng);
    if (rank > 0 && pick(0, 30) == 0) m2m[0] = m2m.back();  // not a perm
    std::vector<std::vector<int64_t>> tiles;
    const int64_t levels = pick(0, round % 100 == 0 ? 80 : 3);
    for (int64_t l = 0; l < levels; ++l) {
      std::vector<int64_t> tile;
      const int64_t k = pick(round % 97 == 0 ? 0 : 1, 4);
      for (int64_t j = 0; j < k; ++j) {
        const int64_t kind = pick(0, 60);
        tile.push_back(kind == 0   ? 0
                       : kind == 1 ? -3
                       : kind == 2 ? Tile::kCombineDimension
                       : kind == 3 ? (int64_t{1} << pick(30, 62))
                                   : pick(1, 130));
      }
      tiles.push_back(tile);
    }
    const int64_t tail = pick(0, 20) == 0 ? pick(-1, 0) : pick(1, 1024);
    const int64_t bits = pick(0, 20) == 0 ? -1 : (pick(0, 3) == 0 ? 4 : 0);
    const PrimitiveType type = types[pick(0, 7)];
    const Shape shape = pick(0, 10) == 0
                            ? Shape::MakeArray(type, dims)
                            : MakeTiled(type, dims, m2m, tiles, tail, bits);
    absl::StatusOr<ArraySizes> fast = ComputeArraySizes(shape);
    absl::StatusOr<TilingModel> model = BuildTilingModel(shape);
    ASSERT_EQ(fast.ok(),
              model.ok() && BytesForElements(model->padded_elements,
                                             model->element_bits, model->packed)
                                .ok())
        << shape.ToString(true) << " " << fast.status();
    if (!model.ok()) {
      EXPECT_EQ(fast.status(), model.status()) << shape.ToString(true);
      continue;
    }
    if (!fast.ok()) continue;
    ++checked;
    EXPECT_EQ(fast->logical_elements, model->logical_elements);
    EXPECT_EQ(fast->tiled_elements, model->tiled_elements);
    EXPECT_EQ(fast->padded_elements, model->padded_elements)
        << shape.ToString(true);
    EXPECT_EQ(fast->element_bits, model->element_bits);
    EXPECT_EQ(fast->packed, model->packed);
    EXPECT_EQ(fast->padded_bytes,
              *BytesForElements(model->padded_elements, model->element_bits,
                                model->packed));
  }
  EXPECT_GT(checked, 10000);
}

}  // namespace
}  // namespace hlolayout

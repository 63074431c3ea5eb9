#include "hlolayout/ttnn/tensor_layout.h"

#include <vector>

#include "gtest/gtest.h"

namespace hlolayout::ttnn {
namespace {

using V = std::vector<int64_t>;

PageConfig Tiled(int64_t h, int64_t w) {
  return {Layout::kTile, *MakeTile(h, w)};
}

TEST(TensorLayoutTest, WorkedExamplesOfTheTestData) {
  // Row 3: float32 [3,3,76,18], tiles 16x32, L1 interleaved.
  const MemoryConfig l1 = MemoryConfig::Interleaved(BufferType::kL1);
  const V a = DefaultAlignment(Tiled(16, 32), l1);
  EXPECT_EQ(a, (V{16, 32}));
  EXPECT_EQ(*PaddedShape({3, 3, 76, 18}, a), (V{3, 3, 80, 32}));
  EXPECT_EQ(*PhysicalShape({3, 3, 76, 18}, a),
            (std::array<int64_t, 2>{720, 32}));
  EXPECT_EQ(*Logical2dShape({3, 3, 76, 18}), (std::array<int64_t, 2>{684, 18}));
  // Strides round up to the next dim's alignment but use logical dims.
  EXPECT_EQ(*Strides({3, 3, 76, 18}, a), (V{7296, 2432, 32, 1}));
  // Row 13: uint8 [3,3,60,205] ROW_MAJOR interleaved: one row per page.
  const PageConfig rm{Layout::kRowMajor, Tile{}};
  EXPECT_EQ(DefaultAlignment(rm, l1), (V{1}));
  EXPECT_EQ(*PageShape({540, 205}, DataType::kUint8, rm, l1),
            (std::array<int64_t, 2>{1, 205}));
  EXPECT_EQ(*PageBytes({1, 205}, DataType::kUint8, rm), 205);
  // A tiled rank-1 shape is padded to rank 2.
  EXPECT_EQ(*PaddedShape({40}, V{32, 32}), (V{32, 64}));
  EXPECT_EQ(*PhysicalShape({40}, V{32, 32}), (std::array<int64_t, 2>{32, 64}));
  EXPECT_EQ(*Logical2dShape({40}), (std::array<int64_t, 2>{1, 40}));
}

TEST(TensorLayoutTest, RowMajorShardedAlignsToTheShardWidth) {
  MemoryConfig nd = MemoryConfig::NdSharded(
      BufferType::kL1, {{2, 13, 24}, *CoreRangeSet::Make({{{0, 0}, {3, 2}}})});
  const PageConfig rm{Layout::kRowMajor, Tile{}};
  const V a = DefaultAlignment(rm, nd);
  EXPECT_EQ(a, (V{24}));
  EXPECT_EQ(*PaddedShape({3, 47, 108}, a), (V{3, 47, 120}));
  EXPECT_EQ(*PageShape({141, 120}, DataType::kFloat32, rm, nd),
            (std::array<int64_t, 2>{1, 24}));
  EXPECT_EQ(*PageBytes({1, 24}, DataType::kFloat32, rm), 96);
  // Block floats are stored as floats when not tiled.
  EXPECT_EQ(*PageBytes({1, 24}, DataType::kBfloat8B, rm), 96);
  // int8 has no row-major size in tt-metal.
  EXPECT_FALSE(PageBytes({1, 24}, DataType::kInt8, rm).ok());
  // An empty plane has a page of one 32-bit word.
  EXPECT_EQ(*PageShape({0, 120}, DataType::kBfloat16, rm, nd),
            (std::array<int64_t, 2>{1, 2}));
}

// For every shape of rank 1..3 (dims 0..5) and tile: the padded shape
// rounds dims -1 and -2 up to the tile and keeps the rest, the physical
// shape is the padded one folded to 2-D, and a page count is whole.
TEST(TensorLayoutTest, PaddingPropertiesExhaustively) {
  for (auto [th, tw] : {std::pair{32, 32}, {16, 32}, {32, 16}, {1, 16}}) {
    const V a = {th, tw};
    for (int rank = 1; rank <= 3; ++rank) {
      V s(rank, 0);
      while (true) {
        const V p = *PaddedShape(s, a);
        const std::array<int64_t, 2> phys = *PhysicalShape(s, a);
        ASSERT_EQ(p.size(), std::max<size_t>(rank, 2));
        const size_t off = p.size() - rank;
        int64_t rows = 1;
        for (size_t i = 0; i < p.size(); ++i) {
          const int64_t d = i >= off ? s[i - off] : 1;
          const int64_t unit = i + 1 == p.size()   ? tw
                               : i + 2 == p.size() ? th
                                                   : 1;
          EXPECT_EQ(p[i] % unit, 0);
          EXPECT_GE(p[i], d);
          EXPECT_LT(p[i] - d, unit);
          if (i + 1 < p.size()) rows *= p[i];
        }
        EXPECT_EQ(phys[0], rows);
        EXPECT_EQ(phys[1], p.back());
        int i = rank - 1;
        for (; i >= 0 && ++s[i] > 5; --i) s[i] = 0;
        if (i < 0) break;
      }
    }
  }
}

TEST(TensorLayoutTest, OverflowIsAnError) {
  const V big(4, int64_t{1} << 31);  // 2^124 elements
  EXPECT_FALSE(PhysicalShape(big, V{32, 32}).ok());
  EXPECT_FALSE(Strides(big, V{32, 32}).ok());
  EXPECT_FALSE(Logical2dShape(big).ok());
}

}  // namespace
}  // namespace hlolayout::ttnn

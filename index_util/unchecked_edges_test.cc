// The unchecked entry points at their documented edges. Run under the
// sanitizer configuration (`--config=asan`, .ci/run), these fail on any
// signed overflow or out-of-bounds access: UBSan once reported overflow in
// TiledIndexer::Offset (now OffsetInElements) for out-of-range indices, and a
// short output span made WriteOffsetsInLogicalOrder write past its end.
#include <cstdint>
#include <limits>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/index_util/tiled_indexer.h"
#include "hlolayout/index_util/walker.h"
#include "hlolayout/index_util/xla_index_util.h"
#include "hlolayout/shape/shape.h"
#include "hlolayout/shape/tile.h"
#include "hlolayout/testing/test_shapes.h"

namespace hlolayout {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kStar = Tile::kCombineDimension;

// Shapes that take each forward path: split-only with shifts and with
// multiply-shift divisions, and the op interpreter (`*` mixes dims).
std::vector<Shape> Shapes() {
  return {
      MakeTiled(F32, {3, 5}, {1, 0}, {{2, 2}}),
      MakeTiled(F32, {1000, 1000}, {1, 0}, {{8, 128}}),
      MakeTiled(F32, {7, 11}, {0, 1}, {{3, 5}, {1, 1}}),
      MakeTiled(F32, {2, 7, 8, 11, 10}, {4, 3, 2, 1, 0},
                {{kStar, kStar, 2, kStar, 3}}),
      MakeTiled(BF16, {64, 300}, {1, 0}, {{8, 128}, {2, 1}}),
  };
}

TEST(UncheckedEdges, OffsetOfAnyIndexIsDefined) {
  const int64_t values[] = {kMin, kMin + 1, -13,      -1,  0,
                            1,    1000,     kMax - 1, kMax};
  for (const Shape& shape : Shapes()) {
    SCOPED_TRACE(shape.ToString(true));
    absl::StatusOr<TiledIndexer> ix = TiledIndexer::Create(shape);
    ASSERT_TRUE(ix.ok()) << ix.status();
    std::vector<int64_t> index(shape.rank(), 0);
    for (int64_t d = 0; d < shape.rank(); ++d) {
      for (int64_t v : values) {
        std::fill(index.begin(), index.end(), 0);
        index[d] = v;
        const int64_t offset =
            ix->OffsetInElements(index);  // wrong but defined
        absl::StatusOr<int64_t> checked = ix->TryOffsetInElements(index);
        const bool in_bounds = v >= 0 && v < shape.dimension(d);
        EXPECT_EQ(checked.ok(), in_bounds) << v;
        if (in_bounds) {
          EXPECT_EQ(*checked, offset);
        }
      }
    }
    std::fill(index.begin(), index.end(), kMax);
    (void)ix->OffsetInElements(index);
    std::fill(index.begin(), index.end(), kMin);
    (void)ix->OffsetInElements(index);
  }
}

TEST(UncheckedEdges, ElementAtOfAnyOffsetIsDefined) {
  for (const Shape& shape : Shapes()) {
    SCOPED_TRACE(shape.ToString(true));
    absl::StatusOr<TiledIndexer> ix = TiledIndexer::Create(shape);
    ASSERT_TRUE(ix.ok());
    std::vector<int64_t> index(shape.rank());
    for (int64_t offset :
         {kMin, int64_t{-13}, int64_t{-1}, ix->padded_elements(), kMax}) {
      EXPECT_EQ(ix->ElementAtOffsetInElements(offset, absl::MakeSpan(index)),
                OffsetKind::kTailPadding)
          << offset;
      EXPECT_FALSE(
          ix->TryElementAtOffsetInElements(offset, absl::MakeSpan(index)).ok());
    }
    EXPECT_EQ(ix->ElementAtOffsetInElements(0, absl::MakeSpan(index)),
              OffsetKind::kElement);
    EXPECT_EQ(ix->ElementAtOffsetInElements(ix->padded_elements() - 1,
                                            absl::MakeSpan(index)),
              ix->TryElementAtOffsetInElements(ix->padded_elements() - 1,
                                               absl::MakeSpan(index))
                  .value());
  }
}

// Full-size outputs at the edge are written completely and no further.
TEST(UncheckedEdges, WritersFillExactlyTheirSpans) {
  absl::StatusOr<TiledIndexer> ix =
      TiledIndexer::Create(MakeTiled(F32, {3, 5}, {1, 0}, {{2, 2}}));
  ASSERT_TRUE(ix.ok());
  std::vector<int32_t> gather(ix->logical_elements());
  WriteOffsetsInLogicalOrder(*ix, absl::MakeSpan(gather));
  EXPECT_EQ(gather, (std::vector<int32_t>{0, 1, 4, 5, 8, 2, 3, 6, 7, 10, 12, 13,
                                          16, 17, 20}));
  std::vector<int64_t> scatter(ix->padded_elements());
  WriteLogicalIndicesInPhysicalOrder(*ix, absl::MakeSpan(scatter));
  EXPECT_EQ(scatter[0], 0);
  EXPECT_EQ(scatter[9], -1);
}

using UncheckedEdgesDeathTest = ::testing::Test;

TEST(UncheckedEdgesDeathTest, ShortSpansAbortWithTheWritersName) {
  absl::StatusOr<TiledIndexer> ix =
      TiledIndexer::Create(MakeTiled(F32, {3, 5}, {1, 0}, {{2, 2}}));
  ASSERT_TRUE(ix.ok());
  std::vector<int64_t> short_out(ix->logical_elements() - 1);
  EXPECT_DEATH(WriteOffsetsInLogicalOrder(*ix, absl::MakeSpan(short_out)),
               "WriteOffsetsInLogicalOrder: output has 14 entries");
  std::vector<uint32_t> short_scatter(ix->padded_elements() - 1);
  EXPECT_DEATH(
      WriteLogicalIndicesInPhysicalOrder(*ix, absl::MakeSpan(short_scatter)),
      "WriteLogicalIndicesInPhysicalOrder: output has 23 entries");
  std::vector<int64_t> one = {1};
  EXPECT_DEATH((void)ix->OffsetInElements(one),
               "OffsetInElements: index has 1 coordinates");
  std::vector<int64_t> offsets(2);
  std::vector<int64_t> three = {1, 2, 0};
  EXPECT_DEATH(ix->OffsetsInElements(three, absl::MakeSpan(offsets)),
               "OffsetsInElements: 2 offsets need 4 coordinates, got 3");
  std::vector<OffsetKind> kinds(1);
  std::vector<int64_t> indices(4);
  EXPECT_DEATH(ix->ElementsAtOffsetsInElements(offsets, absl::MakeSpan(indices),
                                               absl::MakeSpan(kinds)),
               "ElementsAtOffsetsInElements");
  EXPECT_DEATH((void)ix->ElementAtOffsetInElements(0, absl::MakeSpan(one)),
               "ElementAtOffsetInElements: index has 1 coordinates");
  int64_t stride, run, dim;
  EXPECT_DEATH((void)ix->OffsetRun(one, &stride, &run), "OffsetRun");
  EXPECT_DEATH((void)ix->ElementRun(0, absl::MakeSpan(one), &dim, &run),
               "ElementRun");
  std::vector<int64_t> bump = {0, 0, 0};
  EXPECT_DEATH(
      XlaBumpIndices(MakeTiled(F32, {3, 5}, {1, 0}, {}), absl::MakeSpan(bump)),
      "XlaBumpIndices: 3 indices for rank 2");
}

}  // namespace
}  // namespace hlolayout

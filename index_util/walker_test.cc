#include "hlolayout/index_util/walker.h"

#include <cstdint>
#include <numeric>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/index_util/tiled_indexer.h"
#include "hlolayout/layout/reference_index.h"
#include "hlolayout/shape/layout.h"
#include "hlolayout/shape/shape.h"
#include "hlolayout/shape/tile.h"
#include "hlolayout/testing/test_shapes.h"

namespace hlolayout {
namespace {

constexpr int64_t kStar = Tile::kCombineDimension;

// Both walks against element-by-element conversion.
void CheckWalks(const Shape& shape) {
  SCOPED_TRACE(shape.ToString(true));
  absl::StatusOr<TiledIndexer> ix = TiledIndexer::Create(shape);
  ASSERT_TRUE(ix.ok()) << ix.status();
  std::vector<int64_t> expect(shape.rank(), 0);
  int64_t visited = 0;
  bool done = ix->logical_elements() == 0;
  ForEachElementInLogicalOrder(
      *ix, [&](absl::Span<const int64_t> idx, int64_t offset) {
        ASSERT_FALSE(done) << "visited past the end";
        ASSERT_EQ(std::vector<int64_t>(idx.begin(), idx.end()), expect);
        ASSERT_EQ(offset, ix->OffsetInElements(idx));
        ++visited;
        int64_t d = shape.rank() - 1;
        for (; d >= 0; --d) {
          if (++expect[d] < shape.dimension(d)) break;
          expect[d] = 0;
        }
        if (d < 0) done = true;
      });
  EXPECT_EQ(visited, ix->logical_elements());
  int64_t next = 0;
  std::vector<int64_t> want(shape.rank());
  ForEachOffsetInPhysicalOrder(*ix, [&](int64_t offset, OffsetKind kind,
                                        absl::Span<const int64_t> idx) {
    ASSERT_EQ(offset, next);
    ++next;
    ASSERT_EQ(kind, ix->ElementAtOffsetInElements(offset, absl::MakeSpan(want)))
        << "offset " << offset;
    if (kind == OffsetKind::kElement) {
      ASSERT_EQ(std::vector<int64_t>(idx.begin(), idx.end()), want)
          << "offset " << offset;
    }
  });
  EXPECT_EQ(next, ix->padded_elements());

  // The bulk tables, 32- and 64-bit, against the element-by-element walks.
  std::vector<int64_t> offsets;
  ForEachElementInLogicalOrder(
      *ix,
      [&](absl::Span<const int64_t>, int64_t off) { offsets.push_back(off); });
  std::vector<int64_t> table64(ix->logical_elements(), -7);
  WriteOffsetsInLogicalOrder(*ix, absl::MakeSpan(table64));
  EXPECT_EQ(table64, offsets);
  std::vector<uint32_t> table32(ix->logical_elements() + 1, 7);
  // Unaligned on purpose: the scalar head.
  WriteOffsetsInLogicalOrder(*ix, absl::MakeSpan(table32).subspan(1));
  for (size_t i = 0; i < offsets.size(); ++i) {
    ASSERT_EQ(table32[i + 1], static_cast<uint32_t>(offsets[i])) << i;
  }
  std::vector<int64_t> inverse(ix->padded_elements(), -7);
  WriteLogicalIndicesInPhysicalOrder(*ix, absl::MakeSpan(inverse));
  std::vector<uint32_t> inverse32(ix->padded_elements(), 7);
  WriteLogicalIndicesInPhysicalOrder(*ix, absl::MakeSpan(inverse32));
  for (int64_t off = 0; off < ix->padded_elements(); ++off) {
    int64_t expect_linear = -1;
    if (ix->ElementAtOffsetInElements(off, absl::MakeSpan(want)) ==
        OffsetKind::kElement) {
      expect_linear = 0;
      for (int64_t d = 0; d < shape.rank(); ++d) {
        expect_linear = expect_linear * shape.dimension(d) + want[d];
      }
    }
    ASSERT_EQ(inverse[off], expect_linear) << "offset " << off;
    ASSERT_EQ(inverse32[off], static_cast<uint32_t>(expect_linear))
        << "offset " << off;
  }
}

TEST(Walker, SeedFigureOneOrders) {
  absl::StatusOr<TiledIndexer> ix =
      TiledIndexer::Create(MakeTiled({3, 5}, {1, 0}, {{2, 2}}));
  std::vector<int64_t> offsets;
  ForEachElementInLogicalOrder(
      *ix,
      [&](absl::Span<const int64_t>, int64_t off) { offsets.push_back(off); });
  EXPECT_EQ(offsets, (std::vector<int64_t>{0, 1, 4, 5, 8, 2, 3, 6, 7, 10, 12,
                                           13, 16, 17, 20}));
  CheckWalks(MakeTiled({3, 5}, {1, 0}, {{2, 2}}));
}

TEST(Walker, ManyLayouts) {
  CheckWalks(MakeTiled({4, 8}, {1, 0}, {{2, 4}, {2, 1}}));
  CheckWalks(MakeTiled({8, 8}, {1, 0}, {{2, 4}, {2, 1, 1, 1}}));
  CheckWalks(MakeTiled({2, 7, 8, 11, 10}, {4, 3, 2, 1, 0},
                       {{kStar, kStar, 2, kStar, 3}}));
  CheckWalks(MakeTiled({5, 3, 4}, {0, 2, 1}, {{kStar, 3}, {2, 1}}, 7));
  CheckWalks(MakeTiled({3, 17, 300}, {2, 1, 0}, {{8, 128}, {2, 1}}));
  CheckWalks(MakeTiled({6, 9, 11}, {0, 1, 2}, {{7, 5}, {3, 1}}, 64));
  CheckWalks(MakeTiled({5}, {0}, {{3, 2}}, 16));
  CheckWalks(MakeTiled({}, {}, {{4}}));
  CheckWalks(MakeTiled({0, 3}, {1, 0}, {{2, 2}}));
  CheckWalks(MakeTiled({4, 1, 6}, {1, 2, 0}, {}));
}

TEST(Walker, SmallShapesEveryPermutationWithTiles) {
  // Rank 3, dims 1..4, every minor_to_major, a fixed set of tilings.
  const std::vector<std::vector<std::vector<int64_t>>> tilings = {
      {},
      {{2, 2}},
      {{3}},
      {{2, 3}, {2, 1}},
      {{kStar, 2}},
      {{kStar, kStar, 3}, {2}},
      {{1, 2, 2, 2}},
      {{3, 2}, {kStar, 2}, {2, 1}}};
  for (int64_t a = 1; a <= 4; ++a) {
    for (int64_t b = 1; b <= 4; ++b) {
      for (int64_t c = 1; c <= 4; ++c) {
        std::vector<int64_t> perm = {0, 1, 2};
        do {
          for (const auto& t : tilings) {
            CheckWalks(MakeTiled({a, b, c}, perm, t, (a + b) % 3 == 0 ? 5 : 1));
            if (HasFatalFailure()) return;
          }
        } while (std::next_permutation(perm.begin(), perm.end()));
      }
    }
  }
}

TEST(Walker, LargeTablesUseStreamingStores) {
  // Over 4 MiB of output: the streaming path, aligned and not.
  for (const Shape& s : {MakeTiled({1030, 1100}, {1, 0}, {{8, 128}}),
                         MakeTiled({37, 300, 97}, {0, 2, 1}, {{3, 10}, {3, 1}}),
                         MakeTiled({1100, 1030}, {0, 1}, {})}) {
    SCOPED_TRACE(s.ToString(true));
    absl::StatusOr<TiledIndexer> ix = TiledIndexer::Create(s);
    ASSERT_TRUE(ix.ok());
    std::vector<int64_t> table(ix->logical_elements());
    WriteOffsetsInLogicalOrder(*ix, absl::MakeSpan(table));
    std::vector<uint32_t> table32(ix->logical_elements() + 3);
    WriteOffsetsInLogicalOrder(
        *ix, absl::MakeSpan(table32).subspan(3, ix->logical_elements()));
    int64_t i = 0;
    ForEachElementInLogicalOrder(
        *ix, [&](absl::Span<const int64_t>, int64_t off) {
          ASSERT_EQ(table[i], off) << i;
          ASSERT_EQ(table32[i + 3], static_cast<uint32_t>(off)) << i;
          ++i;
        });
    std::vector<int64_t> inverse(ix->padded_elements());
    WriteLogicalIndicesInPhysicalOrder(*ix, absl::MakeSpan(inverse));
    std::vector<int64_t> idx(s.rank());
    for (int64_t off = 0; off < ix->padded_elements(); ++off) {
      int64_t expect = -1;
      if (ix->ElementAtOffsetInElements(off, absl::MakeSpan(idx)) ==
          OffsetKind::kElement) {
        expect = 0;
        for (int64_t d = 0; d < s.rank(); ++d) {
          expect = expect * s.dimension(d) + idx[d];
        }
      }
      ASSERT_EQ(inverse[off], expect) << off;
    }
  }
}

TEST(Walker, RunsAreLong) {
  absl::StatusOr<TiledIndexer> ix =
      TiledIndexer::Create(MakeTiled({64, 512}, {1, 0}, {{8, 128}}));
  int64_t runs = 0;
  ForEachRunInLogicalOrder(*ix, [&](absl::Span<const int64_t>, int64_t,
                                    int64_t stride, int64_t count) {
    EXPECT_EQ(stride, 1);
    EXPECT_EQ(count, 128);
    ++runs;
  });
  EXPECT_EQ(runs, 64 * 4);
}

}  // namespace
}  // namespace hlolayout

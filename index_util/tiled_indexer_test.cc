#include "hlolayout/index_util/tiled_indexer.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "hlolayout/layout/reference_index.h"
#include "hlolayout/layout/tiling.h"
#include "hlolayout/shape/layout.h"
#include "hlolayout/shape/shape.h"
#include "hlolayout/shape/tile.h"
#include "hlolayout/testing/sanitizer_scale.h"
#include "hlolayout/testing/test_shapes.h"

namespace hlolayout {
namespace {

constexpr int64_t kStar = Tile::kCombineDimension;

// The same shape compiled three ways: as Create picks (the specialised
// forms where they apply, the BMI2 bit extract when the processor has it),
// without the BMI2 extract (the portable bit-field loop), and with no
// specialised or fast path at all (the general interpreter). Comparing them
// compares the library with itself; CheckShape also compares with the
// independent plain reference.
struct ThreeWays {
  absl::StatusOr<TiledIndexer> fast, portable, interpreter;
};
ThreeWays CreateThreeWays(const TilingModel& model) {
  TiledIndexer::Options portable, interpreter;
  portable.allow_bmi2 = false;
  interpreter.specialize = false;
  return ThreeWays{TiledIndexer::Create(model),
                   TiledIndexer::Create(model, portable),
                   TiledIndexer::Create(model, interpreter)};
}

// Checks every property the issue names on one shape, against the plain
// reference of layout/reference_index.h when `reference` is set, and every
// path of the indexer against the interpreter (library against itself).
void CheckShape(const Shape& shape, bool reference) {
  SCOPED_TRACE(shape.ToString(true));
  absl::StatusOr<TilingModel> model = BuildTilingModel(shape);
  ASSERT_TRUE(model.ok()) << model.status();
  ThreeWays ways = CreateThreeWays(*model);
  absl::StatusOr<TiledIndexer>& ix = ways.fast;
  ASSERT_TRUE(ix.ok()) << ix.status();
  ASSERT_TRUE(ways.portable.ok() && ways.interpreter.ok());
  ASSERT_STREQ(ways.interpreter->forward_path(), "interpreter");
  ASSERT_STREQ(ways.interpreter->inverse_path(), "interpreter");
  SCOPED_TRACE(absl::StrCat("paths: ", ix->forward_path(), ", ",
                            ix->inverse_path(), ", ",
                            ways.portable->inverse_path()));
  const int64_t rank = shape.rank();
  const int64_t padded = ix->padded_elements();
  std::vector<char> seen(padded, 0);
  std::vector<int64_t> idx(rank, 0), back(rank, -1), other(rank, -1);
  int64_t elements = 0;
  if (model->logical_elements > 0) {
    while (true) {
      const int64_t off = ix->OffsetInElements(idx);
      ASSERT_GE(off, 0);
      ASSERT_LT(off, ix->tiled_elements());
      ASSERT_EQ(off, ways.interpreter->OffsetInElements(idx));
      ASSERT_EQ(off, ways.portable->OffsetInElements(idx));
      if (reference) {
        ASSERT_EQ(off, *ReferenceOffset(*model, idx));
      }
      ASSERT_FALSE(seen[off]) << "two elements at offset " << off;
      seen[off] = 1;
      ++elements;
      ASSERT_EQ(ix->ElementAtOffsetInElements(off, absl::MakeSpan(back)),
                OffsetKind::kElement);
      ASSERT_EQ(back, idx) << "offset " << off;
      int64_t d = rank - 1;
      for (; d >= 0; --d) {
        if (++idx[d] < shape.dimension(d)) break;
        idx[d] = 0;
      }
      if (d < 0) break;
    }
  }
  ASSERT_EQ(elements, model->logical_elements);
  // DimOffsets: each dimension's table is Offset along that dimension.
  for (int64_t d = 0; d < rank; ++d) {
    std::vector<int64_t> table(shape.dimension(d), -1), one(rank, 0);
    ix->DimOffsets(d, absl::MakeSpan(table));
    for (int64_t i = 0; i < shape.dimension(d); ++i) {
      one[d] = i;
      ASSERT_EQ(table[i], ix->OffsetInElements(one))
          << "dim " << d << " index " << i;
    }
  }
  // GroupOffsets: every subset of the dimensions, in two orders (as given
  // and reversed), against Offset of the same combination (on the shapes
  // checked against the reference: all of rank <= 3, some of rank 4).
  for (int mask = 1; reference && mask < (1 << rank); ++mask) {
    std::vector<int> group;
    int64_t n = 1;
    for (int d = 0; d < rank; ++d) {
      if (mask & (1 << d)) {
        group.push_back(d);
        n *= shape.dimension(d);
      }
    }
    for (int order = 0; order < 2; ++order) {
      if (order == 1) std::reverse(group.begin(), group.end());
      std::vector<int64_t> table(n, -1), one(rank, 0);
      ix->GroupOffsets(group, absl::MakeSpan(table));
      for (int64_t c = 0; c < n; ++c) {
        int64_t rest = c;
        for (size_t k = group.size(); k-- > 0;) {
          one[group[k]] = rest % shape.dimension(group[k]);
          rest /= shape.dimension(group[k]);
        }
        ASSERT_EQ(table[c], ix->OffsetInElements(one))
            << "dims mask " << mask << " combination " << c;
      }
    }
  }
  int64_t padding = 0;
  for (int64_t off = 0; off < padded; ++off) {
    const OffsetKind kind =
        ix->ElementAtOffsetInElements(off, absl::MakeSpan(back));
    for (const absl::StatusOr<TiledIndexer>* way :
         {&ways.portable, &ways.interpreter}) {
      ASSERT_EQ((*way)->ElementAtOffsetInElements(off, absl::MakeSpan(other)),
                kind)
          << "offset " << off << ", " << (*way)->inverse_path();
      if (kind == OffsetKind::kElement) {
        ASSERT_EQ(other, back) << "offset " << off;
      }
    }
    if (reference) {
      absl::StatusOr<ElementAtOffset> r = ReferenceElementAt(*model, off);
      ASSERT_TRUE(r.ok());
      ASSERT_EQ(r->kind, kind) << "offset " << off;
      if (kind == OffsetKind::kElement) {
        ASSERT_EQ(r->index, back);
      }
    }
    if (kind == OffsetKind::kElement) {
      ASSERT_TRUE(seen[off]) << "offset " << off << " decodes to an element "
                             << "no index maps to";
    } else {
      ASSERT_FALSE(seen[off]) << "element offset " << off << " says padding";
      ASSERT_EQ(kind == OffsetKind::kTailPadding, off >= ix->tiled_elements());
      ++padding;
    }
  }
  ASSERT_EQ(padding, padded - model->logical_elements);
}

// A deterministic generator so every run checks the same shapes.
struct Lcg {
  uint64_t s;
  int64_t Next(int64_t n) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int64_t>((s >> 33) % static_cast<uint64_t>(n));
  }
};

std::vector<std::vector<int64_t>> MakeTiles(Lcg& rng, int64_t rank, int levels,
                                            bool star) {
  std::vector<std::vector<int64_t>> tiles;
  int64_t cur_rank = std::max<int64_t>(rank, 1);
  for (int l = 0; l < levels; ++l) {
    // Up to one more dim than the current shape (leading 1s), at least 1.
    const int64_t k = 1 + rng.Next(std::min<int64_t>(cur_rank + 1, 4));
    std::vector<int64_t> t;
    for (int64_t j = 0; j < k; ++j) t.push_back(1 + rng.Next(4));
    if (star && k >= 2) {
      // One or two `*`, never the most minor entry.
      t[rng.Next(k - 1)] = kStar;
      if (k >= 3 && rng.Next(2) == 0) t[rng.Next(k - 1)] = kStar;
    }
    int64_t stars = std::count(t.begin(), t.end(), kStar);
    int64_t padded_rank = std::max(cur_rank, k);
    cur_rank = padded_rank - stars + (k - stars);
    tiles.push_back(t);
  }
  return tiles;
}

// Parameter: rank * 8 + levels * 2 + star.
class TiledIndexerProperty : public ::testing::TestWithParam<int> {};

TEST_P(TiledIndexerProperty, EveryShapePermutationAndTiling) {
  const int rank = GetParam() / 8;
  const int levels = (GetParam() / 2) % 4;
  const bool star = GetParam() % 2 == 1;
  if (levels == 0 && star) GTEST_SKIP() << "no tile to put `*` in";
  Lcg rng{static_cast<uint64_t>(GetParam()) * 7919 + 17};
  std::vector<int64_t> dims(rank, 1);
  int64_t shapes = 0;
  while (true) {
    std::vector<int64_t> perm(rank);
    std::iota(perm.begin(), perm.end(), 0);
    do {
      const int64_t tails[] = {1, 1, 3, 16};
      Shape s = MakeTiled(F32, dims, perm, MakeTiles(rng, rank, levels, star),
                          tails[rng.Next(4)]);
      // The plain reference is slow: use it on every rank <= 3 shape and
      // on one rank-4 shape in 8.
      CheckShape(s, rank <= 3 || rng.Next(8) == 0);
      if (HasFatalFailure()) return;
      ++shapes;
    } while (std::next_permutation(perm.begin(), perm.end()));
    // Dimensions 1 to 5; under the sanitizers rank 4 stops at 3 (every
    // permutation and tiling still, testing/sanitizer_scale.h).
    const int64_t max_dim = kSanitizerBuild && rank == 4 ? 3 : 5;
    int64_t d = rank - 1;
    for (; d >= 0; --d) {
      if (++dims[d] <= max_dim) break;
      dims[d] = 1;
    }
    if (d < 0) break;
  }
  RecordProperty("shapes", static_cast<int>(shapes));
}

INSTANTIATE_TEST_SUITE_P(RanksLevelsStars, TiledIndexerProperty,
                         ::testing::Range(0, 5 * 8),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return "Rank" + std::to_string(info.param / 8) +
                                  "Levels" +
                                  std::to_string((info.param / 2) % 4) +
                                  (info.param % 2 ? "Star" : "NoStar");
                         });

TEST(TiledIndexer, SeedExamples) {
  absl::StatusOr<TiledIndexer> ix =
      TiledIndexer::Create(MakeTiled(F32, {3, 5}, {1, 0}, {{2, 2}}));
  ASSERT_TRUE(ix.ok());
  EXPECT_EQ(ix->OffsetInElements({2, 3}), 17);
  int64_t idx[2];
  EXPECT_EQ(ix->ElementAtOffsetInElements(17, absl::MakeSpan(idx)),
            OffsetKind::kElement);
  EXPECT_EQ(idx[0], 2);
  EXPECT_EQ(idx[1], 3);
  EXPECT_EQ(ix->ElementAtOffsetInElements(9, absl::MakeSpan(idx)),
            OffsetKind::kTilePadding);
  std::vector<int64_t> cols(5), rows(3);
  ix->DimOffsets(1, absl::MakeSpan(cols));
  ix->DimOffsets(0, absl::MakeSpan(rows));
  EXPECT_EQ(cols, (std::vector<int64_t>{0, 1, 4, 5, 8}));
  EXPECT_EQ(rows, (std::vector<int64_t>{0, 2, 12}));
  std::vector<int64_t> all(15);
  const int both[] = {0, 1};
  ix->GroupOffsets(both, absl::MakeSpan(all));
  EXPECT_EQ(all, (std::vector<int64_t>{0, 1, 4, 5, 8, 2, 3, 6, 7, 10, 12, 13,
                                       16, 17, 20}));
  ix = TiledIndexer::Create(
      MakeTiled(F32, {8, 8}, {1, 0}, {{2, 4}, {2, 1, 1, 1}}));
  EXPECT_EQ(ix->OffsetInElements({6, 5}), 51);
  ix = TiledIndexer::Create(MakeTiled(F32, {2, 7, 8, 11, 10}, {4, 3, 2, 1, 0},
                                      {{kStar, kStar, 2, kStar, 3}}));
  ASSERT_TRUE(ix.ok());
  CheckShape(MakeTiled(F32, {2, 7, 8, 11, 10}, {4, 3, 2, 1, 0},
                       {{kStar, kStar, 2, kStar, 3}}),
             true);
}

TEST(TiledIndexer, TpuShapesAgreeWithReference) {
  CheckShape(MakeTiled(BF16, {3, 17, 300}, {2, 1, 0}, {{8, 128}, {2, 1}}),
             true);
  CheckShape(MakeTiled(S4, {5, 7, 260}, {2, 0, 1}, {{8, 128}, {32, 1}}, 1, 4),
             true);
  CheckShape(MakeTiled(F32, {6, 9, 11}, {0, 1, 2}, {{7, 5}, {3, 1}}, 64), true);
}

TEST(TiledIndexer, CheckedEntryPoints) {
  absl::StatusOr<TiledIndexer> ix =
      TiledIndexer::Create(MakeTiled(F32, {3, 5}, {1, 0}, {{2, 2}}, 32));
  ASSERT_TRUE(ix.ok());
  EXPECT_EQ(ix->TryOffsetInElements({3, 0}).status().message(),
            "index 3 out of bounds for dimension 0 of size 3");
  EXPECT_EQ(ix->TryOffsetInElements({1}).status().message(),
            "index has 1 coordinates, shape has rank 2");
  int64_t idx[2];
  EXPECT_EQ(*ix->TryElementAtOffsetInElements(30, absl::MakeSpan(idx)),
            OffsetKind::kTailPadding);
  EXPECT_EQ(ix->TryElementAtOffsetInElements(32, absl::MakeSpan(idx))
                .status()
                .message(),
            "offset 32 is past the end of the buffer (32 elements)");
  std::vector<int64_t> batch = {0, 0, 2, 3, 1, 4};
  std::vector<int64_t> offsets(3);
  ASSERT_TRUE(ix->TryOffsetsInElements(batch, absl::MakeSpan(offsets)).ok());
  EXPECT_EQ(offsets, (std::vector<int64_t>{0, 17, 10}));
  std::vector<int64_t> back(6);
  std::vector<OffsetKind> kinds(3);
  ix->ElementsAtOffsetsInElements(offsets, absl::MakeSpan(back),
                                  absl::MakeSpan(kinds));
  EXPECT_EQ(back, batch);
  EXPECT_FALSE(
      ix->TryOffsetsInElements({0, 0, 3, 0}, absl::MakeSpan(offsets).first(2))
          .ok());
}

TEST(TiledIndexer, SubBytePositions) {
  absl::StatusOr<TiledIndexer> ix =
      TiledIndexer::Create(MakeTiled(S4, {8}, {0}, {}, 1, 4));
  ASSERT_TRUE(ix.ok());
  BitPosition p = ix->BitPositionOf(ix->OffsetInElements({3}));
  EXPECT_EQ(p.bit_offset, 12);
  EXPECT_EQ(p.byte, 1);
  EXPECT_EQ(p.bit, 4);
  ix = TiledIndexer::Create(MakeTiled(S4, {8}, {0}, {}));
  EXPECT_EQ(ix->BitPositionOf(3).byte, 3);
}

TEST(TiledIndexer, FoldsTrivialSplits) {
  // (8,128)(2,1) on bf16[16,256]: splits by 8, 128 (shifts) and 2; the 1
  // and nothing else.
  absl::StatusOr<TiledIndexer> ix = TiledIndexer::Create(
      MakeTiled(BF16, {16, 256}, {1, 0}, {{8, 128}, {2, 1}}));
  ASSERT_TRUE(ix.ok());
  EXPECT_EQ(ix->forward_op_count(), 3);
  // Untiled: no op, just strides.
  ix = TiledIndexer::Create(MakeTiled(F32, {3, 4, 5}, {0, 2, 1}, {}));
  EXPECT_EQ(ix->forward_op_count(), 0);
  EXPECT_EQ(ix->inverse_op_count(), 0);
}

TEST(TiledIndexer, FastPathsWithoutStarAgreeWithReference) {
  // No `*`: straight-line forward and unrolled linear inverse.
  for (const Shape& s :
       {MakeTiled(F32, {3, 5}, {1, 0}, {{2, 2}}),
        MakeTiled(BF16, {3, 17, 300}, {2, 1, 0}, {{8, 128}, {2, 1}}),
        MakeTiled(F32, {7, 5, 30, 20}, {3, 2, 1, 0}, {{3, 10}, {3, 1}}),
        MakeTiled(F32, {6, 9, 11}, {0, 1, 2}, {{7, 5}, {3, 1}}, 64),
        MakeTiled(F32, {5}, {0}, {{2, 3, 4}}),  // leading 1s
        MakeTiled(F32, {1, 1}, {1, 0}, {{4, 4}}),
        MakeTiled(F32, {4, 4}, {1, 0}, {{2, 2}, {3, 1}})}) {
    absl::StatusOr<TiledIndexer> ix = TiledIndexer::Create(s);
    ASSERT_TRUE(ix.ok());
    EXPECT_TRUE(ix->has_split_only_forward()) << s.ToString(true);
    EXPECT_TRUE(ix->has_linear_inverse()) << s.ToString(true);
    EXPECT_TRUE(ix->has_unrolled_inverse()) << s.ToString(true);
    CheckShape(s, true);
  }
  // More than 12 digits: the linear inverse without unrolling.
  const Shape many = MakeTiled(F32, {3, 3, 3, 3, 3, 3, 3},
                               {6, 5, 4, 3, 2, 1, 0}, {{2, 2, 2, 2, 2, 2, 2}});
  absl::StatusOr<TiledIndexer> ix = TiledIndexer::Create(many);
  ASSERT_TRUE(ix.ok());
  EXPECT_TRUE(ix->has_linear_inverse());
  EXPECT_FALSE(ix->has_unrolled_inverse());
  CheckShape(many, true);
  // `*` mixes coordinates: the general programs.
  ix = TiledIndexer::Create(MakeTiled(F32, {2, 7, 8, 11, 10}, {4, 3, 2, 1, 0},
                                      {{kStar, kStar, 2, kStar, 3}}));
  ASSERT_TRUE(ix.ok());
  EXPECT_FALSE(ix->has_split_only_forward());
  EXPECT_FALSE(ix->has_linear_inverse());
}

TEST(TiledIndexer, LargeValuesNearInt64Max) {
  // 2^29 x (2^30 - 1) elements of s8, tiled: offsets near 2^59.
  const int64_t a = int64_t{1} << 29, b = (int64_t{1} << 30) - 1;
  Shape s = MakeTiled(S8, {a, b}, {1, 0}, {{3, 5}});
  absl::StatusOr<TilingModel> m = BuildTilingModel(s);
  ASSERT_TRUE(m.ok()) << m.status();
  absl::StatusOr<TiledIndexer> ix = TiledIndexer::Create(*m);
  ASSERT_TRUE(ix.ok());
  for (std::vector<int64_t> idx : {std::vector<int64_t>{a - 1, b - 1},
                                   {a - 2, b - 3},
                                   {12345677, 987654321}}) {
    const int64_t off = ix->OffsetInElements(idx);
    EXPECT_EQ(off, *ReferenceOffset(*m, idx));
    std::vector<int64_t> back(2);
    EXPECT_EQ(ix->ElementAtOffsetInElements(off, absl::MakeSpan(back)),
              OffsetKind::kElement);
    EXPECT_EQ(back, idx);
  }
  EXPECT_EQ(ix->tiled_elements() - 1, ix->padded_elements() - 1);
}

}  // namespace
}  // namespace hlolayout

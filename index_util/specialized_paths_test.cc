// The specialised forms a TiledIndexer compiles for itself
// (index_util/index_kernels.h) against the general interpreter of the same
// library (Options::specialize = false) and against the independent plain
// reference (layout/reference_index.h): exhaustively on small power-of-two
// tilings (every index and every offset), and on random samples of the
// benchmark's TPU shapes. Comparisons with the interpreter compare the
// library with itself; those with the reference do not.
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "hlolayout/index_util/index_kernels.h"
#include "hlolayout/index_util/tiled_indexer.h"
#include "hlolayout/layout/reference_index.h"
#include "hlolayout/layout/tiling.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/shape/shape.h"
#include "hlolayout/testing/test_shapes.h"

namespace hlolayout {
namespace {

struct Ways {
  TiledIndexer fast, portable, interpreter;
};

Ways MakeWays(const TilingModel& m) {
  TiledIndexer::Options portable, interpreter;
  portable.allow_bmi2 = false;
  interpreter.specialize = false;
  return Ways{*TiledIndexer::Create(m), *TiledIndexer::Create(m, portable),
              *TiledIndexer::Create(m, interpreter)};
}

// Every index and every offset of `shape` through the three ways and the
// reference. Returns false (after a failure) to stop the caller.
bool CheckEverything(const Shape& shape) {
  SCOPED_TRACE(shape.ToString(true));
  absl::StatusOr<TilingModel> m = BuildTilingModel(shape);
  EXPECT_TRUE(m.ok()) << m.status();
  if (!m.ok()) return false;
  const Ways w = MakeWays(*m);
  const int64_t rank = shape.rank();
  std::vector<int64_t> idx(rank, 0), a(rank), b(rank), c(rank);
  for (int64_t n = 0; n < m->logical_elements; ++n) {
    const int64_t off = w.fast.OffsetInElements(idx);
    EXPECT_EQ(off, w.interpreter.OffsetInElements(idx));
    EXPECT_EQ(off, w.portable.OffsetInElements(idx));
    EXPECT_EQ(off, *ReferenceOffset(*m, idx));
    if (::testing::Test::HasFailure()) return false;
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++idx[d] < shape.dimension(d)) break;
      idx[d] = 0;
    }
  }
  for (int64_t off = -1; off <= w.fast.padded_elements(); ++off) {
    const OffsetKind k =
        w.fast.ElementAtOffsetInElements(off, absl::MakeSpan(a));
    EXPECT_EQ(k, w.portable.ElementAtOffsetInElements(off, absl::MakeSpan(b)));
    EXPECT_EQ(k,
              w.interpreter.ElementAtOffsetInElements(off, absl::MakeSpan(c)));
    if (off >= 0 && off < w.fast.padded_elements()) {
      absl::StatusOr<ElementAtOffset> r = ReferenceElementAt(*m, off);
      EXPECT_TRUE(r.ok());
      EXPECT_EQ(k, r->kind) << "offset " << off;
      if (k == OffsetKind::kElement) {
        EXPECT_EQ(a, r->index);
      }
    }
    if (k == OffsetKind::kElement) {
      EXPECT_EQ(a, b) << "offset " << off;
      EXPECT_EQ(a, c) << "offset " << off;
    }
    if (::testing::Test::HasFailure()) return false;
  }
  return true;
}

// Power-of-two tilings as TPUs use them, small enough to check every index
// and offset: ranks 1 to 3, every dimension order, dims that are and are
// not multiples of the tiles (padding, tile counts that are not powers of
// two), one tile level (tr, tc) or two, (tr, tc)(k, 1), and tiles with
// more dims than the array (leading 1s). Counts how many took each path.
TEST(SpecializedPaths, EveryPowerOfTwoTilingAgrees) {
  int checked = 0, masked = 0, fields = 0;
  const std::vector<std::vector<std::vector<int64_t>>> tilings = {
      {},
      {{4}},
      {{2, 4}},
      {{4, 2}, {2, 1}},
      {{2, 8}, {2, 1}},
      {{4, 4}, {4, 1}},
      {{1, 4}},
      {{2, 2, 2}},
      {{4, 2}, {1, 2}},
  };
  const std::vector<std::vector<int64_t>> dim_sets = {
      {5},     {8},       {3, 5},    {4, 8},   {6, 9},
      {8, 16}, {2, 3, 5}, {3, 4, 8}, {1, 6, 7}};
  for (const std::vector<int64_t>& dims : dim_sets) {
    std::vector<int64_t> perm(dims.size());
    std::iota(perm.begin(), perm.end(), 0);
    do {
      for (const auto& tiles : tilings) {
        const Shape s = MakeTiled(BF16, dims, perm, tiles);
        if (!BuildTilingModel(s).ok()) continue;
        if (!CheckEverything(s)) return;
        const TiledIndexer ix = *TiledIndexer::Create(s);
        const std::string forward = ix.forward_path();
        masked += forward == "masked terms" || forward == "bit deposits (BMI2)";
        fields += std::string(ix.inverse_path()).rfind("bit fields", 0) == 0;
        ++checked;
      }
    } while (std::next_permutation(perm.begin(), perm.end()));
  }
  RecordProperty("shapes", checked);
  RecordProperty("masked_terms", masked);
  RecordProperty("bit_fields", fields);
  // Power-of-two tiles throughout: every forward is specialised (bit
  // deposits with BMI2, else masked terms), and every inverse but those
  // whose (k,1) tile pads the rows of a tile.
  EXPECT_EQ(masked, checked);
  EXPECT_GE(fields, checked * 9 / 10) << fields << " of " << checked;
}

// Odd tiles (3, 5, 6), `*` and extreme shapes stay on the general paths and
// agree as well.
TEST(SpecializedPaths, OtherTilingsAgree) {
  constexpr int64_t kStar = Tile::kCombineDimension;
  for (const Shape& s : {
           MakeTiled(F32, {7, 11}, {1, 0}, {{3, 5}}),
           MakeTiled(F32, {7, 11}, {0, 1}, {{3, 5}, {3, 1}}),
           MakeTiled(F32, {6, 10}, {1, 0}, {{6, 4}, {2, 1}}),
           MakeTiled(F32, {2, 7, 8, 3}, {3, 2, 1, 0}, {{kStar, 2, 2}}),
           MakeTiled(F32, {4, 4}, {1, 0}, {{2, 2}, {3, 1}}),  // pads tiles
           MakeTiled(F32, {5}, {0}, {{2, 4, 4}}),
           MakeTiled(S4, {9, 20}, {1, 0}, {{8, 16}, {4, 1}}, 64, 4),
       }) {
    if (!CheckEverything(s)) return;
  }
}

// The paths each layout takes.
TEST(SpecializedPaths, TpuTilingsTakeTheSpecialisedForms) {
  const bool bmi2 = index_internal::CpuHasFastBitExtract();
  const std::string pext = bmi2 ? "bit fields (BMI2)" : "bit fields (portable)";
  const std::string deposit = bmi2 ? "bit deposits (BMI2)" : "masked terms";
  for (const char* text : {
           "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}",
           "f32[1024,1024]{1,0:T(8,128)}",
           "bf16[64,2048]{1,0:T(8,128)(2,1)}",
           "bf16[8,3,1280,1000]{3,2,1,0:T(8,128)(2,1)}",
           "s4[2048,1024]{1,0:T(8,128)(4,1)E(4)}",
           "f32[384,512]{0,1:T(8,128)}",
       }) {
    SCOPED_TRACE(text);
    const TiledIndexer ix = *TiledIndexer::Create(*ParseShape(text));
    EXPECT_EQ(ix.forward_path(), deposit);
    EXPECT_EQ(ix.inverse_path(), pext);
    TiledIndexer::Options no_bmi2;
    no_bmi2.allow_bmi2 = false;
    const TiledIndexer portable =
        *TiledIndexer::Create(*ParseShape(text), no_bmi2);
    EXPECT_STREQ(portable.forward_path(), "masked terms");
    EXPECT_STREQ(portable.inverse_path(), "bit fields (portable)");
  }
  // Tiles that are not powers of two: multiply-high terms forward (the
  // remainders' terms cancel: x3 / 10 has weight 30 - 3 * 10 = 0); the
  // inverse reads its digits straight (all of them multiply-high digits).
  const TiledIndexer odd = *TiledIndexer::Create(
      *ParseShape("f32[7,5,300,200]{3,2,1,0:T(3,10)(3,1)}"));
  EXPECT_STREQ(odd.forward_path(), "masked and multiply-high terms");
  EXPECT_EQ(odd.inverse_path(), pext);
  // A remainder split by a size that does not divide it: the split loop.
  const TiledIndexer loop =
      *TiledIndexer::Create(*ParseShape("f32[12,10]{1,0:T(6,4)(4,1)}"));
  EXPECT_STREQ(loop.forward_path(), "split loop");
  // `*` mixes coordinates: the interpreter both ways.
  const TiledIndexer star = *TiledIndexer::Create(
      *ParseShape("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}"));
  EXPECT_STREQ(star.forward_path(), "interpreter");
  EXPECT_STREQ(star.inverse_path(), "interpreter");
}

// The benchmark's shapes, too large to enumerate: random indices and
// offsets (seeded), each through the three ways and the reference, scalar
// and batched.
TEST(SpecializedPaths, BenchmarkShapesAgreeOnSamples) {
  std::mt19937_64 rng(88);
  for (const char* text : {
           "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}",
           "f32[1024,1024]{1,0:T(8,128)}",
           "bf16[64,2048]{1,0:T(8,128)(2,1)}",
           "bf16[8,3,1280,1000]{3,2,1,0:T(8,128)(2,1)}",
           "s4[2048,1024]{1,0:T(8,128)(4,1)E(4)}",
           "f32[384,512]{0,1:T(8,128)}",
           "f32[7,5,300,200]{3,2,1,0:T(3,10)(3,1)}",
       }) {
    SCOPED_TRACE(text);
    const Shape shape = *ParseShape(text);
    const TilingModel m = *BuildTilingModel(shape);
    const Ways w = MakeWays(m);
    const int64_t rank = shape.rank();
    constexpr int kSamples = 4000;
    std::vector<int64_t> indices, offsets;
    for (int i = 0; i < kSamples; ++i) {
      for (int64_t d = 0; d < rank; ++d) {
        indices.push_back(static_cast<int64_t>(
            rng() % static_cast<uint64_t>(shape.dimension(d))));
      }
      offsets.push_back(static_cast<int64_t>(
          rng() % static_cast<uint64_t>(w.fast.padded_elements())));
    }
    std::vector<int64_t> batch(kSamples), back(kSamples * rank);
    std::vector<OffsetKind> kinds(kSamples);
    w.fast.OffsetsInElements(indices, absl::MakeSpan(batch));
    w.fast.ElementsAtOffsetsInElements(offsets, absl::MakeSpan(back),
                                       absl::MakeSpan(kinds));
    std::vector<int64_t> a(rank), c(rank);
    for (int i = 0; i < kSamples; ++i) {
      const absl::Span<const int64_t> idx(&indices[i * rank], rank);
      const int64_t off = w.interpreter.OffsetInElements(idx);
      ASSERT_EQ(w.fast.OffsetInElements(idx), off);
      ASSERT_EQ(w.portable.OffsetInElements(idx), off);
      ASSERT_EQ(batch[i], off);
      ASSERT_EQ(*ReferenceOffset(m, idx), off);
      const OffsetKind k = w.interpreter.ElementAtOffsetInElements(
          offsets[i], absl::MakeSpan(c));
      ASSERT_EQ(w.fast.ElementAtOffsetInElements(offsets[i], absl::MakeSpan(a)),
                k);
      ASSERT_EQ(kinds[i], k);
      const absl::StatusOr<ElementAtOffset> r =
          ReferenceElementAt(m, offsets[i]);
      ASSERT_TRUE(r.ok());
      ASSERT_EQ(r->kind, k);
      if (k == OffsetKind::kElement) {
        ASSERT_EQ(a, c);
        ASSERT_EQ(std::vector<int64_t>(&back[i * rank], &back[i * rank] + rank),
                  c);
        ASSERT_EQ(r->index, c);
      }
      ASSERT_EQ(
          w.portable.ElementAtOffsetInElements(offsets[i], absl::MakeSpan(a)),
          k);
      if (k == OffsetKind::kElement) {
        ASSERT_EQ(a, c);
      }
    }
  }
}

// The names without units still answer, as deprecated aliases.
TEST(SpecializedPaths, DeprecatedNamesAreTheSameCalls) {
  const TiledIndexer ix =
      *TiledIndexer::Create(*ParseShape("f32[3,5]{1,0:T(2,2)}"));
  int64_t idx[2];
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  EXPECT_EQ(ix.Offset({2, 3}), 17);
  EXPECT_EQ(*ix.TryOffset({2, 3}), 17);
  EXPECT_EQ(ix.ElementAt(17, absl::MakeSpan(idx)), OffsetKind::kElement);
  EXPECT_EQ(idx[0], 2);
  EXPECT_EQ(idx[1], 3);
  EXPECT_EQ(*ix.TryElementAt(9, absl::MakeSpan(idx)), OffsetKind::kTilePadding);
#pragma GCC diagnostic pop
}

}  // namespace
}  // namespace hlolayout

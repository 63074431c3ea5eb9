#include "hlolayout/relayout/relayout.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/index_util/tiled_indexer.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/testing/test_shapes.h"

namespace hlolayout {
namespace {

Shape Parse(const std::string& text) {
  absl::StatusOr<Shape> s = ParseShape(text);
  EXPECT_TRUE(s.ok()) << text << ": " << s.status();
  return *s;
}

int64_t Bytes(const Shape& s) {
  absl::StatusOr<ArraySizes> sizes = ComputeArraySizes(s);
  EXPECT_TRUE(sizes.ok()) << sizes.status();
  return sizes->padded_bytes;
}

// The same array with the default row-major layout.
Shape RowMajor(const Shape& s) {
  Shape r = Shape::MakeArray(s.element_type(), s.dimensions());
  std::vector<int64_t> m2m(s.rank());
  for (int64_t i = 0; i < s.rank(); ++i) m2m[i] = s.rank() - 1 - i;
  r.set_layout(Layout(m2m));
  return r;
}

std::vector<uint8_t> Pattern(int64_t n, uint32_t seed) {
  std::vector<uint8_t> v(n);
  std::mt19937 rng(seed);
  for (auto& b : v) b = static_cast<uint8_t>(rng());
  return v;
}

std::vector<uint8_t> DoRelayout(const Shape& from,
                                const std::vector<uint8_t>& src,
                                const Shape& to, RelayoutOptions options = {}) {
  std::vector<uint8_t> dst(Bytes(to), 0xAB);
  absl::Status s = Relayout(from, src, to, absl::MakeSpan(dst), options);
  EXPECT_TRUE(s.ok()) << from.ToString(true) << " -> " << to.ToString(true)
                      << ": " << s;
  return dst;
}

// Checks that `tiled` (layout of `shape`) holds the row-major `rm` elements
// at TiledIndexer's offsets and `fill` in every padding byte.
void ExpectPlaced(const Shape& shape, const std::vector<uint8_t>& rm,
                  const std::vector<uint8_t>& tiled, uint8_t fill) {
  absl::StatusOr<TiledIndexer> ix = TiledIndexer::Create(shape);
  ASSERT_TRUE(ix.ok()) << ix.status();
  const int64_t es = ByteWidth(shape.element_type());
  ASSERT_EQ(static_cast<int64_t>(tiled.size()), ix->padded_elements() * es);
  std::vector<int64_t> index(shape.rank());
  for (int64_t off = 0; off < ix->padded_elements(); ++off) {
    if (ix->ElementAtOffsetInElements(off, absl::MakeSpan(index)) != OffsetKind::kElement) {
      for (int64_t k = 0; k < es; ++k) {
        ASSERT_EQ(tiled[off * es + k], fill)
            << shape.ToString(true) << " padding offset " << off;
      }
      continue;
    }
    int64_t linear = 0;
    for (int64_t d = 0; d < shape.rank(); ++d) {
      linear = linear * shape.dimension(d) + index[d];
    }
    for (int64_t k = 0; k < es; ++k) {
      ASSERT_EQ(tiled[off * es + k], rm[linear * es + k])
          << shape.ToString(true) << " offset " << off;
    }
  }
}

// Tile, untile, fast vs general, for one shape.
void CheckShape(const Shape& shape, uint32_t seed) {
  SCOPED_TRACE(shape.ToString(true));
  const Shape rm = RowMajor(shape);
  const std::vector<uint8_t> src = Pattern(Bytes(rm), seed);
  RelayoutOptions opts;
  opts.fill = 0x5A;
  const std::vector<uint8_t> tiled = DoRelayout(rm, src, shape, opts);
  ExpectPlaced(shape, src, tiled, 0x5A);
  EXPECT_EQ(DoRelayout(shape, tiled, rm, opts), src);
  RelayoutOptions general = opts;
  general.allow_fast_paths = false;
  EXPECT_EQ(DoRelayout(rm, src, shape, general), tiled);
  EXPECT_EQ(DoRelayout(shape, tiled, rm, general), src);
}

// A random layout for `dims`: permutation, 0-3 tile levels with `*`, L(n).
Shape RandomLayout(PrimitiveType type, const std::vector<int64_t>& dims,
                   std::mt19937& rng) {
  const int64_t rank = dims.size();
  std::vector<int64_t> m2m(rank);
  std::iota(m2m.begin(), m2m.end(), 0);
  std::shuffle(m2m.begin(), m2m.end(), rng);
  std::vector<std::vector<int64_t>> tiles;
  const int levels = rng() % 4;
  const int64_t sizes[] = {1, 2, 3, 4, 8};
  for (int l = 0; l < levels; ++l) {
    const int64_t n = 1 + rng() % std::max<int64_t>(rank + 1, 2);
    std::vector<int64_t> tile(n);
    for (int64_t i = 0; i < n; ++i) {
      tile[i] = (i + 1 < n && rng() % 4 == 0) ? Tile::kCombineDimension
                                              : sizes[rng() % 5];
    }
    tiles.push_back(tile);
  }
  const int64_t tails[] = {1, 1, 3, 8};
  return MakeTiled(type, dims, m2m, tiles, tails[rng() % 4]);
}

TEST(RelayoutTest, RandomSmallShapesAgainstTiledIndexer) {
  std::mt19937 rng(11);
  int checked = 0;
  for (int rank = 1; rank <= 4; ++rank) {
    for (int iter = 0; iter < 300; ++iter) {
      std::vector<int64_t> dims(rank);
      for (auto& d : dims) d = 1 + rng() % 5;
      const PrimitiveType types[] = {F32, BF16, S8, F64};
      const Shape shape = RandomLayout(types[rng() % 4], dims, rng);
      CheckShape(shape, rng());
      if (HasFatalFailure()) return;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 1200);
}

// RunInPieces: the pieces, in order, are Run's bytes; none is longer than
// LargestPiece; the pieces are small when the plan can be cut.
std::vector<uint8_t> InPieces(const RelayoutPlan& plan,
                              const std::vector<uint8_t>& src,
                              int64_t piece_bytes) {
  std::vector<uint8_t> out;
  const int64_t largest = plan.LargestPiece(piece_bytes);
  absl::Status s =
      plan.RunInPieces(src, piece_bytes, [&](absl::Span<const uint8_t> piece) {
        EXPECT_LE(static_cast<int64_t>(piece.size()), largest);
        EXPECT_GT(piece.size(), 0u);
        out.insert(out.end(), piece.begin(), piece.end());
        return absl::OkStatus();
      });
  EXPECT_TRUE(s.ok()) << s;
  return out;
}

void CheckPieces(const Shape& from, const Shape& to, uint32_t seed,
                 RelayoutOptions options = {}) {
  SCOPED_TRACE(from.ToString(true) + " -> " + to.ToString(true));
  options.fill = 0x6D;
  absl::StatusOr<RelayoutPlan> plan = RelayoutPlan::Create(from, to, options);
  ASSERT_TRUE(plan.ok()) << plan.status();
  std::vector<uint8_t> src = Pattern(plan->src_bytes(), seed);
  std::vector<uint8_t> want(plan->dst_bytes(), 0xAB);
  ASSERT_TRUE(plan->Run(src, absl::MakeSpan(want)).ok());
  for (int64_t piece_bytes : {1, 3, 16, 100, 4096, 1 << 30}) {
    ASSERT_EQ(InPieces(*plan, src, piece_bytes), want)
        << "pieces of " << piece_bytes << ": " << plan->Describe();
  }
  // Plan creation finds the same runs with and without AVX2.
  options.allow_avx2 = !options.allow_avx2;
  absl::StatusOr<RelayoutPlan> other = RelayoutPlan::Create(from, to, options);
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(other->Describe(), plan->Describe());
  EXPECT_EQ(other->LargestPiece(100), plan->LargestPiece(100));
}

TEST(RelayoutTest, RunInPiecesGivesRunsBytes) {
  std::mt19937 rng(23);
  for (int iter = 0; iter < 600; ++iter) {
    const int rank = 1 + rng() % 4;
    std::vector<int64_t> dims(rank);
    for (auto& d : dims) d = 1 + rng() % 6;
    const PrimitiveType types[] = {F32, BF16, S8, F64};
    const PrimitiveType type = types[rng() % 4];
    const Shape a = RandomLayout(type, dims, rng);
    const Shape b = iter % 3 == 0 ? RowMajor(a) : RandomLayout(type, dims, rng);
    CheckPieces(a, b, iter);
    CheckPieces(b, a, iter);
    if (HasFatalFailure()) return;
  }
  // Packing and unpacking, padding bits, both orders; fast paths and not.
  for (const char* text :
       {"s4[37,70]{1,0:E(4)}", "s4[9,300]{1,0:T(8,128)E(4)}",
        "u2[13,33]{0,1:T(4,8)L(16)E(2)}", "s4[16,256]{1,0:T(8,128)(2,1)E(4)}",
        "u1[5,17]{1,0:E(1)}", "s4[3,7,9]{2,1,0:E(4)}"}) {
    const Shape packed = Parse(text);
    for (bool fast : {true, false}) {
      RelayoutOptions options;
      options.allow_fast_paths = fast;
      options.packing =
          fast ? PackingOrder::kLowFirst : PackingOrder::kHighFirst;
      CheckPieces(RowMajor(packed), packed, 4, options);
      CheckPieces(packed, RowMajor(packed), 5, options);
    }
  }
  // Several threads inside each piece (copies of 1 MiB and more).
  for (const char* text :
       {"f32[515,1031]{1,0:T(8,128)}", "bf16[1030,1024]{1,0:T(8,128)(2,1)}",
        "s4[1001,2003]{1,0:E(4)}"}) {
    const Shape shape = Parse(text);
    RelayoutOptions options;
    options.threads = 2;
    CheckPieces(RowMajor(shape), shape, 6, options);
    CheckPieces(shape, RowMajor(shape), 7, options);
  }
}

TEST(RelayoutTest, RunInPiecesCutsTilesSmall) {
  // Tile, untile, interleaves, packing and plain copies are cut into pieces
  // of at most the size asked (here larger than one band of tile rows, 128
  // KiB for the T(32,32) case); transposes are one piece.
  struct Case {
    const char* shape;
    bool tile;
    bool cut;
  };
  const Case cases[] = {
      {"f32[1024,1024]{1,0:T(8,128)}", true, true},
      {"f32[1024,1024]{1,0:T(8,128)}", false, true},
      {"f32[1000,1000]{1,0:T(32,32)(16,16)}", true, true},
      {"bf16[1024,1024]{1,0:T(8,128)(2,1)}", true, true},
      {"s8[1024,1024]{1,0:T(8,128)(4,1)}", false, true},
      {"s4[1024,2048]{1,0:T(8,128)E(4)}", true, true},
      {"f32[1024,1024]{1,0}", true, true},
      {"f32[1024,1024]{0,1}", true, false},
  };
  for (const Case& c : cases) {
    const Shape shape = Parse(c.shape);
    absl::StatusOr<RelayoutPlan> plan =
        c.tile ? RelayoutPlan::Create(RowMajor(shape), shape)
               : RelayoutPlan::Create(shape, RowMajor(shape));
    ASSERT_TRUE(plan.ok());
    const int64_t largest = plan->LargestPiece(256 << 10);
    if (c.cut) {
      EXPECT_LE(largest, 256 << 10) << c.shape << ": " << plan->Describe();
    } else {
      EXPECT_EQ(largest, plan->dst_bytes()) << c.shape;
    }
  }
}

TEST(RelayoutTest, RunInPiecesStopsAtWriteError) {
  const Shape shape = Parse("f32[256,256]{1,0:T(8,128)}");
  absl::StatusOr<RelayoutPlan> plan =
      RelayoutPlan::Create(RowMajor(shape), shape);
  ASSERT_TRUE(plan.ok());
  const std::vector<uint8_t> src = Pattern(plan->src_bytes(), 1);
  int calls = 0;
  absl::Status s = plan->RunInPieces(src, 4096, [&](absl::Span<const uint8_t>) {
    return ++calls == 2 ? absl::DataLossError("disk full") : absl::OkStatus();
  });
  EXPECT_EQ(s, absl::DataLossError("disk full"));
  EXPECT_EQ(calls, 2);
  // A short source is refused before anything is written.
  calls = 0;
  s = plan->RunInPieces(absl::MakeConstSpan(src).subspan(1), 4096,
                        [&](absl::Span<const uint8_t>) {
                          ++calls;
                          return absl::OkStatus();
                        });
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(calls, 0);
}

TEST(RelayoutTest, EveryPermutationAndTileOfRank3) {
  // Every permutation, every tile level count, with and without `*` and L.
  const std::vector<std::vector<std::vector<int64_t>>> tile_sets = {
      {},
      {{2}},
      {{2, 3}},
      {{4, 2}, {2, 1}},
      {{Tile::kCombineDimension, 4}},
      {{2, Tile::kCombineDimension, 3}},
      {{3, 2}, {2, 1}, {1, 2}},
      {{8, 8}},
      {{Tile::kCombineDimension, 2, 2}, {2, 1}},
  };
  std::vector<int64_t> m2m = {0, 1, 2};
  do {
    for (const auto& tiles : tile_sets) {
      for (int64_t tail : {1, 5}) {
        CheckShape(MakeTiled(F32, {3, 5, 4}, m2m, tiles, tail), 3);
        CheckShape(MakeTiled(S8, {1, 5, 2}, m2m, tiles, tail), 4);
        if (HasFatalFailure()) return;
      }
    }
  } while (std::next_permutation(m2m.begin(), m2m.end()));
}

TEST(RelayoutTest, TiledToTiledEqualsThroughRowMajor) {
  std::mt19937 rng(5);
  for (int iter = 0; iter < 400; ++iter) {
    const int rank = 1 + rng() % 4;
    std::vector<int64_t> dims(rank);
    for (auto& d : dims) d = 1 + rng() % 5;
    const Shape a = RandomLayout(BF16, dims, rng);
    const Shape b = RandomLayout(BF16, dims, rng);
    SCOPED_TRACE(a.ToString(true) + " -> " + b.ToString(true));
    const Shape rm = RowMajor(a);
    const std::vector<uint8_t> logical = Pattern(Bytes(rm), iter);
    const std::vector<uint8_t> in_a = DoRelayout(rm, logical, a);
    const std::vector<uint8_t> direct = DoRelayout(a, in_a, b);
    const std::vector<uint8_t> via = DoRelayout(rm, DoRelayout(a, in_a, rm), b);
    ASSERT_EQ(direct, via);
  }
}

// Fast paths against the general path on odd sizes, and the kernel chosen.
TEST(RelayoutTest, FastPathsOnOddSizes) {
  struct Case {
    std::string shape;
    RelayoutKernel tile_kernel;
  };
  const Case cases[] = {
      {"f32[13,300]{1,0:T(8,128)}", RelayoutKernel::kRuns},
      {"f32[8,128]{1,0:T(8,128)}", RelayoutKernel::kMemcpy},
      {"f32[1,1]{1,0:T(8,128)}", RelayoutKernel::kGeneral},
      {"f32[70,50]{1,0:T(32,32)(16,16)}", RelayoutKernel::kRuns},
      {"bf16[17,129]{1,0:T(8,128)(2,1)}", RelayoutKernel::kInterleave},
      {"bf16[64,256]{1,0:T(8,128)(2,1)}", RelayoutKernel::kInterleave},
      {"s8[9,131]{1,0:T(8,128)(4,1)}", RelayoutKernel::kInterleave},
      {"s8[32,256]{1,0:T(8,128)(4,1)}", RelayoutKernel::kInterleave},
      {"f32[33,47]{0,1}", RelayoutKernel::kTranspose},
      {"bf16[65,3]{0,1}", RelayoutKernel::kTranspose},
      {"f32[2,3,40,300]{3,2,1,0:T(*,8,128)(2,1)}", RelayoutKernel::kGeneral},
      {"f32[5,1,7,130]{3,2,1,0:T(*,*,8,128)}", RelayoutKernel::kRuns},
  };
  for (const Case& c : cases) {
    const Shape shape = Parse(c.shape);
    CheckShape(shape, 9);
    absl::StatusOr<RelayoutPlan> plan =
        RelayoutPlan::Create(RowMajor(shape), shape);
    ASSERT_TRUE(plan.ok());
    if (c.tile_kernel != RelayoutKernel::kGeneral) {
      EXPECT_EQ(plan->kernel(), c.tile_kernel)
          << c.shape << ": " << plan->Describe();
    }
  }
}

TEST(RelayoutTest, UntileUsesDeinterleave) {
  const Shape shape = Parse("bf16[64,256]{1,0:T(8,128)(2,1)}");
  absl::StatusOr<RelayoutPlan> plan =
      RelayoutPlan::Create(shape, RowMajor(shape));
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->kernel(), RelayoutKernel::kDeinterleave) << plan->Describe();
  const Shape s8 = Parse("s8[32,256]{1,0:T(8,128)(4,1)}");
  plan = RelayoutPlan::Create(s8, RowMajor(s8));
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->kernel(), RelayoutKernel::kDeinterleave) << plan->Describe();
}

TEST(RelayoutTest, TenstorrentTileFaces) {
  // tt-metal's tilize: within a 32x32 tile, four 16x16 faces, row-major.
  const Shape rm = Parse("f32[64,96]{1,0}");
  const Shape tt = Parse("f32[64,96]{1,0:T(32,32)(16,16)}");
  const std::vector<uint8_t> src = Pattern(Bytes(rm), 1);
  const std::vector<uint8_t> dst = DoRelayout(rm, src, tt);
  const int64_t tiles_per_row = 96 / 32;
  for (int64_t r = 0; r < 64; ++r) {
    for (int64_t c = 0; c < 96; ++c) {
      const int64_t tile = (r / 32) * tiles_per_row + c / 32;
      const int64_t tr = r % 32, tc = c % 32;
      const int64_t off = tile * 1024 + ((tr / 16) * 2 + tc / 16) * 256 +
                          (tr % 16) * 16 + (tc % 16);
      for (int k = 0; k < 4; ++k) {
        ASSERT_EQ(dst[off * 4 + k], src[(r * 96 + c) * 4 + k]) << r << "," << c;
      }
    }
  }
}

std::vector<uint8_t> Pack(const std::string& type, std::vector<int> values,
                          PackingOrder order) {
  const std::string n = std::to_string(values.size());
  const Shape from = Parse(type + "[" + n + "]{0}");
  const int bits = BitWidth(from.element_type());
  const Shape to =
      Parse(type + "[" + n + "]{0:E(" + std::to_string(bits) + ")}");
  std::vector<uint8_t> src;
  for (int v : values) src.push_back(static_cast<uint8_t>(v));
  RelayoutOptions opts;
  opts.packing = order;
  std::vector<uint8_t> packed = DoRelayout(from, src, to, opts);
  // Unpacking gives the values back (sign extended for signed types).
  EXPECT_EQ(DoRelayout(to, packed, from, opts), src) << type;
  return packed;
}

TEST(RelayoutTest, SubByteMatchesMeasuredXla) {
  // Measured on the XLA inside jaxlib 0.11.2 (docs/relayout.md).
  EXPECT_EQ(Pack("s4", {1, 2, 3, 4, 5, 6, 7, -8}, PackingOrder::kLowFirst),
            (std::vector<uint8_t>{0x21, 0x43, 0x65, 0x87}));
  EXPECT_EQ(Pack("u2", {1, 2, 3, 0, 1, 2, 3, 0}, PackingOrder::kLowFirst),
            (std::vector<uint8_t>{0x39, 0x39}));
  // High-first is the mirror image.
  EXPECT_EQ(Pack("s4", {1, 2, 3, 4, 5, 6, 7, -8}, PackingOrder::kHighFirst),
            (std::vector<uint8_t>{0x12, 0x34, 0x56, 0x78}));
  EXPECT_EQ(Pack("u2", {1, 2, 3, 0, 1, 2, 3, 0}, PackingOrder::kHighFirst),
            (std::vector<uint8_t>{0x6C, 0x6C}));
  EXPECT_EQ(Pack("u4", {0xA, 0xB, 0xC}, PackingOrder::kLowFirst),
            (std::vector<uint8_t>{0xBA, 0x0C}));
  EXPECT_EQ(Pack("u4", {0xA, 0xB, 0xC}, PackingOrder::kHighFirst),
            (std::vector<uint8_t>{0xAB, 0xC0}));
  EXPECT_EQ(Pack("s2", {1, -1, -2, 0, 1}, PackingOrder::kLowFirst),
            (std::vector<uint8_t>{0x2D, 0x01}));  // 00 10 11 01, then 01
  EXPECT_EQ(Pack("s2", {1, -1, -2, 0, 1}, PackingOrder::kHighFirst),
            (std::vector<uint8_t>{0x78, 0x40}));  // 01 11 10 00, then 01....
}

TEST(RelayoutTest, PackFillsUnusedBits) {
  const Shape from = Parse("u4[3]{0}");
  const Shape to = Parse("u4[3]{0:E(4)}");
  RelayoutOptions opts;
  opts.fill = 0xFF;
  EXPECT_EQ(DoRelayout(from, {1, 2, 3}, to, opts),
            (std::vector<uint8_t>{0x21, 0xF3}));
  opts.packing = PackingOrder::kHighFirst;
  EXPECT_EQ(DoRelayout(from, {1, 2, 3}, to, opts),
            (std::vector<uint8_t>{0x12, 0x3F}));
}

TEST(RelayoutTest, PackedTiledLayoutsAgainstGeneral) {
  // Every path for packing, with odd sizes and tiles, vs the general path
  // and vs the bits TiledIndexer says.
  for (const char* text :
       {"s4[37,70]{1,0:E(4)}", "s4[9,300]{1,0:T(8,128)E(4)}",
        "u2[13,33]{0,1:T(4,8)L(16)E(2)}", "s4[16,256]{1,0:T(8,128)(2,1)E(4)}",
        "u1[5,17]{1,0:E(1)}"}) {
    SCOPED_TRACE(text);
    const Shape packed = Parse(text);
    const Shape rm = RowMajor(packed);
    const int bits = static_cast<int>(packed.layout().element_size_in_bits());
    std::vector<uint8_t> src = Pattern(Bytes(rm), 2);
    for (auto& b : src) b &= (1 << bits) - 1;  // unsigned values
    // Unpacking sign-extends signed types.
    std::vector<uint8_t> unpacked = src;
    if (IsSignedIntegralType(packed.element_type())) {
      for (auto& b : unpacked) {
        if (b >> (bits - 1)) b = static_cast<uint8_t>(b | (0xFF << bits));
      }
    }
    for (PackingOrder order :
         {PackingOrder::kLowFirst, PackingOrder::kHighFirst}) {
      RelayoutOptions opts;
      opts.packing = order;
      opts.fill = 0xC3;
      const std::vector<uint8_t> fast = DoRelayout(rm, src, packed, opts);
      RelayoutOptions general = opts;
      general.allow_fast_paths = false;
      EXPECT_EQ(DoRelayout(rm, src, packed, general), fast);
      // Bits where TiledIndexer says, fill elsewhere.
      absl::StatusOr<TiledIndexer> ix = TiledIndexer::Create(packed);
      ASSERT_TRUE(ix.ok());
      std::vector<int64_t> index(2);
      std::vector<bool> covered(fast.size() * 8, false);
      for (int64_t off = 0; off < ix->padded_elements(); ++off) {
        if (ix->ElementAtOffsetInElements(off, absl::MakeSpan(index)) != OffsetKind::kElement) {
          continue;
        }
        const BitPosition pos = ix->BitPositionOf(off);
        const int sh = PackedShift(pos.bit, bits, order);
        const int v = (fast[pos.byte] >> sh) & ((1 << bits) - 1);
        ASSERT_EQ(v, src[index[0] * packed.dimension(1) + index[1]]) << off;
        for (int k = 0; k < bits; ++k) covered[pos.byte * 8 + sh + k] = true;
      }
      for (size_t bit = 0; bit < covered.size(); ++bit) {
        if (!covered[bit]) {
          ASSERT_EQ((fast[bit / 8] >> (bit % 8)) & 1, (0xC3 >> (bit % 8)) & 1)
              << "padding bit " << bit;
        }
      }
      EXPECT_EQ(DoRelayout(packed, fast, rm, opts), unpacked);
      EXPECT_EQ(DoRelayout(packed, fast, rm, general), unpacked);
    }
  }
}

TEST(RelayoutTest, ThreadsGiveIdenticalBytes) {
  for (const char* text :
       {"f32[515,1031]{1,0:T(8,128)}", "bf16[1030,1024]{1,0:T(8,128)(2,1)}",
        "f32[600,700]{0,1}", "f32[300,1000]{1,0:T(32,32)(16,16)}",
        "f32[4,70,30,40]{3,2,1,0:T(*,8,16)(2,1)}"}) {
    SCOPED_TRACE(text);
    const Shape shape = Parse(text);
    const Shape rm = RowMajor(shape);
    const std::vector<uint8_t> src = Pattern(Bytes(rm), 7);
    RelayoutOptions one;
    one.threads = 1;
    const std::vector<uint8_t> ref = DoRelayout(rm, src, shape, one);
    for (int t : {2, 3, 0}) {
      RelayoutOptions many;
      many.threads = t;
      EXPECT_EQ(DoRelayout(rm, src, shape, many), ref) << t;
      EXPECT_EQ(DoRelayout(shape, ref, rm, many), src) << t;
    }
  }
}

// Relayout with src and dst placed `src_off` / `dst_off` bytes past a
// 64-byte boundary (the kernels align their streamed lines and blocks to
// the buffers' cache lines), checking that no byte around dst is touched.
std::vector<uint8_t> RelayoutAt(const Shape& from,
                                const std::vector<uint8_t>& src,
                                const Shape& to, const RelayoutOptions& options,
                                int src_off, int dst_off) {
  const int64_t n = Bytes(to);
  std::vector<uint8_t> sbuf(src.size() + 128), dbuf(n + 192, 0xEE);
  auto at = [](std::vector<uint8_t>& v, int off) {
    const uintptr_t p = reinterpret_cast<uintptr_t>(v.data());
    return v.data() + ((64 - p % 64) % 64) + off;
  };
  uint8_t* s = at(sbuf, src_off);
  uint8_t* d = at(dbuf, dst_off);
  std::copy(src.begin(), src.end(), s);
  absl::Status st = Relayout(from, absl::MakeConstSpan(s, src.size()), to,
                             absl::MakeSpan(d, n), options);
  EXPECT_TRUE(st.ok()) << st;
  for (uint8_t* q = dbuf.data(); q < d; ++q) EXPECT_EQ(*q, 0xEE);
  for (uint8_t* q = d + n; q < dbuf.data() + dbuf.size(); ++q) {
    EXPECT_EQ(*q, 0xEE);
  }
  return std::vector<uint8_t>(d, d + n);
}

// The fast path of `shape` (tile and untile) against the general path, with
// and without AVX2, on 1 and 2 threads and at several buffer alignments.
void CheckAgainstGeneral(const Shape& shape, RelayoutKernel tile_kernel,
                         RelayoutKernel untile_kernel) {
  SCOPED_TRACE(shape.ToString(true));
  const Shape rm = RowMajor(shape);
  const std::vector<uint8_t> src = Pattern(Bytes(rm), 3);
  RelayoutOptions general;
  general.allow_fast_paths = false;
  general.fill = 0x77;
  const std::vector<uint8_t> tiled = DoRelayout(rm, src, shape, general);
  absl::StatusOr<RelayoutPlan> tile = RelayoutPlan::Create(rm, shape);
  absl::StatusOr<RelayoutPlan> untile = RelayoutPlan::Create(shape, rm);
  ASSERT_TRUE(tile.ok() && untile.ok());
  EXPECT_EQ(tile->kernel(), tile_kernel) << tile->Describe();
  EXPECT_EQ(untile->kernel(), untile_kernel) << untile->Describe();
  for (bool avx2 : {true, false}) {
    for (int threads : {1, 2}) {
      for (auto [so, dof] : {std::pair<int, int>{0, 0}, {4, 16}, {20, 8}}) {
        SCOPED_TRACE(testing::Message()
                     << "avx2 " << avx2 << " threads " << threads << " offsets "
                     << so << "," << dof);
        RelayoutOptions opts;
        opts.allow_avx2 = avx2;
        opts.threads = threads;
        opts.fill = 0x77;
        EXPECT_TRUE(RelayoutAt(rm, src, shape, opts, so, dof) == tiled);
        EXPECT_TRUE(RelayoutAt(shape, tiled, rm, opts, so, dof) == src);
      }
    }
  }
}

TEST(RelayoutTest, TransposeOddSizesAndElementWidths) {
  // Sizes around the 8x8 / 4x4 blocks, the 128-row bands, their chunks of
  // 16 rows (a strip's rows are transposed a chunk at a time between
  // pieces of the previous strip's write-out) and the strips of one cache
  // line; 1-, 2-, 4-, 8- and 16-byte elements.
  for (const char* text :
       {"f32[2,2]{0,1}", "f32[7,9]{0,1}", "f32[16,24]{0,1}", "f32[17,33]{0,1}",
        "f32[129,200]{0,1}", "f32[300,5]{0,1}", "f32[3,300]{0,1}",
        "s8[77,300]{0,1}", "bf16[130,70]{0,1}", "f64[67,45]{0,1}",
        "c128[20,19]{0,1}", "f32[3,40,50]{1,2,0}", "f32[45,150]{0,1}",
        "f32[33,271]{0,1}", "s8[130,201]{0,1}", "bf16[47,257]{0,1}",
        "f64[31,139]{0,1}", "u32[9,41]{0,1}", "f32[40,3]{0,1}"}) {
    CheckAgainstGeneral(Parse(text), RelayoutKernel::kTranspose,
                        RelayoutKernel::kTranspose);
  }
}

TEST(RelayoutTest, LargeCopiesStreamAndSplitAcrossThreads) {
  // Destinations of 8 MiB and more take streaming stores; sizes that are
  // not multiples of the tiles, bands or blocks.
  const std::pair<const char*, const char*> streamed[] = {
      {"f32[1500,1501]{1,0}", "f32[1500,1501]{0,1}"},
      {"f32[2100,1024]{1,0}", "f32[2100,1024]{1,0:T(8,128)}"},
      {"f32[2090,1024]{1,0}", "f32[2090,1024]{1,0:T(32,32)(16,16)}"}};
  for (const auto& [from, to] : streamed) {
    absl::StatusOr<RelayoutPlan> plan =
        RelayoutPlan::Create(Parse(from), Parse(to));
    ASSERT_TRUE(plan.ok());
    EXPECT_NE(plan->Describe().find("streaming stores"), std::string::npos)
        << plan->Describe();
  }
  // Streamed f32 transposes go by blocks of 64 rows x 1024 columns (AVX2):
  // partial blocks both ways, columns not a multiple of 8.
  CheckAgainstGeneral(Parse("f32[1500,1501]{0,1}"), RelayoutKernel::kTranspose,
                      RelayoutKernel::kTranspose);
  CheckAgainstGeneral(Parse("f32[70001,33]{0,1}"), RelayoutKernel::kTranspose,
                      RelayoutKernel::kTranspose);
  // Other element sizes take the same blocks with SSE2 kernels.
  for (const char* text :
       {"s8[3001,2900]{0,1}", "bf16[2100,2053]{0,1}", "f64[1030,1100]{0,1}"}) {
    CheckAgainstGeneral(Parse(text), RelayoutKernel::kTranspose,
                        RelayoutKernel::kTranspose);
  }
  CheckAgainstGeneral(Parse("f32[2100,1030]{1,0:T(8,128)}"),
                      RelayoutKernel::kRuns, RelayoutKernel::kRuns);
  CheckAgainstGeneral(Parse("f32[2100,1024]{1,0:T(8,128)}"),
                      RelayoutKernel::kRuns, RelayoutKernel::kRuns);
  CheckAgainstGeneral(Parse("f32[2090,1024]{1,0:T(32,32)(16,16)}"),
                      RelayoutKernel::kRuns, RelayoutKernel::kRuns);
}

TEST(RelayoutTest, TileRowsWalkedRunByRun) {
  // Tiles whose rows are adjacent in the destination (tile) or the source
  // (untile), with partial tiles and 1-row arrays; (2,1) / (4,1) sub-tiles,
  // whose blocks of k rows are walked run by run, with rows left over from
  // the last block of k.
  constexpr RelayoutKernel kRuns = RelayoutKernel::kRuns;
  constexpr RelayoutKernel kInter = RelayoutKernel::kInterleave;
  constexpr RelayoutKernel kDeinter = RelayoutKernel::kDeinterleave;
  const std::tuple<const char*, RelayoutKernel, RelayoutKernel> cases[] = {
      {"f32[13,300]{1,0:T(8,128)}", kRuns, kRuns},
      {"f32[70,50]{1,0:T(32,32)(16,16)}", kRuns, kRuns},
      {"f32[1,300]{1,0:T(8,128)}", kRuns, kRuns},
      {"f32[33,64]{1,0:T(32,32)(16,16)}", kRuns, kRuns},
      {"f32[3,9,260]{2,1,0:T(4,128)}", kRuns, kRuns},
      {"bf16[17,129]{1,0:T(8,128)(2,1)}", kInter, kDeinter},
      {"bf16[64,256]{1,0:T(8,128)(2,1)}", kInter, kDeinter},
      {"s8[9,131]{1,0:T(8,128)(4,1)}", kInter, kDeinter},
      {"s8[30,256]{1,0:T(8,128)(4,1)}", kInter, kDeinter},
      {"s8[1030,1024]{1,0:T(8,128)(4,1)}", kInter, kDeinter},
  };
  for (const auto& [text, tile, untile] : cases) {
    CheckAgainstGeneral(Parse(text), tile, untile);
  }
  const Shape t = Parse("f32[64,256]{1,0:T(32,32)(16,16)}");
  const Shape i = Parse("s8[64,256]{1,0:T(8,128)(4,1)}");
  for (const auto& [from, to] : {std::pair<Shape, Shape>{RowMajor(t), t},
                                 {RowMajor(i), i},
                                 {i, RowMajor(i)}}) {
    absl::StatusOr<RelayoutPlan> plan = RelayoutPlan::Create(from, to);
    ASSERT_TRUE(plan.ok());
    EXPECT_NE(plan->Describe().find("rows run by run"), std::string::npos)
        << plan->Describe();
  }
}

TEST(RelayoutTest, PackedDestinationsOnSeveralThreads) {
  struct Case {
    const char* shape;
    bool parallel;  // rows own whole bytes of the packed side
  };
  const Case cases[] = {
      {"s4[2050,1030]{1,0:T(8,128)E(4)}", true},
      {"s4[1030,2048]{1,0:E(4)}", true},
      {"u2[1030,4100]{1,0:E(2)}", true},
      // Rows of 1001 s4 (1025 u2) end mid-byte: blocks of 2 (4) rows.
      {"s4[2001,1001]{1,0:E(4)}", true},
      {"u2[1101,1025]{1,0:E(2)}", true},
      // 3 x 1001 elements per outer index: bytes shared across it.
      {"s4[3,701,1001]{2,1,0:E(4)}", false},
      {"u2[1100,1025]{0,1:T(4,8)L(16)E(2)}", false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.shape);
    const Shape packed = Parse(c.shape);
    const Shape rm = RowMajor(packed);
    const int bits = static_cast<int>(packed.layout().element_size_in_bits());
    std::vector<uint8_t> src = Pattern(Bytes(rm), 5);
    for (auto& b : src) b &= (1 << bits) - 1;
    RelayoutOptions one, two, general;
    one.threads = 1;
    two.threads = 2;
    general.allow_fast_paths = false;
    for (RelayoutOptions* o : {&one, &two, &general}) o->fill = 0xA5;
    absl::StatusOr<RelayoutPlan> plan = RelayoutPlan::Create(rm, packed, two);
    ASSERT_TRUE(plan.ok());
    EXPECT_EQ(plan->Describe().find("up to 2 threads") != std::string::npos,
              c.parallel)
        << plan->Describe();
    const std::vector<uint8_t> ref = DoRelayout(rm, src, packed, general);
    EXPECT_TRUE(DoRelayout(rm, src, packed, one) == ref);
    EXPECT_TRUE(DoRelayout(rm, src, packed, two) == ref);
    EXPECT_TRUE(DoRelayout(packed, ref, rm, two) ==
                DoRelayout(packed, ref, rm, general));
  }
}

TEST(RelayoutTest, BadInputs) {
  const Shape a = Parse("f32[4,4]{1,0}");
  auto create_error = [](const Shape& from, const Shape& to) {
    absl::StatusOr<RelayoutPlan> p = RelayoutPlan::Create(from, to);
    return p.ok() ? std::string("ok") : std::string(p.status().message());
  };
  EXPECT_EQ(create_error(a, Parse("bf16[4,4]{1,0}")),
            "element types differ: f32 vs bf16");
  EXPECT_EQ(create_error(a, Parse("f32[4,5]{1,0}")),
            "dimensions differ: f32[4,4] vs f32[4,5]");
  EXPECT_EQ(create_error(a, Parse("f32[4]{0}")),
            "dimensions differ: f32[4,4] vs f32[4]");
  EXPECT_NE(create_error(Parse("(f32[4,4], f32[2])"), a).find("not an array"),
            std::string::npos);
  EXPECT_NE(create_error(Parse("f32[<=4,4]"), a).find("dynamic"),
            std::string::npos);
  Shape sparse = Parse("f32[4,4]{1,0}");
  DimLevel compressed;
  compressed.type = DIM_COMPRESSED;
  sparse.mutable_layout()->add_dim_level(DimLevel()).add_dim_level(compressed);
  EXPECT_NE(create_error(a, sparse).find("sparse"), std::string::npos);
  EXPECT_NE(create_error(Parse("f32[4,4]{1,0:E(2)}"), a).find("E(2)"),
            std::string::npos);
  RelayoutOptions bad;
  bad.threads = -1;
  EXPECT_FALSE(RelayoutPlan::Create(a, a, bad).ok());

  // Short buffers: an error, nothing written.
  const Shape t = Parse("f32[4,4]{1,0:T(8,128)}");
  std::vector<uint8_t> src(64, 1), dst(Bytes(t), 0xEE);
  absl::Status s =
      Relayout(a, absl::MakeConstSpan(src.data(), 63), t, absl::MakeSpan(dst));
  EXPECT_EQ(s.message(), "source buffer has 63 bytes, f32[4,4]{1,0} needs 64");
  EXPECT_TRUE(
      std::all_of(dst.begin(), dst.end(), [](uint8_t b) { return b == 0xEE; }));
  s = Relayout(a, src, t, absl::MakeSpan(dst.data(), dst.size() - 1));
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(
      std::all_of(dst.begin(), dst.end(), [](uint8_t b) { return b == 0xEE; }));
  // Longer buffers: bytes past dst_bytes untouched.
  std::vector<uint8_t> big(Bytes(t) + 16, 0xEE);
  ASSERT_TRUE(Relayout(a, src, t, absl::MakeSpan(big)).ok());
  for (size_t i = Bytes(t); i < big.size(); ++i) EXPECT_EQ(big[i], 0xEE);
}

TEST(RelayoutTest, ScalarsAndEmptyArrays) {
  CheckShape(Parse("f32[]{:T(128)}"), 1);
  const Shape empty = Parse("f32[0,5]{1,0:T(8,128)}");
  std::vector<uint8_t> dst(Bytes(empty), 1);
  RelayoutOptions opts;
  opts.fill = 7;
  ASSERT_TRUE(
      Relayout(RowMajor(empty), {}, empty, absl::MakeSpan(dst), opts).ok());
  for (uint8_t b : dst) EXPECT_EQ(b, 7);
}

TEST(RelayoutTest, PlanIsReusable) {
  const Shape rm = Parse("f32[16,256]{1,0}");
  const Shape t = Parse("f32[16,256]{1,0:T(8,128)}");
  absl::StatusOr<RelayoutPlan> plan = RelayoutPlan::Create(rm, t);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->src_bytes(), 16 * 256 * 4);
  EXPECT_EQ(plan->dst_bytes(), 16 * 256 * 4);
  for (uint32_t seed = 0; seed < 3; ++seed) {
    const std::vector<uint8_t> src = Pattern(plan->src_bytes(), seed);
    std::vector<uint8_t> dst(plan->dst_bytes());
    ASSERT_TRUE(plan->Run(src, absl::MakeSpan(dst)).ok());
    ExpectPlaced(t, src, dst, 0);
  }
}

}  // namespace
}  // namespace hlolayout

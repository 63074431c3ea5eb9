// Tests for cute/atom/bank_conflicts.h: hand-checked patterns, tiled copies,
// and the fast count against a brute-force count of byte addresses per
// phase on random layouts.
#include "hlolayout/cute/atom/bank_conflicts.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/cute/atom/copy_atom.h"
#include "hlolayout/cute/atom/internal/tv_algebra.h"
#include "hlolayout/cute/atom/mma_atom.h"
#include "hlolayout/cute/atom/tile.h"
#include "hlolayout/cute/atom/tiled_copy.h"
#include "hlolayout/cute/atom/tiled_mma.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/testing/cute_random_layout.h"

namespace hlolayout::cute {
namespace {

Layout L(const char* text) {
  absl::StatusOr<Layout> l = atom_internal::ParseStaticLayout(text);
  EXPECT_TRUE(l.ok()) << l.status();
  return *l;
}

ConflictReport Tv(const char* tv, int64_t rows, int64_t cols, int64_t vector,
                  const char* smem, int bits) {
  auto a = TvAccesses(L(tv), rows, cols, vector, SmemLayout::Plain(L(smem)));
  EXPECT_TRUE(a.ok()) << a.status();
  auto r = CountConflicts(*a, bits);
  EXPECT_TRUE(r.ok()) << r.status();
  return *r;
}

TEST(BankConflictsTest, ColumnOfFloatsHitsOneBank) {
  // Thread t reads element (t, 0) of a row-major 32x32 float tile.
  ConflictReport r = Tv("(32,1):(1,0)", 32, 32, 1, "(32,32):(32,1)", 32);
  EXPECT_EQ(r.wavefronts, 32);
  EXPECT_EQ(r.ideal, 1);
  ASSERT_EQ(r.instructions.size(), 1u);
  ASSERT_EQ(r.instructions[0].phases.size(), 1u);
  ASSERT_EQ(r.instructions[0].phases[0].collisions.size(), 1u);
  EXPECT_EQ(r.instructions[0].phases[0].collisions[0].bank, 0);
  EXPECT_EQ(r.instructions[0].phases[0].collisions[0].threads.size(), 32u);
}

TEST(BankConflictsTest, RowOfFloatsIsOneWavefront) {
  ConflictReport r = Tv("(32,1):(32,0)", 32, 32, 1, "(32,32):(32,1)", 32);
  EXPECT_EQ(r.wavefronts, 1);
  EXPECT_EQ(r.ideal, 1);
}

TEST(BankConflictsTest, BroadcastIsNoConflict) {
  // Every thread reads element 0.
  ConflictReport r = Tv("(32,1):(0,0)", 32, 32, 1, "(32,32):(32,1)", 32);
  EXPECT_EQ(r.wavefronts, 1);
  EXPECT_EQ(r.ideal, 1);
}

TEST(BankConflictsTest, SixteenByteVectorsTakeFourPhases) {
  // 32 threads x 4 contiguous floats of a row-major 32x128 tile's row 0.
  ConflictReport r = Tv("(32,4):(128,32)", 32, 128, 4, "(32,128):(128,1)", 32);
  EXPECT_EQ(r.threads_per_phase, 8);
  EXPECT_EQ(r.instructions[0].phases.size(), 4u);
  EXPECT_EQ(r.wavefronts, 4);
  EXPECT_EQ(r.ideal, 4);
}

TEST(BankConflictsTest, PaddingRemovesTheColumnConflict) {
  // A 32x32 float tile with rows padded to 33 elements.
  ConflictReport r = Tv("(32,1):(1,0)", 32, 32, 1, "(32,32):(33,1)", 32);
  EXPECT_EQ(r.wavefronts, 1);
}

TEST(BankConflictsTest, LdsmX1UsesEightRowAddresses) {
  // ldmatrix x1 on a column-major 8x8 half tile: threads 0-7 give the
  // addresses of the 8 rows (16 bytes each), the other threads repeat them.
  auto atom = FindCopyAtom("Copy_Atom<SM75_U32x1_LDSM_N, half_t>");
  ASSERT_TRUE(atom.ok()) << atom.status();
  auto tc = MakeTiledCopy(*atom, L("(32,1):(1,0)"), L("(1,2)"));
  ASSERT_TRUE(tc.ok()) << tc.status();
  auto a = TiledCopyAccesses(*tc, Side::kSource,
                             SmemLayout::Plain(L("(32,2):(1,32)")));
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_EQ(a->size(), 1u);
  EXPECT_EQ((*a)[0].threads.size(), 8u);  // threads 0-7 only
  for (const ThreadAccess& t : (*a)[0].threads) EXPECT_LT(t.thread, 8);
}

TEST(BankConflictsTest, LdsmOnRowMajorHalfTileConflictsTwoWay) {
  // The A operand of two SM80 16x8x16 atoms along M read with ldmatrix x4
  // from a row-major 32x16 half_t tile (32 bytes a row): rows r and r+4 of
  // an 8-row matrix share banks.
  auto atom = FindCopyAtom("Copy_Atom<SM75_U32x4_LDSM_N, half_t>");
  auto mma = FindMmaAtom("SM80_16x8x16_F16F16F16F16_TN");
  ASSERT_TRUE(atom.ok() && mma.ok());
  auto tm = MakeTiledMma(*mma, L("(2,1,1)"), {});
  ASSERT_TRUE(tm.ok()) << tm.status();
  auto tc = MakeTiledCopyFromMma(*atom, *tm, Operand::kA);
  ASSERT_TRUE(tc.ok()) << tc.status();
  auto plain =
      SmemConflicts(*tc, Side::kSource, SmemLayout::Plain(L("(32,16):(16,1)")));
  ASSERT_TRUE(plain.ok()) << plain.status();
  EXPECT_EQ(plain->ideal, 8);  // 2 warps x 4 matrices
  EXPECT_EQ(plain->wavefronts, 16);
  // An XOR swizzle of the 16-byte chunk by the row (Swizzle<1,3,3> on
  // element offsets) spreads the rows over all banks.
  SmemLayout swizzled = SmemLayout::Function(
      [](int64_t m, int64_t n, int64_t, int64_t) -> absl::StatusOr<int64_t> {
        const int64_t off = m * 16 + n;
        return off ^ (((off >> 6) & 1) << 3);
      },
      "Sw<1,3,3> o (32,16):(16,1)");
  auto sw = SmemConflicts(*tc, Side::kSource, swizzled);
  ASSERT_TRUE(sw.ok()) << sw.status();
  EXPECT_EQ(sw->wavefronts, 8);
}

// The model of bank_conflicts.h counted the slow way: every byte of every
// access, a set of words per bank, per phase.
int64_t BruteForce(const std::vector<InstructionAccess>& accesses, int bits,
                   int64_t* ideal) {
  int64_t total = 0;
  *ideal = 0;
  for (const InstructionAccess& ia : accesses) {
    size_t widest = 0;
    for (const ThreadAccess& t : ia.threads) {
      widest = std::max(widest, t.offsets.size());
    }
    const int64_t w = static_cast<int64_t>(widest) * bits;
    const int64_t per_phase =
        w <= 32 ? 32 : std::max<int64_t>(1, std::min<int64_t>(32, 1024 / w));
    for (size_t p = 0; p < ia.threads.size(); p += per_phase) {
      std::map<int64_t, std::set<int64_t>> words_of_bank;
      std::set<int64_t> words;
      for (size_t k = p; k < std::min(ia.threads.size(), p + per_phase); ++k) {
        for (int64_t off : ia.threads[k].offsets) {
          for (int64_t byte = off * bits / 8; byte < (off + 1) * bits / 8;
               ++byte) {
            words_of_bank[(byte / 4) % 32].insert(byte / 4);
            words.insert(byte / 4);
          }
        }
      }
      size_t worst = 1;
      for (const auto& [bank, ws] : words_of_bank)
        worst = std::max(worst, ws.size());
      total += static_cast<int64_t>(worst);
      *ideal +=
          std::max<int64_t>(1, (static_cast<int64_t>(words.size()) + 31) / 32);
    }
  }
  return total;
}

TEST(BankConflictsTest, FastCountMatchesBruteForceOnRandomLayouts) {
  internal::LayoutGenerator gen(/*seed=*/2027);
  const int kBits[] = {8, 16, 32, 64, 128};
  int tried = 0;
  for (int round = 0; round < 400; ++round) {
    // A TV pattern: 32 or 64 threads, 1..8 values each, onto a tile of
    // rows x cols, drawn as a random injective (or not) layout taken mod
    // the tile.
    const int64_t threads = gen.Chance(50) ? 32 : 64;
    const int64_t vector = 1 << gen.Uniform(0, 2);
    const int64_t values = vector * gen.Uniform(1, 2);
    const int64_t rows = 1 << gen.Uniform(2, 5);
    const int64_t cols = 1 << gen.Uniform(2, 5);
    const Layout thr =
        gen.Chance(70) ? gen.Injective(64) : gen.Any(false, 24, 64);
    const Layout val = gen.Injective(16);
    // (thread, value) -> index: thread t's digits through `thr`, value's
    // through `val`, wrapped into the tile.
    auto tv = Layout::Create(IntTuple::Tuple({threads, values}),
                             IntTuple::Tuple({1, threads}));
    ASSERT_TRUE(tv.ok());
    // Compose the identity TV layout with a random function of the index by
    // going through SmemLayout::Function (the smem side is random too).
    const Layout smem =
        gen.Chance(60) ? gen.Injective(64) : gen.Any(false, 40, 64);
    const int bits = kBits[gen.Uniform(0, 4)];
    SmemLayout fn = SmemLayout::Function(
        [&](int64_t m, int64_t n, int64_t r,
            int64_t) -> absl::StatusOr<int64_t> {
          const int64_t k = m + r * n;
          const int64_t t = k % threads, v = k / threads;
          const int64_t a = thr((t) % thr.size()) + val(v % val.size()) * 3;
          return smem(std::abs(a) % smem.size()) + smem.cosize() * (k % 3);
        },
        "random");
    if (threads * values > rows * cols) continue;
    auto accesses = TvAccesses(*tv, rows, cols, vector, fn);
    ASSERT_TRUE(accesses.ok()) << accesses.status();
    auto fast = CountConflicts(*accesses, bits);
    ASSERT_TRUE(fast.ok()) << fast.status();
    int64_t ideal = 0;
    const int64_t slow = BruteForce(*accesses, bits, &ideal);
    EXPECT_EQ(fast->wavefronts, slow) << "round " << round;
    EXPECT_EQ(fast->ideal, ideal) << "round " << round;
    ++tried;
  }
  EXPECT_GT(tried, 150);
}

TEST(BankConflictsTest, Errors) {
  auto a =
      TvAccesses(L("(32,3):(1,32)"), 32, 4, 2, SmemLayout::Plain(L("128:1")));
  EXPECT_FALSE(a.ok());  // 3 values do not split into instructions of 2
  auto small =
      TvAccesses(L("(32,1):(1,0)"), 32, 32, 1, SmemLayout::Plain(L("16:1")));
  EXPECT_FALSE(small.ok());  // the smem layout is smaller than the tile
  EXPECT_FALSE(CountConflicts({}, 0).ok());
}

}  // namespace
}  // namespace hlolayout::cute

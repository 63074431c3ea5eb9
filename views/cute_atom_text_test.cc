#include "hlolayout/views/cute_atom_text.h"

#include <string>
#include <variant>

#include "gtest/gtest.h"
#include "hlolayout/answers/cute.h"
#include "hlolayout/cute/atom/copy_atom.h"
#include "hlolayout/cute/atom/mma_atom.h"
#include "hlolayout/cute/atom/tiled_copy.h"
#include "hlolayout/cute/atom/tiled_mma.h"
#include "hlolayout/cute/parse.h"

namespace hlolayout::cute {
namespace {

constexpr char kMma[] = "SM80_16x8x16_F16F16F16F16_TN";
constexpr char kCopy[] = "Copy_Atom<SM75_U32x4_LDSM_N, half_t>";

constexpr char kMmaPrint[] =
    "MMA_Atom\n"
    "  ThrID:      _32:_1\n"
    "  Shape_MNK:  (_16,_8,_16)\n"
    "  LayoutA_TV: ((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))\n"
    "  LayoutB_TV: ((_4,_8),(_2,_2)):((_16,_1),(_8,_64))\n"
    "  LayoutC_TV: ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))\n";

constexpr char kCopyPrint[] =
    "Copy_Atom\n"
    "  ThrID:        _32:_1\n"
    "  ValLayoutSrc: (_32,_8):(_8,_1)\n"
    "  ValLayoutDst: (_32,(_2,_4)):(_2,(_1,_64))\n"
    "  ValLayoutRef: (_32,(_2,_4)):(_2,(_1,_64))\n"
    "  ValueType:    16b\n";

TiledMma Tiled() {
  absl::StatusOr<MmaAtom> atom = FindMmaAtom(kMma);
  EXPECT_TRUE(atom.ok()) << atom.status();
  absl::StatusOr<Layout> atoms = ParseLayout("(2,2,1)");
  EXPECT_TRUE(atoms.ok()) << atoms.status();
  absl::StatusOr<TiledMma> tm = MakeTiledMma(*atom, *atoms, {});
  EXPECT_TRUE(tm.ok()) << tm.status();
  return *tm;
}

TiledCopy TiledLdsm() {
  absl::StatusOr<CopyAtom> atom = FindCopyAtom(kCopy);
  EXPECT_TRUE(atom.ok()) << atom.status();
  absl::StatusOr<Layout> thr = ParseLayout("(32,1):(1,0)");
  absl::StatusOr<Layout> val = ParseLayout("(1,8):(1,1)");
  EXPECT_TRUE(thr.ok() && val.ok());
  absl::StatusOr<TiledCopy> tc = MakeTiledCopy(*atom, *thr, *val);
  EXPECT_TRUE(tc.ok()) << tc.status();
  return *tc;
}

TEST(CuteAtomText, MmaAtomAsCutePrintsIt) {
  absl::StatusOr<AnyAtom> a = FindAnyAtom(kMma);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(AnyAtomText(*a), kMmaPrint);
  EXPECT_EQ(PrintMmaAtom(std::get<MmaAtom>(*a)), kMmaPrint);
}

// A copy atom's print() is its own fields; `cute atom` adds the bit
// layouts.
TEST(CuteAtomText, CopyAtomPrintThenItsBits) {
  absl::StatusOr<AnyAtom> atom = FindAnyAtom(kCopy);
  ASSERT_TRUE(atom.ok()) << atom.status();
  EXPECT_EQ(PrintCopyAtom(std::get<CopyAtom>(*atom)), kCopyPrint);
  EXPECT_EQ(AnyAtomText(*atom),
            std::string(kCopyPrint) +
                "  SrcLayout:    (_32,_128):(_128,_1)\n"
                "  DstLayout:    (_32,(_32,_4)):(_32,(_1,_1024))\n"
                "  RefLayout:    (_32,(_32,_4)):(_32,(_1,_1024))\n");
}

TEST(CuteAtomText, CopyOperationAlone) {
  absl::StatusOr<AnyAtom> op = FindAnyAtom("SM75_U32x4_LDSM_N");
  ASSERT_TRUE(op.ok()) << op.status();
  EXPECT_EQ(AnyAtomText(*op),
            "Copy_Traits<SM75_U32x4_LDSM_N>\n"
            "  ThrID:     _32:_1\n"
            "  SrcLayout: (_32,_128):(_128,_1)\n"
            "  DstLayout: (_32,(_32,_4)):(_32,(_1,_1024))\n"
            "  RefLayout: (_32,(_32,_4)):(_32,(_1,_1024))\n");
}

TEST(CuteAtomText, TiledMmaPrintAndText) {
  const TiledMma tm = Tiled();
  const std::string print =
      "TiledMMA\n"
      "  ThrLayoutVMNK:  (_32,_2,_2,_1):(_1,_32,_64,_128)\n"
      "  PermutationMNK: (_,_,_)\n" +
      std::string(kMmaPrint);
  EXPECT_EQ(PrintTiledMma(tm), print);
  EXPECT_EQ(TiledMmaText(tm),
            print +
                "TileShape_MNK: (_32,_16,_16)\n"
                "LayoutA_TV:    ((_4,_8,_2,_2),((_2,_2,_2),(_1,_1))):((_64,_1,"
                "_16,_0),((_32,_8,_256),(_0,_0)))\n"
                "LayoutB_TV:    ((_4,_8,_2,_2),((_2,_2),(_1,_1))):((_32,_1,_0,"
                "_8),((_16,_128),(_0,_0)))\n"
                "LayoutC_TV:    ((_4,_8,_2,_2),((_2,_2),(_1,_1))):((_64,_1,_16,"
                "_256),((_32,_8),(_0,_0)))\n");
}

TEST(CuteAtomText, TiledCopyPrintAndText) {
  const TiledCopy tc = TiledLdsm();
  const std::string print =
      "TiledCopy\n"
      "  Tiler_MN:       (_32,_8)\n"
      "  TiledLayout_TV: (_32,_8):(_1,_32)\n" +
      std::string(kCopyPrint);
  EXPECT_EQ(PrintTiledCopy(tc), print);
  EXPECT_EQ(TiledCopyText(tc),
            print +
                "LayoutS_TV: ((_8,_4),((_2,_4),_1)):((_4,_64),((_32,_1),_0))\n"
                "LayoutD_TV: (_32,(_8,_1)):(_1,(_32,_0))\n");
}

TEST(CuteAtomText, ThreadCoords) {
  absl::StatusOr<ThreadCoords> mma = ThreadCoordsOfMma(Tiled(), 5);
  ASSERT_TRUE(mma.ok()) << mma.status();
  EXPECT_EQ(ThreadCoordsText(*mma),
            "thread 5 of 128\n"
            "A (m,k): (1,2) (1,3) (9,2) (9,3) (1,10) (1,11) (9,10) (9,11)\n"
            "B (n,k): (1,2) (1,3) (1,10) (1,11)\n"
            "C (m,n): (1,2) (1,3) (9,2) (9,3)\n");
  absl::StatusOr<ThreadCoords> copy = ThreadCoordsOfCopy(TiledLdsm(), 3);
  ASSERT_TRUE(copy.ok()) << copy.status();
  EXPECT_EQ(ThreadCoordsText(*copy),
            "thread 3 of 32\n"
            "S (m,n): (12,0) (12,1) (13,0) (13,1) (14,0) (14,1) (15,0) (15,1)\n"
            "D (m,n): (3,0) (3,1) (3,2) (3,3) (3,4) (3,5) (3,6) (3,7)\n");
}

}  // namespace
}  // namespace hlolayout::cute

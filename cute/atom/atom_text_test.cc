#include "hlolayout/cute/atom/atom_text.h"

#include <string>
#include <variant>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/cute/atom/copy_atom.h"
#include "hlolayout/cute/atom/mma_atom.h"
#include "hlolayout/cute/atom/tiled_copy.h"
#include "hlolayout/cute/atom/tiled_mma.h"
#include "hlolayout/cute/parse.h"

namespace hlolayout::cute {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr char kMma[] = "SM80_16x8x16_F16F16F16F16_TN";

TEST(AtomText, MmaAtomAsCutePrintsIt) {
  absl::StatusOr<AnyAtom> a = FindAnyAtom(kMma);
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(std::holds_alternative<MmaAtom>(*a));
  EXPECT_EQ(AnyAtomText(*a),
            "MMA_Atom\n"
            "  ThrID:      _32:_1\n"
            "  Shape_MNK:  (_16,_8,_16)\n"
            "  LayoutA_TV: ((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))\n"
            "  LayoutB_TV: ((_4,_8),(_2,_2)):((_16,_1),(_8,_64))\n"
            "  LayoutC_TV: ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))\n");
  EXPECT_THAT(AnyAtomJson(*a), HasSubstr("\"Shape_MNK\": \"(_16,_8,_16)\""));
}

TEST(AtomText, CopyAtomAndCopyOperation) {
  absl::StatusOr<AnyAtom> atom =
      FindAnyAtom("Copy_Atom<SM75_U32x4_LDSM_N, half_t>");
  ASSERT_TRUE(atom.ok()) << atom.status();
  const std::string text = AnyAtomText(*atom);
  EXPECT_THAT(text, StartsWith("Copy_Atom\n  ThrID:        _32:_1\n"));
  EXPECT_THAT(text, HasSubstr("  ValueType:    16b\n  SrcLayout:    "));
  absl::StatusOr<AnyAtom> op = FindAnyAtom("SM75_U32x4_LDSM_N");
  ASSERT_TRUE(op.ok()) << op.status();
  ASSERT_TRUE(std::holds_alternative<CopyOp>(*op));
  EXPECT_THAT(AnyAtomText(*op), StartsWith("Copy_Traits<SM75_U32x4_LDSM_N>\n"));
  EXPECT_THAT(AnyAtomJson(*op), StartsWith("{\"ThrID\": \"_32:_1\", "
                                           "\"SrcLayout\": "));
}

TEST(AtomText, UnknownNamesGetTheNearestOfBothKinds) {
  absl::StatusOr<AnyAtom> a = FindAnyAtom("SM80_16x8x16_F16F16F16F16_TM");
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(a.status().message(),
              HasSubstr("unknown MMA atom or copy operation "
                        "'SM80_16x8x16_F16F16F16F16_TM'; nearest: "
                        "SM80_16x8x16_F16F16F16F16_TN"));
  // A name of a known family keeps that family's error.
  absl::StatusOr<AnyAtom> n100 = FindAnyAtom("SM90_64x100x16_F16F16F16_SS");
  ASSERT_FALSE(n100.ok());
  EXPECT_THAT(n100.status().message(), HasSubstr("N = 100 is not one of"));
}

TEST(AtomText, TiledMmaPrintAndThreadCoords) {
  absl::StatusOr<MmaAtom> atom = FindMmaAtom(kMma);
  ASSERT_TRUE(atom.ok());
  absl::StatusOr<Layout> atoms = ParseLayout("(2,2,1)");
  ASSERT_TRUE(atoms.ok());
  absl::StatusOr<TiledMma> tm = MakeTiledMma(*atom, *atoms, {});
  ASSERT_TRUE(tm.ok()) << tm.status();
  const std::string print = PrintTiledMma(*tm);
  EXPECT_THAT(print, StartsWith("TiledMMA\n  ThrLayoutVMNK:  "));
  EXPECT_THAT(print, HasSubstr("\nMMA_Atom\n"));
  EXPECT_EQ(TiledMmaText(*tm).substr(0, print.size()), print);
  EXPECT_THAT(TiledMmaText(*tm), HasSubstr("TileShape_MNK: (_32,_16,_16)\n"));
  absl::StatusOr<ThreadCoords> c = ThreadCoordsOfMma(*tm, 5);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->num_threads, 128);
  const std::string text = ThreadCoordsText(*c);
  EXPECT_THAT(text, StartsWith("thread 5 of 128\nA (m,k): ("));
  EXPECT_THAT(text, HasSubstr("\nC (m,n): ("));
  EXPECT_THAT(ThreadCoordsJson(*c), StartsWith("{\"thread\": 5, \"A\": [["));
  EXPECT_FALSE(ThreadCoordsOfMma(*tm, 128).ok());
}

}  // namespace
}  // namespace hlolayout::cute

#include "hlolayout/answers/cute.h"

#include <string>
#include <variant>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/cute/atom/atom_catalog.h"
#include "hlolayout/cute/atom/bank_conflicts.h"
#include "hlolayout/cute/atom/copy_atom.h"
#include "hlolayout/cute/atom/mma_atom.h"
#include "hlolayout/cute/atom/tiled_copy.h"
#include "hlolayout/cute/atom/tiled_mma.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/util/fields.h"

namespace hlolayout::cute {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr char kMma[] = "SM80_16x8x16_F16F16F16F16_TN";

TEST(CuteAnswers, MmaAtomAnswer) {
  absl::StatusOr<AnyAtom> a = FindAnyAtom(kMma);
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(std::holds_alternative<MmaAtom>(*a));
  EXPECT_THAT(AnswerJson(AnswerAtom(*a)),
              HasSubstr("\"Shape_MNK\": \"(_16,_8,_16)\""));
}

TEST(CuteAnswers, CopyAtomAndCopyOperation) {
  absl::StatusOr<AnyAtom> atom =
      FindAnyAtom("Copy_Atom<SM75_U32x4_LDSM_N, half_t>");
  ASSERT_TRUE(atom.ok()) << atom.status();
  const CopyAtomAnswer a = std::get<CopyAtomAnswer>(AnswerAtom(*atom));
  EXPECT_EQ(a.print.value_type, "16b");
  EXPECT_EQ(a.bits.src_layout, "(_32,_128):(_128,_1)");
  absl::StatusOr<AnyAtom> op = FindAnyAtom("SM75_U32x4_LDSM_N");
  ASSERT_TRUE(op.ok()) << op.status();
  ASSERT_TRUE(std::holds_alternative<CopyOp>(*op));
  EXPECT_THAT(AnswerJson(AnswerAtom(*op)), StartsWith("{\"ThrID\": \"_32:_1\", "
                                                      "\"SrcLayout\": "));
}

TEST(CuteAnswers, UnknownNamesGetTheNearestOfBothKinds) {
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

TEST(CuteAnswers, TiledMmaAndThreadCoords) {
  absl::StatusOr<MmaAtom> atom = FindMmaAtom(kMma);
  ASSERT_TRUE(atom.ok());
  absl::StatusOr<Layout> atoms = ParseLayout("(2,2,1)");
  ASSERT_TRUE(atoms.ok());
  absl::StatusOr<TiledMma> tm = MakeTiledMma(*atom, *atoms, {});
  ASSERT_TRUE(tm.ok()) << tm.status();
  const TiledMmaAnswer answer = AnswerTiledMma(*tm);
  EXPECT_EQ(answer.print.thr_layout_vmnk, "(_32,_2,_2,_1):(_1,_32,_64,_128)");
  EXPECT_EQ(answer.layouts.tile_shape_mnk, "(_32,_16,_16)");
  absl::StatusOr<ThreadCoords> c = ThreadCoordsOfMma(*tm, 5);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->num_threads, 128);
  ASSERT_EQ(c->operands.size(), 3u);
  EXPECT_EQ(c->operands[2].first[0], "C");
  EXPECT_THAT(AnswerJson(AnswerThreadCoords(*c)),
              StartsWith("{\"thread\": 5, \"A\": [["));
  EXPECT_FALSE(ThreadCoordsOfMma(*tm, 128).ok());
}

// The JSON of a copy atom has the bit layouts but not ValueType (text
// only).
TEST(CuteAnswers, CopyAtomJsonLeavesOutTheValueType) {
  absl::StatusOr<AnyAtom> atom =
      FindAnyAtom("Copy_Atom<SM75_U32x4_LDSM_N, half_t>");
  ASSERT_TRUE(atom.ok()) << atom.status();
  const std::string json = AnswerJson(AnswerAtom(*atom));
  EXPECT_THAT(json, StartsWith("{\"ThrID\": \"_32:_1\", \"ValLayoutSrc\": "));
  EXPECT_THAT(json,
              HasSubstr("\"ValLayoutRef\": \"(_32,(_2,_4)):(_2,(_1,_64))\", "
                        "\"SrcLayout\": "));
  EXPECT_EQ(json.find("ValueType"), std::string::npos);
}

TEST(CuteAnswers, TiledCopyJson) {
  absl::StatusOr<CopyAtom> atom =
      FindCopyAtom("Copy_Atom<SM75_U32x4_LDSM_N, half_t>");
  ASSERT_TRUE(atom.ok()) << atom.status();
  absl::StatusOr<Layout> thr = ParseLayout("(32,1):(1,0)");
  absl::StatusOr<Layout> val = ParseLayout("(1,8):(1,1)");
  ASSERT_TRUE(thr.ok() && val.ok());
  absl::StatusOr<TiledCopy> tc = MakeTiledCopy(*atom, *thr, *val);
  ASSERT_TRUE(tc.ok()) << tc.status();
  EXPECT_EQ(AnswerTiledCopy(*tc).print.tiler_mn, "(_32,_8)");
  EXPECT_THAT(AnswerJson(AnswerTiledCopy(*tc)), StartsWith("{\"Tiler_MN\": "));
}

TEST(CuteAnswers, CatalogAndConflictsAsJson) {
  absl::StatusOr<std::vector<FamilyRow>> rows = AtomCatalog("mma", "sm90_gmma");
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_THAT(AnswerJson(AnswerAtomCatalog(*rows)),
              StartsWith("[{\"kind\": \"mma\", \"family\": \"sm90_gmma\""));
  std::vector<InstructionAccess> accesses;
  for (int64_t warp : {0, 1}) {
    InstructionAccess a;
    a.warp = warp;
    for (int64_t t = 0; t < 8; ++t) a.threads.push_back({t, {t * 32}});
    accesses.push_back(a);
  }
  absl::StatusOr<ConflictReport> r = CountConflicts(accesses, 32);
  ASSERT_TRUE(r.ok()) << r.status();
  const std::string json = AnswerJson(AnswerConflicts(*r, false));
  EXPECT_THAT(json, HasSubstr("{\"wavefronts\": 16, \"ideal\": 2"));
  EXPECT_THAT(json, HasSubstr("\"collisions\": [{\"bank\": 0, \"words\": "
                              "[0, 32, 64, 96, 128, 160, 192, 224], "
                              "\"threads\": [0, 1, 2, 3, 4, 5, 6, 7]}]"));
  EXPECT_EQ(json.find("\"warp\": 1"), std::string::npos);
  EXPECT_THAT(AnswerJson(AnswerConflicts(*r, true)), HasSubstr("\"warp\": 1"));
}

}  // namespace
}  // namespace hlolayout::cute

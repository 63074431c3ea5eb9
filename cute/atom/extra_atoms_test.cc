// Tests for the atoms added for the CuTe DSL (issue 37): the sparse GMMA and
// UMMA atoms, the complex TF32 interleaved and SM103 MXF4 ULTRA UMMA atoms,
// SM89's m16n8k16 FP8 atoms and SM100's LDSM_T M16N16 copies. Worked examples
// with the layouts CUTLASS's traits name (mma_traits_sm90_gmma_sparse.hpp:
// GMMA::ABLayout, ALayout_64xK, CLayout_64xN; mma_traits_sm100.hpp), and
// every name of the new families against the rule its layouts follow.
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "hlolayout/cute/atom/copy_atom.h"
#include "hlolayout/cute/atom/mma_atom.h"
#include "hlolayout/cute/atom/static_text.h"

namespace hlolayout::cute {
namespace {

struct Want {
  const char* name;
  const char* thr;
  const char* shape;
  const char* a;
  const char* b;
  const char* c;
};

void ExpectAtom(const Want& w) {
  SCOPED_TRACE(w.name);
  absl::StatusOr<MmaAtom> atom = FindMmaAtom(w.name);
  ASSERT_TRUE(atom.ok()) << atom.status();
  EXPECT_EQ(StaticText(atom->thr_id), w.thr);
  EXPECT_EQ(StaticText(atom->shape_mnk), w.shape);
  EXPECT_EQ(StaticText(atom->layout_a_tv), w.a);
  EXPECT_EQ(StaticText(atom->layout_b_tv), w.b);
  EXPECT_EQ(StaticText(atom->layout_c_tv), w.c);
}

TEST(ExtraAtomsTest, SparseGmmaAsCutlassTraitsName) {
  // SS: A and B are GMMA::ABLayout<64, K> and <N, K>, K twice the dense K.
  ExpectAtom(
      {"GMMA::SPARSE::GMMA_64x8x32_F16F16F16_SS<GMMA::Major::K,"
       "GMMA::Major::K>",
       "_128:_1", "(_64,_8,_32)", "(_128,(_64,_32)):(_0,(_1,_64))",
       "(_128,(_8,_32)):(_0,(_1,_8))",
       "((_4,_8,_4),(_2,_2,_1)):((_128,_1,_16),(_64,_8,_512))"});
  // RS: A in registers is ALayout_64x32 (16-bit sparse), the layout of the
  // dense 8-bit RS atoms.
  ExpectAtom(
      {"GMMA::SPARSE::GMMA_64x8x32_F16F16F16_RS<GMMA::Major::K,"
       "GMMA::Major::K>",
       "_128:_1", "(_64,_8,_32)",
       "((_4,_8,_4),(_4,_2,_2)):((_256,_1,_16),(_64,_8,_1024))",
       "(_128,(_8,_32)):(_0,(_1,_8))",
       "((_4,_8,_4),(_2,_2,_1)):((_128,_1,_16),(_64,_8,_512))"});
  // 8-bit sparse RS: ALayout_64x64; TF32 sparse RS: ALayout_64x16.
  ExpectAtom({"GMMA::SPARSE::GMMA_64x8x64_F32E4M3E4M3_RS_TN<>", "_128:_1",
              "(_64,_8,_64)",
              "((_4,_8,_4),(_8,_2,_2)):((_512,_1,_16),(_64,_8,_2048))",
              "(_128,(_8,_64)):(_0,(_1,_8))",
              "((_4,_8,_4),(_2,_2,_1)):((_128,_1,_16),(_64,_8,_512))"});
  ExpectAtom({"GMMA::SPARSE::GMMA_64x16x16_F32TF32TF32_RS_TN<>", "_128:_1",
              "(_64,_16,_16)",
              "((_4,_8,_4),(_2,_2,_2)):((_128,_1,_16),(_64,_8,_512))",
              "(_128,(_16,_16)):(_0,(_1,_16))",
              "((_4,_8,_4),(_2,_2,_2)):((_128,_1,_16),(_64,_8,_512))"});
}

TEST(ExtraAtomsTest, SparseComplexAndSm103UmmaAsCutlassTraitsName) {
  ExpectAtom(
      {"SM100_MMA_F16BF16_SS_SPARSE<half_t,half_t,float,128,64,"
       "UMMA::Major::K,UMMA::Major::K>",
       "_1:_0", "(_128,_64,_32)", "(_1,(_128,_32)):(_0,(_1,_128))",
       "(_1,(_64,_32)):(_0,(_1,_64))", "(_1,(_128,_64)):(_0,(_1,_128))"});
  ExpectAtom(
      {"SM100_MMA_F8F6F4_2x1SM_SS_SPARSE<float_e4m3_t,float_e4m3_t,"
       "float,256,128,UMMA::Major::K,UMMA::Major::K>",
       "_2:_1", "(_256,_128,_64)", "(_2,(_128,_64)):(_128,(_1,_256))",
       "(_2,(_64,_64)):(_64,(_1,_128))", "(_2,(_128,_128)):(_128,(_1,_256))"});
  ExpectAtom(
      {"SM103_MXF4_ULTRA_SS_VS<float_e2m1_t,float_e2m1_t,float,"
       "float_ue8m0_t,128,64,32,UMMA::Major::K,UMMA::Major::K>",
       "_1:_0", "(_128,_64,_96)", "(_1,(_128,_96)):(_0,(_1,_128))",
       "(_1,(_64,_96)):(_0,(_1,_64))", "(_1,(_128,_64)):(_0,(_1,_128))"});
  // PTX's mma.m16n8k16 with .e4m3 (the CuTe DSL's warp.MmaFP8Op with K 16).
  ExpectAtom({"SM89_16x8x16_F32E4M3E4M3F32_TN", "_32:_1", "(_16,_8,_16)",
              "((_4,_8),(_4,_2)):((_64,_1),(_16,_8))",
              "((_4,_8),_4):((_32,_1),_8)",
              "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))"});
}

// Every name of a family, from the table (the names holding `hint`).
std::vector<std::string> Names(const char* family, const char* hint) {
  std::vector<std::string> out;
  for (const std::string& name : AllMmaAtomNames(1 << 20)) {
    if (!absl::StrContains(name, hint)) continue;
    absl::StatusOr<MmaAtom> atom = FindMmaAtom(name);
    if (atom.ok() && atom->family == family) out.push_back(name);
  }
  return out;
}

// CuTe's UMMA rule: the layouts depend only on M, N, K and the CTA group.
TEST(ExtraAtomsTest, EveryNewUmmaAtomFollowsTheUmmaRule) {
  int64_t checked = 0;
  const char* const families[][2] = {{"sm100_umma_sparse", "_SPARSE<"},
                                     {"sm100_umma_complex", "INTERLEAVED"},
                                     {"sm103_umma", "SM103_"}};
  for (const auto& [family, hint] : families) {
    std::vector<std::string> names = Names(family, hint);
    ASSERT_FALSE(names.empty()) << family;
    for (const std::string& name : names) {
      SCOPED_TRACE(name);
      MmaAtom atom = *FindMmaAtom(name);
      const int64_t m = atom.shape_mnk[0].value();
      const int64_t n = atom.shape_mnk[1].value();
      const int64_t k = atom.shape_mnk[2].value();
      const bool two = absl::StrContains(name, "2x1SM");
      const int64_t t = two ? 2 : 1, mm = m / t, nn = n / t;
      EXPECT_EQ(StaticText(atom.thr_id), two ? "_2:_1" : "_1:_0");
      EXPECT_EQ(StaticText(atom.layout_a_tv),
                absl::StrCat("(_", t, ",(_", mm, ",_", k, ")):(_", two ? mm : 0,
                             ",(_1,_", m, "))"));
      EXPECT_EQ(StaticText(atom.layout_b_tv),
                absl::StrCat("(_", t, ",(_", nn, ",_", k, ")):(_", two ? nn : 0,
                             ",(_1,_", n, "))"));
      EXPECT_EQ(StaticText(atom.layout_c_tv),
                absl::StrCat("(_", t, ",(_", mm, ",_", n, ")):(_", two ? mm : 0,
                             ",(_1,_", m, "))"));
      ++checked;
    }
  }
  EXPECT_GT(checked, 15000);
}

// The sparse GMMA atoms: K twice the dense K of the type, A and B the
// ABLayout of the shared-memory descriptors (SS) or CuTe's ALayout_64xK in
// registers (RS), C the dense CLayout_64xN.
TEST(ExtraAtomsTest, EverySparseGmmaAtomFollowsTheGmmaRule) {
  const std::vector<std::string> names =
      Names("sm90_gmma_sparse", "GMMA::SPARSE");
  ASSERT_EQ(names.size(), 416u);
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    MmaAtom atom = *FindMmaAtom(name);
    const int64_t n = atom.shape_mnk[1].value();
    const int64_t k = atom.shape_mnk[2].value();
    EXPECT_EQ(atom.shape_mnk[0].value(), 64);
    EXPECT_TRUE(k == 16 || k == 32 || k == 64) << k;
    EXPECT_EQ(StaticText(atom.thr_id), "_128:_1");
    EXPECT_EQ(StaticText(atom.layout_b_tv),
              absl::StrCat("(_128,(_", n, ",_", k, ")):(_0,(_1,_", n, "))"));
    EXPECT_EQ(StaticText(atom.layout_c_tv),
              absl::StrCat("((_4,_8,_4),(_2,_2,_", n / 8,
                           ")):((_128,_1,_16),(_64,_8,_512))"));
    if (absl::StrContains(name, "_SS")) {
      EXPECT_EQ(StaticText(atom.layout_a_tv),
                absl::StrCat("(_128,(_64,_", k, ")):(_0,(_1,_64))"));
    } else {
      const int64_t v = k / 8;  // values per thread along K per 8 columns
      EXPECT_EQ(StaticText(atom.layout_a_tv),
                absl::StrCat("((_4,_8,_4),(_", v, ",_2,_2)):((_", 64 * v,
                             ",_1,_16),(_64,_8,_", 256 * v, "))"));
    }
  }
}

// ldmatrix.m16n16.trans.b8 (the CuTe DSL's LdMatrix16x16x8bOp): each thread
// gets 8-bit values of a 16x16 byte matrix (x1) or two (x2), every byte
// once.
TEST(ExtraAtomsTest, LdsmM16N16DeliversEveryByteOnce) {
  for (const char* op :
       {"SM100_U8x8_LDSM_T_M16N16", "SM100_U8x16_LDSM_T_M16N16"}) {
    SCOPED_TRACE(op);
    absl::StatusOr<CopyAtom> atom =
        FindCopyAtom(absl::StrCat("Copy_Atom<", op, ", uint8_t>"));
    ASSERT_TRUE(atom.ok()) << atom.status();
    const Layout& dst = atom->val_dst;
    std::set<int64_t> seen;
    for (int64_t i = 0; i < dst.size(); ++i) seen.insert(dst(i));
    EXPECT_EQ(static_cast<int64_t>(seen.size()), dst.size());
    EXPECT_EQ(*seen.begin(), 0);
    EXPECT_EQ(*seen.rbegin(), dst.size() - 1);
    EXPECT_EQ(dst.size(), absl::StrContains(op, "x16") ? 512 : 256);
  }
}

}  // namespace
}  // namespace hlolayout::cute

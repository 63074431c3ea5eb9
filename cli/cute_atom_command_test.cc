// Tests of `hlolayout cute atom|tiled-mma|tiled-copy`: every answer CuTe gave
// in cute/atom/testdata/*.tsv (reference answers and the ones generated with
// CuTe for this project), through the CLI's --json output. A field passes
// with CuTe's exact text, or else with the same function (same (thread,
// value) modes and the same value at every index); the counts are printed
// and at least 95% must be exact.
#include <cstdint>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "hlolayout/cute/layout.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/testing/run_cli.h"
#include "hlolayout/testing/test_data.h"

namespace hlolayout::cli {
namespace {

std::vector<std::vector<std::string>> ReadTsv(const std::string& name) {
  std::ifstream in(TestDataPath("cute/atom/testdata/" + name));
  EXPECT_TRUE(in.good()) << name;
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    rows.push_back(absl::StrSplit(line, '\t'));
  }
  return rows;
}

// The string value of "key" in a flat JSON object of strings.
std::string JsonField(const std::string& json, const std::string& key) {
  const std::string marker = absl::StrCat("\"", key, "\": \"");
  const size_t at = json.find(marker);
  if (at == std::string::npos) return "<missing>";
  const size_t start = at + marker.size();
  return json.substr(start, json.find('"', start) - start);
}

enum class Match { kExact, kFunction, kWrong };

// Same (thread, value) mode sizes and the same value at every index.
bool SameFunction(const std::string& got, const std::string& want) {
  absl::StatusOr<cute::Layout> a = cute::ParseLayout(got);
  absl::StatusOr<cute::Layout> b = cute::ParseLayout(want);
  if (!a.ok() || !b.ok() || a->size() != b->size() || a->rank() != b->rank()) {
    return false;
  }
  for (int i = 0; i < a->rank() && a->shape().is_tuple(); ++i) {
    if (a->mode(i).size() != b->mode(i).size()) return false;
  }
  if (a->size() > (int64_t{1} << 22)) return false;
  for (int64_t i = 0; i < a->size(); ++i) {
    if ((*a)(i) != (*b)(i)) return false;
  }
  return true;
}

struct Tally {
  int exact = 0, function = 0, wrong = 0;
  void Add(Match m) {
    (m == Match::kExact ? exact : m == Match::kFunction ? function : wrong)++;
  }
};

Match Compare(const std::string& got, const std::string& want, bool layout) {
  if (got == want) return Match::kExact;
  if (layout && SameFunction(got, want)) return Match::kFunction;
  return Match::kWrong;
}

// Runs every row; `args` builds the command line, `fields` names the JSON
// keys checked against columns first_field, first_field+1, ...
template <typename ArgsFn>
Tally RunFile(const std::string& file, ArgsFn args,
              const std::vector<std::string>& fields, size_t first_field) {
  Tally tally;
  for (const std::vector<std::string>& row : ReadTsv(file)) {
    const std::vector<std::string> cmd = args(row);
    CliResult r = RunCli(cmd);
    if (r.status != 0) {
      ADD_FAILURE() << file << ": " << absl::StrJoin(cmd, " ") << "\n" << r.err;
      tally.wrong += static_cast<int>(fields.size());
      continue;
    }
    for (size_t f = 0; f < fields.size(); ++f) {
      const std::string got = JsonField(r.out, fields[f]);
      const std::string& want = row[first_field + f];
      const bool layout = fields[f] != "PermutationMNK" &&
                          fields[f] != "TileShape_MNK" &&
                          fields[f] != "Shape_MNK" && fields[f] != "Tiler_MN";
      const Match m = Compare(got, want, layout);
      tally.Add(m);
      if (m == Match::kWrong) {
        ADD_FAILURE() << file << ": " << absl::StrJoin(cmd, " ") << "\n  "
                      << fields[f] << " got  " << got << "\n  " << fields[f]
                      << " want " << want;
      }
    }
  }
  std::cout << file << ": " << tally.exact << " exact, " << tally.function
            << " same function, " << tally.wrong << " failing\n";
  const int total = tally.exact + tally.function + tally.wrong;
  EXPECT_GE(tally.exact * 100, 95 * total) << file;
  return tally;
}

std::vector<std::string> MmaAtomArgs(const std::vector<std::string>& row) {
  return {"cute", "atom", row[0], "--json"};
}

std::vector<std::string> TiledMmaArgs(const std::vector<std::string>& row) {
  std::vector<std::string> a = {"cute", "tiled-mma", row[0], "--json"};
  if (row[1] != "-") a.insert(a.end(), {"--atom-layout", row[1]});
  if (row[2] != "-") a.insert(a.end(), {"--permutation", row[2]});
  return a;
}

std::vector<std::string> TiledCopyArgs(const std::vector<std::string>& row) {
  std::vector<std::string> a = {"cute", "tiled-copy", row[0], "--json"};
  if (row[1] == "thr-val") {
    a.insert(a.end(), {"--thr", row[2], "--val", row[3]});
  } else {
    a.insert(a.end(), {"--operand", row[1], "--mma", row[4]});
    if (row[5] != "-") a.insert(a.end(), {"--atom-layout", row[5]});
    if (row[6] != "-") a.insert(a.end(), {"--permutation", row[6]});
  }
  return a;
}

const std::vector<std::string> kMmaAtomFields = {
    "ThrID", "Shape_MNK", "LayoutA_TV", "LayoutB_TV", "LayoutC_TV"};
const std::vector<std::string> kTiledMmaFields = {
    "ThrLayoutVMNK", "PermutationMNK", "TileShape_MNK",
    "LayoutA_TV",    "LayoutB_TV",     "LayoutC_TV"};
const std::vector<std::string> kCopyAtomFields = {
    "ThrID",     "ValLayoutSrc", "ValLayoutDst", "ValLayoutRef",
    "SrcLayout", "DstLayout",    "RefLayout"};
const std::vector<std::string> kTiledCopyFields = {"Tiler_MN", "TiledLayout_TV",
                                                   "LayoutS_TV", "LayoutD_TV"};

TEST(CuteAtomCommandTest, ReferenceMmaAtoms) {
  RunFile("mma_atoms_reference.tsv", MmaAtomArgs, kMmaAtomFields, 1);
}

TEST(CuteAtomCommandTest, ReferenceTiledMma) {
  RunFile("tiled_mma_reference.tsv", TiledMmaArgs, kTiledMmaFields, 3);
}

TEST(CuteAtomCommandTest, ReferenceCopyAtoms) {
  RunFile("copy_atoms_reference.tsv", MmaAtomArgs, kCopyAtomFields, 1);
}

TEST(CuteAtomCommandTest, ReferenceTiledCopy) {
  RunFile("tiled_copy_reference.tsv", TiledCopyArgs, kTiledCopyFields, 7);
}

TEST(CuteAtomCommandTest, GeneratedTiledMma) {
  RunFile("tiled_mma_generated.tsv", TiledMmaArgs, kTiledMmaFields, 3);
}

TEST(CuteAtomCommandTest, GeneratedTiledCopy) {
  RunFile("tiled_copy_generated.tsv", TiledCopyArgs, kTiledCopyFields, 7);
}

TEST(CuteAtomCommandTest, GeneratedCopyAtoms) {
  RunFile("copy_atoms_generated.tsv", MmaAtomArgs, kCopyAtomFields, 1);
}

TEST(CuteAtomCommandTest, GeneratedMmaAtoms) {
  RunFile("mma_atoms_generated.tsv", MmaAtomArgs, kMmaAtomFields, 1);
}

TEST(CuteAtomCommandTest, ConflictsOfSwizzledLayouts) {
  // Reading a column of 16-byte chunks of a 128-byte-row K-major tile: all
  // eight rows in one bank group unswizzled, spread by CuTe's SW128 atom
  // (element form and its byte-address form alike).
  const std::vector<std::string> tail = {"--tv",     "(8,8):(1,8)", "--tile",
                                         "8,64",     "--bits",      "16",
                                         "--vector", "8",           "--json"};
  auto run = [&](const std::string& smem) {
    std::vector<std::string> a = {"cute", "conflicts", smem};
    a.insert(a.end(), tail.begin(), tail.end());
    CliResult r = RunCli(a);
    EXPECT_EQ(r.status, 0) << r.err;
    return r.out;
  };
  EXPECT_NE(run("(8,64):(64,1)").find(R"({"wavefronts": 8, "ideal": 1)"),
            std::string::npos);
  EXPECT_NE(run("Sw<3,3,3> o _0 o (8,64):(64,1)")
                .find(R"({"wavefronts": 1, "ideal": 1)"),
            std::string::npos);
  EXPECT_NE(run("Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)")
                .find(R"({"wavefronts": 1, "ideal": 1)"),
            std::string::npos);
}

TEST(CuteAtomCommandTest, ConflictsOfLdmatrix) {
  CliResult r =
      RunCli({"cute", "conflicts", "(32,16):(16,1)",
              "Copy_Atom<SM75_U32x4_LDSM_N, half_t>", "--operand", "A", "--mma",
              "SM80_16x8x16_F16F16F16F16_TN", "--atom-layout", "(2,1,1)"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("threads 0,4 in banks 0-3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("total: 16 wavefronts for an ideal of 8 (2.00x)"),
            std::string::npos)
      << r.out;
}

// SMEM by name (issue 35): a GMMA atom tiled to the copy's tile, Triton's
// #ttg.nvmma_shared on the tile's shape, and the same swizzle written as
// CuTe layout text count alike; the row-major tile without a swizzle
// conflicts 8-way.
TEST(CuteAtomCommandTest, ConflictsOfNamedSharedMemory) {
  auto run = [](const std::string& smem) {
    CliResult r = RunCli(
        {"cute", "conflicts", smem, "Copy_Atom<SM75_U32x4_LDSM_N, half_t>",
         "--operand", "A", "--mma", "SM80_16x8x16_F16F16F16F16_TN",
         "--atom-layout", "(2,1,1)", "--permutation", "<_32,_32,_64>"});
    EXPECT_EQ(r.status, 0) << smem << "\n" << r.err;
    return r.out;
  };
  const std::string atom = run("GMMA::Layout_K_SW128_Atom<half_t>");
  EXPECT_NE(atom.find("on shared memory GMMA::Layout_K_SW128_Atom<half_t> "
                      "tiled to (_32,_64): Sw<3,4,3> o smem_ptr[16b](unset) o "
                      "((_8,_4),(_64,_1)):((_64,_512),(_1,_0))\n"),
            std::string::npos)
      << atom;
  const std::string total =
      "total: 32 wavefronts for an ideal of 32 (1.00x) over 8 instruction(s) "
      "of 2 warp(s)\n";
  EXPECT_NE(atom.find(total), std::string::npos) << atom;
  const std::string nvmma =
      run("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, "
          "elementBitWidth = 16}>");
  EXPECT_NE(nvmma.find("}> on 32x64\n"), std::string::npos) << nvmma;
  EXPECT_NE(nvmma.find(total), std::string::npos) << nvmma;
  EXPECT_NE(run("Sw<3,4,3> o smem_ptr[16b](unset) o "
                "((_8,_4),(_64,_1)):((_64,_512),(_1,_0))")
                .find(total),
            std::string::npos);
  EXPECT_NE(run("(32,64):(64,1)").find("(8.00x)"), std::string::npos);
  // --tv takes the element width from the name.
  CliResult tv =
      RunCli({"cute", "conflicts", "GMMA::Layout_K_SW128_Atom<float>", "--tv",
              "(32,1):(1,0)", "--tile", "32,32", "--json"});
  ASSERT_EQ(tv.status, 0) << tv.err;
  EXPECT_NE(tv.out.find("\"value_bits\": 32"), std::string::npos) << tv.out;
  // Refusals.
  CliResult r =
      RunCli({"cute", "conflicts", "GMMA::Layout_K_SW128_Atom<float>",
              "Copy_Atom<SM75_U32x4_LDSM_N, half_t>", "--operand", "A", "--mma",
              "SM80_16x8x16_F16F16F16F16_TN", "--permutation", "<_16,_8,_64>"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "hlolayout cute conflicts: SMEM holds 32-bit elements but the "
            "access moves 16-bit values\n");
  r = RunCli({"cute", "conflicts", "(32,32):(32,1)", "--tv", "(32,1):(1,0)",
              "--tile", "32,32"});
  EXPECT_EQ(r.status, 2);
}

TEST(CuteAtomCommandTest, Errors) {
  struct Case {
    std::vector<std::string> args;
    int status;
    std::string message;
  };
  const Case cases[] = {
      {{"cute", "atom", "SM80_16x8x16_F32F16F16F32_NT"},
       1,
       "unknown MMA atom or copy operation 'SM80_16x8x16_F32F16F16F32_NT'; "
       "nearest: SM80_16x8x16_F32F16F16F32_TN"},
      {{"cute", "atom", "SM75_U32x3_LDSM_N"},
       1,
       "unknown MMA atom or copy operation 'SM75_U32x3_LDSM_N'; nearest: "
       "SM75_U32x1_LDSM_N, SM75_U32x2_LDSM_N, SM75_U32x4_LDSM_N"},
      {{"cute", "atom",
        "SM90_64x12x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>"},
       1,
       "(family sm90_gmma or sm90_gmma_ext): N = 12 is not one of "
       "8|16|24|32|40|48|56|64|72|80|88|96|104|112|120|128|136|144|152|160|"
       "168|176|184|192|200|208|216|224|232|240|248|256; nearest: "
       "SM90_64x8x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>, "
       "SM90_64x16x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>, "},
      {{"cute", "atom", "SM100_TMEM_LOAD_16dp256b3x"},
       1,
       "unknown copy operation 'SM100_TMEM_LOAD_16dp256b3x' (family "
       "sm100_tmem): X = 3 is not one of 1|2|4|8|16|32"},
      {{"cute", "atom", "SM80_16x8x128_S32U1U1S32_TN_XORPOPC"},
       1,
       "defined by CuTe but unusable"},
      {{"cute", "atom", "SM80_16x8x16<"}, 1, "1:14: expected '>'"},
      {{"cute", "atom", "Copy_Atom<SM75_U32x4_LDSM_N, double>"},
       1,
       "CopyOperation is not valid for Dst of ValType"},
      {{"cute", "atom", "Copy_Atom<SM75_U32x4_LDSM_N, half_float>"},
       1,
       "unknown value type 'half_float'"},
      {{"cute", "atom", "Copy_Atom<SM75_U32x4_LDSM_N>"},
       1,
       "needs two arguments"},
      {{"cute", "tiled-mma", "SM80_16x8x16_F16F16F16F16_TN", "--atom-layout",
        "(2,2"},
       1,
       "--atom-layout: 1:5: expected ',' or ')'"},
      {{"cute", "tiled-mma", "SM80_16x8x16_F16F16F16F16_TN", "--permutation",
        "<_32,(_8,_2):(_1,_16,_8)>"},
       1,
       "--permutation: 1:14: stride is not congruent with the shape"},
      {{"cute", "tiled-mma", "SM80_16x8x16_F16F16F16F16_TN", "--atom-layout",
        "(2,2,1,2)"},
       1,
       "has 4 modes; at most 3"},
      {{"cute", "tiled-mma", "SM80_16x8x16_F16F16F16F16_TN", "--thread", "200"},
       1,
       "thread 200 is outside the tiled MMA's 32 threads"},
      {{"cute", "tiled-copy", "Copy_Atom<DefaultCopy, float>"},
       2,
       "give either --thr and --val, or --operand and --mma"},
      {{"cute", "tiled-copy", "Copy_Atom<SM75_U32x4_LDSM_N, half_t>", "--thr",
        "(4,4):(4,1)", "--val", "(1,8)"},
       1,
       "TiledCopy uses too few thrs for selected CopyAtom"},
      {{"cute", "conflicts", "(4,4):(4,1)", "--tv", "(32,1):(1,0)", "--tile",
        "32,32", "--bits", "32"},
       1,
       "fewer than the 32x32 tile"},
      {{"cute", "atoms", "--family", "sm42"}, 1, "unknown family 'sm42'"},
  };
  for (const Case& c : cases) {
    CliResult r = RunCli(c.args);
    EXPECT_EQ(r.status, c.status) << absl::StrJoin(c.args, " ") << "\n"
                                  << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos)
        << absl::StrJoin(c.args, " ") << "\n"
        << r.err;
  }
}

TEST(CuteAtomCommandTest, ThreadSlices) {
  CliResult r = RunCli({"cute", "tiled-mma", "SM80_16x8x8_F16F16F16F16_TN",
                        "--thread", "5", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  // Thread 5 = lane (1, row 1): A values (m,k) in LayoutA_TV order.
  EXPECT_EQ(
      r.out,
      R"({"thread": 5, "A": [[1, 2], [1, 3], [9, 2], [9, 3]], "B": [[1, 2], [1, 3]], "C": [[1, 2], [1, 3], [9, 2], [9, 3]]})"
      "\n");
}

// Every family by default, grouped by kind and family, each domain whole.
TEST(CuteAtomCommandTest, ListsEveryFamilyGrouped) {
  CliResult r = RunCli({"cute", "atoms"});
  ASSERT_EQ(r.status, 0) << r.err;
  // Issue 37 added 4 MMA families (sparse GMMA, sparse UMMA, complex TF32
  // UMMA, SM103) and SM89's m16n8k16 rows, and 2 copy operations.
  const size_t mma = r.out.find("MMA atoms: 17 families, 6,836,468 names");
  const size_t copy = r.out.find("copy operations: 8 families, 1,671 names");
  ASSERT_NE(mma, std::string::npos) << r.out.substr(0, 200);
  ASSERT_NE(copy, std::string::npos);
  EXPECT_LT(mma, copy);
  EXPECT_NE(r.out.find("\nsm90_gmma_ext: 1,024 names\n"), std::string::npos);
  EXPECT_NE(r.out.find("  SM90_64x{N}x16_{T}_SS<{MA},{MB}{SC}>  (96 names)\n"
                       "    N       8|16|32|64|96|128|192|256\n"
                       "    T       F16F16F16|F32F16F16|F32BF16BF16\n"
                       "    MA, MB  GMMA::Major::K|GMMA::Major::MN\n"),
            std::string::npos);
  EXPECT_NE(r.out.find("    D, A, B, C  bool|char|int8_t|"), std::string::npos);
  EXPECT_NE(r.out.find("SM100_TMEM_LOAD_16dp256b{X}x{H}"), std::string::npos);
  EXPECT_EQ(r.out.find("..."), std::string::npos);
  // The filters: a kind, a family (sm75 names both kinds), both.
  r = RunCli({"cute", "atoms", "--kind", "mma"});
  EXPECT_EQ(r.out.find("copy operations"), std::string::npos);
  r = RunCli({"cute", "atoms", "--family", "sm75"});
  EXPECT_NE(r.out.find("MMA atoms: 1 family, 3 names"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("copy operations: 1 family, 7 names"), std::string::npos)
      << r.out;
  r = RunCli({"cute", "atoms", "--family", "sm75", "--kind", "copy"});
  EXPECT_EQ(r.out.find("MMA atoms"), std::string::npos);
  r = RunCli({"cute", "atoms", "--kind", "copy", "--json"});
  EXPECT_EQ(r.out.find("\"kind\": \"mma\""), std::string::npos);
  EXPECT_NE(r.out.find("{\"kind\": \"copy\", \"family\": \"universal\", "
                       "\"name_pattern\": \"UniversalCopy<{S}>\", \"params\": "
                       "[{\"name\": \"S\", \"domain\": \"bool|char|"),
            std::string::npos)
      << r.out.substr(0, 300);
  r = RunCli({"cute", "atoms", "--family", "sm9"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("unknown family 'sm9'; did you mean 'sm89'?; "
                       "families: universal, sm61, "),
            std::string::npos)
      << r.err;
  r = RunCli({"cute", "atoms", "--kind", "fma"});
  EXPECT_EQ(r.status, 2);
}

TEST(CuteAtomCommandTest, ListsFamilies) {
  CliResult r = RunCli({"cute", "atoms", "--family", "sm90_gmma", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("SM90_64x{N}x16_{T}_RS<GMMA::Major::K,{MB}{SC}>"),
            std::string::npos);
  r = RunCli({"cute", "atoms", "--copy"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("SM100_TMEM_LOAD_16dp256b{X}x{H}"), std::string::npos);
}

}  // namespace
}  // namespace hlolayout::cli

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
#include "hlolayout/cli/run_for_test.h"
#include "hlolayout/cute/layout.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/util/test_data.h"

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

TEST(CuteAtomCommandTest, GeneratedCopyAtoms) {
  RunFile("copy_atoms_generated.tsv", MmaAtomArgs, kCopyAtomFields, 1);
}

TEST(CuteAtomCommandTest, GeneratedMmaAtoms) {
  RunFile("mma_atoms_generated.tsv", MmaAtomArgs, kMmaAtomFields, 1);
}

}  // namespace
}  // namespace hlolayout::cli

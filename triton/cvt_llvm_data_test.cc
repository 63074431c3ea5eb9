// Every row of triton/testdata/cvt_llvm_costs.jsonl: convert_layouts that
// Triton 3.6.0 and 3.9.0 compiled for each target and element width, with
// the kind, the shared memory and each thread's shared-memory stores and
// loads read off the LLVM IR Triton emitted (see the README there). The
// library must give the same, with the same Triton version.
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/triton_test_data.h"
#include "hlolayout/triton/cvt_cost.h"
#include "hlolayout/triton/cvt_target.h"
#include "hlolayout/triton/named_layouts.h"
#include "hlolayout/triton/ttgir_parser.h"

namespace hlolayout::triton {
namespace {

std::vector<SmemInstr> Instrs(const JsonValue& rows) {
  std::vector<SmemInstr> out;
  for (const JsonValue& r : rows.array) {
    out.push_back({r.Find("instr")->string,
                   static_cast<int>(r.Find("bits")->integer),
                   r.Find("count")->integer});
  }
  return out;
}

std::string Text(const std::vector<SmemInstr>& instrs) {
  std::vector<std::string> parts;
  for (const SmemInstr& i : instrs) {
    parts.push_back(absl::StrCat(i.count, "x", i.instr, ".", i.bits));
  }
  return absl::StrJoin(parts, " ");
}

TEST(CvtLlvmDataTest, EveryRowAgrees) {
  const std::vector<JsonValue> rows =
      ReadJsonLines("triton/testdata/cvt_llvm_costs.jsonl");
  ASSERT_GE(rows.size(), 300u);
  std::map<std::tuple<std::string, std::string, int64_t>, int> per_combo;
  std::map<std::string, int> kinds;
  for (const JsonValue& row : rows) {
    const std::string version = row.Find("triton")->string;
    const std::string target_name = row.Find("target")->string;
    const int bits = static_cast<int>(row.Find("bits")->integer);
    const std::vector<int64_t> shape = Ints(*row.Find("shape"));
    const std::string where = absl::StrCat(
        "Triton ", version, " ", target_name, " ", row.Find("ety")->string,
        " [", absl::StrJoin(shape, "x"), "] ", row.Find("src")->string, " -> ",
        row.Find("dst")->string);
    absl::StatusOr<CvtTarget> target =
        CvtTargetNamed(target_name, *TritonVersionNamed(version));
    ASSERT_TRUE(target.ok()) << target.status();
    absl::StatusOr<Layout> src = ParseLayout(row.Find("src")->string);
    absl::StatusOr<Layout> dst = ParseLayout(row.Find("dst")->string);
    ASSERT_TRUE(src.ok() && dst.ok()) << where;
    absl::StatusOr<CvtCost> cost =
        ConvertLayoutCost(*ToLinearLayout(*src, shape),
                          *ToLinearLayout(*dst, shape), bits, *target);
    ASSERT_TRUE(cost.ok()) << where << ": " << cost.status();
    EXPECT_EQ(CvtKindName(cost->kind), row.Find("kind")->string) << where;
    EXPECT_EQ(cost->scratch_bytes, row.Find("scratch_bytes")->integer) << where;
    const std::vector<SmemInstr> stores = Instrs(*row.Find("stores"));
    const std::vector<SmemInstr> loads = Instrs(*row.Find("loads"));
    if (cost->smem.has_value()) {
      EXPECT_EQ(Text(cost->smem->stores), Text(stores)) << where;
      EXPECT_EQ(Text(cost->smem->loads), Text(loads)) << where;
    } else {
      EXPECT_TRUE(stores.empty() && loads.empty()) << where;
    }
    ++per_combo[{version, target_name, bits}];
    ++kinds[row.Find("kind")->string];
  }
  // Two versions x five targets x four widths, each with every kind.
  EXPECT_EQ(per_combo.size(), 40u);
  EXPECT_GT(kinds["shared_memory"], 150);
  EXPECT_GT(kinds["warp_shuffle"], 50);
  EXPECT_GT(kinds["registers"], 10);
}

}  // namespace
}  // namespace hlolayout::triton

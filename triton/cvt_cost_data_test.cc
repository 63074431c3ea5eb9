// Every case of triton/testdata/cvt_costs.jsonl: 300 convert_layouts between
// blocked layouts that Triton 3.6.0 compiled and ran on an H100. The kind
// (registers, warp shuffle, shared memory) and the shared memory allocated
// must both agree.
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/triton_test_data.h"
#include "hlolayout/triton/cvt_cost.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/named_layouts.h"
#include "hlolayout/triton/ttgir_parser.h"

namespace hlolayout::triton {
namespace {

TEST(CvtCostDataTest, EveryKernelAgrees) {
  const std::vector<JsonValue> rows =
      ReadJsonLines("triton/testdata/cvt_costs.jsonl");
  ASSERT_EQ(rows.size(), 300u);
  int matched = 0;
  std::map<std::string, int> kinds;
  for (const JsonValue& row : rows) {
    const std::vector<int64_t> shape = Ints(*row.Find("shape"));
    LinearLayout src =
        *ToLinearLayout(*ParseLayout(row.Find("src")->string), shape);
    LinearLayout dst =
        *ToLinearLayout(*ParseLayout(row.Find("dst")->string), shape);
    EXPECT_EQ(src.InDimSize(2), row.Find("num_warps")->integer);
    absl::StatusOr<CvtCost> cost = ConvertLayoutCost(
        src, dst, 32, *CvtTargetNamed("cuda:90", TritonVersion::k3_6_0));
    ASSERT_TRUE(cost.ok()) << cost.status();
    const std::string kind(CvtKindName(cost->kind));
    const std::string want = row.Find("kind")->string;
    const int64_t want_bytes = row.Find("scratch_bytes")->integer;
    if (kind == want && cost->scratch_bytes == want_bytes) {
      ++matched;
      ++kinds[kind];
    } else {
      ADD_FAILURE() << "case " << row.Find("case")->integer << " ["
                    << absl::StrJoin(shape, "x") << "] "
                    << row.Find("src")->string << " -> "
                    << row.Find("dst")->string << ": got " << kind << " "
                    << cost->scratch_bytes << " bytes, Triton " << want << " "
                    << want_bytes << " bytes";
    }
  }
  EXPECT_EQ(matched, 300);
  EXPECT_EQ(kinds["registers"], 34);
  EXPECT_EQ(kinds["warp_shuffle"], 42);
  EXPECT_EQ(kinds["shared_memory"], 224);
}

}  // namespace
}  // namespace hlolayout::triton

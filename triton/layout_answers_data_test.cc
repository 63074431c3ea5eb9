// Triton's own answers for every layout kind (triton/testdata/
// layout_answers_*.jsonl, frozen from the layout harness and from Triton
// 3.6.0's answers for the AMD, tensor memory and padded kinds; README.md
// there): each attribute read, checked where a type of a module uses it
// (LayoutForUse) and converted; the bases of the in-dims Triton shows and
// Triton's printing of the attribute must match, a refusal must be a
// refusal.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/triton_test_data.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/named_layouts.h"
#include "hlolayout/triton/ttgir_parser.h"
#include "hlolayout/triton/ttgir_printer.h"
#include "hlolayout/triton/type_verifier.h"

namespace hlolayout::triton {
namespace {

std::string Check(const JsonValue& row) {
  absl::StatusOr<Layout> layout = ParseLayout(row.Find("layout")->string);
  const JsonValue* refused = row.Find("refused");
  if (!layout.ok()) {
    if (refused != nullptr) return "";
    return absl::StrCat("parse: ", layout.status().message());
  }
  LayoutUse use;
  use.shape = Ints(*row.Find("shape"));
  const int bits = ElementBits(row.Find("element")->string);
  use.element_bits = bits == 0 ? 32 : bits;
  use.memdesc = row.Find("memdesc")->boolean;
  use.threads_per_warp =
      static_cast<int>(row.Find("threads_per_warp")->integer);
  use.num_warps = static_cast<int>(row.Find("num_warps")->integer);
  use.num_ctas = static_cast<int>(row.Find("num_ctas")->integer);
  absl::StatusOr<LinearLayout> l = LayoutForUse(*layout, use);
  if (refused != nullptr) {
    return l.ok() ? absl::StrCat("accepted what Triton refused (",
                                 refused->string, ")")
                  : "";
  }
  if (!l.ok()) return absl::StrCat("refused: ", l.status().message());
  const JsonValue& want = *row.Find("want");
  if (PrintLayout(*layout) != want.Find("printed")->string) {
    return absl::StrCat("printed as ", PrintLayout(*layout), ", Triton ",
                        want.Find("printed")->string);
  }
  const JsonValue* bases = want.Find("bases");
  if (bases == nullptr) return "";  // Triton's Python could not give them
  for (const auto& [name, want_bases] : bases->object) {
    const int d = l->InDimIndex(name);
    const int n = d < 0 ? 0 : l->InDimSizeLog2(d);
    if (n != static_cast<int>(want_bases.array.size())) {
      return absl::StrCat(name, ": ", n, " bases, Triton ",
                          want_bases.array.size(), l->ToString());
    }
    for (int i = 0; i < n; ++i) {
      auto b = l->Basis(d, i);
      if (std::vector<int64_t>(b.begin(), b.end()) !=
          Ints(want_bases.array[i])) {
        return absl::StrCat(name, " basis ", i, " differs:", l->ToString());
      }
    }
  }
  return "";
}

void CheckFile(const std::string& path, size_t want_rows) {
  const std::vector<JsonValue> rows = ReadJsonLines(path);
  EXPECT_EQ(rows.size(), want_rows);
  size_t matched = 0, refusals = 0;
  for (const JsonValue& row : rows) {
    const std::string diff = Check(row);
    refusals += row.Find("refused") != nullptr;
    if (diff.empty()) {
      ++matched;
    } else {
      ADD_FAILURE() << row.Find("family")->string << " "
                    << row.Find("layout")->string << " at ["
                    << absl::StrJoin(Ints(*row.Find("shape")), ", ")
                    << "]: " << diff;
    }
  }
  EXPECT_EQ(matched, rows.size());
  // Both kinds of answer are in every file.
  EXPECT_GT(refusals, 20u);
  EXPECT_GT(rows.size() - refusals, 300u);
}

TEST(LayoutAnswersDataTest, Triton39) {
  CheckFile("triton/testdata/layout_answers_3.9.0.jsonl", 556);
}

TEST(LayoutAnswersDataTest, Triton36) {
  CheckFile("triton/testdata/layout_answers_3.6.0.jsonl", 404);
}

TEST(LayoutAnswersDataTest, Triton36AmdTensorMemoryAndPadded) {
  CheckFile("triton/testdata/layout_answers_more_3.6.0.jsonl", 749);
}

}  // namespace
}  // namespace hlolayout::triton

// Every case of triton/testdata/named_layouts.jsonl (1,000 conversions
// Triton 3.6.0 computed with Gluon's to_linear_layout): the layout, given as
// TTGIR text, converted at the given shape; bases per in-dim, the printed
// form and the distributed view, or Triton's refusal. Each layout also goes
// through the printer and back.
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
#include "hlolayout/triton/views.h"

namespace hlolayout::triton {
namespace {

std::string Check(const JsonValue& row) {
  const std::string text = row.Find("layout")->string;
  absl::StatusOr<Layout> layout = ParseLayout(text);
  if (!layout.ok()) {
    // Today's Triton refuses some layouts as it reads them (its attribute
    // verifiers), which Triton 3.6.0 refused only when converting them: a
    // CGA that is not a permutation matrix once its broadcasts are removed.
    const JsonValue* refused = row.Find("refused");
    const std::string m(layout.status().message());
    if (refused != nullptr &&
        (m.find(refused->string) != std::string::npos ||
         m.find("the CGA encoding must be a permutation matrix") !=
             std::string::npos)) {
      return "";
    }
    return absl::StrCat("parse: ", m);
  }
  if (PrintLayout(*layout) != text) {
    return absl::StrCat("printed back as ", PrintLayout(*layout));
  }
  const std::vector<int64_t> shape = Ints(*row.Find("shape"));
  absl::StatusOr<LinearLayout> l = ToLinearLayout(*layout, shape);
  const JsonValue* refused = row.Find("refused");
  if (!l.ok()) {
    if (refused == nullptr)
      return absl::StrCat("refused: ", l.status().message());
    if (std::string(l.status().message()).find(refused->string) ==
        std::string::npos) {
      return absl::StrCat("refused with \"", l.status().message(),
                          "\", Triton: \"", refused->string, "\"");
    }
    return "";
  }
  if (refused != nullptr) return "accepted what Triton refused";
  const JsonValue& want = *row.Find("want");
  const char* kIns[] = {"register", "lane", "warp", "block"};
  if (l->num_in_dims() != 4) return "in-dims";
  for (int d = 0; d < 4; ++d) {
    if (l->in_dim_name(d) != kIns[d]) return "in-dim names";
    const JsonValue& bases = *want.Find(kIns[d]);
    if (static_cast<int>(bases.array.size()) != l->InDimSizeLog2(d)) {
      return absl::StrCat(kIns[d], " bases: got", l->ToString());
    }
    for (int i = 0; i < l->InDimSizeLog2(d); ++i) {
      auto b = l->Basis(d, i);
      if (std::vector<int64_t>(b.begin(), b.end()) != Ints(bases.array[i])) {
        return absl::StrCat(kIns[d], " bases: got", l->ToString());
      }
    }
  }
  if (l->ToString() != want.Find("str")->string) return "string";
  if (const JsonValue* v = want.Find("view")) {
    absl::StatusOr<std::string> s = DistributedView(*l, false);
    if (!s.ok() || *s != v->string) return "distributed view";
  }
  return "";
}

TEST(NamedLayoutsDataTest, EveryRowMatchesTriton) {
  const std::vector<JsonValue> rows =
      ReadJsonLines("triton/testdata/named_layouts.jsonl");
  ASSERT_EQ(rows.size(), 1000u);
  int matched = 0;
  for (const JsonValue& row : rows) {
    const std::string diff = Check(row);
    if (diff.empty()) {
      ++matched;
    } else {
      ADD_FAILURE() << "case " << row.Find("case")->integer << " ("
                    << row.Find("kind")->string << ", "
                    << row.Find("layout")->string << " at ["
                    << absl::StrJoin(Ints(*row.Find("shape")), ", ")
                    << "]): " << diff;
    }
  }
  EXPECT_EQ(matched, 1000);
}

}  // namespace
}  // namespace hlolayout::triton

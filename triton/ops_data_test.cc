// Every case of triton/testdata/ll_ops.jsonl (1,000 answers Triton 3.6.0
// computed with triton.tools.LinearLayout): construction, the operation's
// result (bases, sizes, printed form), the properties, the matrix view, the
// six applied inputs, the distributed views, and Triton's refusals.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/triton_test_data.h"
#include "hlolayout/triton/bases_json.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/ops.h"
#include "hlolayout/triton/views.h"

namespace hlolayout::triton {
namespace {

// A layout from a row's from_bases arguments; `text` is unused (the value is
// already parsed).
absl::StatusOr<LinearLayout> Build(const JsonValue& v) {
  return LayoutFromJsonValue(v, "");
}

absl::StatusOr<LinearLayout> RunOp(const std::string& op, const LinearLayout& a,
                                   const std::optional<LinearLayout>& b) {
  if (op == "compose") return Compose(a, *b);
  if (op == "invert_and_compose") return InvertAndCompose(a, *b);
  if (op == "product") return Product(a, *b);
  if (op == "pseudoinvert") return Pseudoinvert(a);
  if (op == "invert") return Invert(a);
  return a;  // build, views
}

// Checks one row; returns "" when it matches, else what differs.
std::string Check(const JsonValue& row) {
  const std::string op = row.Find("op")->string;
  const JsonValue* refused = row.Find("refused");
  auto refusal = [&](const absl::Status& s) -> std::string {
    if (refused == nullptr) return absl::StrCat("refused: ", s.message());
    if (std::string(s.message()).find(refused->string) == std::string::npos) {
      return absl::StrCat("refused with \"", s.message(), "\", Triton: \"",
                          refused->string, "\"");
    }
    return "";
  };
  absl::StatusOr<LinearLayout> a = Build(*row.Find("a"));
  if (!a.ok()) return refusal(a.status());
  std::optional<LinearLayout> b;
  if (const JsonValue* bv = row.Find("b")) {
    absl::StatusOr<LinearLayout> bl = Build(*bv);
    if (!bl.ok()) return refusal(bl.status());
    b = *bl;
  }
  absl::StatusOr<LinearLayout> result = RunOp(op, *a, b);
  if (!result.ok()) return refusal(result.status());
  if (refused != nullptr) return "accepted what Triton refused";
  const JsonValue& want = *row.Find("want");
  if (a->ToString() != want.Find("a_str")->string) return "a's string";
  if (b.has_value() && b->ToString() != want.Find("b_str")->string) {
    return "b's string";
  }
  if (const JsonValue* r = want.Find("result")) {
    JsonValue args = *r;
    // The result as from_bases arguments (not required surjective).
    args.object.erase(args.object.begin() + 3);  // "str"
    JsonValue no;
    no.kind = JsonValue::Kind::kBool;
    args.object.emplace_back("require_surjective", no);
    absl::StatusOr<LinearLayout> expected = Build(args);
    if (!expected.ok()) return "expected result does not build";
    if (*result != *expected) {
      return absl::StrCat("result", result->ToString(), "\nTriton",
                          expected->ToString());
    }
    if (result->ToString() != r->Find("str")->string) return "result string";
  }
  const JsonValue& flags = *want.Find("flags");
  if (a->IsInjective() != flags.array[0].boolean ||
      a->IsSurjective() != flags.array[1].boolean ||
      a->IsInvertible() != flags.array[2].boolean) {
    return "flags";
  }
  const std::vector<std::vector<int>> m = MatrixView(*a);
  const JsonValue& wm = *want.Find("matrix");
  if (m.size() != wm.array.size()) return "matrix rows";
  for (size_t r = 0; r < m.size(); ++r) {
    std::vector<int64_t> got(m[r].begin(), m[r].end());
    if (got != Ints(wm.array[r])) return "matrix";
  }
  for (const JsonValue& pair : want.Find("apply")->array) {
    NamedInts ins;
    for (const auto& [k, v] : pair.array[0].object) {
      ins.emplace_back(k, static_cast<int32_t>(v.integer));
    }
    absl::StatusOr<NamedInts> outs = a->Apply(ins);
    if (!outs.ok()) return "apply refused";
    NamedInts expected;
    for (const auto& [k, v] : pair.array[1].object) {
      expected.emplace_back(k, static_cast<int32_t>(v.integer));
    }
    if (*outs != expected) return "apply";
  }
  if (const JsonValue* v = want.Find("view")) {
    absl::StatusOr<std::string> s = DistributedView(*a, false);
    if (!s.ok() || *s != v->string) return "distributed view";
  }
  if (const JsonValue* v = want.Find("view_hw")) {
    absl::StatusOr<std::string> s = DistributedView(*a, true);
    if (!s.ok() || *s != v->string) return "distributed view (hardware)";
  }
  return "";
}

TEST(TritonOpsDataTest, EveryRowMatchesTriton) {
  const std::vector<JsonValue> rows =
      ReadJsonLines("triton/testdata/ll_ops.jsonl");
  ASSERT_EQ(rows.size(), 1000u);
  int matched = 0, refused = 0;
  for (const JsonValue& row : rows) {
    const std::string diff = Check(row);
    if (diff.empty()) {
      ++matched;
      refused += row.Find("refused") != nullptr;
    } else {
      ADD_FAILURE() << "case " << row.Find("case")->integer << " ("
                    << row.Find("op")->string << "): " << diff;
    }
  }
  EXPECT_EQ(matched, 1000);
  EXPECT_EQ(refused, 173);
}

}  // namespace
}  // namespace hlolayout::triton

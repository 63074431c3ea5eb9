// Tensor memory memdescs as Triton 3.6.0 and 3.9.0 answered them
// (triton/testdata/tmem_memdesc_answers.jsonl, from differential/triton/
// tmem_memdesc.py; README.md there): each case checked by `triton check`'s
// rules for that release (LayoutCheckRequest::triton) must be accepted
// where Triton accepted it, and refused with Triton's message where it
// refused it.
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/triton_test_data.h"
#include "hlolayout/triton/cvt_target.h"
#include "hlolayout/triton/layout_check.h"

namespace hlolayout::triton {
namespace {

// A refusal's message without the location of a reading error ("1:1: ",
// then the text and a caret).
std::string Message(const absl::Status& s) {
  std::string first(s.message().substr(0, s.message().find('\n')));
  const size_t colon = first.find(": ");
  if (colon != std::string::npos &&
      first.find_first_not_of("0123456789:") == colon + 1) {
    first = first.substr(colon + 2);
  }
  return first;
}

TEST(TmemMemdescDataTest, EveryAnswerAgrees) {
  const std::vector<JsonValue> rows =
      ReadJsonLines("triton/testdata/tmem_memdesc_answers.jsonl");
  ASSERT_EQ(rows.size(), 500u);
  std::map<std::string, int> refused_by_release;
  for (const JsonValue& row : rows) {
    LayoutCheckRequest r;
    r.layout = row.Find("layout")->string;
    r.shape = Ints(*row.Find("shape"));
    r.element = row.Find("element")->string;
    r.memdesc = true;
    r.num_warps = 4;
    r.num_ctas = static_cast<int>(row.Find("num_ctas")->integer);
    const std::string release = row.Find("triton")->string;
    r.triton = *TritonVersionNamed(release);
    const LayoutCheck c = CheckLayout(r);
    const std::string where =
        absl::StrCat("Triton ", release, ": ", r.layout, " on [",
                     absl::StrJoin(r.shape, ", "), "] ", r.element);
    if (const JsonValue* refused = row.Find("refused")) {
      ++refused_by_release[release];
      EXPECT_FALSE(c.status.ok()) << where;
      if (!c.status.ok()) {
        EXPECT_EQ(Message(c.status), refused->string) << where;
      }
    } else {
      EXPECT_TRUE(c.status.ok()) << where << ": " << c.status;
    }
  }
  // Both releases refuse many (the columns, the shape per CTA, the scales'
  // rank) and accept some.
  EXPECT_GT(refused_by_release["3.6.0"], 100);
  EXPECT_LT(refused_by_release["3.6.0"], 250);
  EXPECT_GT(refused_by_release["3.9.0"], 50);
  EXPECT_LT(refused_by_release["3.9.0"], 250);
}

}  // namespace
}  // namespace hlolayout::triton

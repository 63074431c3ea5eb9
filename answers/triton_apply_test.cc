#include "hlolayout/answers/triton_apply.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace hlolayout::triton {
namespace {

// register -> dim1 (2 bits), lane -> dim1 then dim0; warp broadcast.
LinearLayout Small() {
  NamedBases bases = {{"register", {{0, 1}, {0, 2}}},
                      {"lane", {{0, 4}, {1, 0}}},
                      {"warp", {{0, 0}}}};
  return *LinearLayout::Create(bases, {{"dim0", 2}, {"dim1", 8}}, false);
}

TEST(TritonApplyTest, OneInput) {
  const LinearLayout l = Small();
  absl::StatusOr<ApplyInputs> in =
      ParseApplyInputs(l, "register=3,lane=3,warp=1");
  ASSERT_TRUE(in.ok()) << in.status();
  EXPECT_FALSE(in->any_range);
  absl::StatusOr<AppliedTable> t = ApplyOverInputs(l, *in);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(AppliedJson(l, *t), "{\"dim0\": 1, \"dim1\": 7}\n");
}

TEST(TritonApplyTest, RangesFirstFastest) {
  const LinearLayout l = Small();
  absl::StatusOr<ApplyInputs> in =
      ParseApplyInputs(l, "lane=2..3,register=*,warp=0");
  ASSERT_TRUE(in.ok()) << in.status();
  absl::StatusOr<AppliedTable> t = ApplyOverInputs(l, *in);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->rows, 8);
  EXPECT_THAT(AppliedJson(l, *t),
              ::testing::StartsWith("[{\"in\": {\"lane\": 2, \"register\": 0, "
                                    "\"warp\": 0}, \"out\": {\"dim0\": 1, "
                                    "\"dim1\": 0}}, "));
  const std::vector<AppliedRow> rows = AppliedRows(l, *t);
  ASSERT_EQ(static_cast<int64_t>(rows.size()), t->rows);
  EXPECT_EQ(rows[1].in[0], (std::pair<std::string, int64_t>("lane", 3)));
  EXPECT_EQ(rows[1].out[1], (std::pair<std::string, int64_t>("dim1", 4)));
}

TEST(TritonApplyTest, BadInputs) {
  const LinearLayout l = Small();
  for (const char* bad :
       {"register", "=1", "register=x", "register=3..1", "lane=1=2",
        "register=4294967296", "register=0..4294967296", "bogus=*"}) {
    absl::StatusOr<ApplyInputs> in = ParseApplyInputs(l, bad);
    EXPECT_EQ(in.status().code(), absl::StatusCode::kInvalidArgument) << bad;
  }
  EXPECT_EQ(ParseApplyInputs(l, "register=x,lane=0").status().message(),
            "bad input 'register=x' (expected IN=VALUE, IN=LO..HI or IN=*)");
  // Names Triton refuses: a missing in-dim.
  absl::StatusOr<ApplyInputs> missing = ParseApplyInputs(l, "register=1");
  ASSERT_TRUE(missing.ok());
  EXPECT_FALSE(ApplyOverInputs(l, *missing).ok());
  // Too many inputs.
  absl::StatusOr<ApplyInputs> huge =
      ParseApplyInputs(l, "register=0..2000000,lane=0,warp=0");
  ASSERT_TRUE(huge.ok());
  EXPECT_EQ(ApplyOverInputs(l, *huge).status().message(),
            "more than 1048576 inputs; narrow the ranges");
}

TEST(TritonApplyTest, FreeMasks) {
  const LinearLayout l = Small();
  EXPECT_EQ(FreeMasksJson(l), "{\"register\": 0, \"lane\": 0, \"warp\": 1}\n");
}

}  // namespace
}  // namespace hlolayout::triton

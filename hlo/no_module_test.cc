#include "hlolayout/hlo/no_module.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace hlolayout {
namespace {

using ::testing::HasSubstr;

TEST(NoHloModule, SaysWhatTheInputHoldsAndWhatWasExpected) {
  const absl::Status empty = NoHloModuleError("", "empty.txt");
  EXPECT_EQ(empty.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(empty.message(),
              HasSubstr("empty.txt: no HLO module: the input is empty; "
                        "expected HLO module text (an 'HloModule name' line"));
  EXPECT_THAT(NoHloModuleError(" \n\t\r\n", "b.txt").message(),
              HasSubstr("b.txt: no HLO module: the input is blank;"));
  EXPECT_THAT(NoHloModuleError("// a comment\n\n/* another */\n", "").message(),
              HasSubstr("no HLO module: the input holds only comments and "
                        "blank lines;"));
  EXPECT_EQ(NoHloModuleError("", "").message().substr(0, 14), "no HLO module:");
}

}  // namespace
}  // namespace hlolayout

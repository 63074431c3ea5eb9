#include "hlolayout/cute/int_tuple_reader.h"

#include <string>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/cute/lexer.h"
#include "hlolayout/cute/print.h"

namespace hlolayout::cute {
namespace {

using ::testing::HasSubstr;

absl::Status Any(const Token&) { return absl::OkStatus(); }

TEST(IntTupleReader, ReadsATupleAndStopsAfterIt) {
  Lexer lexer("(2,(_3,4),()):(1,0)");
  absl::StatusOr<IntTuple> t = ReadIntTuple(lexer, Any);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(ToString(*t), "(2,(_3,4),())");
  EXPECT_EQ(lexer.Next().kind, TokenKind::kColon);
}

TEST(IntTupleReader, TheLeafCheckRefusesAtTheLeaf) {
  Lexer lexer("(2,0)");
  absl::StatusOr<IntTuple> t = ReadIntTuple(lexer, [&](const Token& leaf) {
    return leaf.value <= 0 ? TokenError(lexer, leaf, "shape must be positive")
                           : absl::OkStatus();
  });
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(t.status().message(), HasSubstr("1:4: shape must be positive"));
}

TEST(IntTupleReader, Errors) {
  for (const auto& [text, message] :
       {std::pair<std::string, std::string>{"(2,",
                                            "expected integer or '(', "
                                            "found end of input"},
        {"(2;3)", "expected ',' or ')', found"},
        {std::string(65, '(') + "1", "nesting deeper than 64"}}) {
    Lexer lexer(text);
    absl::StatusOr<IntTuple> t = ReadIntTuple(lexer, Any);
    ASSERT_FALSE(t.ok()) << text;
    EXPECT_THAT(t.status().message(), HasSubstr(message)) << text;
  }
}

}  // namespace
}  // namespace hlolayout::cute

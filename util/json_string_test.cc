#include "hlolayout/util/json_string.h"

#include <sstream>
#include <string>

#include "gtest/gtest.h"

namespace hlolayout {
namespace {

std::string Quoted(absl::string_view value) {
  std::string out;
  AppendJsonString(&out, value);
  return out;
}

TEST(JsonString, EscapesWhatJsonRequires) {
  EXPECT_EQ(Quoted(""), "\"\"");
  EXPECT_EQ(Quoted("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(Quoted("\n\r\t\b\f"), "\"\\n\\r\\t\\b\\f\"");
  EXPECT_EQ(Quoted(std::string("\x01\x1f", 2)), "\"\\u0001\\u001f\"");
  EXPECT_EQ(Quoted("caf\xc3\xa9"), "\"caf\xc3\xa9\"");  // UTF-8 kept
  std::ostringstream out;
  WriteJsonString(out, "x\"");
  EXPECT_EQ(out.str(), "\"x\\\"\"");
}

}  // namespace
}  // namespace hlolayout

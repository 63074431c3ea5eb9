// The repository's reduced TTGIR corpus (triton/lit/*.mlir): parts split on
// `// -----` as Triton's lit tests are. Every part of reads.mlir reads with
// the convert_layout ops, layout aliases and not-converted layouts its
// `// want:` line gives; every part of refused.mlir is refused at its layout
// alias with the message its `// refused:` line gives (Triton's verifiers).
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/test_data.h"
#include "hlolayout/triton/ttgir_parser.h"

namespace hlolayout::triton {
namespace {

// The parts of a file, each with the line it starts on.
std::vector<std::pair<int, std::string>> Parts(const std::string& name) {
  std::ifstream in(TestDataPath("triton/lit/" + name));
  EXPECT_TRUE(in.good()) << name;
  std::vector<std::pair<int, std::string>> parts = {{1, ""}};
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (absl::StartsWith(line, "// -----")) {
      parts.emplace_back(number + 1, "");
      continue;
    }
    parts.back().second += line + "\n";
  }
  return parts;
}

// The text after `// KEY: ` in a part, or "".
std::string Directive(const std::string& part, absl::string_view key) {
  for (absl::string_view line : absl::StrSplit(part, '\n')) {
    if (absl::ConsumePrefix(&line, "// ") && absl::ConsumePrefix(&line, key) &&
        absl::ConsumePrefix(&line, ": ")) {
      return std::string(line);
    }
  }
  return "";
}

int Want(const std::string& want, absl::string_view key) {
  for (absl::string_view item : absl::StrSplit(want, ' ')) {
    if (absl::ConsumePrefix(&item, key) && absl::ConsumePrefix(&item, "=")) {
      int n = -1;
      EXPECT_TRUE(absl::SimpleAtoi(item, &n)) << want;
      return n;
    }
  }
  ADD_FAILURE() << "no " << key << " in '" << want << "'";
  return -1;
}

TEST(LitCorpusTest, EveryPartOfReadsReads) {
  const auto parts = Parts("reads.mlir");
  ASSERT_GE(parts.size(), 7u);
  for (size_t i = 1; i < parts.size(); ++i) {  // part 0 is the header
    const auto& [line, text] = parts[i];
    SCOPED_TRACE(testing::Message() << "reads.mlir:" << line);
    const std::string want = Directive(text, "want");
    ASSERT_FALSE(want.empty());
    absl::StatusOr<TtgirModule> m = ParseTtgirModule(text, "reads.mlir");
    ASSERT_TRUE(m.ok()) << m.status();
    EXPECT_EQ(static_cast<int>(m->converts.size()), Want(want, "converts"));
    EXPECT_EQ(static_cast<int>(m->alias_order.size()), Want(want, "aliases"));
    int not_converted = 0;
    for (const std::string& name : m->alias_order) {
      const ParsedLayout& pl = m->aliases.at(name);
      EXPECT_FALSE(pl.kind.empty()) << name;
      if (pl.layout == nullptr) {
        ++not_converted;
        EXPECT_FALSE(pl.unsupported.empty()) << name;
        EXPECT_FALSE(pl.fields.empty() &&
                     pl.kind != "tensor_memory_scales_encoding")
            << name;
      }
    }
    EXPECT_EQ(not_converted, Want(want, "not_converted"));
    // Every type of the part has its encoding resolved (counted by layout).
    for (const TtgirType& t : m->types) {
      if (!t.encoding.empty()) {
        EXPECT_TRUE(t.layout.layout != nullptr || !t.layout.unsupported.empty())
            << t.encoding;
      }
    }
  }
}

TEST(LitCorpusTest, EveryPartOfRefusedIsRefusedAtItsAlias) {
  const auto parts = Parts("refused.mlir");
  ASSERT_GE(parts.size(), 30u);
  for (size_t i = 0; i < parts.size(); ++i) {
    const auto& [line, text] = parts[i];
    SCOPED_TRACE(testing::Message() << "refused.mlir:" << line);
    const std::string message = Directive(text, "refused");
    ASSERT_FALSE(message.empty());
    absl::StatusOr<TtgirModule> m = ParseTtgirModule(text, "refused.mlir");
    ASSERT_FALSE(m.ok());
    const std::string got(m.status().message());
    EXPECT_NE(got.find(message), std::string::npos) << got;
    // Located at the alias's value: "refused.mlir:L:C: message", on a
    // `#name = ` line.
    absl::string_view where = got;
    ASSERT_TRUE(absl::ConsumePrefix(&where, "refused.mlir:")) << got;
    int error_line = 0;
    ASSERT_TRUE(absl::SimpleAtoi(where.substr(0, where.find(':')), &error_line))
        << got;
    const std::vector<std::string> lines = absl::StrSplit(text, '\n');
    ASSERT_LE(error_line, static_cast<int>(lines.size()));
    EXPECT_TRUE(absl::StartsWith(lines[error_line - 1], "#")) << got;
  }
}

}  // namespace
}  // namespace hlolayout::triton

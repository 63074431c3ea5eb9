// What the XLA:CPU oracle (differential/xla) found: each test is a rule of
// XLA's that the library did not follow until a module compiled by jaxlib
// showed the difference (docs/memory.md, "Checked against XLA"). Each fails
// on the code before its fix.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "hlolayout/memory/buffer_assignment.h"

namespace hlolayout {
namespace {

// One allocation whose values sit at the given sizes, one per offset.
BufferAssignment OneAllocation(const std::vector<int64_t>& sizes) {
  BufferAssignment b;
  BufferAllocation a;
  int64_t offset = 0;
  for (size_t k = 0; k < sizes.size(); ++k) {
    AssignedValue v;
    v.id = static_cast<int64_t>(k);
    v.name = "v";
    v.offset = offset;
    v.size = sizes[k];
    offset += sizes[k];
    a.values.push_back(v);
  }
  a.size = offset;
  b.allocations.push_back(a);
  return b;
}

std::vector<std::string> Lines(const std::string& text) {
  return absl::StrSplit(text, '\n');
}

// The memory-usage report lists an allocation's groups largest first and,
// after the 51st (not the 50th), leaves out the rest once it is under 5% of
// the total. A transformer's gradient (jaxlib 0.10.2) showed 51 groups
// before "The rest 25 values ...".
TEST(XlaCpuFindings, UsageReportListsFiftyOneGroupsBeforeTheRest) {
  std::vector<int64_t> sizes = {1000};
  sizes.resize(53, 1);  // 1000 + 52 groups of 1 byte: 1052 bytes
  const std::vector<std::string> lines =
      Lines(XlaMemoryUsageReportText(OneAllocation(sizes)));
  // Memory Space, Total bytes, the two header lines, then the groups.
  ASSERT_GT(lines.size(), 56u);
  EXPECT_EQ(lines[4].substr(0, 19), "      1000B( 95%); ");
  EXPECT_EQ(lines[4 + 51],
            "  The rest 2 values are less than 5% of the total size and not "
            "shown.");
}

// When the 51st group is the last one, XLA still prints the line, with 0.
TEST(XlaCpuFindings, UsageReportSaysTheRestIsZeroAfterTheLastGroup) {
  std::vector<int64_t> sizes(51, 4);
  const std::vector<std::string> lines =
      Lines(XlaMemoryUsageReportText(OneAllocation(sizes)));
  ASSERT_GT(lines.size(), 55u);
  EXPECT_EQ(lines[4 + 51],
            "  The rest 0 values are less than 5% of the total size and not "
            "shown.");
  // 50 groups: no such line.
  sizes.resize(50);
  const std::string fifty = XlaMemoryUsageReportText(OneAllocation(sizes));
  EXPECT_EQ(fifty.find("The rest"), std::string::npos) << fifty;
}

}  // namespace
}  // namespace hlolayout

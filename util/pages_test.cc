#include "hlolayout/util/pages.h"

#include <cstdint>
#include <cstring>
#include <memory>

#include "gtest/gtest.h"

namespace hlolayout {
namespace {

#if defined(__linux__)
TEST(PagesTest, DroppedPagesLeaveResidentMemoryAndReadAsZeros) {
  constexpr size_t kBytes = size_t{64} << 20;
  std::unique_ptr<char[]> block(new char[kBytes]);
  std::memset(block.get(), 7, kBytes);
  const int64_t before = ResidentBytes();
  ASSERT_GT(before, static_cast<int64_t>(kBytes));
  // All but the first and the last byte: the pages they are in stay.
  DropWholePages(block.get() + 1, kBytes - 2);
  const int64_t after = ResidentBytes();
  EXPECT_LT(after, before - static_cast<int64_t>(kBytes / 2));
  EXPECT_EQ(block[kBytes / 2], 0);  // whole pages read as zeros
  EXPECT_EQ(block[0], 7);
  EXPECT_EQ(block[kBytes - 1], 7);
}
#endif

TEST(PagesTest, LessThanAPageIsLeftAlone) {
  char bytes[64];
  std::memset(bytes, 3, sizeof(bytes));
  DropWholePages(bytes, sizeof(bytes));
  for (char c : bytes) EXPECT_EQ(c, 3);
  DropWholePages(nullptr, 0);
}

}  // namespace
}  // namespace hlolayout

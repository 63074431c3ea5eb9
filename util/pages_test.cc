#include "hlolayout/util/pages.h"

#include <cstdint>
#include <cstring>
#include <memory>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

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

// A mapping of `bytes` bytes of 7s whose start is aligned to 2 MiB.
class AlignedMapping {
 public:
  explicit AlignedMapping(size_t bytes) : size_(bytes + kHuge) {
    void* map = mmap(nullptr, size_, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) return;
    map_ = static_cast<char*>(map);
    const uintptr_t at = reinterpret_cast<uintptr_t>(map_);
    data_ = reinterpret_cast<char*>((at + kHuge - 1) & ~(kHuge - 1));
    std::memset(data_, 7, bytes);
  }
  ~AlignedMapping() {
    if (map_ != nullptr) munmap(map_, size_);
  }
  char* data() const { return data_; }

  static constexpr size_t kHuge = size_t{2} << 20;

 private:
  size_t size_;
  char* map_ = nullptr;
  char* data_ = nullptr;
};

// Frees a block from the middle of one page of `page` bytes to the middle of
// the fourth: the second and the third go back whole; the ends stay, though
// they hold whole 4 KiB pages of the block when `page` is larger.
void ExpectWholePagesGoBack(size_t page) {
  AlignedMapping map(4 * page);
  ASSERT_NE(map.data(), nullptr);
  char* const p = map.data();
  DropFreedBlock(p + page / 2, 3 * page);
  EXPECT_EQ(p[page / 2], 7);
  EXPECT_EQ(p[page - 1], 7);
  EXPECT_EQ(p[page], 0);
  EXPECT_EQ(p[3 * page - 1], 0);
  EXPECT_EQ(p[3 * page], 7);
  EXPECT_EQ(p[3 * page + page / 2 - 1], 7);
  // A block inside one page: nothing goes back.
  DropFreedBlock(p + 3 * page + page / 8, page / 2);
  EXPECT_EQ(p[3 * page + page / 4], 7);
}

TEST(PagesTest, FreedBlocksGoBackInTheSystemsPagesByDefault) {
  const size_t system_page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  ASSERT_EQ(HeapPageSize(), system_page);
  ExpectWholePagesGoBack(system_page);
}

TEST(PagesTest, FreedBlocksGoBackInWholeHeapPages) {
  SetHeapPageSize(AlignedMapping::kHuge);
  EXPECT_EQ(HeapPageSize(), AlignedMapping::kHuge);
  ExpectWholePagesGoBack(AlignedMapping::kHuge);
  SetHeapPageSize(0);
  EXPECT_EQ(HeapPageSize(), static_cast<size_t>(sysconf(_SC_PAGESIZE)));
}

TEST(PagesDeathTest, HeapPagesArePowersOfTwoOfAtLeastASystemPage) {
  EXPECT_DEATH(SetHeapPageSize(3 << 20), "power of two");
  EXPECT_DEATH(SetHeapPageSize(512), "power of two");
}
#endif

TEST(PagesTest, LessThanAPageIsLeftAlone) {
  char bytes[64];
  std::memset(bytes, 3, sizeof(bytes));
  DropWholePages(bytes, sizeof(bytes));
  for (char c : bytes) EXPECT_EQ(c, 3);
  DropFreedBlock(bytes, sizeof(bytes));
  for (char c : bytes) EXPECT_EQ(c, 3);
  DropWholePages(nullptr, 0);
  DropFreedBlock(nullptr, 0);
}

}  // namespace
}  // namespace hlolayout

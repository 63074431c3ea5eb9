#include "hlolayout/cli/heap.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "hlolayout/util/pages.h"

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace hlolayout::cli {
namespace {

// The VmFlags of the mapping that holds `address` (/proc/self/smaps), or
// "" when none does.
std::string VmFlagsAt(const void* address) {
  const uintptr_t at = reinterpret_cast<uintptr_t>(address);
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    const std::vector<std::string> words = absl::StrSplit(line, ' ');
    // A mapping's first line: "begin-end perms offset dev inode [path]".
    const std::vector<std::string> range = absl::StrSplit(words[0], '-');
    uint64_t begin = 0, end = 0;
    if (range.size() == 2 && absl::SimpleHexAtoi(range[0], &begin) &&
        absl::SimpleHexAtoi(range[1], &end) && words.size() >= 5) {
      inside = begin <= at && at < end;
      continue;
    }
    if (inside && absl::StartsWith(line, "VmFlags:")) return line;
  }
  return "";
}

// UseHugePagesForTheHeap(64 MiB) with HLOLAYOUT_HUGE_PAGES=1 (so also where
// the host takes freed pages back and the default leaves the heap alone),
// called once for the tests that need it (a second call finds the first
// one's reserve free and does not grow the heap).
size_t MarkedHeap() {
  static const size_t marked = [] {
    setenv("HLOLAYOUT_HUGE_PAGES", "1", 1);
    const size_t bytes = UseHugePagesForTheHeap(size_t{64} << 20);
    unsetenv("HLOLAYOUT_HUGE_PAGES");
    return bytes;
  }();
  return marked;
}

// Whether the program's heap is glibc's own (not a sanitizer's).
bool GlibcHeap() {
#if defined(__GLIBC__) && defined(__linux__) && \
    !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  return true;
#else
  return false;
#endif
}

// Whether this build and kernel can mark a heap for huge pages at all.
bool HugePagesPossible() {
  return GlibcHeap() &&
         std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled").good();
}

// What UseHugePagesForTheHeap did with HLOLAYOUT_HUGE_PAGES set to
// `setting` (nullptr: unset), as the exit status of a process of its own (a
// death test), whose heap nothing has grown yet: 1 when it marked a heap for
// huge pages; else 2 when a block of 4 MiB comes from the heap (below its
// top: the heap keeps what is freed), 0 when it is mapped on its own
// (glibc's defaults).
[[noreturn]] void ExitWithMarking(const char* setting) {
  if (setting == nullptr) {
    unsetenv("HLOLAYOUT_HUGE_PAGES");
  } else {
    setenv("HLOLAYOUT_HUGE_PAGES", setting, 1);
  }
  const size_t marked = UseHugePagesForTheHeap(size_t{64} << 20);
  void* block = std::malloc(size_t{4} << 20);
  const bool in_heap =
      reinterpret_cast<uintptr_t>(block) < reinterpret_cast<uintptr_t>(sbrk(0));
  std::_Exit(marked > 0 ? 1 : in_heap ? 2 : 0);
}

TEST(HeapTest, BalloonFeaturesNameFreePageReportingInBitFive) {
  // As a Firecracker guest's balloon lists them: bits 1, 2, 5 and 7.
  EXPECT_TRUE(BalloonReportsFreePages(
      "0110010100000000000000000000000010000000000000000000000000000000\n"));
  EXPECT_FALSE(BalloonReportsFreePages("0110000100000000\n"));
  EXPECT_TRUE(BalloonReportsFreePages("000001"));
  EXPECT_FALSE(BalloonReportsFreePages("00000"));
  EXPECT_FALSE(BalloonReportsFreePages(""));
}

TEST(HeapTest, FreePagesGoBackToTheHostWhenABalloonReportsThem) {
  // The same sysfs folder, read another way.
  bool reports = false;
  std::error_code error;
  for (const std::filesystem::directory_entry& device :
       std::filesystem::directory_iterator(
           "/sys/bus/virtio/drivers/virtio_balloon", error)) {
    if (!absl::StartsWith(device.path().filename().string(), "virtio")) {
      continue;
    }
    std::ifstream file(device.path() / "features");
    std::string bits;
    std::getline(file, bits);
    reports = reports || (bits.size() > 5 && bits[5] == '1');
  }
  EXPECT_EQ(FreePagesGoBackToTheHost(), reports);
}

TEST(HeapTest, DefaultKeepsSmallPagesWhereTheHostTakesFreedPagesBack) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  // Marked for huge pages (1), else a heap that keeps freed blocks (2) on
  // glibc: it takes those settings before it marks.
  const int huge = HugePagesPossible() ? 1 : GlibcHeap() ? 2 : 0;
  // Unset: huge pages unless the host takes freed pages back; there, 4 KiB
  // pages in a heap that keeps what is freed.
  EXPECT_EXIT(ExitWithMarking(nullptr),
              testing::ExitedWithCode(
                  FreePagesGoBackToTheHost() ? (GlibcHeap() ? 2 : 0) : huge),
              "");
  // Forced on whatever the host does; off: glibc's defaults, which map a
  // block of 4 MiB on its own.
  EXPECT_EXIT(ExitWithMarking("1"), testing::ExitedWithCode(huge), "");
  EXPECT_EXIT(ExitWithMarking("0"), testing::ExitedWithCode(0), "");
}

TEST(HeapTest, OffByEnvironmentChangesNothing) {
  setenv("HLOLAYOUT_HUGE_PAGES", "0", 1);
  EXPECT_EQ(UseHugePagesForTheHeap(), 0u);
  unsetenv("HLOLAYOUT_HUGE_PAGES");
}

TEST(HeapTest, RefusesReservesSmallerThanTwoHugePages) {
  EXPECT_EQ(UseHugePagesForTheHeap(1 << 20), 0u);
}

TEST(HeapTest, LaterBlocksLieInHugePageMemory) {
  const size_t marked = MarkedHeap();
#if defined(__GLIBC__) && defined(__linux__) && \
    !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  if (marked == 0) {
    // Only a kernel without transparent huge pages says no here.
    std::ifstream thp("/sys/kernel/mm/transparent_hugepage/enabled");
    ASSERT_FALSE(thp.good()) << "the heap was not marked for huge pages";
    GTEST_SKIP() << "no transparent huge pages on this kernel";
  }
  // The reserve and the 16 MiB block that made the heap grow, less what
  // rounding to huge pages cuts at the ends.
  EXPECT_GE(marked, size_t{60} << 20);
  EXPECT_LE(marked, size_t{80} << 20);
  // A block that the old heap top could not hold comes from the new range
  // (all of it but its first bytes, which may lie below it).
  std::vector<char> block(size_t{8} << 20, 1);
  const char* middle = block.data() + block.size() / 2;
  EXPECT_NE(VmFlagsAt(middle).find(" hg"), std::string::npos)
      << VmFlagsAt(middle);
#else
  EXPECT_EQ(marked, 0u);
  GTEST_SKIP() << "not glibc's malloc: the heap is left alone";
#endif
}

#if defined(__GLIBC__) && defined(__linux__) && \
    !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
constexpr uintptr_t kHuge = uintptr_t{2} << 20;

// Resident 4 KiB pages of the huge page at `page` (mincore).
int ResidentPages(uintptr_t page) {
  unsigned char resident[kHuge / 4096];
  if (mincore(reinterpret_cast<void*>(page), kHuge, resident) != 0) return -1;
  int count = 0;
  for (const unsigned char r : resident) count += r & 1;
  return count;
}

TEST(HeapTest, UnsplitHugePagesGivesBackMostlyMissingPagesOfTheBlock) {
  if (MarkedHeap() == 0) {
    GTEST_SKIP() << "the heap is not in huge pages here";
  }
  // A block of 10 MiB from the range just marked, written whole; it holds
  // at least four whole huge pages.
  constexpr size_t kBytes = size_t{10} << 20;
  char* block = static_cast<char*>(std::malloc(kBytes));
  ASSERT_NE(block, nullptr);
  std::memset(block, 7, kBytes);
  const uintptr_t at = reinterpret_cast<uintptr_t>(block);
  const uintptr_t first = (at + kHuge - 1) & ~(kHuge - 1);
  // The first whole page: three quarters given back; the second: a
  // quarter; the third: all; the fourth stays whole.
  DropWholePages(reinterpret_cast<void*>(first), kHuge / 4 * 3);
  DropWholePages(reinterpret_cast<void*>(first + kHuge), kHuge / 4);
  DropWholePages(reinterpret_cast<void*>(first + 2 * kHuge), kHuge);
  ASSERT_EQ(ResidentPages(first), 128);
  ASSERT_EQ(ResidentPages(first + kHuge), 384);

  UnsplitHugePages(block, kBytes);
  EXPECT_EQ(ResidentPages(first), 0);
  EXPECT_EQ(ResidentPages(first + kHuge), 384);
  EXPECT_EQ(ResidentPages(first + 2 * kHuge), 0);
  EXPECT_EQ(ResidentPages(first + 3 * kHuge), 512);
  // What stays resident keeps its bytes, up to the block's first and last
  // ones (whose huge pages it shares with its neighbours).
  EXPECT_EQ(block[0], 7);
  EXPECT_EQ(block[first + kHuge + kHuge / 4 - at], 7);
  EXPECT_EQ(block[first + 3 * kHuge - at], 7);
  EXPECT_EQ(block[kBytes - 1], 7);
  std::free(block);
}

TEST(HeapTest, UnsplitHugePagesLeavesMemoryOutsideTheMarkedRangeAlone) {
  // Its own mapping, not the heap's range.
  void* map = mmap(nullptr, 3 * kHuge, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(map, MAP_FAILED);
  std::memset(map, 7, 3 * kHuge);
  const uintptr_t at = reinterpret_cast<uintptr_t>(map);
  const uintptr_t first = (at + kHuge - 1) & ~(kHuge - 1);
  DropWholePages(reinterpret_cast<void*>(first), kHuge / 4 * 3);
  UnsplitHugePages(map, 3 * kHuge);
  EXPECT_EQ(ResidentPages(first), 128);
  EXPECT_EQ(static_cast<char*>(map)[first + kHuge - 1 - at], 7);
  munmap(map, 3 * kHuge);
}
#endif

}  // namespace
}  // namespace hlolayout::cli

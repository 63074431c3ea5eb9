#include "hlolayout/cli/heap.h"

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"

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

TEST(HeapTest, OffByEnvironmentChangesNothing) {
  setenv("HLOLAYOUT_HUGE_PAGES", "0", 1);
  EXPECT_EQ(UseHugePagesForTheHeap(), 0u);
  unsetenv("HLOLAYOUT_HUGE_PAGES");
}

TEST(HeapTest, RefusesReservesSmallerThanTwoHugePages) {
  EXPECT_EQ(UseHugePagesForTheHeap(1 << 20), 0u);
}

TEST(HeapTest, LaterBlocksLieInHugePageMemory) {
  const size_t marked = UseHugePagesForTheHeap(size_t{64} << 20);
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

}  // namespace
}  // namespace hlolayout::cli

#include "hlolayout/util/pages.h"

#include <cstdint>
#include <cstdio>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace hlolayout {

void DropWholePages(void* p, size_t bytes) {
#if defined(__linux__)
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t at = reinterpret_cast<uintptr_t>(p);
  if (bytes > UINTPTR_MAX - at) return;  // not a block
  const uintptr_t begin = (at + page - 1) & ~(page - 1);
  const uintptr_t end = (at + bytes) & ~(page - 1);
  if (end > begin && begin >= at) {
    madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
  }
#else
  (void)p;
  (void)bytes;
#endif
}

int64_t ResidentBytes() {
#if defined(__linux__)
  long pages = 0, resident = 0;
  FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
  std::fclose(f);
  return static_cast<int64_t>(resident) * sysconf(_SC_PAGESIZE);
#else
  return 0;
#endif
}

}  // namespace hlolayout

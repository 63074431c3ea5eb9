#include "hlolayout/util/pages.h"

#include <atomic>
#include <cstdint>
#include <cstdio>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "hlolayout/util/check.h"

namespace hlolayout {

namespace {

// 0: the system's page size.
std::atomic<size_t> heap_page_size{0};

size_t SystemPageSize() {
#if defined(__linux__)
  return static_cast<size_t>(sysconf(_SC_PAGESIZE));
#else
  return 4096;
#endif
}

// Gives back the pages of `page` bytes (a power of two) that lie wholly
// inside the `bytes` bytes at `p`.
void DropPagesOf(void* p, size_t bytes, uintptr_t page) {
#if defined(__linux__)
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
  (void)page;
#endif
}

}  // namespace

void DropWholePages(void* p, size_t bytes) {
  DropPagesOf(p, bytes, SystemPageSize());
}

void DropFreedBlock(void* p, size_t bytes) {
  DropPagesOf(p, bytes, HeapPageSize());
}

size_t HeapPageSize() {
  const size_t set = heap_page_size.load(std::memory_order_relaxed);
  return set != 0 ? set : SystemPageSize();
}

void SetHeapPageSize(size_t bytes) {
  HLOLAYOUT_CHECK(bytes == 0 ||
                  ((bytes & (bytes - 1)) == 0 && bytes >= SystemPageSize()))
      << "a heap page size must be a power of two of at least "
      << SystemPageSize() << " bytes, not " << bytes;
  heap_page_size.store(bytes, std::memory_order_relaxed);
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

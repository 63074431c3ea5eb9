#include "hlolayout/cli/heap.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

#if defined(__GLIBC__) && defined(__linux__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define HLOLAYOUT_HEAP_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define HLOLAYOUT_HEAP_SANITIZED 1
#endif
#endif

namespace hlolayout::cli {

size_t UseHugePagesForTheHeap(size_t reserve) {
  const char* setting = std::getenv("HLOLAYOUT_HUGE_PAGES");
  if (setting != nullptr && std::strcmp(setting, "0") == 0) return 0;
#if defined(__GLIBC__) && defined(__linux__) && \
    !defined(HLOLAYOUT_HEAP_SANITIZED)
  constexpr uintptr_t kHugePage = uintptr_t{2} << 20;
  constexpr int kMaxHeapBlock = 32 << 20;  // glibc's largest mmap threshold
  if (reserve < 2 * kHugePage || reserve > (size_t{1} << 40)) return 0;
  // Every thread in the main heap; freed memory stays there; blocks of up
  // to 32 MiB come from it. mallopt answers 1 when it took the setting.
  if (mallopt(M_ARENA_MAX, 1) != 1 ||
      mallopt(M_TRIM_THRESHOLD, static_cast<int>(1u << 30)) != 1 ||
      mallopt(M_MMAP_THRESHOLD, kMaxHeapBlock) != 1) {
    return 0;
  }
  // Grow the heap once by `reserve`: the next growth adds M_TOP_PAD bytes
  // beyond what the block needs, and the block, freed, goes back to the top
  // of the heap, which is no longer trimmed.
  if (mallopt(M_TOP_PAD, static_cast<int>(
                             reserve > INT32_MAX ? INT32_MAX : reserve)) != 1) {
    return 0;
  }
  const uintptr_t before = reinterpret_cast<uintptr_t>(sbrk(0));
  void* block = std::malloc(kMaxHeapBlock / 2);
  const uintptr_t after = reinterpret_cast<uintptr_t>(sbrk(0));
  std::free(block);
  mallopt(M_TOP_PAD, 128 << 10);  // glibc's default for later growth
  if (block == nullptr || before == static_cast<uintptr_t>(-1) ||
      after == static_cast<uintptr_t>(-1) || after <= before) {
    return 0;  // the heap did not grow (no room, or malloc is not glibc's)
  }
  const uintptr_t begin = (before + kHugePage - 1) & ~(kHugePage - 1);
  const uintptr_t end = after & ~(kHugePage - 1);
  if (end <= begin) return 0;
  if (madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE) !=
      0) {
    return 0;  // a kernel without transparent huge pages
  }
  return end - begin;
#else
  (void)reserve;
  return 0;
#endif
}

}  // namespace hlolayout::cli

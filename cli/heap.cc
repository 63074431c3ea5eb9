#include "hlolayout/cli/heap.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#if defined(__linux__)
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>
#endif
#if defined(__GLIBC__) && defined(__linux__)
#include <malloc.h>
#include <sys/mman.h>
#endif

#include "hlolayout/util/pages.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define HLOLAYOUT_HEAP_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define HLOLAYOUT_HEAP_SANITIZED 1
#endif
#endif

namespace hlolayout::cli {
namespace {

constexpr uintptr_t kHugePage = uintptr_t{2} << 20;

// The range marked for huge pages: set once, before any thread starts.
std::atomic<uintptr_t> huge_begin{0};
std::atomic<uintptr_t> huge_end{0};

}  // namespace

void UnsplitHugePages(void* p, size_t bytes) {
#if defined(__GLIBC__) && defined(__linux__) && \
    !defined(HLOLAYOUT_HEAP_SANITIZED)
  constexpr size_t kSmallPages = kHugePage / 4096;
  const uintptr_t low = huge_begin.load(std::memory_order_relaxed);
  const uintptr_t high = huge_end.load(std::memory_order_relaxed);
  const uintptr_t at = reinterpret_cast<uintptr_t>(p);
  // The huge pages wholly inside the block and the marked range (none when
  // there is no range: low == high == 0).
  const uintptr_t begin =
      std::max((at + kHugePage - 1) & ~(kHugePage - 1), low);
  const uintptr_t end = std::min((at + bytes) & ~(kHugePage - 1), high);
  unsigned char resident[kSmallPages];
  // Consecutive pages to give back go in one call: [run, page). `end`
  // itself is not looked at: it closes the last run.
  uintptr_t run = begin;
  for (uintptr_t page = begin; page <= end; page += kHugePage) {
    // Half resident or more: the faults a huge page saves cost less than
    // it does. If mincore fails: leave the page alone.
    size_t count = kSmallPages;
    if (page < end &&
        mincore(reinterpret_cast<void*>(page), kHugePage, resident) == 0) {
      count = 0;
      for (const unsigned char r : resident) count += r & 1;
    }
    if (count >= kSmallPages / 2) {
      DropWholePages(reinterpret_cast<void*>(run), page > run ? page - run : 0);
      run = page + kHugePage;
    }
  }
#else
  (void)p;
  (void)bytes;
#endif
}

bool BalloonReportsFreePages(std::string_view features) {
  constexpr size_t kReportingBit = 5;  // VIRTIO_BALLOON_F_REPORTING
  return features.size() > kReportingBit && features[kReportingBit] == '1';
}

bool FreePagesGoBackToTheHost() {
#if defined(__linux__)
  static constexpr char kDriver[] = "/sys/bus/virtio/drivers/virtio_balloon";
  DIR* dir = opendir(kDriver);
  if (dir == nullptr) return false;
  bool reports = false;
  // The driver's folder links each device it drives ("virtio0", ...).
  while (const dirent* entry = readdir(dir)) {
    if (std::strncmp(entry->d_name, "virtio", 6) != 0) continue;
    const std::string path =
        std::string(kDriver) + "/" + entry->d_name + "/features";
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    char bits[64];
    const ssize_t n = read(fd, bits, sizeof(bits));
    close(fd);
    if (n > 0 && BalloonReportsFreePages(
                     std::string_view(bits, static_cast<size_t>(n)))) {
      reports = true;
    }
  }
  closedir(dir);
  return reports;
#else
  return false;
#endif
}

size_t UseHugePagesForTheHeap(size_t reserve) {
  const char* setting = std::getenv("HLOLAYOUT_HUGE_PAGES");
  if (setting != nullptr && std::strcmp(setting, "0") == 0) return 0;
  const bool forced = setting != nullptr && std::strcmp(setting, "1") == 0;
#if defined(__GLIBC__) && defined(__linux__) && \
    !defined(HLOLAYOUT_HEAP_SANITIZED)
  constexpr int kMaxHeapBlock = 32 << 20;  // glibc's largest mmap threshold
  if (!forced && FreePagesGoBackToTheHost()) {
    // 4 KiB pages, but what is freed stays in the heap for the next
    // blocks (written again there, each page would fault again).
    mallopt(M_TRIM_THRESHOLD, static_cast<int>(1u << 30));
    mallopt(M_MMAP_THRESHOLD, kMaxHeapBlock);
    return 0;
  }
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
  huge_begin.store(begin, std::memory_order_relaxed);
  huge_end.store(end, std::memory_order_relaxed);
  return end - begin;
#else
  (void)reserve;
  (void)forced;
  return 0;
#endif
}

}  // namespace hlolayout::cli

#if defined(__GLIBC__) && defined(__linux__) && \
    !defined(HLOLAYOUT_HEAP_SANITIZED)
// The program's operator new (a replaceable function, so every binary that
// links this file has it): glibc's malloc with the standard new-handler
// loop, as the standard library's, then UnsplitHugePages for a block of 2
// MiB or more (the analyses' tables and the instruction lists are such
// blocks). The other forms (arrays, nothrow) end here or in glibc, as the
// standard library's do; operator delete stays free().
void* operator new(size_t bytes) {
  if (bytes == 0) bytes = 1;
  void* p;
  while ((p = std::malloc(bytes)) == nullptr) {
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
  if (bytes >= hlolayout::cli::kHugePage) {
    hlolayout::cli::UnsplitHugePages(p, bytes);
  }
  return p;
}
#endif

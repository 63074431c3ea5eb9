#include "hlolayout/util/paged_array.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace hlolayout {
namespace paged_internal {

namespace {

size_t PageSize() {
#if defined(__linux__)
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return page;
#else
  return 4096;
#endif
}

// `bytes` rounded up to whole pages; 0 when that overflows.
size_t WholePages(size_t bytes) {
  const size_t page = PageSize();
  if (bytes > SIZE_MAX - (page - 1)) return 0;
  return (bytes + page - 1) / page * page;
}

}  // namespace

void Grow(Room* room, size_t bytes) {
  const size_t want = WholePages(bytes);
  if (want == 0) throw std::bad_alloc();
  if (want <= room->bytes) return;
#if defined(__linux__)
  void* grown = room->data == nullptr
                    ? mmap(nullptr, want, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                    : mremap(room->data, room->bytes, want, MREMAP_MAYMOVE);
  if (grown == MAP_FAILED) throw std::bad_alloc();
#else
  void* grown = std::realloc(room->data, want);
  if (grown == nullptr) throw std::bad_alloc();
#endif
  room->data = static_cast<char*>(grown);
  room->bytes = want;
}

void Free(Room* room) {
  if (room->data == nullptr) return;
#if defined(__linux__)
  munmap(room->data, room->bytes);
#else
  std::free(room->data);
#endif
  *room = Room();
}

size_t MoveOut(Room* room, size_t bytes, char* to, bool remap) {
  HLOLAYOUT_CHECK(bytes <= room->bytes) << "MoveOut past the room";
  char* const from = room->data;
  size_t moved = 0;
#if defined(__linux__)
  const uintptr_t page = PageSize();
  const uintptr_t at = reinterpret_cast<uintptr_t>(to);
  // The bytes up to `to`'s first page boundary are copied; the rest start
  // on one.
  const size_t head =
      std::min<size_t>(bytes, ((at + page - 1) & ~(page - 1)) - at);
  const size_t rest = bytes - head;
  const size_t pages = rest / page * page;
  if (pages > 0) {
    std::memcpy(to, from, head);
    // The rest shifted to the room's start, so that its pages line up with
    // `to`'s (in place: these pages are resident already).
    std::memmove(from, from + head, rest);
    void* placed = remap ? mremap(from, pages, pages,
                                  MREMAP_MAYMOVE | MREMAP_FIXED, to + head)
                         : MAP_FAILED;
    if (placed != MAP_FAILED) {
      std::memcpy(to + head + pages, from + pages, rest - pages);
      moved = pages;
      // [from, from + pages) is no longer mapped: only what follows is the
      // room's to unmap.
      if (room->bytes > pages) munmap(from + pages, room->bytes - pages);
      *room = Room();
      return moved;
    }
    // Refused (`to` is not memory mremap can place pages in): a copy of
    // the shifted rest.
    std::memcpy(to + head, from, rest);
    Free(room);
    return 0;
  }
#endif
  std::memcpy(to, from, bytes);
  Free(room);
  return moved;
}

}  // namespace paged_internal
}  // namespace hlolayout

// util/paged_array.h: a growing array of plain records in a memory mapping
// of its own. It grows without copying, and it is appended to a
// std::vector by handing over its pages rather than by copying into fresh
// ones.
//
//   PagedArray<HloInstruction> rest;     // one part of a text, read on a
//   rest.Reserve(part_bytes / 64);       // thread of its own; room only:
//   rest.push_back(record);              // each page is written once
//   ...
//   std::vector<HloInstruction>& to = head_part_list;
//   // precondition: to.capacity() - to.size() >= rest.size()
//   AppendByMovingPages(&rest, &to);     // rest is empty afterwards
//
// Why: a std::vector that grows by doubling copies its records into each
// new block, whose pages are faulted in fresh, and appending it to another
// list copies them once more, into more fresh pages. Here a record is
// written once: growing remaps the pages (mremap), and appending moves the
// whole pages into the vector's unused room by page table, copying only the
// bytes of the page at either end and shifting the rest within pages
// already resident. On a 75 MB dump read on two threads, the second part's
// 25 MB of records cost 12,700 page faults before (docs/memory-speed-pages.md).
//
// T must be trivially copyable and destructible (checked at compile time).
// A failed mapping throws std::bad_alloc, as std::vector does. Not
// thread-safe. Linux: mmap and mremap; elsewhere malloc, realloc and
// copies, with the same results.
#ifndef HLOLAYOUT_UTIL_PAGED_ARRAY_H_
#define HLOLAYOUT_UTIL_PAGED_ARRAY_H_

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "hlolayout/util/check.h"

namespace hlolayout {

namespace paged_internal {

// A mapping of `bytes` bytes (a multiple of the page size), or none.
struct Room {
  char* data = nullptr;
  size_t bytes = 0;
};

// Makes `room` at least `bytes` bytes, keeping what it holds; throws
// std::bad_alloc when the system refuses.
void Grow(Room* room, size_t bytes);
// Unmaps `room` and empties it.
void Free(Room* room);
// Moves the first `bytes` bytes of `room` to `to` (writable memory of the
// caller's, `bytes` long, not in `room`), then frees `room`. Whole pages of
// `to` take the room's pages (mremap); the bytes before the first and after
// the last whole page of `to` are copied. Returns the number of bytes moved
// by page table (for tests). `remap` false (for tests): copies all, as
// when the system refuses to place the pages (mremap fails).
size_t MoveOut(Room* room, size_t bytes, char* to, bool remap = true);

}  // namespace paged_internal

template <typename T>
class PagedArray {
  static_assert(std::is_trivially_copyable<T>::value &&
                    std::is_trivially_destructible<T>::value,
                "a PagedArray's records are moved as bytes");

 public:
  PagedArray() = default;
  ~PagedArray() { paged_internal::Free(&room_); }
  PagedArray(const PagedArray&) = delete;
  PagedArray& operator=(const PagedArray&) = delete;
  PagedArray(PagedArray&& other) noexcept { Swap(&other); }
  PagedArray& operator=(PagedArray&& other) noexcept {
    if (this != &other) {
      clear();
      Swap(&other);
    }
    return *this;
  }

  // Room for `n` records; no page of it is touched.
  void Reserve(size_t n) {
    if (n > capacity()) Grow(n);
  }
  void push_back(const T& record) {
    if (size_ == capacity()) Grow(size_ < kFirst ? kFirst : 2 * size_);
    ::new (static_cast<void*>(data() + size_)) T(record);
    ++size_;
  }
  // Frees the room.
  void clear() {
    paged_internal::Free(&room_);
    size_ = 0;
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return room_.bytes / sizeof(T); }
  T* data() { return reinterpret_cast<T*>(room_.data); }
  const T* data() const { return reinterpret_cast<const T*>(room_.data); }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  T& back() { return data()[size_ - 1]; }

 private:
  template <typename U>
  friend void AppendByMovingPages(PagedArray<U>* from, std::vector<U>* to);

  // The first room mapped: 64 KiB of records or more.
  static constexpr size_t kFirst = (size_t{64} << 10) / sizeof(T) + 1;

  void Grow(size_t n) {
    if (n > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
    paged_internal::Grow(&room_, n * sizeof(T));
  }
  void Swap(PagedArray* other) {
    std::swap(room_, other->room_);
    std::swap(size_, other->size_);
  }

  paged_internal::Room room_;
  size_t size_ = 0;
};

// Appends `from`'s records to `to` and empties `from`. Precondition
// (checked): `to` has room for them, to->capacity() - to->size() >=
// from->size(): `to` is not reallocated.
template <typename T>
void AppendByMovingPages(PagedArray<T>* from, std::vector<T>* to) {
  const size_t n = from->size();
  HLOLAYOUT_CHECK(to->capacity() - to->size() >= n)
      << "AppendByMovingPages: no room in the vector";
  if (n == 0) {
    from->clear();
    return;
  }
  T* const end = to->data() + to->size();
  paged_internal::MoveOut(&from->room_, n * sizeof(T),
                          reinterpret_cast<char*>(end));
  from->size_ = 0;
  // The records are in place in `to`'s room: the vector takes them as its
  // own by inserting them from where they are (a copy onto itself, which
  // the library's memmove skips).
  to->insert(to->end(), end, end + n);
}

}  // namespace hlolayout

#endif  // HLOLAYOUT_UTIL_PAGED_ARRAY_H_

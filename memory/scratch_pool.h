// memory/scratch_pool.h: memory for the memory analysis' large arrays,
// kept per thread from one analysis to the next (docs/memory-speed.md,
// "Speed").
//
//   ScratchVector<int64_t> value_of(positions, -1);  // from this thread's
//                                                    // pool when it can
//
// An analysis allocates a few dozen arrays of some megabytes and frees
// them all at its end. glibc hands the freed top of its heap back to the
// system once it passes a threshold that adapts to the largest blocks
// freed so far, and each page of it is then faulted in again by the next
// analysis: repeated analyses of a 10,000-instruction module took two to
// five times as long as the first. Blocks of kSmallest bytes or more come
// from a per-thread pool instead: a freed block goes back to its thread's
// pool (to operator delete past kRetained bytes kept), and the next
// request of its size class, or of a class up to half its size, takes it. Size
// classes are a quarter of a power of two apart, so a block is at most 25%
// larger than asked for.
//
// Thread-safe: each thread has its own pool (a block freed on another
// thread than the one it came from joins that thread's pool). The pool
// frees its blocks when the thread ends.
#ifndef HLOLAYOUT_MEMORY_SCRATCH_POOL_H_
#define HLOLAYOUT_MEMORY_SCRATCH_POOL_H_

#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

namespace hlolayout {
namespace memory_internal {

class ScratchPool {
 public:
  static constexpr size_t kSmallest = size_t{1} << 14;   // 16 KiB
  static constexpr size_t kRetained = size_t{64} << 20;  // 64 MiB

  // At least `bytes` bytes aligned for any scalar type.
  static void* Allocate(size_t bytes);
  // `p` from Allocate(bytes), with the same `bytes`.
  static void Deallocate(void* p, size_t bytes);
  // Bytes this thread's pool keeps for later requests.
  static size_t RetainedBytes();
  // The size of the block Allocate(bytes) gives (for tests).
  static size_t BlockSize(size_t bytes);

  // Blocks of this size or more freed on this thread while a
  // DuringAnalysis lives on it go back to operator delete, resident: the
  // heap splits them for the analysis' next requests of any size, where
  // the pool would keep each one for a request of about its size (the
  // tables an analysis frees midway, and the room a growing vector leaves,
  // are rarely of a size it asks for again). Smaller ones, and every block
  // freed once it ends (the analysis' own tables, for the next one), are
  // kept as before. What the heap does not hand out again goes back to the
  // system when the analysis calls GiveBackFreeHeap. Until 2026-11-28 their
  // pages were given back as they were freed: on a 75 MB dump `hlolayout
  // memory` then took 54,900 page faults against 46,600 now, at a peak 7
  // MB lower (docs/memory-speed-pages.md, "Freed tables kept resident").
  static constexpr size_t kLargestKeptDuringAnalysis = size_t{1} << 20;
  // Gives the free memory of the process' heap back to the system
  // (glibc's malloc_trim(0); elsewhere it does nothing): the blocks of
  // 1 MiB or more an analysis freed, which the heap kept resident, and
  // whatever else is free in it. An analysis calls it once its working
  // tables are freed, before it builds its answer: what the heap did not
  // hand out again would otherwise sit through the answer's peak. It does
  // nothing unless analyses (on any thread) freed kGiveBackFrom bytes or
  // more of such blocks since it last looked: the trim walks the whole
  // heap (about 1 ms in a Python process, where an 18 KB module's
  // analysis takes 0.4 ms), and a small analysis frees no such block.
  static constexpr size_t kGiveBackFrom = size_t{8} << 20;  // 8 MiB
  static void GiveBackFreeHeap();
  class DuringAnalysis {
   public:
    DuringAnalysis();
    ~DuringAnalysis();
    DuringAnalysis(const DuringAnalysis&) = delete;
    DuringAnalysis& operator=(const DuringAnalysis&) = delete;
  };
};

template <typename T>
struct ScratchAllocator {
  using value_type = T;
  ScratchAllocator() = default;
  template <typename U>
  ScratchAllocator(const ScratchAllocator<U>&) {}  // NOLINT: conversion
  T* allocate(size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes < ScratchPool::kSmallest) {
      return static_cast<T*>(::operator new(bytes));
    }
    return static_cast<T*>(ScratchPool::Allocate(bytes));
  }
  void deallocate(T* p, size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes < ScratchPool::kSmallest) {
      ::operator delete(p);
      return;
    }
    ScratchPool::Deallocate(p, bytes);
  }
  template <typename U>
  bool operator==(const ScratchAllocator<U>&) const {
    return true;
  }
  template <typename U>
  bool operator!=(const ScratchAllocator<U>&) const {
    return false;
  }
};

template <typename T>
using ScratchVector = std::vector<T, ScratchAllocator<T>>;

}  // namespace memory_internal
}  // namespace hlolayout

#endif  // HLOLAYOUT_MEMORY_SCRATCH_POOL_H_

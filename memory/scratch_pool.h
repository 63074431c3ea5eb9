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

#include "hlolayout/util/pages.h"

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
  // DuringAnalysis lives on it go back to operator delete, their pages
  // given back first (DropFreedBlock, util/pages.h: the CLI's heap keeps
  // freed memory, cli/heap.cc): kept, they would sit unused through the
  // analysis' peak (the tables it frees midway, and the room a growing
  // vector leaves, are rarely of a size it asks for again). Smaller ones,
  // and every block freed once it ends (the analysis' own tables, for the
  // next one), are kept as before. Dropping from 1 MiB on rather than from 2
  // MiB lowered the peak of `hlolayout memory` on a 75 MB dump by 3.8 MiB;
  // repeated analyses of a 10,000-instruction module (BM_AnalyzeMemory,
  // bench/memory_bench.cc) took the same time in one run of both.
  static constexpr size_t kLargestKeptDuringAnalysis = size_t{1} << 20;
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

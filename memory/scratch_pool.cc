#include "hlolayout/memory/scratch_pool.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <algorithm>
#include <array>
#include <atomic>
#include <unordered_map>

namespace hlolayout {
namespace memory_internal {
namespace {

// Classes: 2^k, 1.25 * 2^k, 1.5 * 2^k, 1.75 * 2^k bytes from kSmallest up
// to 2^62.
constexpr int kSmallestLog = 14;
constexpr int kClasses = 4 * (62 - kSmallestLog);

int FloorLog2(size_t x) { return 63 - __builtin_clzll(x); }

// The class of a request of `bytes` (>= kSmallest): the smallest class
// size that holds it.
int ClassOf(size_t bytes) {
  const int log = FloorLog2(bytes);
  const size_t base = size_t{1} << log;
  // Quarters of `base` past it, rounded up.
  const size_t quarter = base / 4;
  const size_t quarters = (bytes - base + quarter - 1) / quarter;
  return 4 * (log - kSmallestLog) + static_cast<int>(quarters);
}

size_t ClassSize(int c) {
  const size_t base = size_t{1} << (kSmallestLog + c / 4);
  return base + (base / 4) * (c % 4);
}

// Set when this thread's pool is destroyed: blocks freed later (by objects
// destroyed after it at thread exit) go to operator delete.
thread_local bool pool_destroyed = false;
// DuringAnalysis objects alive on this thread.
thread_local int analyses = 0;
// Bytes of the blocks freed to the heap during analyses, on any thread,
// since GiveBackFreeHeap last looked.
std::atomic<size_t> freed_to_heap{0};

class Pool {
 public:
  ~Pool() {
    for (std::vector<void*>& blocks : free_) {
      for (void* p : blocks) ::operator delete(p);
    }
    pool_destroyed = true;
  }
  void* Allocate(size_t bytes) {
    const int c = ClassOf(bytes);
    if (c >= kClasses) return ::operator new(bytes);
    // A kept block of up to twice the size serves too: its pages are
    // resident already, where a new block's would be faulted in (and the
    // kept one would sit unused through the analysis' peak).
    for (int k = c; k < kClasses && k <= c + kLargerClasses; ++k) {
      std::vector<void*>& blocks = free_[k];
      if (blocks.empty()) continue;
      void* p = blocks.back();
      blocks.pop_back();
      retained_ -= ClassSize(k);
      if (k != c) larger_[p] = k;
      return p;
    }
    return ::operator new(ClassSize(c));
  }
  void Deallocate(void* p, size_t bytes) {
    int c = ClassOf(bytes);
    if (!larger_.empty()) {
      const auto it = larger_.find(p);
      if (it != larger_.end()) {
        c = it->second;
        larger_.erase(it);
      }
    }
    if (c >= kClasses) {
      ::operator delete(p);
      return;
    }
    const size_t size = ClassSize(c);
    if (analyses > 0 && size >= ScratchPool::kLargestKeptDuringAnalysis) {
      // To the heap, resident: the heap splits it for the analysis' next
      // requests of any size, where the pool would serve one of about its
      // size (docs/memory-speed-pages.md, "Freed tables kept resident").
      freed_to_heap.fetch_add(size, std::memory_order_relaxed);
      ::operator delete(p);
      return;
    }
    if (retained_ + size > ScratchPool::kRetained) {
      ::operator delete(p);
      return;
    }
    free_[c].push_back(p);
    retained_ += size;
  }
  size_t retained() const { return retained_; }

 private:
  // Four classes up: twice the size.
  static constexpr int kLargerClasses = 4;
  std::array<std::vector<void*>, kClasses> free_;
  // Blocks handed out for a smaller class than their own: their class.
  std::unordered_map<void*, int> larger_;
  size_t retained_ = 0;
};

Pool& ThreadPool() {
  thread_local Pool pool;
  return pool;
}

}  // namespace

void* ScratchPool::Allocate(size_t bytes) {
  return ThreadPool().Allocate(std::max(bytes, kSmallest));
}

void ScratchPool::Deallocate(void* p, size_t bytes) {
  if (pool_destroyed) {
    ::operator delete(p);
    return;
  }
  ThreadPool().Deallocate(p, std::max(bytes, kSmallest));
}

void ScratchPool::GiveBackFreeHeap() {
  if (freed_to_heap.exchange(0, std::memory_order_relaxed) < kGiveBackFrom) {
    return;
  }
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

size_t ScratchPool::RetainedBytes() { return ThreadPool().retained(); }

ScratchPool::DuringAnalysis::DuringAnalysis() { ++analyses; }
ScratchPool::DuringAnalysis::~DuringAnalysis() { --analyses; }

size_t ScratchPool::BlockSize(size_t bytes) {
  const int c = ClassOf(std::max(bytes, kSmallest));
  return c < kClasses ? ClassSize(c) : bytes;
}

}  // namespace memory_internal
}  // namespace hlolayout

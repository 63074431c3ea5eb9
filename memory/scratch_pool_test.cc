#include "hlolayout/memory/scratch_pool.h"

#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/testing/sanitizer_scale.h"
#include "hlolayout/util/pages.h"

#if defined(__GLIBC__) && defined(__linux__)
#include <malloc.h>

#include <cstdio>
#include <cstring>
#endif

namespace hlolayout {
namespace memory_internal {
namespace {

// Blocks are at most a quarter larger than asked for, in classes a
// quarter of a power of two apart.
TEST(ScratchPool, BlockSizes) {
  EXPECT_EQ(ScratchPool::BlockSize(1), ScratchPool::kSmallest);
  EXPECT_EQ(ScratchPool::BlockSize(1 << 20), size_t{1} << 20);
  EXPECT_EQ(ScratchPool::BlockSize((1 << 20) + 1), (size_t{5} << 20) / 4);
  EXPECT_EQ(ScratchPool::BlockSize((size_t{7} << 20) / 4 + 1), size_t{2} << 20);
  for (size_t bytes = ScratchPool::kSmallest; bytes < (size_t{1} << 30);
       bytes = bytes * 9 / 7 + 13) {
    const size_t block = ScratchPool::BlockSize(bytes);
    EXPECT_GE(block, bytes);
    EXPECT_LE(block, bytes + bytes / 4 + 1) << bytes;
  }
}

#if defined(__GLIBC__) && defined(__linux__)
// The CLI's heap settings (cli/heap.cc: blocks of up to 32 MiB from the
// heap, never trimmed); false where malloc is not glibc's (a sanitizer's:
// glibc's mallopt still answers there).
bool KeepFreedMemoryInTheHeap() {
  return !kSanitizerBuild && mallopt(M_MMAP_THRESHOLD, 32 << 20) == 1 &&
         mallopt(M_TRIM_THRESHOLD, 1 << 30) == 1;
}

constexpr size_t kBlockBytes = size_t{16} << 20;

// A block of `bytes` from the pool, written whole, then freed during an
// analysis; a small block after it (in `after_it`) keeps it from being the
// heap's top.
void FreeAWrittenBlockDuringAnAnalysis(std::unique_ptr<char[]>* after_it,
                                       size_t bytes = kBlockBytes) {
  void* p = ScratchPool::Allocate(bytes);
  std::memset(p, 1, bytes);
  after_it->reset(new char[64]);
  ScratchPool::DuringAnalysis during;
  ScratchPool::Deallocate(p, bytes);
}

// A large block freed during an analysis stays resident, in the heap, and
// serves the next requests of any size without new pages.
TEST(ScratchPool, LargeBlocksFreedDuringAnAnalysisServeItsNextRequests) {
  std::thread([] {
    if (!KeepFreedMemoryInTheHeap()) GTEST_SKIP() << "not glibc's malloc";
    const size_t before = static_cast<size_t>(ResidentBytes());
    std::unique_ptr<char[]> after_it;
    FreeAWrittenBlockDuringAnAnalysis(&after_it);
    const size_t freed = static_cast<size_t>(ResidentBytes());
    EXPECT_GE(freed, before + kBlockBytes / 2) << before << " -> " << freed;
    // Two requests of a quarter and of three eighths of it, written whole.
    ScratchPool::DuringAnalysis during;
    ScratchVector<char> a(kBlockBytes / 4, 2);
    ScratchVector<char> b(kBlockBytes / 8 * 3, 3);
    const size_t after = static_cast<size_t>(ResidentBytes());
    EXPECT_LE(after, freed + kBlockBytes / 8) << freed << " -> " << after;
  }).join();
}

// What the heap keeps free goes back to the system on request. On the
// main thread: malloc_trim gives back the free chunks of every arena, but
// the free top of the main one only (a thread's arena keeps its top).
TEST(ScratchPool, FreeHeapMemoryGoesBackOnRequest) {
  if (!KeepFreedMemoryInTheHeap()) GTEST_SKIP() << "not glibc's malloc";
  std::unique_ptr<char[]> after_it;
  FreeAWrittenBlockDuringAnAnalysis(&after_it);
  const size_t before = static_cast<size_t>(ResidentBytes());
  ScratchPool::GiveBackFreeHeap();
  const size_t after = static_cast<size_t>(ResidentBytes());
  EXPECT_LE(after + kBlockBytes / 2, before) << before << " -> " << after;
}

// The heap is trimmed only once analyses have freed kGiveBackFrom bytes of
// large blocks to it: a written block freed outside any analysis stays
// resident through a call made after less than that, and goes with the
// first call made after more.
TEST(ScratchPool, FreeHeapGoesBackOnlyAfterLargeFrees) {
  if (!KeepFreedMemoryInTheHeap()) GTEST_SKIP() << "not glibc's malloc";
  ScratchPool::GiveBackFreeHeap();  // what earlier tests freed: counted out
  std::unique_ptr<char[]> block(new char[kBlockBytes]);
  std::memset(block.get(), 1, kBlockBytes);
  std::unique_ptr<char[]> after_block(new char[64]);
  block.reset();  // free in the heap, resident
  constexpr size_t kHalf = ScratchPool::kGiveBackFrom / 2;
  std::unique_ptr<char[]> after_halves[3];
  FreeAWrittenBlockDuringAnAnalysis(&after_halves[0], kHalf);
  const size_t before = static_cast<size_t>(ResidentBytes());
  ScratchPool::GiveBackFreeHeap();
  const size_t kept = static_cast<size_t>(ResidentBytes());
  EXPECT_GE(kept + kBlockBytes / 4, before) << before << " -> " << kept;
  // Two more: the frees since that call reach the line.
  FreeAWrittenBlockDuringAnAnalysis(&after_halves[1], kHalf);
  FreeAWrittenBlockDuringAnAnalysis(&after_halves[2], kHalf);
  const size_t full = static_cast<size_t>(ResidentBytes());
  ScratchPool::GiveBackFreeHeap();
  const size_t after = static_cast<size_t>(ResidentBytes());
  EXPECT_LE(after + kBlockBytes / 2, full) << full << " -> " << after;
}
#endif

// The room of a vector past its size leaves the resident memory; what it
// holds stays, and growing into the room again works as before.
TEST(ScratchPool, SpareRoomLeavesResidentMemory) {
  constexpr size_t kRoom = size_t{16} << 20;  // int32s: 64 MiB of room
  ScratchVector<int32_t> v(kRoom, 7);         // all of it written
  v.resize(1000);
  for (int32_t i = 0; i < 1000; ++i) v[i] = i;
  const int64_t before = ResidentBytes();
  DropSpareRoom(&v);
  const int64_t after = ResidentBytes();
  if (before > 0) {  // Linux (elsewhere: nothing to measure, nothing done)
    EXPECT_LE(after + int64_t{48 << 20}, before) << before << " -> " << after;
  }
  EXPECT_EQ(v.capacity(), kRoom);
  for (int32_t i = 0; i < 1000; ++i) ASSERT_EQ(v[i], i);
  v.resize(2000, 5);  // into the room given back
  EXPECT_EQ(v[999], 999);
  EXPECT_EQ(v[1999], 5);
  // An empty vector and a full one: nothing to give back.
  ScratchVector<int32_t> empty;
  DropSpareRoom(&empty);
  ScratchVector<int32_t> full(100, 1);
  full.shrink_to_fit();
  DropSpareRoom(&full);
  EXPECT_EQ(full[99], 1);
}

// A freed block comes back to the next request of its class on this
// thread; small vectors do not use the pool.
TEST(ScratchPool, FreedBlocksAreReused) {
  std::thread([] {
    const size_t before = ScratchPool::RetainedBytes();
    const int64_t* first;
    {
      ScratchVector<int64_t> v(100000, 7);
      first = v.data();
    }
    EXPECT_EQ(ScratchPool::RetainedBytes(),
              before + ScratchPool::BlockSize(100000 * sizeof(int64_t)));
    {
      ScratchVector<int64_t> v(99000, 1);
      EXPECT_EQ(v.data(), first);
      EXPECT_EQ(v[98999], 1);
    }
    { ScratchVector<int64_t> small(10, 1); }
    EXPECT_EQ(ScratchPool::RetainedBytes(),
              before + ScratchPool::BlockSize(100000 * sizeof(int64_t)));
  }).join();
}

// A kept block serves a request of up to half its size (its pages are
// resident already), and goes back to its own class when freed.
TEST(ScratchPool, LargerKeptBlocksServeSmallerRequests) {
  std::thread([] {
    const size_t before = ScratchPool::RetainedBytes();
    const size_t large = ScratchPool::BlockSize(400000 * sizeof(int64_t));
    const int64_t* first;
    {
      ScratchVector<int64_t> v(400000, 7);
      first = v.data();
    }
    EXPECT_EQ(ScratchPool::RetainedBytes(), before + large);
    {
      ScratchVector<int32_t> w(500000, 1);  // 2 MB for a 3.5 MB block
      EXPECT_EQ(static_cast<const void*>(w.data()),
                static_cast<const void*>(first));
      EXPECT_EQ(ScratchPool::RetainedBytes(), before);
    }
    EXPECT_EQ(ScratchPool::RetainedBytes(), before + large);
    {
      ScratchVector<int64_t> v(400000, 1);  // back in its own class
      EXPECT_EQ(v.data(), first);
    }
    {
      ScratchVector<int8_t> tiny(400000, 1);  // 0.4 MB: under a quarter
      EXPECT_NE(static_cast<const void*>(tiny.data()),
                static_cast<const void*>(first));
    }
  }).join();
}

// While an analysis runs, large blocks it frees are not kept (they would
// sit through its peak); small ones are, and so are large ones freed after.
TEST(ScratchPool, LargeBlocksFreedDuringAnAnalysisAreNotKept) {
  std::thread([] {
    const size_t before = ScratchPool::RetainedBytes();
    const size_t small = ScratchPool::BlockSize(100000);
    const size_t large = ScratchPool::BlockSize(2 << 20);
    ScratchVector<char> kept(2 << 20, 1);
    {
      ScratchPool::DuringAnalysis during;
      { ScratchVector<char> v(2 << 20, 1); }
      EXPECT_EQ(ScratchPool::RetainedBytes(), before);
      { ScratchVector<char> v(ScratchPool::kLargestKeptDuringAnalysis, 1); }
      EXPECT_EQ(ScratchPool::RetainedBytes(), before);
      { ScratchVector<char> v(100000, 1); }
      EXPECT_EQ(ScratchPool::RetainedBytes(), before + small);
    }
    kept = ScratchVector<char>();
    EXPECT_EQ(ScratchPool::RetainedBytes(), before + small + large);
  }).join();
}

// No more than kRetained bytes are kept.
TEST(ScratchPool, KeepsAtMostItsLimit) {
  std::thread([] {
    std::vector<ScratchVector<char>> blocks;
    for (int i = 0; i < 6; ++i) {
      blocks.emplace_back(ScratchPool::kRetained / 4);
    }
    blocks.clear();
    EXPECT_LE(ScratchPool::RetainedBytes(), ScratchPool::kRetained);
    EXPECT_GE(ScratchPool::RetainedBytes(), ScratchPool::kRetained / 2);
  }).join();
}

}  // namespace
}  // namespace memory_internal
}  // namespace hlolayout

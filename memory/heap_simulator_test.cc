#include "hlolayout/memory/heap_simulator.h"

#include "gtest/gtest.h"

namespace hlolayout {
namespace {

TEST(HeapSimulator, ReusesFreedGap) {
  HeapTrace trace;
  trace.Alloc(0, 1024);
  trace.Alloc(1, 512);
  trace.Free(0, 1024);
  trace.Alloc(2, 1024);
  trace.Free(1, 512);
  trace.Free(2, 1024);
  HeapLayout heap = ChooseBestHeap(trace, {0, 1, 2}, 256);
  EXPECT_EQ(heap.chunks[2].offset, 0);
  EXPECT_EQ(heap.chunks[1].offset, 1024);
  EXPECT_EQ(heap.heap_size, 1536);
}

}  // namespace
}  // namespace hlolayout

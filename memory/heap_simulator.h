// memory/heap_simulator.h: XLA's default heap algorithm, which lays out the
// temp buffers of a buffer assignment (docs/memory.md, "The heap").
//
// The caller replays a schedule as a trace of events, in XLA's order: a
// buffer is allocated (Alloc), placed where another one already is
// (ShareWith: an in-place update, or a value sharing its loop's buffer), and
// freed (Free). XLA's GlobalDecreasingSizeBestFitHeap turns the trace into
// intervals on an event clock (each Alloc, ShareWith and Free advances it),
// sorts them (spatial: larger first; temporal: longer-lived first) and gives
// each the best fitting free gap among the chunks of the intervals it
// overlaps; ChooseBestHeap keeps the smaller of the two layouts.
//
//   HeapTrace trace;
//   trace.Alloc(0, 1024);        // buffer 0: 1024 bytes
//   trace.Alloc(1, 512);
//   trace.Free(0, 1024);
//   trace.Alloc(2, 1024);        // overlaps 1 only: reuses 0's offset
//   trace.Free(1, 512);
//   trace.Free(2, 1024);
//   HeapLayout heap = ChooseBestHeap(trace, {0, 1, 2}, /*alignment=*/256);
//   // heap.chunks[2].offset == 0, heap.chunks[1].offset == 1024,
//   // heap.heap_size == 1536
//
// Preconditions (checked): buffers are 0 .. n-1; each is allocated or
// shared once, before it is freed, and a shared buffer's target was
// allocated or shared before; `tie_keys` has one entry per buffer (XLA's
// value ids: the last tie-break of both orders); alignment > 0.
#ifndef HLOLAYOUT_MEMORY_HEAP_SIMULATOR_H_
#define HLOLAYOUT_MEMORY_HEAP_SIMULATOR_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"

namespace hlolayout {

struct HeapEvent {
  enum Kind : uint8_t { kAlloc, kFree, kShareWith };
  Kind kind = kAlloc;
  int64_t buffer = 0;
  int64_t size = 0;
  int64_t target = -1;  // kShareWith: the buffer whose place it takes
  bool operator==(const HeapEvent& o) const {
    return kind == o.kind && buffer == o.buffer && size == o.size &&
           target == o.target;
  }
};

// The events of one heap simulation, in order.
class HeapTrace {
 public:
  void Alloc(int64_t buffer, int64_t size) {
    Add({HeapEvent::kAlloc, buffer, size, -1});
  }
  // `size`: the size of the shared group after this buffer joined it.
  void ShareWith(int64_t buffer, int64_t target, int64_t size) {
    Add({HeapEvent::kShareWith, buffer, size, target});
  }
  void Free(int64_t buffer, int64_t size) {
    Add({HeapEvent::kFree, buffer, size, -1});
  }
  // Room for `events` events, when their count is known beforehand (no
  // growth by doubling).
  void Reserve(size_t events) { events_.reserve(events); }
  const std::vector<HeapEvent>& events() const { return events_; }
  // 1 + the largest buffer id met.
  int64_t buffers() const { return buffers_; }

 private:
  void Add(const HeapEvent& e) {
    events_.push_back(e);
    if (e.buffer + 1 > buffers_) buffers_ = e.buffer + 1;
  }
  std::vector<HeapEvent> events_;
  int64_t buffers_ = 0;
};

enum class HeapStrategy : uint8_t {
  kSpatial,   // by size (desc), own interval length (desc), tie key
  kTemporal,  // by colocation span (desc), size (desc), tie key
  // In the order the buffers are allocated (the start of their interval,
  // then the tie key), each shared group over its whole span (no buffer
  // fits between two of its members): XLA:TPU's HBM heap, observed
  // (docs/xla-tpu.md).
  kAllocationOrder,
};

struct HeapChunk {
  int64_t offset = 0;
  int64_t size = 0;  // the size of its shared group (0: never placed)
  bool operator==(const HeapChunk& o) const {
    return offset == o.offset && size == o.size;
  }
};

struct HeapLayout {
  std::vector<HeapChunk> chunks;  // by buffer
  int64_t heap_size = 0;          // the largest chunk end (not aligned)
  HeapStrategy strategy = HeapStrategy::kSpatial;
};

// XLA's GlobalDecreasingSizeBestFitHeap with one sort order.
HeapLayout GlobalDecreasingSizeBestFit(const HeapTrace& trace,
                                       absl::Span<const int64_t> tie_keys,
                                       int64_t alignment,
                                       HeapStrategy strategy);

// The spatial and temporal strategies; the smaller heap wins, the spatial
// one on ties (XLA's ChooseBestHeapAlgorithm).
HeapLayout ChooseBestHeap(const HeapTrace& trace,
                          absl::Span<const int64_t> tie_keys,
                          int64_t alignment);

// The most bytes allocated at once when the trace is replayed with each
// buffer's own size (`sizes`): an Alloc adds its size, a ShareWith adds the
// size of the group's first buffer when it is the group's only live member,
// a Free takes a group's bytes away when its last member goes. This is how
// XLA's ComputePeakMemory reads the heap trace of a buffer assignment.
int64_t HeapTracePeak(const HeapTrace& trace, absl::Span<const int64_t> sizes);

// The first moment of that peak: the bytes, the index of the event after
// which they are first reached (-1 for an empty trace), and the buffers
// that are allocated or shared and not yet freed then, in increasing order
// (every member of a shared group, not only the one whose size counts).
struct HeapTraceMoment {
  int64_t bytes = 0;
  int64_t event = -1;
  std::vector<int64_t> live;
};
HeapTraceMoment HeapTracePeakMoment(const HeapTrace& trace,
                                    absl::Span<const int64_t> sizes);

}  // namespace hlolayout

#endif  // HLOLAYOUT_MEMORY_HEAP_SIMULATOR_H_

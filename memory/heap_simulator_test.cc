#include "hlolayout/memory/heap_simulator.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <tuple>
#include <vector>

#include "gtest/gtest.h"

namespace hlolayout {
namespace {

// ---------------------------------------------------------------------------
// A second, plain implementation of the same rules (quadratic: every placed
// interval is looked at for every new one), for the random comparisons.
struct RefInterval {
  int64_t size = 0, start = -1, end = -1;
  int64_t root = -1;  // the allocated buffer whose chunk it shares
};

HeapLayout ReferenceBestFit(const HeapTrace& trace,
                            const std::vector<int64_t>& keys, int64_t align,
                            HeapStrategy strategy) {
  const int64_t n = trace.buffers();
  std::vector<RefInterval> in(n);
  int64_t clock = 0;
  for (const HeapEvent& e : trace.events()) {
    if (e.kind == HeapEvent::kFree) {
      if (e.size > 0 && in[e.buffer].start >= 0) in[e.buffer].end = clock++;
      continue;
    }
    if (e.size == 0) continue;
    in[e.buffer].size = e.size;
    in[e.buffer].start = clock++;
    in[e.buffer].root =
        e.kind == HeapEvent::kAlloc ? e.buffer : in[e.target].root;
  }
  for (RefInterval& r : in) {
    if (r.start >= 0 && r.end < 0) r.end = clock;
  }
  std::vector<int64_t> roots;
  for (int64_t b = 0; b < n; ++b) {
    if (in[b].start >= 0 && in[b].root == b) roots.push_back(b);
  }
  auto members = [&](int64_t r) {
    std::vector<int64_t> m;
    for (int64_t b = 0; b < n; ++b) {
      if (in[b].start >= 0 && in[b].root == r) m.push_back(b);
    }
    return m;
  };
  auto span = [&](int64_t r) {
    int64_t s = in[r].start, e = in[r].end;
    for (int64_t b : members(r)) {
      s = std::min(s, in[b].start);
      e = std::max(e, in[b].end);
    }
    return e - s;
  };
  std::sort(roots.begin(), roots.end(), [&](int64_t a, int64_t b) {
    if (strategy == HeapStrategy::kSpatial) {
      return std::make_tuple(-in[a].size, in[a].start - in[a].end, keys[a]) <
             std::make_tuple(-in[b].size, in[b].start - in[b].end, keys[b]);
    }
    if (strategy == HeapStrategy::kAllocationOrder) {
      return std::make_tuple(in[a].start, keys[a]) <
             std::make_tuple(in[b].start, keys[b]);
    }
    return std::make_tuple(-span(a), -in[a].size, keys[a]) <
           std::make_tuple(-span(b), -in[b].size, keys[b]);
  });
  if (strategy == HeapStrategy::kAllocationOrder) {
    // Each member of a shared group lives over the group's whole span.
    for (int64_t r : roots) {
      const std::vector<int64_t> mine = members(r);
      int64_t s = in[r].start, e = in[r].end;
      for (int64_t b : mine) {
        s = std::min(s, in[b].start);
        e = std::max(e, in[b].end);
      }
      for (int64_t b : mine) {
        in[b].start = s;
        in[b].end = e;
      }
    }
  }
  HeapLayout out;
  out.strategy = strategy;
  out.chunks.assign(n, HeapChunk());
  std::vector<bool> placed(n, false);
  for (int64_t r : roots) {
    const std::vector<int64_t> mine = members(r);
    int64_t size = 0;
    for (int64_t b : mine) size = std::max(size, in[b].size);
    std::vector<HeapChunk> busy;
    for (int64_t other = 0; other < n; ++other) {
      if (!placed[other]) continue;
      for (int64_t b : mine) {
        if (in[other].start <= in[b].end && in[b].start <= in[other].end) {
          busy.push_back(out.chunks[other]);
          break;
        }
      }
    }
    std::sort(busy.begin(), busy.end(),
              [](const HeapChunk& x, const HeapChunk& y) {
                return x.offset < y.offset;
              });
    // The free gaps between runs of busy chunks, from offset 0; the last
    // one is unbounded.
    auto round = [&](int64_t x) { return (x + align - 1) / align * align; };
    int64_t best = -1, best_size = 0, cursor = 0;
    for (size_t k = 0; k < busy.size();) {
      const int64_t run_start = busy[k].offset;
      int64_t run_end = busy[k].offset + busy[k].size;
      for (++k; k < busy.size() && busy[k].offset < run_end; ++k) {
        run_end = std::max(run_end, busy[k].offset + busy[k].size);
      }
      const int64_t gap_start = round(cursor);
      const int64_t gap = run_start - gap_start;
      if (run_start > cursor && gap >= in[r].size &&
          gap_start + size <= run_start && (best < 0 || gap < best_size)) {
        best = gap_start;
        best_size = gap;
      }
      cursor = std::max(cursor, run_end);
    }
    if (best < 0) best = round(cursor);
    for (int64_t b : mine) {
      out.chunks[b] = {best, size};
      placed[b] = true;
    }
    out.heap_size = std::max(out.heap_size, best + size);
  }
  return out;
}

// A random trace: buffers allocated (or shared with one about to be freed,
// or with a live one) and freed in a random interleaving.
HeapTrace RandomTrace(std::mt19937_64& rng, int64_t* buffers) {
  HeapTrace trace;
  const int64_t n = 1 + static_cast<int64_t>(rng() % 40);
  std::vector<int64_t> live;
  std::vector<int64_t> size(n);
  int64_t next = 0;
  const int64_t sizes[] = {0, 1, 4, 16, 100, 256, 300, 1024, 4096};
  while (next < n || !live.empty()) {
    const bool start = next < n && (live.empty() || rng() % 3 != 0);
    if (start) {
      const int64_t b = next++;
      size[b] = sizes[rng() % 9];
      if (!live.empty() && rng() % 4 == 0) {
        const int64_t target = live[rng() % live.size()];
        size[b] = std::max(size[b], size[target]);
        if (size[target] == 0) size[b] = 0;
        trace.ShareWith(b, target, size[b]);
      } else {
        trace.Alloc(b, size[b]);
      }
      live.push_back(b);
    } else {
      const size_t k = rng() % live.size();
      trace.Free(live[k], size[live[k]]);
      live.erase(live.begin() + k);
    }
  }
  *buffers = n;
  return trace;
}

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

TEST(HeapSimulator, AllocatedBeforeFreedOverlaps) {
  // XLA allocates a step's outputs before it frees the step's last uses:
  // buffer 2 starts on the event clock before 0 and 1 end.
  HeapTrace trace;
  trace.Alloc(0, 4096);
  trace.Alloc(1, 8192);
  trace.Alloc(2, 8192);
  trace.Free(0, 4096);
  trace.Free(1, 8192);
  trace.Free(2, 8192);
  HeapLayout heap = ChooseBestHeap(trace, {0, 1, 2}, 256);
  EXPECT_EQ(heap.heap_size, 4096 + 8192 + 8192);
}

TEST(HeapSimulator, AlignsOffsets) {
  HeapTrace trace;
  trace.Alloc(0, 4);
  trace.Alloc(1, 1);
  trace.Free(0, 4);
  trace.Free(1, 1);
  HeapLayout gpu = ChooseBestHeap(trace, {0, 1}, 256);
  EXPECT_EQ(gpu.chunks[1].offset, 256);
  EXPECT_EQ(gpu.heap_size, 257);  // not rounded up
  HeapLayout cpu = ChooseBestHeap(trace, {0, 1}, 64);
  EXPECT_EQ(cpu.chunks[1].offset, 64);
}

TEST(HeapSimulator, EqualBuffersGoByTieKey) {
  // Same size, same life: the smaller key is placed first, at offset 0.
  HeapTrace trace;
  trace.Alloc(0, 512);
  trace.Alloc(1, 512);
  trace.Free(0, 512);
  trace.Free(1, 512);
  HeapLayout a =
      GlobalDecreasingSizeBestFit(trace, {7, 3}, 256, HeapStrategy::kSpatial);
  EXPECT_EQ(a.chunks[1].offset, 0);
  EXPECT_EQ(a.chunks[0].offset, 512);
  HeapLayout b =
      GlobalDecreasingSizeBestFit(trace, {3, 7}, 256, HeapStrategy::kSpatial);
  EXPECT_EQ(b.chunks[0].offset, 0);
}

TEST(HeapSimulator, SharedBuffersTakeOneChunkOfTheLargerSize) {
  HeapTrace trace;
  trace.Alloc(0, 256);
  trace.Free(0, 256);
  trace.ShareWith(1, 0, 512);  // an in-place update, larger
  trace.Alloc(2, 256);
  trace.Free(1, 512);
  trace.Free(2, 256);
  HeapLayout heap = ChooseBestHeap(trace, {0, 1, 2}, 256);
  EXPECT_EQ(heap.chunks[0], heap.chunks[1]);
  EXPECT_EQ(heap.chunks[0].size, 512);
  // 2 lives with 1, not with 0: it cannot overlap the group's chunk.
  EXPECT_TRUE(heap.chunks[2].offset >= 512 || heap.chunks[0].offset >= 256);
  EXPECT_EQ(heap.heap_size, 768);
}

TEST(HeapSimulator, SizeZeroBuffersAreAtZero) {
  HeapTrace trace;
  trace.Alloc(0, 0);
  trace.Alloc(1, 64);
  trace.Free(0, 0);
  trace.Free(1, 64);
  HeapLayout heap = ChooseBestHeap(trace, {0, 1}, 64);
  EXPECT_EQ(heap.chunks[0], (HeapChunk{0, 0}));
  EXPECT_EQ(heap.chunks[1].offset, 0);
}

TEST(HeapSimulator, TieGoesToSpatial) {
  // 0 and 2 are equal in size and live at once; 0's own interval is the
  // shorter, but 1 shares its chunk later, so 0's span is the longer:
  // spatial places 2 first, temporal 0 first, both in 1,024 bytes.
  HeapTrace trace;
  trace.Alloc(0, 512);
  trace.Alloc(2, 512);
  trace.Free(0, 512);
  trace.ShareWith(1, 0, 512);
  trace.Free(2, 512);
  trace.Free(1, 512);
  const std::vector<int64_t> keys = {0, 1, 2};
  const HeapLayout best = ChooseBestHeap(trace, keys, 512);
  EXPECT_EQ(best.strategy, HeapStrategy::kSpatial);
  EXPECT_EQ(best.chunks[2].offset, 0);
  const HeapLayout temporal =
      GlobalDecreasingSizeBestFit(trace, keys, 512, HeapStrategy::kTemporal);
  EXPECT_EQ(temporal.chunks[0].offset, 0);
  EXPECT_EQ(temporal.chunks[1].offset, 0);
  EXPECT_EQ(temporal.chunks[2].offset, 512);
  EXPECT_EQ(best.heap_size, temporal.heap_size);
}

TEST(HeapSimulator, AllocationOrderPlacesBuffersAsTheyCome) {
  // A chain a -> b -> c where each overlaps the next only (XLA:TPU's HBM
  // heap of a v5p cumsum: 65,536, 32,768 and 131,072 bytes). Placed in
  // the order they are allocated, c cannot take a's place (b sits above
  // it), so nothing is reused; the spatial and temporal layouts put c
  // first and a in its place.
  HeapTrace trace;
  trace.Alloc(0, 65536);
  trace.Alloc(1, 32768);
  trace.Free(0, 65536);
  trace.Alloc(2, 131072);
  trace.Free(1, 32768);
  trace.Free(2, 131072);
  const std::vector<int64_t> keys = {0, 1, 2};
  const HeapLayout heap = GlobalDecreasingSizeBestFit(
      trace, keys, 16384, HeapStrategy::kAllocationOrder);
  EXPECT_EQ(heap.strategy, HeapStrategy::kAllocationOrder);
  EXPECT_EQ(heap.chunks[0].offset, 0);
  EXPECT_EQ(heap.chunks[1].offset, 65536);
  EXPECT_EQ(heap.chunks[2].offset, 98304);
  EXPECT_EQ(heap.heap_size, 229376);
  EXPECT_EQ(ChooseBestHeap(trace, keys, 16384).heap_size, 163840);
}

TEST(HeapSimulator, TemporalWinsWhenSmaller) {
  // A long-lived small buffer and short-lived large ones: placing the
  // long-lived one first (temporal) keeps the large ones together.
  HeapTrace trace;
  trace.Alloc(0, 100);   // lives long
  trace.Alloc(1, 1000);  // short
  trace.Free(1, 1000);
  trace.Alloc(2, 900);
  trace.Free(2, 900);
  trace.Alloc(3, 950);
  trace.Free(0, 100);
  trace.Free(3, 950);
  const std::vector<int64_t> keys = {0, 1, 2, 3};
  HeapLayout best = ChooseBestHeap(trace, keys, 1);
  HeapLayout spatial =
      GlobalDecreasingSizeBestFit(trace, keys, 1, HeapStrategy::kSpatial);
  HeapLayout temporal =
      GlobalDecreasingSizeBestFit(trace, keys, 1, HeapStrategy::kTemporal);
  EXPECT_EQ(best.heap_size, std::min(spatial.heap_size, temporal.heap_size));
  EXPECT_EQ(best.strategy, temporal.heap_size < spatial.heap_size
                               ? HeapStrategy::kTemporal
                               : HeapStrategy::kSpatial);
}

TEST(HeapSimulator, AllocationOrderKeepsASharedGroupsWholeSpan) {
  // 0 is a loop's state: 1 shares its chunk after a gap in which 2 lives
  // (with 3). XLA's temporal layout puts 2 in the gap, at 0; XLA:TPU's HBM
  // heap keeps the group's whole span and puts 2 above it.
  HeapTrace trace;
  trace.Alloc(0, 512);
  trace.Alloc(3, 512);  // allocated first: the group is placed before 2
  trace.Free(0, 512);
  trace.Alloc(2, 512);
  trace.Free(2, 512);
  trace.ShareWith(1, 0, 512);
  trace.Free(3, 512);
  trace.Free(1, 512);
  const std::vector<int64_t> keys = {0, 1, 2, 3};
  const HeapLayout heap = GlobalDecreasingSizeBestFit(
      trace, keys, 512, HeapStrategy::kAllocationOrder);
  EXPECT_EQ(heap.chunks[0].offset, 0);
  EXPECT_EQ(heap.chunks[1].offset, 0);
  EXPECT_EQ(heap.chunks[3].offset, 512);
  EXPECT_EQ(heap.chunks[2].offset, 1024);
  EXPECT_EQ(
      GlobalDecreasingSizeBestFit(trace, keys, 512, HeapStrategy::kTemporal)
          .chunks[2]
          .offset,
      0);
}

TEST(HeapSimulator, TracePeakCountsSharedGroupsOnce) {
  HeapTrace trace;
  trace.Alloc(0, 100);
  trace.ShareWith(1, 0, 100);
  trace.Alloc(2, 50);
  trace.Free(0, 100);
  trace.Free(2, 50);
  trace.Free(1, 100);
  EXPECT_EQ(HeapTracePeak(trace, {100, 100, 50}), 150);
}

TEST(HeapSimulator, TracePeakMomentNamesTheBuffersLiveThen) {
  HeapTrace trace;
  trace.Alloc(0, 100);
  trace.ShareWith(1, 0, 100);
  trace.Alloc(2, 50);  // event 2: 150 bytes, the first time
  trace.Free(0, 100);
  trace.Free(2, 50);
  trace.Alloc(3, 50);  // 150 again, later: the moment stays at event 2
  trace.Free(1, 100);
  trace.Free(3, 50);
  const HeapTraceMoment m = HeapTracePeakMoment(trace, {100, 100, 50, 50});
  EXPECT_EQ(m.bytes, 150);
  EXPECT_EQ(m.event, 2);
  EXPECT_EQ(m.live, (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(HeapTracePeakMoment(HeapTrace(), {}).event, -1);
}

// On random traces: the prefix of the trace up to the moment reaches the
// peak at its last event, and the live buffers are those allocated or
// shared in the prefix and not freed in it.
TEST(HeapSimulator, TracePeakMomentIsThePrefixPeak) {
  std::mt19937_64 rng(20261125);
  for (int round = 0; round < 2000; ++round) {
    const int64_t n = 1 + static_cast<int64_t>(rng() % 12);
    std::vector<int64_t> sizes(n);
    for (int64_t& x : sizes) x = 1 + static_cast<int64_t>(rng() % 64);
    HeapTrace trace;
    std::vector<int64_t> live;
    for (int64_t b = 0; b < n; ++b) {
      if (!live.empty() && rng() % 3 == 0) {
        const int64_t i = static_cast<int64_t>(rng() % live.size());
        trace.Free(live[i], sizes[live[i]]);
        live.erase(live.begin() + i);
      }
      if (!live.empty() && rng() % 4 == 0) {
        trace.ShareWith(b, live[rng() % live.size()], sizes[b]);
      } else {
        trace.Alloc(b, sizes[b]);
      }
      live.push_back(b);
    }
    for (int64_t b : live) trace.Free(b, sizes[b]);

    const HeapTraceMoment m = HeapTracePeakMoment(trace, sizes);
    ASSERT_EQ(m.bytes, HeapTracePeak(trace, sizes));
    ASSERT_GE(m.event, 0);
    HeapTrace prefix;
    std::vector<char> in(n, 0);
    for (int64_t k = 0; k <= m.event; ++k) {
      const HeapEvent& e = trace.events()[k];
      if (e.kind == HeapEvent::kAlloc) prefix.Alloc(e.buffer, e.size);
      if (e.kind == HeapEvent::kShareWith) {
        prefix.ShareWith(e.buffer, e.target, e.size);
      }
      if (e.kind == HeapEvent::kFree) prefix.Free(e.buffer, e.size);
      in[e.buffer] = e.kind != HeapEvent::kFree;
    }
    ASSERT_EQ(HeapTracePeak(prefix, sizes), m.bytes) << "round " << round;
    std::vector<int64_t> want;
    for (int64_t b = 0; b < n; ++b) {
      if (in[b]) want.push_back(b);
    }
    ASSERT_EQ(m.live, want) << "round " << round;
  }
}

TEST(HeapSimulator, MatchesReferenceOnRandomTraces) {
  std::mt19937_64 rng(20261123);
  for (int round = 0; round < 3000; ++round) {
    int64_t n = 0;
    const HeapTrace trace = RandomTrace(rng, &n);
    std::vector<int64_t> keys(n);
    for (int64_t b = 0; b < n; ++b) keys[b] = static_cast<int64_t>(rng() % 8);
    const int64_t align = (round % 3 == 0) ? 1 : (round % 3 == 1 ? 64 : 256);
    for (HeapStrategy s : {HeapStrategy::kSpatial, HeapStrategy::kTemporal,
                           HeapStrategy::kAllocationOrder}) {
      const HeapLayout got = GlobalDecreasingSizeBestFit(trace, keys, align, s);
      const HeapLayout want = ReferenceBestFit(trace, keys, align, s);
      ASSERT_EQ(got.chunks, want.chunks) << "round " << round;
      ASSERT_EQ(got.heap_size, want.heap_size) << "round " << round;
    }
  }
}

TEST(HeapSimulator, RandomLayoutsNeverOverlapLiveBuffers) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 3000; ++round) {
    int64_t n = 0;
    const HeapTrace trace = RandomTrace(rng, &n);
    std::vector<int64_t> keys(n);
    for (int64_t b = 0; b < n; ++b) keys[b] = b;
    const int64_t align = round % 2 == 0 ? 64 : 256;
    const HeapLayout heap = ChooseBestHeap(trace, keys, align);
    // Intervals and groups from the trace, independently.
    std::vector<int64_t> start(n, -1), end(n, -1), group(n, -1), size(n, 0);
    int64_t clock = 0;
    for (const HeapEvent& e : trace.events()) {
      if (e.kind == HeapEvent::kFree) {
        end[e.buffer] = clock++;
      } else {
        start[e.buffer] = clock++;
        size[e.buffer] = e.size;
        group[e.buffer] =
            e.kind == HeapEvent::kAlloc ? e.buffer : group[e.target];
      }
    }
    int64_t top = 0;
    for (int64_t a = 0; a < n; ++a) {
      const HeapChunk& ca = heap.chunks[a];
      ASSERT_GE(ca.size, size[a]);
      if (size[a] == 0) continue;
      ASSERT_EQ(ca.offset % align, 0);
      top = std::max(top, ca.offset + ca.size);
      for (int64_t b = a + 1; b < n; ++b) {
        const HeapChunk& cb = heap.chunks[b];
        if (size[b] == 0 || group[a] == group[b]) continue;
        const bool live_together = start[a] <= end[b] && start[b] <= end[a];
        const bool overlap =
            ca.offset < cb.offset + cb.size && cb.offset < ca.offset + ca.size;
        ASSERT_FALSE(live_together && overlap)
            << "round " << round << ": buffers " << a << " and " << b;
      }
    }
    ASSERT_EQ(heap.heap_size, top);
  }
}

}  // namespace
}  // namespace hlolayout

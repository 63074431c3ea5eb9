// XLA's GlobalDecreasingSizeBestFitHeap (memory/heap_simulator.h;
// docs/memory.md, "The heap").
#include "hlolayout/memory/heap_simulator.h"

#include <algorithm>
#include <numeric>
#include <tuple>
#include <utility>

#include "hlolayout/util/check.h"

namespace hlolayout {
namespace {

// One buffer's interval on the event clock.
struct Interval {
  int64_t size = 0;
  int64_t start = -1, end = -1;
  bool need_allocation = false;  // false: shares another's chunk
  // The buffers that share this one's chunk directly (ShareWith), as a
  // list: first_child, then each child's next_sibling.
  int64_t first_child = -1, last_child = -1, next_sibling = -1;
};

int64_t AlignUp(int64_t x, int64_t alignment) {
  return (x + alignment - 1) / alignment * alignment;
}

// Intervals sorted by start, as an implicit balanced tree (the middle of
// each range is its node) with, per node, the largest end among the placed
// intervals of its subtree: a query visits only subtrees holding a placed
// interval that ends at or after the query's start.
class PlacedIntervals {
 public:
  PlacedIntervals(const std::vector<Interval>& intervals,
                  const std::vector<int64_t>& members)
      : order_(members) {
    std::sort(order_.begin(), order_.end(), [&](int64_t a, int64_t b) {
      return std::tie(intervals[a].start, a) < std::tie(intervals[b].start, b);
    });
    start_.resize(order_.size());
    end_.resize(order_.size());
    max_end_.assign(order_.size(), -1);
    placed_.assign(order_.size(), false);
    slot_.assign(intervals.size(), -1);
    for (size_t k = 0; k < order_.size(); ++k) {
      start_[k] = intervals[order_[k]].start;
      end_[k] = intervals[order_[k]].end;
      slot_[order_[k]] = static_cast<int64_t>(k);
    }
  }

  void Place(int64_t buffer) {
    const int64_t k = slot_[buffer];
    placed_[k] = true;
    int64_t lo = 0, hi = static_cast<int64_t>(order_.size());
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      max_end_[mid] = std::max(max_end_[mid], end_[k]);
      if (mid == k) break;
      if (k < mid) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
  }

  // Calls fn(buffer) for every placed interval overlapping [s, e].
  template <typename Fn>
  void Overlapping(int64_t s, int64_t e, Fn fn) const {
    Visit(0, static_cast<int64_t>(order_.size()), s, e, fn);
  }

 private:
  template <typename Fn>
  void Visit(int64_t lo, int64_t hi, int64_t s, int64_t e, Fn& fn) const {
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      if (max_end_[mid] < s) return;
      Visit(lo, mid, s, e, fn);
      if (start_[mid] > e) return;
      if (placed_[mid] && end_[mid] >= s) fn(order_[mid]);
      lo = mid + 1;
    }
  }

  std::vector<int64_t> order_, start_, end_, max_end_, slot_;
  std::vector<bool> placed_;
};

}  // namespace

HeapLayout GlobalDecreasingSizeBestFit(const HeapTrace& trace,
                                       absl::Span<const int64_t> tie_keys,
                                       int64_t alignment,
                                       HeapStrategy strategy) {
  HLOLAYOUT_CHECK(alignment > 0) << "alignment " << alignment;
  const int64_t n = trace.buffers();
  HLOLAYOUT_CHECK(static_cast<int64_t>(tie_keys.size()) >= n)
      << tie_keys.size() << " tie keys for " << n << " buffers";
  HeapLayout out;
  out.strategy = strategy;
  out.chunks.assign(n, HeapChunk());
  std::vector<Interval> intervals(n);
  std::vector<int64_t> members;  // buffers with an interval
  int64_t clock = 0;
  for (const HeapEvent& e : trace.events()) {
    HLOLAYOUT_CHECK(e.buffer >= 0 && e.buffer < n) << "buffer " << e.buffer;
    Interval& it = intervals[e.buffer];
    switch (e.kind) {
      case HeapEvent::kAlloc:
      case HeapEvent::kShareWith:
        HLOLAYOUT_CHECK(it.start < 0) << "buffer " << e.buffer << " twice";
        if (e.size == 0) break;  // size 0: offset 0, no clock tick
        it.size = e.size;
        it.start = clock++;
        it.need_allocation = e.kind == HeapEvent::kAlloc;
        members.push_back(e.buffer);
        if (e.kind == HeapEvent::kShareWith) {
          HLOLAYOUT_CHECK(e.target >= 0 && e.target < n &&
                          intervals[e.target].start >= 0)
              << "buffer " << e.buffer << " shares an unplaced buffer";
          Interval& target = intervals[e.target];
          if (target.last_child < 0) {
            target.first_child = e.buffer;
          } else {
            intervals[target.last_child].next_sibling = e.buffer;
          }
          target.last_child = e.buffer;
        }
        break;
      case HeapEvent::kFree:
        if (e.size == 0 || it.start < 0) break;
        HLOLAYOUT_CHECK(it.end < 0) << "buffer " << e.buffer << " freed twice";
        it.end = clock++;
        break;
    }
  }
  for (int64_t b : members) {
    if (intervals[b].end < 0) intervals[b].end = clock;  // never freed
  }
  // Transitive colocations of an interval that needs a chunk, into `out`.
  std::vector<int64_t> stack;
  auto colocations = [&](int64_t b, std::vector<int64_t>* out) {
    out->clear();
    stack.clear();
    for (int64_t c = intervals[b].first_child; c >= 0;
         c = intervals[c].next_sibling) {
      stack.push_back(c);
    }
    while (!stack.empty()) {
      const int64_t c = stack.back();
      stack.pop_back();
      out->push_back(c);
      for (int64_t d = intervals[c].first_child; d >= 0;
           d = intervals[d].next_sibling) {
        stack.push_back(d);
      }
    }
  };
  std::vector<int64_t> roots;
  std::vector<int64_t> span_start(n), span_end(n), chunk_size(n);
  std::vector<int64_t> group;
  for (int64_t b : members) {
    if (!intervals[b].need_allocation) continue;
    roots.push_back(b);
    colocations(b, &group);
    span_start[b] = intervals[b].start;
    span_end[b] = intervals[b].end;
    chunk_size[b] = intervals[b].size;
    for (int64_t c : group) {
      span_start[b] = std::min(span_start[b], intervals[c].start);
      span_end[b] = std::max(span_end[b], intervals[c].end);
      chunk_size[b] = std::max(chunk_size[b], intervals[c].size);
    }
  }
  auto key = [&](int64_t b) { return tie_keys[b]; };
  if (strategy == HeapStrategy::kSpatial) {
    std::sort(roots.begin(), roots.end(), [&](int64_t a, int64_t b) {
      const Interval& x = intervals[a];
      const Interval& y = intervals[b];
      return std::make_tuple(-x.size, x.start - x.end, key(a)) <
             std::make_tuple(-y.size, y.start - y.end, key(b));
    });
  } else {
    std::sort(roots.begin(), roots.end(), [&](int64_t a, int64_t b) {
      return std::make_tuple(span_start[a] - span_end[a], -intervals[a].size,
                             key(a)) <
             std::make_tuple(span_start[b] - span_end[b], -intervals[b].size,
                             key(b));
    });
  }
  PlacedIntervals placed(intervals, members);
  std::vector<HeapChunk> taken;
  std::vector<int64_t> seen(n, -1);
  for (int64_t b : roots) {
    colocations(b, &group);
    const std::vector<int64_t>& g = group;
    const int64_t size = chunk_size[b];
    taken.clear();
    auto collect = [&](int64_t other) {
      if (seen[other] == b) return;
      seen[other] = b;
      taken.push_back(out.chunks[other]);
    };
    placed.Overlapping(intervals[b].start, intervals[b].end, collect);
    for (int64_t c : g) {
      placed.Overlapping(intervals[c].start, intervals[c].end, collect);
    }
    std::sort(taken.begin(), taken.end(),
              [](const HeapChunk& x, const HeapChunk& y) {
                return x.offset < y.offset;
              });
    // Free gaps between the merged runs of taken chunks; the smallest gap
    // that fits wins, the lowest on ties; the last gap is unbounded.
    int64_t best_offset = -1, best_size = 0;
    int64_t gap_start = 0;
    auto consider = [&](int64_t start, int64_t end) {  // end < 0: unbounded
      const int64_t aligned = AlignUp(start, alignment);
      if (end >= 0) {
        if (end - aligned < intervals[b].size) return;
        if (aligned + size > end) return;
        if (best_offset < 0 || end - aligned < best_size) {
          best_offset = aligned;
          best_size = end - aligned;
        }
      } else if (best_offset < 0) {
        best_offset = aligned;
      }
    };
    size_t k = 0;
    while (k < taken.size()) {
      const int64_t run_start = taken[k].offset;
      int64_t run_end = taken[k].offset + taken[k].size;
      ++k;
      while (k < taken.size() && taken[k].offset < run_end) {
        run_end = std::max(run_end, taken[k].offset + taken[k].size);
        ++k;
      }
      if (run_start > gap_start) consider(gap_start, run_start);
      gap_start = std::max(gap_start, run_end);
    }
    consider(gap_start, -1);
    const HeapChunk chunk{best_offset, size};
    out.chunks[b] = chunk;
    placed.Place(b);
    for (int64_t c : g) {
      out.chunks[c] = chunk;
      placed.Place(c);
    }
    out.heap_size = std::max(out.heap_size, chunk.offset + chunk.size);
  }
  return out;
}

HeapLayout ChooseBestHeap(const HeapTrace& trace,
                          absl::Span<const int64_t> tie_keys,
                          int64_t alignment) {
  HeapLayout spatial = GlobalDecreasingSizeBestFit(trace, tie_keys, alignment,
                                                   HeapStrategy::kSpatial);
  HeapLayout temporal = GlobalDecreasingSizeBestFit(trace, tie_keys, alignment,
                                                    HeapStrategy::kTemporal);
  return temporal.heap_size < spatial.heap_size ? std::move(temporal)
                                                : std::move(spatial);
}

int64_t HeapTracePeak(const HeapTrace& trace, absl::Span<const int64_t> sizes) {
  return HeapTracePeakMoment(trace, sizes).bytes;
}

HeapTraceMoment HeapTracePeakMoment(const HeapTrace& trace,
                                    absl::Span<const int64_t> sizes) {
  const int64_t n = trace.buffers();
  std::vector<int64_t> root(n, -1), count(n, 0);
  auto size_of = [&](int64_t b) {
    return b < static_cast<int64_t>(sizes.size()) ? sizes[b] : 0;
  };
  const std::vector<HeapEvent>& events = trace.events();
  HeapTraceMoment m;
  int64_t live = 0;
  for (int64_t k = 0; k < static_cast<int64_t>(events.size()); ++k) {
    const HeapEvent& e = events[k];
    switch (e.kind) {
      case HeapEvent::kAlloc:
        root[e.buffer] = e.buffer;
        if (++count[e.buffer] == 1) live += size_of(e.buffer);
        break;
      case HeapEvent::kShareWith: {
        int64_t r = e.target;
        while (r >= 0 && root[r] != r && root[r] >= 0) r = root[r];
        root[e.buffer] = r;
        if (r >= 0 && ++count[r] == 1) live += size_of(r);
        break;
      }
      case HeapEvent::kFree: {
        const int64_t r = root[e.buffer];
        if (r >= 0 && --count[r] == 0) live -= size_of(r);
        break;
      }
    }
    if (m.event < 0 || live > m.bytes) {
      m.bytes = live;
      m.event = k;
    }
  }
  if (m.event < 0) return m;
  // The buffers in the heap just after the peak's event.
  std::vector<char> in(n, 0);
  for (int64_t k = 0; k <= m.event; ++k) {
    in[events[k].buffer] = events[k].kind != HeapEvent::kFree;
  }
  for (int64_t b = 0; b < n; ++b) {
    if (in[b]) m.live.push_back(b);
  }
  return m;
}

}  // namespace hlolayout

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
// interval that ends at or after the query's start. Intervals that start
// together may come in any order: a query finds the same set either way.
class PlacedIntervals {
 public:
  // `order`: the buffers in the tree, by start (not decreasing);
  // start_of(b), end_of(b): buffer b's interval; `buffers`: 1 + the
  // largest buffer id.
  template <typename StartOf, typename EndOf>
  PlacedIntervals(std::vector<int64_t> order, StartOf start_of, EndOf end_of,
                  size_t buffers)
      : order_(std::move(order)) {
    const size_t m = order_.size();
    start_.resize(m);
    end_.resize(m);
    max_end_.assign(m, -1);
    placed_.assign(m, 0);
    slot_.assign(buffers, -1);
    for (size_t k = 0; k < m; ++k) {
      const int64_t b = order_[k];
      start_[k] = start_of(b);
      end_[k] = end_of(b);
      HLOLAYOUT_CHECK(k == 0 || start_[k - 1] <= start_[k])
          << "interval of buffer " << b << " out of order";
      slot_[b] = static_cast<int64_t>(k);
    }
  }

  void Place(int64_t buffer) {
    const int64_t k = slot_[buffer];
    placed_[k] = 1;
    int64_t lo = 0, hi = static_cast<int64_t>(order_.size());
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      if (max_end_[mid] < end_[k]) max_end_[mid] = end_[k];
      if (mid == k) break;
      if (k < mid) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
  }

  // Calls fn(buffer) for every placed interval overlapping [s, e], in the
  // order they start: the tree walked in order with a stack of the nodes
  // whose left subtree is being walked (a recursion's calls cost more than
  // the walk). A subtree whose placed intervals all end before s is
  // skipped; past a node that starts after e, so is everything after it.
  template <typename Fn>
  void Overlapping(int64_t s, int64_t e, Fn fn) const {
    struct Pending {
      int64_t mid, hi;  // node mid, then the range (mid, hi) on its right
    };
    Pending stack[64];  // the tree's depth: at most 63 for 2^63 intervals
    int depth = 0;
    int64_t lo = 0, hi = static_cast<int64_t>(order_.size());
    while (true) {
      while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (max_end_[mid] < s) break;
        stack[depth++] = Pending{mid, hi};
        hi = mid;
      }
      if (depth == 0) return;
      const Pending next = stack[--depth];
      if (start_[next.mid] > e) return;
      if (placed_[next.mid] && end_[next.mid] >= s) fn(order_[next.mid]);
      lo = next.mid + 1;
      hi = next.hi;
    }
  }

 private:
  std::vector<int64_t> order_, start_, end_, max_end_, slot_;
  std::vector<char> placed_;
};

// The intervals of a trace's buffers on its event clock, and the buffers
// that have one (size > 0), in the order they start.
struct TraceIntervals {
  std::vector<Interval> intervals;
  std::vector<int64_t> members;
};

TraceIntervals IntervalsOf(const HeapTrace& trace, int64_t n) {
  TraceIntervals t;
  t.intervals.resize(n);
  t.members.reserve(n);  // each buffer at most once
  int64_t clock = 0;
  for (const HeapEvent& e : trace.events()) {
    HLOLAYOUT_CHECK(e.buffer >= 0 && e.buffer < n) << "buffer " << e.buffer;
    Interval& it = t.intervals[e.buffer];
    switch (e.kind) {
      case HeapEvent::kAlloc:
      case HeapEvent::kShareWith:
        HLOLAYOUT_CHECK(it.start < 0) << "buffer " << e.buffer << " twice";
        if (e.size == 0) break;  // size 0: offset 0, no clock tick
        it.size = e.size;
        it.start = clock++;
        it.need_allocation = e.kind == HeapEvent::kAlloc;
        t.members.push_back(e.buffer);
        if (e.kind == HeapEvent::kShareWith) {
          HLOLAYOUT_CHECK(e.target >= 0 && e.target < n &&
                          t.intervals[e.target].start >= 0)
              << "buffer " << e.buffer << " shares an unplaced buffer";
          Interval& target = t.intervals[e.target];
          if (target.last_child < 0) {
            target.first_child = e.buffer;
          } else {
            t.intervals[target.last_child].next_sibling = e.buffer;
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
  for (int64_t b : t.members) {
    if (t.intervals[b].end < 0) t.intervals[b].end = clock;  // never freed
  }
  return t;
}

// Places the buffers that need a chunk, each with the buffers that share
// it, as XLA's GlobalDecreasingSizeBestFitHeap does. What every strategy
// reads (the intervals, the roots, each root's span and chunk size) is
// found once, so ChooseBestHeap packs its two layouts from one packer.
class BestFitPacker {
 public:
  BestFitPacker(TraceIntervals t, absl::Span<const int64_t> tie_keys,
                int64_t alignment)
      : intervals_(std::move(t.intervals)),
        members_(std::move(t.members)),
        tie_keys_(tie_keys),
        alignment_(alignment) {
    FindRoots();
  }

  HeapLayout Pack(HeapStrategy strategy) {
    HeapLayout out;
    out.strategy = strategy;
    out.chunks.assign(intervals_.size(), HeapChunk());
    // Widened (allocation order), every member of a shared group takes its
    // root's span (no other buffer fits in the time between two members,
    // XLA:TPU's HBM heap, observed), so the root alone stands for the group
    // in the tree, over the span: with every member there, each query over
    // the span would find the group's chunk once per member. The roots
    // come by their starts, which are their spans' starts (nothing shares
    // a buffer before it is allocated), all different: that order is the
    // allocation order's and the tree's, with no sort.
    const bool widened = strategy == HeapStrategy::kAllocationOrder;
    const std::vector<int64_t> roots = widened ? roots_ : SortedRoots(strategy);
    PlacedIntervals placed =
        widened
            ? PlacedIntervals(
                  roots_, [&](int64_t b) { return span_start_[b]; },
                  [&](int64_t b) { return span_end_[b]; }, intervals_.size())
            : PlacedIntervals(
                  members_, [&](int64_t b) { return intervals_[b].start; },
                  [&](int64_t b) { return intervals_[b].end; },
                  intervals_.size());
    std::vector<int64_t> seen(intervals_.size(), -1);
    for (int64_t b : roots) {
      Colocations(b, &group_);
      taken_.clear();
      auto collect = [&](int64_t other) {
        if (seen[other] == b) return;
        seen[other] = b;
        taken_.push_back(out.chunks[other]);
      };
      if (widened) {
        placed.Overlapping(span_start_[b], span_end_[b], collect);
      } else {
        placed.Overlapping(intervals_[b].start, intervals_[b].end, collect);
        for (int64_t c : group_) {
          placed.Overlapping(intervals_[c].start, intervals_[c].end, collect);
        }
      }
      const HeapChunk chunk{BestFitOffset(b), chunk_size_[b]};
      out.chunks[b] = chunk;
      placed.Place(b);
      for (int64_t c : group_) {
        out.chunks[c] = chunk;
        if (!widened) placed.Place(c);
      }
      out.heap_size = std::max(out.heap_size, chunk.offset + chunk.size);
    }
    return out;
  }

 private:
  // The buffers that share b's chunk, transitively, into `out`.
  void Colocations(int64_t b, std::vector<int64_t>* out) {
    out->clear();
    stack_.clear();
    for (int64_t c = intervals_[b].first_child; c >= 0;
         c = intervals_[c].next_sibling) {
      stack_.push_back(c);
    }
    while (!stack_.empty()) {
      const int64_t c = stack_.back();
      stack_.pop_back();
      out->push_back(c);
      for (int64_t d = intervals_[c].first_child; d >= 0;
           d = intervals_[d].next_sibling) {
        stack_.push_back(d);
      }
    }
  }

  // The buffers that need a chunk, in the order they start, and each one's
  // span over its colocations and its chunk's size.
  void FindRoots() {
    const size_t n = intervals_.size();
    span_start_.assign(n, 0);
    span_end_.assign(n, 0);
    chunk_size_.assign(n, 0);
    for (int64_t b : members_) {
      if (!intervals_[b].need_allocation) continue;
      roots_.push_back(b);
      Colocations(b, &group_);
      span_start_[b] = intervals_[b].start;
      span_end_[b] = intervals_[b].end;
      chunk_size_[b] = intervals_[b].size;
      for (int64_t c : group_) {
        span_start_[b] = std::min(span_start_[b], intervals_[c].start);
        span_end_[b] = std::max(span_end_[b], intervals_[c].end);
        chunk_size_[b] = std::max(chunk_size_[b], intervals_[c].size);
      }
    }
  }

  // The roots in the order they are placed. Spatial: larger first, then
  // longer, then the tie key; temporal: longer span first, then larger,
  // then the tie key. The keys are copied next to each root before the
  // sort (looked up through the root at every comparison, they cost more
  // than the sort); the same comparisons in the same order give the same
  // order.
  std::vector<int64_t> SortedRoots(HeapStrategy strategy) const {
    struct Keyed {
      int64_t first, second, tie, root;
    };
    std::vector<Keyed> keyed;
    keyed.reserve(roots_.size());
    for (int64_t r : roots_) {
      const Interval& x = intervals_[r];
      if (strategy == HeapStrategy::kSpatial) {
        keyed.push_back(Keyed{-x.size, x.start - x.end, tie_keys_[r], r});
      } else {
        keyed.push_back(
            Keyed{span_start_[r] - span_end_[r], -x.size, tie_keys_[r], r});
      }
    }
    std::sort(keyed.begin(), keyed.end(), [](const Keyed& x, const Keyed& y) {
      if (x.first != y.first) return x.first < y.first;
      if (x.second != y.second) return x.second < y.second;
      return x.tie < y.tie;
    });
    std::vector<int64_t> roots(keyed.size());
    for (size_t k = 0; k < keyed.size(); ++k) roots[k] = keyed[k].root;
    return roots;
  }

  // The offset for root b among the chunks taken over its span: the
  // smallest free gap between the merged runs of taken chunks that fits
  // wins, the lowest on ties; the last gap is unbounded.
  int64_t BestFitOffset(int64_t b) {
    std::sort(taken_.begin(), taken_.end(),
              [](const HeapChunk& x, const HeapChunk& y) {
                return x.offset < y.offset;
              });
    const int64_t size = chunk_size_[b];
    int64_t best_offset = -1, best_size = 0;
    auto consider = [&](int64_t start, int64_t end) {  // end < 0: unbounded
      const int64_t aligned = AlignUp(start, alignment_);
      if (end >= 0) {
        if (end - aligned < intervals_[b].size) return;
        if (aligned + size > end) return;
        if (best_offset < 0 || end - aligned < best_size) {
          best_offset = aligned;
          best_size = end - aligned;
        }
      } else if (best_offset < 0) {
        best_offset = aligned;
      }
    };
    int64_t gap_start = 0;
    size_t k = 0;
    while (k < taken_.size()) {
      const int64_t run_start = taken_[k].offset;
      int64_t run_end = taken_[k].offset + taken_[k].size;
      ++k;
      while (k < taken_.size() && taken_[k].offset < run_end) {
        run_end = std::max(run_end, taken_[k].offset + taken_[k].size);
        ++k;
      }
      if (run_start > gap_start) consider(gap_start, run_start);
      gap_start = std::max(gap_start, run_end);
    }
    consider(gap_start, -1);
    return best_offset;
  }

  std::vector<Interval> intervals_;
  std::vector<int64_t> members_;  // buffers with an interval, by start
  absl::Span<const int64_t> tie_keys_;
  int64_t alignment_;
  std::vector<int64_t> roots_;  // the members that need a chunk, by start
  std::vector<int64_t> span_start_, span_end_, chunk_size_;  // by root
  std::vector<int64_t> group_, stack_;                       // scratch
  std::vector<HeapChunk> taken_;                             // scratch
};

// The trace's checks, then its packer.
BestFitPacker PackerOf(const HeapTrace& trace,
                       absl::Span<const int64_t> tie_keys, int64_t alignment) {
  HLOLAYOUT_CHECK(alignment > 0) << "alignment " << alignment;
  const int64_t n = trace.buffers();
  HLOLAYOUT_CHECK(static_cast<int64_t>(tie_keys.size()) >= n)
      << tie_keys.size() << " tie keys for " << n << " buffers";
  return BestFitPacker(IntervalsOf(trace, n), tie_keys, alignment);
}

}  // namespace

HeapLayout GlobalDecreasingSizeBestFit(const HeapTrace& trace,
                                       absl::Span<const int64_t> tie_keys,
                                       int64_t alignment,
                                       HeapStrategy strategy) {
  return PackerOf(trace, tie_keys, alignment).Pack(strategy);
}

HeapLayout ChooseBestHeap(const HeapTrace& trace,
                          absl::Span<const int64_t> tie_keys,
                          int64_t alignment) {
  BestFitPacker packer = PackerOf(trace, tie_keys, alignment);
  HeapLayout spatial = packer.Pack(HeapStrategy::kSpatial);
  HeapLayout temporal = packer.Pack(HeapStrategy::kTemporal);
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

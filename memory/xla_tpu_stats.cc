// memory/xla_tpu_stats.cc: XLA:TPU's compiled.memory_analysis() temp and
// peak figures, from the model of its buffer assignment. XLA:TPU's source
// is not public: these rules were learned from what XLA:TPU answers for
// the modules of the differential harness (libtpu 0.0.42.1; docs/xla-tpu.md,
// "memory_analysis()", gives each with its evidence). Nothing of libtpu was
// read.
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/optional.h"
#include "hlolayout/memory/buffer_assignment_internal.h"

namespace hlolayout {
namespace buffer_internal {
namespace {

int64_t Elements(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape.dimensions()) {
    if (d <= 0) return 0;
    if (__builtin_mul_overflow(n, d, &n)) return -1;
  }
  return n;
}

// Instructions whose one-element results the scalar unit computes: the
// elementwise ones, copies and the plumbing of loops and branches.
bool IsScalarUnitOpcode(absl::string_view op) {
  static const char* const kOps[] = {"abs",
                                     "add",
                                     "and",
                                     "bitcast",
                                     "bitcast-convert",
                                     "clamp",
                                     "compare",
                                     "conditional",
                                     "convert",
                                     "copy",
                                     "divide",
                                     "get-tuple-element",
                                     "maximum",
                                     "minimum",
                                     "multiply",
                                     "negate",
                                     "not",
                                     "or",
                                     "parameter",
                                     "power",
                                     "remainder",
                                     "select",
                                     "shift-left",
                                     "shift-right-arithmetic",
                                     "shift-right-logical",
                                     "sign",
                                     "subtract",
                                     "while",
                                     "xor"};
  for (const char* k : kOps) {
    if (op == k) return true;
  }
  return false;
}

// A value of the HBM temp allocation that is data (what makes XLA:TPU
// count the allocation): not a tuple's index table, and not a one-element
// result of the scalar unit (a loop's counter or condition, a branch
// index).
bool IsDataValue(const MemoryAnalysis& analysis, const AssignedValue& v) {
  if (v.shape == nullptr || !v.shape->IsArray()) return false;
  if (Elements(*v.shape) > 1 || v.value < 0) return true;
  const LiveValue& lv = analysis.values[static_cast<size_t>(v.value)];
  const ScheduledInstruction& in =
      analysis.instructions[static_cast<size_t>(lv.instruction)];
  return !IsScalarUnitOpcode(in.opcode());
}

// a + b, or INT64_MAX where that overflows (sizes of one module's
// allocations, far below it, but never undefined).
int64_t Add(int64_t a, int64_t b) {
  int64_t sum = 0;
  return __builtin_add_overflow(a, b, &sum) ? INT64_MAX : sum;
}

int64_t RoundUp(int64_t n, int64_t to) { return Add(n, to - 1) / to * to; }

// The bytes of [0, end) that some value of `temp` covers: the length of the
// union of its values' ranges [offset, offset + size).
int64_t CoveredBytes(const BufferAllocation& temp) {
  std::vector<std::pair<int64_t, int64_t>> ranges;
  ranges.reserve(temp.values.size());
  for (const AssignedValue& v : temp.values) {
    if (v.size > 0) ranges.emplace_back(v.offset, Add(v.offset, v.size));
  }
  std::sort(ranges.begin(), ranges.end());
  int64_t covered = 0, begin = 0, end = -1;
  for (const auto& r : ranges) {
    if (r.first > end) {
      if (end >= 0) covered = Add(covered, end - begin);
      begin = r.first;
      end = r.second;
    } else {
      end = std::max(end, r.second);
    }
  }
  if (end >= 0) covered = Add(covered, end - begin);
  return covered;
}

// temp_size_in_bytes: 0 when the HBM temp allocation holds no data value;
// otherwise twice its size rounded up to HBM's alignment, less the bytes
// its values cover: the rounded size once, and once more every byte of it
// that no value ever holds (docs/xla-tpu.md). Where the values sit at
// distinct offsets that do not overlap, this is the sum over the offsets of
// 2 r(s) - s (s the largest value at the offset, r(s) s rounded up).
int64_t TempBytes(const MemoryAnalysis& analysis,
                  const BufferAllocation& temp) {
  bool data = false;
  for (const AssignedValue& v : temp.values) {
    data = data || IsDataValue(analysis, v);
  }
  if (!data) return 0;
  const int64_t rounded = RoundUp(temp.size, XlaTpuAlignment(0));
  return Add(rounded, rounded) - CoveredBytes(temp);
}

// A conditional's result where its branches give different values (a phi):
// XLA:TPU's peak does not count it beside the branches' values it stands
// for (docs/xla-tpu.md: 17 peaks of the four generations' caches become
// XLA:TPU's on its own files, none is lost).
bool IsConditionalPhi(const MemoryAnalysis& analysis, const LiveValue& v) {
  if (!v.is_phi) return false;
  const ScheduledInstruction& in =
      analysis.instructions[static_cast<size_t>(v.instruction)];
  return in.opcode() == "conditional";
}

// The most bytes of values of memory space `color` live at once, every
// value of the live ranges counted with its own range and its XLA:TPU size,
// those that share a buffer (a loop's state in its body and after it)
// included: XLA:TPU counts a loop's VMEM state once in the body's parameter
// and once in the value the body writes into it. A conditional's phi is
// not counted.
int64_t SpacePeak(const MemoryAnalysis& analysis, int64_t color,
                  absl::optional<TpuGeneration> generation) {
  // The changes at each step: a value's size added (saturating) where it
  // starts and taken away after it ends, applied to a step's total in the
  // values' order; the totals summed in step order. A list sorted once,
  // not a map node a change.
  struct Change {
    int64_t at;
    int64_t size;
    bool add;
  };
  std::vector<Change> changes;
  for (const LiveValue& v : analysis.values) {
    if (v.memory_space() != color || v.shape() == nullptr) continue;
    if (v.end < v.start || IsConditionalPhi(analysis, v)) continue;
    const int64_t size = XlaTpuBufferBytes(*v.shape(), v.bytes(), generation);
    changes.push_back(Change{v.start, size, true});
    changes.push_back(Change{static_cast<int64_t>(v.end) + 1, size, false});
  }
  std::stable_sort(
      changes.begin(), changes.end(),
      [](const Change& x, const Change& y) { return x.at < y.at; });
  int64_t live = 0, peak = 0;
  for (size_t k = 0; k < changes.size();) {
    int64_t total = 0;
    const int64_t at = changes[k].at;
    for (; k < changes.size() && changes[k].at == at; ++k) {
      total = changes[k].add ? Add(total, changes[k].size)
                             : total - changes[k].size;
    }
    live += total;
    peak = std::max(peak, live);
  }
  return peak;
}

// The bytes of [coordinates.front(), coordinates.back()) that intervals
// added and not yet removed cover: a segment tree over the sorted distinct
// interval ends, each node with how many intervals cover it whole and the
// length covered below it.
class CoveredLength {
 public:
  explicit CoveredLength(std::vector<int64_t> coordinates)
      : x_(std::move(coordinates)),
        count_(4 * x_.size() + 4, 0),
        length_(4 * x_.size() + 4, 0) {}

  // Adds `delta` (+1 or -1) cover to [begin, end), two of the coordinates.
  void Add(int64_t begin, int64_t end, int delta) {
    const size_t b = Index(begin), e = Index(end);
    if (b < e) Update(1, 0, x_.size() - 1, b, e, delta);
  }
  int64_t covered() const { return length_[1]; }

 private:
  size_t Index(int64_t v) const {
    return static_cast<size_t>(std::lower_bound(x_.begin(), x_.end(), v) -
                               x_.begin());
  }
  // Node `n` spans [x_[lo], x_[hi]); the update spans [x_[b], x_[e]).
  void Update(size_t n, size_t lo, size_t hi, size_t b, size_t e, int delta) {
    if (hi <= lo || e <= lo || hi <= b) return;
    if (b <= lo && hi <= e) {
      count_[n] += delta;
    } else {
      const size_t mid = lo + (hi - lo) / 2;
      Update(2 * n, lo, mid, b, e, delta);
      Update(2 * n + 1, mid, hi, b, e, delta);
    }
    if (count_[n] > 0) {
      length_[n] = x_[hi] - x_[lo];
    } else if (hi - lo == 1) {
      length_[n] = 0;
    } else {
      length_[n] = length_[2 * n] + length_[2 * n + 1];
    }
  }

  std::vector<int64_t> x_;
  std::vector<int> count_;
  std::vector<int64_t> length_;
};

// The most bytes of the HBM temp allocations that their live array values
// cover at once, each byte once (values of one buffer, a loop's state in its
// body and after it, count once; tuple index tables are left out):
// docs/xla-tpu.md, learned on XLA:TPU's own files of the v5p zoo, checked on
// v4, v5e, v6e and the held-out sets.
int64_t HbmHeapPeak(const BufferAssignment& b) {
  struct Event {
    int64_t time, begin, end;
    int delta;
  };
  std::vector<Event> events;
  std::vector<int64_t> coordinates;
  int64_t base = 0;  // allocations laid end to end
  for (const BufferAllocation& a : b.allocations) {
    if (!a.is_temp() || a.color != 0) continue;
    for (const AssignedValue& v : a.values) {
      if (v.shape == nullptr || !v.shape->IsArray() || v.size <= 0) continue;
      if (v.start < 0 || v.end < v.start) continue;
      const int64_t begin = Add(base, v.offset);
      const int64_t end = Add(begin, v.size);
      events.push_back({v.start, begin, end, 1});
      events.push_back({Add(v.end, 1), begin, end, -1});
      coordinates.push_back(begin);
      coordinates.push_back(end);
    }
    base = Add(base, a.size);
  }
  if (events.empty()) return 0;
  std::sort(coordinates.begin(), coordinates.end());
  coordinates.erase(std::unique(coordinates.begin(), coordinates.end()),
                    coordinates.end());
  std::sort(events.begin(), events.end(),
            [](const Event& x, const Event& y) { return x.time < y.time; });
  CoveredLength covered(std::move(coordinates));
  int64_t peak = 0;
  for (size_t i = 0; i < events.size();) {
    const int64_t time = events[i].time;
    for (; i < events.size() && events[i].time == time; ++i) {
      covered.Add(events[i].begin, events[i].end, events[i].delta);
    }
    peak = std::max(peak, covered.covered());
  }
  return peak;
}

// What the peak adds to the static bytes: the peak of VMEM's (S(1)) or
// S(3)'s values, the size of S(6)'s temp allocation, or the HBM heap's
// peak of array values, whichever is largest.
int64_t ScopedSpacesPeak(const MemoryAnalysis& analysis,
                         const BufferAssignment& b) {
  const absl::optional<TpuGeneration> g = b.tpu_generation;
  int64_t peak = std::max(SpacePeak(analysis, 1, g), SpacePeak(analysis, 3, g));
  for (const BufferAllocation& a : b.allocations) {
    if (a.is_temp() && a.color == 6) peak = std::max(peak, a.size);
  }
  return std::max(peak, HbmHeapPeak(b));
}

}  // namespace

void SetXlaTpuMemoryStats(const MemoryAnalysis& analysis, BufferAssignment& b) {
  XlaMemoryStats& s = b.stats;
  int64_t temp = 0, constants = 0;
  for (const BufferAllocation& a : b.allocations) {
    if (a.is_constant) constants = Add(constants, a.size);
    if (a.is_temp() && a.color == 0) temp = Add(temp, TempBytes(analysis, a));
  }
  s.temp_size_in_bytes = temp;
  s.peak_memory_in_bytes =
      Add(Add(s.argument_size_in_bytes, s.output_size_in_bytes) -
              s.alias_size_in_bytes,
          Add(constants, ScopedSpacesPeak(analysis, b)));
}

}  // namespace buffer_internal
}  // namespace hlolayout

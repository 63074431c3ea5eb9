// memory/xla_tpu_stats.cc: XLA:TPU's compiled.memory_analysis() temp and
// peak figures, from the model of its buffer assignment. XLA:TPU's source
// is not public: these rules were learned from what XLA:TPU answers for
// the modules of the differential harness (libtpu 0.0.42.1; docs/xla-tpu.md,
// "memory_analysis()", gives each with its evidence). Nothing of libtpu was
// read.
#include <algorithm>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/string_view.h"
#include "absl/types/optional.h"
#include "absl/types/span.h"
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

// Whether each value of `temp` is written in place over a phi of its
// buffer: an array value at a phi's offset from the step the phi ends, or
// at the offset of such a value from the step that one ends (a loop's state
// updated in its body, step after step, until the next phi).
std::vector<bool> WrittenOverAPhi(const BufferAllocation& temp) {
  std::set<std::pair<int64_t, int64_t>> ends;  // (offset, end)
  std::vector<size_t> order;
  for (size_t i = 0; i < temp.values.size(); ++i) {
    const AssignedValue& v = temp.values[i];
    if (v.shape == nullptr || !v.shape->IsArray()) continue;
    if (v.start < 0 || v.end < v.start) continue;
    if (v.is_phi) {
      ends.emplace(v.offset, v.end);
    } else {
      order.push_back(i);
    }
  }
  std::stable_sort(order.begin(), order.end(), [&temp](size_t a, size_t b) {
    return temp.values[a].start < temp.values[b].start;
  });
  std::vector<bool> over(temp.values.size(), false);
  for (size_t i : order) {
    const AssignedValue& v = temp.values[i];
    if (ends.count({v.offset, v.start}) == 0) continue;
    over[i] = true;
    ends.emplace(v.offset, v.end);
  }
  return over;
}

// The most bytes of `temp` covered at one step by its live array values
// and its tuple index tables, each byte once, the tables counted at every
// step (whatever their own live ranges): the most bytes XLA:TPU's heap
// holds at once. A phi (a loop's state in its body's parameter or in the
// loop's result, a conditional's result) is not counted: the values it
// stands for are. Nor is a value written in place over a phi
// (WrittenOverAPhi: a loop's counter or state updated in its body, an
// update of a loop's result): docs/xla-tpu.md, "memory_analysis()",
// learned on XLA:TPU's own files of the v5p zoo.
int64_t TempPeakBytes(const BufferAllocation& temp) {
  const std::vector<bool> over = WrittenOverAPhi(temp);
  std::vector<HeapSpan> spans;
  spans.reserve(temp.values.size());
  int64_t first = INT64_MAX, last = INT64_MIN;
  for (size_t i = 0; i < temp.values.size(); ++i) {
    const AssignedValue& v = temp.values[i];
    if (v.shape == nullptr || !v.shape->IsArray() || v.size <= 0) continue;
    if (v.is_phi || over[i]) continue;
    if (v.start < 0 || v.end < v.start) continue;
    spans.push_back({v.start, Add(v.end, 1), v.offset, Add(v.offset, v.size)});
    first = std::min(first, spans.back().start);
    last = std::max(last, spans.back().stop);
  }
  if (spans.empty()) first = 0, last = 1;
  for (const AssignedValue& v : temp.values) {
    if (v.shape == nullptr || v.shape->IsArray() || v.size <= 0) continue;
    if (v.is_phi) continue;
    spans.push_back({first, last, v.offset, Add(v.offset, v.size)});
  }
  return PeakCoveredBytes(spans);
}

// temp_size_in_bytes: 0 when the HBM temp allocation holds no data value;
// otherwise twice its size rounded up to HBM's alignment, less the most
// bytes its heap holds at once (TempPeakBytes): the rounded size once, and
// once more what of it is never in use at the heap's fullest step (XLA's
// heap simulator calls that its fragmentation). docs/xla-tpu.md,
// "memory_analysis()": learned on XLA:TPU's own files of the v5p zoo,
// checked on v4, v5e, v6e and the held-out sets; it replaces 2 R - C (the
// bytes any value ever covers), which it gives where every value is live at
// the heap's fullest step.
int64_t TempBytes(const MemoryAnalysis& analysis,
                  const BufferAllocation& temp) {
  bool data = false;
  for (const AssignedValue& v : temp.values) {
    data = data || IsDataValue(analysis, v);
  }
  if (!data) return 0;
  const int64_t rounded = RoundUp(temp.size, XlaTpuAlignment(0));
  return Add(rounded, rounded) - TempPeakBytes(temp);
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

// The branch of a conditional each scheduled time runs in, the innermost
// one (walking out through loops and calls too), and what each branch reads
// of its conditional's operand: the last time at which an instruction of the
// branch reads each of those values (a get-tuple-element reads nothing).
// Branches are named by their computation index; -1 is no branch. Empty
// without the dataflow: every time then counts as no branch.
struct BranchReads {
  std::vector<int32_t> at_time;  // by schedule time
  std::vector<int32_t> of_computation;
  // (branch, value id) -> the last time the branch reads the value
  absl::flat_hash_map<std::pair<int32_t, int32_t>, int32_t> last_read;
};

int32_t BranchOf(const MemoryDataflow& d, int32_t computation,
                 std::vector<int32_t>& memo) {
  const size_t c = static_cast<size_t>(computation);
  if (memo[c] != -2) return memo[c];
  memo[c] = -1;  // no caller that runs (or a cycle): no branch
  for (int64_t site : d.computations[c].callsites) {
    const DataflowNode& caller = d.nodes[static_cast<size_t>(site)];
    if (caller.time < 0) continue;
    memo[c] = caller.opcode == HloOpcode::kConditional
                  ? computation
                  : BranchOf(d, caller.computation, memo);
    break;
  }
  return memo[c];
}

// Records, for branch computation `branch` run with operand `operand`, the
// last time each value of the operand is read inside the branch.
void RecordBranchReads(const MemoryDataflow& d, int32_t branch,
                       const DataflowNode& operand, BranchReads& out) {
  absl::flat_hash_set<int32_t> given;
  for (int32_t p = 0; p < operand.positions; ++p) {
    const int32_t v =
        d.positions[static_cast<size_t>(operand.first_position + p)].value;
    if (v >= 0) given.insert(v);
  }
  const DataflowComputation& c = d.computations[static_cast<size_t>(branch)];
  for (int64_t n = c.first_node; n < c.first_node + c.nodes; ++n) {
    const DataflowNode& reader = d.nodes[static_cast<size_t>(n)];
    if (reader.time < 0 || reader.opcode == HloOpcode::kGetTupleElement)
      continue;
    for (int64_t o : d.Operands(reader)) {
      const DataflowNode& read = d.nodes[static_cast<size_t>(o)];
      for (int32_t p = 0; p < read.positions; ++p) {
        const int32_t v =
            d.positions[static_cast<size_t>(read.first_position + p)].value;
        if (v < 0 || !given.contains(v)) continue;
        int32_t& last = out.last_read[{branch, v}];
        last = std::max(last, reader.time);
      }
    }
  }
}

BranchReads ReadBranches(const MemoryAnalysis& analysis) {
  BranchReads out;
  out.at_time.assign(static_cast<size_t>(analysis.schedule_end), -1);
  if (analysis.dataflow == nullptr) return out;
  const MemoryDataflow& d = *analysis.dataflow;
  out.of_computation.assign(d.computations.size(), -2);
  for (size_t c = 0; c < d.computations.size(); ++c) {
    BranchOf(d, static_cast<int32_t>(c), out.of_computation);
  }
  for (const DataflowNode& n : d.nodes) {
    if (n.time < 0 || n.time >= analysis.schedule_end) continue;
    out.at_time[static_cast<size_t>(n.time)] =
        out.of_computation[static_cast<size_t>(n.computation)];
    if (n.opcode != HloOpcode::kConditional || n.instruction < 0) continue;
    const absl::Span<const int64_t> branches = d.Callees(n.instruction);
    const absl::Span<const int64_t> operands = d.Operands(n);
    for (size_t k = 0; k < branches.size() && k + 1 < operands.size(); ++k) {
      RecordBranchReads(d, static_cast<int32_t>(branches[k]),
                        d.nodes[static_cast<size_t>(operands[k + 1])], out);
    }
  }
  return out;
}

// The peak of changes (branch, at, size, add) where a branch's changes are
// seen only at the times `at_time` puts in that branch: per branch, its
// times in order, each after the changes up to it (those of one step
// summed, saturating, before they are applied).
template <typename Change>
int64_t BranchPeak(std::vector<Change> changes,
                   const std::vector<int32_t>& at_time) {
  std::stable_sort(
      changes.begin(), changes.end(), [](const Change& x, const Change& y) {
        return x.branch != y.branch ? x.branch < y.branch : x.at < y.at;
      });
  std::vector<std::pair<int32_t, int64_t>> times;
  times.reserve(at_time.size());
  for (size_t t = 0; t < at_time.size(); ++t) {
    times.emplace_back(at_time[t], static_cast<int64_t>(t));
  }
  std::sort(times.begin(), times.end());
  int64_t live = 0, peak = 0;
  int32_t branch = -2;
  size_t k = 0;
  for (const auto& [b, t] : times) {
    if (b != branch) {
      branch = b;
      live = 0;
      while (k < changes.size() && changes[k].branch < b) ++k;
    }
    while (k < changes.size() && changes[k].branch == b && changes[k].at <= t) {
      int64_t total = 0;
      const int64_t at = changes[k].at;
      for (;
           k < changes.size() && changes[k].branch == b && changes[k].at == at;
           ++k) {
        total = changes[k].add ? Add(total, changes[k].size)
                               : total - changes[k].size;
      }
      live += total;
    }
    peak = std::max(peak, live);
  }
  return peak;
}

// The most bytes of values of memory space `color` live at once, every
// value of the live ranges counted with its own range and its XLA:TPU size,
// those that share a buffer (a loop's state in its body and after it)
// included: XLA:TPU counts a loop's VMEM state once in the body's parameter
// and once in the value the body writes into it. A conditional's phi is
// not counted; nor is a value nothing reads (live at one step only, its
// start its end); nor is any other phi at its first step, where the value
// it stands for (the loop's operand, or its body's result) ends
// (docs/xla-tpu.md, "memory_analysis()": learned on XLA:TPU's own files of
// the v5e zoo, checked on v4, v5p, v6e and the held-out sets). At a time
// inside a conditional's branch, only the values of that branch count
// (with their ranges), and of the others only the branch's operand values
// it still reads (up to its last read, whatever their ranges say); a
// branch's value does not count outside its branch (docs/xla-tpu.md:
// learned on v5e's cond_branches and switch_activation, checked on v4,
// v5p, v6e and the held-out sets).
int64_t SpacePeak(const MemoryAnalysis& analysis, int64_t color,
                  absl::optional<TpuGeneration> generation,
                  const BranchReads& branches) {
  // The changes of each branch (-1: none) at each step: a value's size
  // added (saturating) where it starts and taken away after it ends,
  // applied to a step's total in the values' order, and seen only at the
  // times that run in that branch. A list sorted once, not a map node a
  // change.
  struct Change {
    int32_t branch;
    int64_t at;
    int64_t size;
    bool add;
  };
  std::vector<Change> changes;
  const MemoryDataflow* d = analysis.dataflow.get();
  for (size_t id = 0; id < analysis.values.size(); ++id) {
    const LiveValue& v = analysis.values[id];
    if (v.memory_space() != color || v.shape() == nullptr) continue;
    if (v.end <= v.start || IsConditionalPhi(analysis, v)) continue;
    const int64_t size = XlaTpuBufferBytes(*v.shape(), v.bytes(), generation);
    const int64_t start = v.is_phi ? int64_t{v.start} + 1 : v.start;
    int32_t branch = -1;
    if (d != nullptr) {
      const DataflowNode& n = d->nodes[static_cast<size_t>(d->value_node[id])];
      branch = branches.of_computation[static_cast<size_t>(n.computation)];
    }
    changes.push_back(Change{branch, start, size, true});
    changes.push_back(Change{branch, int64_t{v.end} + 1, size, false});
  }
  for (const auto& read : branches.last_read) {
    const LiveValue& v =
        analysis.values[static_cast<size_t>(read.first.second)];
    if (v.memory_space() != color || v.shape() == nullptr) continue;
    const int64_t size = XlaTpuBufferBytes(*v.shape(), v.bytes(), generation);
    changes.push_back(Change{read.first.first, 0, size, true});
    changes.push_back(
        Change{read.first.first, int64_t{read.second} + 1, size, false});
  }
  return BranchPeak(std::move(changes), branches.at_time);
}

// The bytes that intervals added and not yet removed cover, each byte once:
// a segment tree kept bottom up over the elementary segments between the
// sorted distinct interval ends (leaf i spans [x[i], x[i + 1])), each node
// with how many intervals cover it whole and the length covered below it.
// An update walks the nodes of its range and then the two paths from its
// end leaves to the root, without recursion, through a raw pointer (the
// test build does not inline a vector's operator[]).
class CoveredLength {
 public:
  explicit CoveredLength(const std::vector<int64_t>& x) {
    const size_t segments = x.size() - 1;
    while (leaves_ < segments) leaves_ *= 2;
    nodes_.assign(2 * leaves_, Node{});
    node_ = nodes_.data();
    for (size_t i = 0; i < segments; ++i) {
      node_[leaves_ + i].width = x[i + 1] - x[i];
    }
    for (size_t n = leaves_ - 1; n >= 1; --n) {
      node_[n].width = node_[2 * n].width + node_[2 * n + 1].width;
    }
  }

  // Adds `delta` (+1 or -1) cover to the leaves [b, e).
  void Add(size_t b, size_t e, int delta) {
    if (e <= b) return;
    size_t lo = b + leaves_, hi = e + leaves_;
    const size_t first = lo, last = hi - 1;
    for (; lo < hi; lo /= 2, hi /= 2) {
      if (lo & 1) Cover(lo++, delta);
      if (hi & 1) Cover(--hi, delta);
    }
    size_t l = first / 2, r = last / 2;
    for (; l != r; l /= 2, r /= 2) {
      Pull(l);
      Pull(r);
    }
    for (; l >= 1; l /= 2) Pull(l);
  }
  // node_ points into nodes_: a copy would read the original's nodes.
  CoveredLength(const CoveredLength&) = delete;
  CoveredLength& operator=(const CoveredLength&) = delete;

  int64_t covered() const { return node_[1].length; }

 private:
  struct Node {
    int64_t width = 0;   // x's span under the node
    int64_t length = 0;  // the bytes of it covered
    int count = 0;       // intervals that cover it whole
  };
  void Cover(size_t n, int delta) {
    node_[n].count += delta;
    Pull(n);
  }
  void Pull(size_t n) {
    Node& node = node_[n];
    if (node.count > 0) {
      node.length = node.width;
    } else if (n >= leaves_) {
      node.length = 0;
    } else {
      node.length = node_[2 * n].length + node_[2 * n + 1].length;
    }
  }

  size_t leaves_ = 1;
  std::vector<Node> nodes_;
  Node* node_ = nullptr;
};

// A span's end (id 2 i + 1) or begin (2 i), keyed by its byte coordinate
// less the smallest one (so that the order of the keys, unsigned, is the
// coordinates').
struct ByteEnd {
  uint64_t key;
  uint32_t id;
};

// Sorts `ends` by key: a least significant digit radix sort, 11 bits a
// pass, as many passes as the largest key has digits, a pass skipped where
// every key has the same digit. Linear in the ends, where a comparison sort
// and a binary search of each end took n log n.
void SortByKey(std::vector<ByteEnd>& ends) {
  constexpr int kBits = 11;
  constexpr size_t kBuckets = size_t{1} << kBits;
  const size_t n = ends.size();
  uint64_t all = 0;
  for (size_t i = 0; i < n; ++i) all |= ends[i].key;
  std::vector<ByteEnd> other(n);
  ByteEnd* from = ends.data();
  ByteEnd* to = other.data();
  std::vector<size_t> count(kBuckets);
  size_t* at = count.data();
  for (int shift = 0; shift < 64 && (all >> shift) != 0; shift += kBits) {
    std::fill(count.begin(), count.end(), 0);
    for (size_t i = 0; i < n; ++i) ++at[(from[i].key >> shift) % kBuckets];
    if (at[(from[0].key >> shift) % kBuckets] == n) continue;
    size_t sum = 0;
    for (size_t d = 0; d < kBuckets; ++d) {
      const size_t c = at[d];
      at[d] = sum;
      sum += c;
    }
    for (size_t i = 0; i < n; ++i) {
      to[at[(from[i].key >> shift) % kBuckets]++] = from[i];
    }
    std::swap(from, to);
  }
  if (from != ends.data()) ends.swap(other);
}

}  // namespace

int64_t PeakCoveredBytes(absl::Span<const HeapSpan> spans) {
  if (spans.empty()) return 0;
  int64_t low = INT64_MAX, first = INT64_MAX, last = INT64_MIN;
  for (const HeapSpan& s : spans) {
    low = std::min(low, std::min(s.begin, s.end));
    first = std::min(first, s.start);
    last = std::max(last, s.stop);
  }
  // The ends sorted by their coordinates once: each distinct coordinate's
  // rank is the leaf it begins, and each span's two leaves are read off the
  // sorted ends as they are numbered.
  std::vector<ByteEnd> ends(2 * spans.size());
  for (size_t i = 0; i < spans.size(); ++i) {
    const uint64_t base = static_cast<uint64_t>(low);
    ends[2 * i] = {static_cast<uint64_t>(spans[i].begin) - base,
                   static_cast<uint32_t>(2 * i)};
    ends[2 * i + 1] = {static_cast<uint64_t>(spans[i].end) - base,
                       static_cast<uint32_t>(2 * i + 1)};
  }
  SortByKey(ends);
  std::vector<int64_t> x;
  x.reserve(ends.size());
  std::vector<uint32_t> leaf(ends.size());
  for (size_t k = 0; k < ends.size(); ++k) {
    if (k == 0 || ends[k].key != ends[k - 1].key) {
      x.push_back(
          static_cast<int64_t>(ends[k].key + static_cast<uint64_t>(low)));
    }
    leaf[ends[k].id] = static_cast<uint32_t>(x.size() - 1);
  }
  // The changes in time order: span i added at its start (2i) and removed at
  // its stop (2i + 1). A counting sort by time where the steps are few (a
  // schedule's), a comparison sort otherwise; the order within one time
  // does not change the bytes covered after it.
  std::vector<uint32_t> order(2 * spans.size());
  auto time = [&spans](uint32_t c) {
    return c % 2 == 0 ? spans[c / 2].start : spans[c / 2].stop;
  };
  const uint64_t range = static_cast<uint64_t>(last) - first;
  if (range < 4 * order.size() + 1024) {
    std::vector<uint32_t> at(range + 2, 0);
    for (uint32_t c = 0; c < order.size(); ++c) ++at[time(c) - first + 1];
    for (size_t t = 1; t < at.size(); ++t) at[t] += at[t - 1];
    for (uint32_t c = 0; c < order.size(); ++c) {
      order[at[time(c) - first]++] = c;
    }
  } else {
    for (uint32_t c = 0; c < order.size(); ++c) order[c] = c;
    std::sort(order.begin(), order.end(),
              [&time](uint32_t a, uint32_t b) { return time(a) < time(b); });
  }
  CoveredLength covered(x);
  int64_t peak = 0;
  for (size_t k = 0; k < order.size();) {
    const int64_t t = time(order[k]);
    for (; k < order.size() && time(order[k]) == t; ++k) {
      const uint32_t i = order[k] / 2;
      covered.Add(leaf[2 * i], leaf[2 * i + 1], order[k] % 2 == 0 ? 1 : -1);
    }
    peak = std::max(peak, covered.covered());
  }
  return peak;
}

namespace {

// The most bytes of the HBM temp allocations that their live array values
// cover at once, each byte once (values of one buffer, a loop's state in its
// body and after it, count once; tuple index tables are left out):
// docs/xla-tpu.md, learned on XLA:TPU's own files of the v5p zoo, checked on
// v4, v5e, v6e and the held-out sets.
int64_t HbmHeapPeak(const BufferAssignment& b) {
  std::vector<HeapSpan> spans;
  int64_t base = 0;  // allocations laid end to end
  for (const BufferAllocation& a : b.allocations) {
    if (!a.is_temp() || a.color != 0) continue;
    for (const AssignedValue& v : a.values) {
      if (v.shape == nullptr || !v.shape->IsArray() || v.size <= 0) continue;
      if (v.start < 0 || v.end < v.start) continue;
      const int64_t begin = Add(base, v.offset);
      spans.push_back({v.start, Add(v.end, 1), begin, Add(begin, v.size)});
    }
    base = Add(base, a.size);
  }
  return PeakCoveredBytes(spans);
}

// What the peak adds to the static bytes: the peak of VMEM's (S(1)) or
// S(3)'s values, the size of S(6)'s temp allocation, or the HBM heap's
// peak of array values, whichever is largest.
int64_t ScopedSpacesPeak(const MemoryAnalysis& analysis,
                         const BufferAssignment& b) {
  const absl::optional<TpuGeneration> g = b.tpu_generation;
  const BranchReads branches = ReadBranches(analysis);
  int64_t peak = std::max(SpacePeak(analysis, 1, g, branches),
                          SpacePeak(analysis, 3, g, branches));
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

// Live ranges, their normalization over values that share a buffer, the
// peaks and the memory curve (docs/memory.md, "Live ranges" and "The
// peak").
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <deque>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/hlo/attribute_value.h"
#include "hlolayout/memory/live_range_analyzer.h"
#include "hlolayout/memory/value_rules.h"
#include "hlolayout/util/side_by_side.h"

namespace hlolayout {
namespace memory_internal {
namespace {

// <0, 0 or >0 as std::string compares a with b (bytes as unsigned char, then
// the length), eight bytes at a time and without a call to memcmp: the values
// at the peak are sorted by name, and on a dump of many small fusions
// (tens of thousands of values of one size at the peak) memcmp's calls on
// names of a dozen bytes were a tenth of the analysis' time.
int TextCompare(absl::string_view a, absl::string_view b) {
  const size_t n = std::min(a.size(), b.size());
  size_t i = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  for (; i + 8 <= n; i += 8) {
    uint64_t x, y;
    std::memcpy(&x, a.data() + i, 8);
    std::memcpy(&y, b.data() + i, 8);
    if (x != y) return __builtin_bswap64(x) < __builtin_bswap64(y) ? -1 : 1;
  }
#endif
  for (; i < n; ++i) {
    const unsigned char x = static_cast<unsigned char>(a[i]);
    const unsigned char y = static_cast<unsigned char>(b[i]);
    if (x != y) return x < y ? -1 : 1;
  }
  return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
}

// Parameters (number, index) that input_output_alias names.
std::vector<std::pair<int64_t, std::vector<int64_t>>> AliasedParameters(
    const HloModule& module,
    std::vector<std::vector<int64_t>>* output_indices) {
  std::vector<std::pair<int64_t, std::vector<int64_t>>> out;
  // Read once by the reader (HloModuleHeader::input_output_alias).
  for (const HloAliasPair& pair : module.header.input_output_alias) {
    out.emplace_back(pair.number, pair.index);
    if (output_indices != nullptr) {
      output_indices->push_back(pair.output_index);
    }
  }
  return out;
}

}  // namespace

// The time of the async-done ending the chain of each computation an
// async-start calls (kNone for the others): XLA extends the live range of
// every value of an async computation to it (HloLiveRange's async
// context).
ScratchVector<int64_t> Analyzer::AsyncDoneTimes() const {
  ScratchVector<int64_t> done(comps_.size(), kNone);
  // From the node's own opcode class: reading the instruction record of
  // every node that forwards for its opcode missed the cache (1.5-2.8 ms on
  // a 75 MB dump without async chains).
  const auto continues = [](const Node& n) {
    return (n.op == Op::kAsyncUpdate || n.op == Op::kAsyncDone) &&
           !n.restored && n.operands_size > 0;
  };
  // The table of links is made only for a module with async chains (it
  // would otherwise be written for nothing at the analysis' peak).
  if (std::none_of(nodes_.begin(), nodes_.end(), continues)) return done;
  // start/update -> next; node ids fit 32 bits (kMostIds).
  ScratchVector<int32_t> next(nodes_.size(), kNone);
  for (size_t id = 0; id < nodes_.size(); ++id) {
    if (continues(nodes_[id])) {
      next[Operands(nodes_[id])[0]] = static_cast<int32_t>(id);
    }
  }
  for (size_t id = 0; id < nodes_.size(); ++id) {
    const Node& n = nodes_[id];
    if (n.op != Op::kAsyncStart) continue;
    int64_t last = static_cast<int64_t>(id);
    for (size_t steps = 0; next[last] != kNone && steps < nodes_.size();
         ++steps) {
      last = next[last];
    }
    const Node& end = nodes_[last];
    if (end.restored || end.op != Op::kAsyncDone || end.time == kNone) {
      continue;
    }
    for (int64_t callee : Callees(n)) {
      done[callee] = std::max<int64_t>(done[callee], end.time);
    }
  }
  // The context reaches the computations an async computation runs through
  // call, while and conditional, at any depth (HloLiveRange flattens them
  // in their caller's context); a nested async-start's own computation
  // keeps its own chain's async-done, given above. Seen on XLA:TPU's
  // SparseCore offloads: an async-start inside the computation a
  // `sparsecore` async computation calls lives until the outer async-done.
  for (bool grown = true; grown;) {
    grown = false;
    for (const Node& n : nodes_) {
      if (n.op != Op::kCall && n.op != Op::kWhile && n.op != Op::kConditional) {
        continue;
      }
      const int64_t from = done[n.computation];
      if (from == kNone) continue;
      for (int64_t callee : Callees(n)) {
        if (done[callee] == kNone) {
          done[callee] = from;
          grown = true;
        }
      }
    }
  }
  return done;
}

void Analyzer::LiveRanges() {
  std::vector<std::vector<int64_t>> outputs;
  const auto aliased = AliasedParameters(module_, &outputs);
  // Every position of a value keeps it live until its instruction's time,
  // a root's until its computation's end (XLA's GetLastPosition): a tuple
  // element that nothing uses but a get-tuple-element forwards lives until
  // that get-tuple-element. Taken into the use ends (a table of their own
  // was 4 bytes a value more at the analysis' peak): a value's own position
  // is at its start or later, so a range ends at the later of its last use
  // and its last position, or at its start when it has neither.
  for (size_t id = 0; id < nodes_.size(); ++id) {
    const Node& n = nodes_[id];
    if (n.time == kNone || n.subshapes.null()) continue;
    const int64_t to = PositionsEnd(id);
    for (int64_t p = n.first_position; p < to; ++p) {
      const int64_t v = value_of_[p];
      if (v != kNone) use_end_[v] = std::max(use_end_[v], n.time);
    }
  }
  for (const Comp& c : comps_) {
    if (c.root == kNone || c.span_end == kNone) continue;
    const Node& n = nodes_[c.root];
    for (size_t s = 0; s < n.subshapes.size(); ++s) {
      const int64_t v = value_of_[n.first_position + s];
      if (v != kNone) {
        use_end_[v] =
            static_cast<int32_t>(std::max<int64_t>(use_end_[v], c.span_end));
      }
    }
  }
  const ScratchVector<int64_t> async_end = AsyncDoneTimes();
  out_.values.reserve(value_def_position_.size());
  for (size_t v = 0; v < value_def_position_.size(); ++v) {
    const int64_t p = value_def_position_[v];
    const Node& node = nodes_[value_def_node_[v]];
    const Subshape& sub = node.subshapes[p - node.first_position];
    out_.values.emplace_back();
    LiveValue& value = out_.values.back();
    value.instruction = node.time;
    value.of = &sub;
    value.is_phi = v >= first_phi_value_;
    other_memory_spaces_ |= sub.memory_space != 0;
    if (node.time == kNone) {
      value.instruction = kNone;  // not scheduled: no live range
      continue;
    }
    int64_t start = node.time;
    int64_t end = use_end_[v];  // its last use or position
    const Comp& comp = comps_[node.computation];
    if (node.op == Op::kParameter && comp.span_start != kNone) {
      start = std::min<int64_t>(start, comp.span_start);
    }
    if (end == kNone) end = start;
    // A value of an async computation lives until its chain's async-done.
    if (async_end[node.computation] != kNone) {
      end = std::max(end, async_end[node.computation]);
    }
    if (node.op == Op::kParameter && node.computation == module_.entry_index &&
        !node.restored) {
      const int64_t number = node.ParameterNumber();
      bool has_alias = false;
      for (const auto& a : aliased) {
        if (a.first == number && a.second == sub.index) has_alias = true;
      }
      if (!has_alias) end = out_.schedule_end;
    }
    value.start = start;
    value.end = end;
  }
}

void Analyzer::UniteBuffers() {
  // Buffers: union-find over values that XLA's alias analysis puts in one.
  const int64_t n = static_cast<int64_t>(value_def_position_.size());
  // 32-bit tables: values are numbered in 32 bits (kMostIds).
  ScratchVector<int32_t>& parent = value_parent_;
  parent.resize(n);
  for (int64_t i = 0; i < n; ++i) parent[i] = i;
  ScratchVector<int8_t> has_update(comps_.size(), -1);
  for (size_t i = 0; i < nodes_.size(); ++i) {
    const int64_t id = static_cast<int64_t>(i);
    const Node& node = nodes_[id];
    if (node.op == Op::kWhile || node.op == Op::kConditional) {
      UniteControlFlow(id);
    } else if (node.op == Op::kDynamicUpdateSlice && node.operands_size > 0) {
      UniteValues(ValueAt(id, {}), ValueAt(Operands(node)[0], {}));
    } else if (node.op == Op::kFusion && !node.restored) {
      UniteInPlaceFusion(id, &has_update);
      UniteCustomCallAliases(id);  // a fusion's output_to_operand_aliasing
    } else if (node.op == Op::kAllReduceStart && !node.restored) {
      UniteAllReduceStart(id);
    } else if (node.op == Op::kCustomCall && !node.restored) {
      UniteCustomCallAliases(id);
    }
  }
  UniteInputOutputAliases();
}

void Analyzer::NormalizeBuffers() {
  const int64_t n = static_cast<int64_t>(out_.values.size());
  ScratchVector<int32_t>& parent = value_parent_;
  // The buffers of several values, grouped by a counting sort on their
  // root (parent[v] becomes v's root). Only those are listed, and the
  // tables the grouping needs are freed before the sorts: the instructions
  // may be listed meanwhile (Run), and what both hold peaks there.
  ScratchVector<int32_t> at(n, 0);  // by root: its values, then a cursor
  for (int64_t v = 0; v < n; ++v) {
    parent[v] = FindValueRoot(v);
    if (out_.values[v].instruction != kNone) ++at[parent[v]];
  }
  if (options_.keep_dataflow)
    value_buffer_.assign(parent.begin(), parent.end());
  std::vector<std::pair<int32_t, int32_t>> groups;  // (first, count)
  int32_t listed = 0;
  for (int64_t r = 0; r < n; ++r) {
    const int32_t count = at[r];
    if (count < 2) {
      at[r] = -1;
      continue;
    }
    groups.emplace_back(listed, count);
    at[r] = listed;
    listed += count;
  }
  ScratchVector<int32_t> grouped(listed);
  for (int64_t v = 0; v < n; ++v) {
    if (out_.values[v].instruction == kNone) continue;
    const int32_t r = parent[v];
    if (at[r] >= 0) grouped[at[r]++] = static_cast<int32_t>(v);
  }
  ScratchVector<int32_t>().swap(at);
  if (!options_.keep_dataflow) ScratchVector<int32_t>().swap(value_parent_);
  for (const auto& [first, count] : groups) {
    NormalizeBuffer(absl::MakeSpan(grouped.data() + first, count));
  }
}

inline int64_t Analyzer::FindValueRoot(int64_t x) {
  ScratchVector<int32_t>& parent = value_parent_;
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

inline void Analyzer::UniteValues(int64_t a, int64_t b) {
  if (a == kNone || b == kNone) return;
  a = FindValueRoot(a);
  b = FindValueRoot(b);
  if (a != b)
    value_parent_[std::max(a, b)] = static_cast<int32_t>(std::min(a, b));
}

inline int64_t Analyzer::ValueAt(int64_t node,
                                 absl::Span<const int64_t> index) const {
  if (node == kNone) return kNone;
  const int64_t p = PositionAt(node, index);
  return p == kNone ? kNone : value_of_[p];
}

void Analyzer::UniteControlFlow(int64_t id) {
  const Node& node = nodes_[id];
  const absl::Span<const int32_t> operands = Operands(node);
  if (node.op == Op::kConditional) {
    // Each branch's root.
    for (const Subshape& s : node.subshapes) {
      for (int64_t callee : Callees(node)) {
        UniteValues(ValueAt(id, s.index),
                    ValueAt(comps_[callee].root, s.index));
      }
    }
    return;
  }
  // A while: its init, its computations' parameters and its body's root.
  const int64_t body = Body(node);
  const int64_t cond = Condition(node);
  for (const Subshape& s : node.subshapes) {
    const int64_t w = ValueAt(id, s.index);
    if (!operands.empty()) UniteValues(w, ValueAt(operands[0], s.index));
    for (int64_t c : {body, cond}) {
      if (c == kNone) continue;
      const int64_t parameter = FirstParameter(c);
      if (comps_[c].parameters_size > 0) {
        UniteValues(w, ValueAt(parameter, s.index));
      }
    }
    if (body != kNone) UniteValues(w, ValueAt(comps_[body].root, s.index));
  }
}

namespace {

// The instruction `operand` names in `fused` (resolved by the reader).
const HloInstruction* Defining(const HloComputation& fused,
                               const HloOperand& operand) {
  return operand.index >= 0 ? &fused.instructions[operand.index] : nullptr;
}

// The fusion parameter that `root` updates in place when it is a
// dynamic-update-slice or scatter of one (through bitcasts), else kNone.
int64_t InPlaceParameter(const HloComputation& fused,
                         const HloInstruction* root) {
  if (root == nullptr || root->operands().empty()) return kNone;
  if (root->opcode != HloOpcode::kDynamicUpdateSlice &&
      root->opcode != HloOpcode::kScatter) {
    return kNone;
  }
  const HloInstruction* in = Defining(fused, root->operands()[0]);
  if (in == nullptr) return kNone;
  while (in != nullptr && in->opcode == HloOpcode::kBitcast &&
         !in->operands().empty()) {
    in = Defining(fused, in->operands()[0]);
  }
  if (in == nullptr || in->opcode != HloOpcode::kParameter) return kNone;
  return in->parameter_number.value_or(kNone);
}

}  // namespace

void Analyzer::UniteInPlaceFusion(int64_t id,
                                  ScratchVector<int8_t>* has_update) {
  // In place: the fused root (or a root tuple element) is a
  // dynamic-update-slice or scatter of a fusion parameter.
  const Node& node = nodes_[id];
  const absl::Span<const int32_t> operands = Operands(node);
  const int64_t fused_index = node.FusedComputation();
  if (fused_index < 0) return;
  const HloComputation& fused = *comps_[fused_index].source;
  if (fused.root_index < 0) return;
  // Most fusions update nothing in place: look once per computation.
  int8_t& updates = (*has_update)[fused_index];
  if (updates < 0) {
    updates = 0;
    for (const HloInstruction& in : fused.instructions) {
      if (in.opcode == HloOpcode::kDynamicUpdateSlice ||
          in.opcode == HloOpcode::kScatter) {
        updates = 1;
      }
    }
  }
  if (updates == 0) return;
  auto unite = [&](const HloInstruction* root,
                   const std::vector<int64_t>& out_index) {
    const int64_t param = InPlaceParameter(fused, root);
    if (param == kNone || param >= (int64_t)operands.size()) return;
    UniteValues(ValueAt(id, out_index), ValueAt(operands[param], {}));
  };
  const HloInstruction* root = &fused.instructions[fused.root_index];
  if (root->opcode == HloOpcode::kTuple) {
    for (size_t i = 0; i < root->operands().size(); ++i) {
      const HloInstruction* element = Defining(fused, root->operands()[i]);
      if (element != nullptr) unite(element, {static_cast<int64_t>(i)});
    }
  } else {
    unite(root, {});
  }
}

void Analyzer::UniteAllReduceStart(int64_t id) {
  // NCCL reduces in place: operand i is output {i} (the whole output
  // for one operand), one buffer in XLA's alias analysis (its in-place
  // pairs), unless the backend config names an NVSHMEM algorithm.
  const Node& node = nodes_[id];
  const absl::Span<const int32_t> operands = Operands(node);
  if (SourceOf(node)->backend_config_has(HloConfigHint::kNvshmem)) return;
  if (operands.size() == 1) {
    UniteValues(ValueAt(id, {}), ValueAt(operands[0], {}));
    return;
  }
  for (size_t i = 0; i < operands.size(); ++i) {
    UniteValues(ValueAt(id, {static_cast<int64_t>(i)}),
                ValueAt(operands[i], {}));
  }
}

void Analyzer::UniteCustomCallAliases(int64_t id) {
  const Node& node = nodes_[id];
  if (!node.may_alias_operands) return;
  const absl::Span<const int32_t> operands = Operands(node);
  // {{out}: (operand, {index}), ...}
  for (const HloAliasPair& pair : module_.operand_aliasing(*SourceOf(node))) {
    if (pair.number < (int64_t)operands.size()) {
      UniteValues(ValueAt(id, pair.output_index),
                  ValueAt(operands[pair.number], pair.index));
    }
  }
}

void Analyzer::UniteInputOutputAliases() {
  // input_output_alias: entry parameter value and root output value.
  std::vector<std::vector<int64_t>> outputs;
  const auto aliased = AliasedParameters(module_, &outputs);
  const Comp& entry = comps_[module_.entry_index];
  const absl::Span<const int64_t> entry_parameters = Parameters(entry);
  for (size_t i = 0; i < aliased.size(); ++i) {
    const int64_t number = aliased[i].first;
    if (number < (int64_t)entry_parameters.size()) {
      UniteValues(ValueAt(entry_parameters[number], aliased[i].second),
                  ValueAt(entry.root, outputs[i]));
    }
  }
}

void Analyzer::NormalizeBuffer(absl::Span<int32_t> values) {
  // Sorted by (start, end, id); the next range ends at the later of the two
  // ends, and a range ends no later than the next starts. The keys are
  // unique (the id breaks ties), so any sort gives this order; a merge sort
  // because a buffer's values often come as a few ascending runs (the
  // defined values, then the phis), where std::sort's quicksort fell back
  // to heap sort: normalizing a 75 MB dump's buffers (three of 12,444 to
  // 24,886 values, the states of loops sharing a body) took 7.3 ms, now
  // 4.5.
  std::stable_sort(values.begin(), values.end(), [&](int32_t a, int32_t b) {
    const LiveValue& x = out_.values[a];
    const LiveValue& y = out_.values[b];
    return std::tie(x.start, x.end, a) < std::tie(y.start, y.end, b);
  });
  for (size_t k = 0; k + 1 < values.size(); ++k) {
    LiveValue& a = out_.values[values[k]];
    LiveValue& b = out_.values[values[k + 1]];
    b.end = std::max(a.end, b.end);
    a.end = std::min(a.end, b.start);
  }
}

namespace {

// One peak search: over all memory (space -1) or one memory space.
// The live bytes compared at time t are the starts up to t less the ends
// before t: one array holds both, a value's start added at its start and
// its end taken one step after its end event (a single table by time, not
// one for starts and one for ends).
struct Sweep {
  int64_t space;
  ScratchVector<int64_t> events;  // bytes by time, ends shifted by one
  MemoryPeak peak;
};

// The peaks and the memory curve of an analysis' live values (Peaks).
// XLA sorts (start, +size) and (end + 1, -size) events by time, starts
// first, and keeps the first time the running sum is largest. Starts only
// add, so per time: add every start, compare, then take the ends. One
// pass over the values fills the events of every sweep (all memory, and
// each memory space); another, on a second thread when `parallel`, the
// memory curve (one pass wrote both before: the peaks of a 75 MB dump of
// 391,505 values took 18.6 ms, now 14.9, medians of 15 runs).
class PeakFinder {
 public:
  // `out`: an analysis' result, its values' shapes the analysis' own
  // (Subshape, which holds each one's sizes and memory space).
  // `other_spaces`: whether a value's memory space may be other than 0
  // (when not, one sweep serves space 0).
  PeakFinder(MemoryAnalysis* out, bool other_spaces, bool parallel)
      : out_(*out),
        other_spaces_(other_spaces),
        parallel_(parallel),
        end_(out->schedule_end) {}

  // False when the values' bytes together pass int64 (then nothing is
  // stored).
  bool Run() {
    bool curve_fits = true;
    SideTask curve(parallel_, [&] { curve_fits = FillCurve(); });
    sweep_of_.assign(out_.values.size(), -1);
    AddSweep(-1);
    const bool events_fit = AddEvents();
    curve.Join();
    if (!events_fit || !curve_fits) {
      out_.curve.clear();
      return false;
    }
    for (Sweep& s : sweeps_) FindPeak(&s);
    ListPeakValues();
    StorePeaks();
    return true;
  }

 private:
  Sweep& AddSweep(int64_t space);
  // The sweep of memory space `space`, added when first met.
  int32_t SpaceSweep(int64_t space);
  // Every sum of the search (events, running usage, the curve, a peak's
  // values) is bounded by the sum of all values' sizes, which is checked
  // as each value is added (XLA's sizes and the values' own): false, and
  // nothing added past the value that would pass int64.
  bool AddEvents();
  void FindPeak(Sweep* s) const;
  // The values live at each peak.
  void ListPeakValues();
  // Largest first, then by instruction name and index (the order XLA
  // prints).
  void SortPeakValues(MemoryPeak* peak) const;
  // The all-memory peak, then the spaces' by space.
  void StorePeaks();
  // Live bytes at every time (MemoryAnalysis::curve): the differences
  // summed in place (a table of their own was one more of the schedule's
  // length in fresh memory). Reads the values only. False, and the curve
  // left unfinished, when their bytes together pass int64.
  bool FillCurve();

  MemoryAnalysis& out_;
  const bool other_spaces_;
  const bool parallel_;
  static constexpr size_t kShapesAhead = 16;
  const int64_t end_;
  std::deque<Sweep> sweeps_;         // all memory, then spaces as they are met
  ScratchVector<int32_t> sweep_of_;  // value -> its space's sweep
  int32_t last_ = -1;                // the sweep of the last value's space
};

Sweep& PeakFinder::AddSweep(int64_t space) {
  sweeps_.emplace_back();
  Sweep& s = sweeps_.back();
  s.space = space;
  s.events.assign(end_ + 3, 0);
  s.peak.memory_space = space;
  return s;
}

int32_t PeakFinder::SpaceSweep(int64_t space) {
  if (last_ >= 0 && sweeps_[last_].space == space) return last_;
  last_ = -1;
  for (size_t k = 1; k < sweeps_.size(); ++k) {
    if (sweeps_[k].space == space) last_ = k;
  }
  if (last_ < 0) {
    AddSweep(space);
    last_ = static_cast<int32_t>(sweeps_.size()) - 1;
  }
  return last_;
}

bool PeakFinder::AddEvents() {
  Sweep& all = sweeps_.front();
  const size_t n = out_.values.size();
  int64_t total = 0, xla_total = 0;
  for (size_t v = 0; v < n; ++v) {
    const LiveValue& value = out_.values[v];
    // The values' shape lists are scattered: each read missed the cache.
    if (v + kShapesAhead < n) {
      Prefetch(out_.values[v + kShapesAhead].of, sizeof(Subshape));
    }
    if (value.instruction == kNone) continue;
    const Subshape& sub = *static_cast<const Subshape*>(value.of);
    // The size XLA's all-memory sweep counts: the defining instruction's
    // whole result, a tuple's index table only.
    const int64_t xla_size = sub.whole_bytes;
    if (__builtin_add_overflow(total, value.bytes(), &total) ||
        __builtin_add_overflow(xla_total, xla_size, &xla_total)) {
      return false;
    }
    const int64_t stop = std::min<int64_t>(int64_t{value.end} + 1, end_ + 1);
    all.events[value.start] += xla_size;
    all.events[stop + 1] -= xla_size;
    const int32_t k = SpaceSweep(other_spaces_ ? sub.memory_space : 0);
    Sweep& space = sweeps_[k];
    sweep_of_[v] = k;
    space.events[value.start] += value.bytes();
    space.events[stop + 1] -= value.bytes();
  }
  return true;
}

void PeakFinder::FindPeak(Sweep* s) const {
  int64_t usage = 0, best = 0;
  for (int64_t t = 0; t <= end_ + 1; ++t) {
    usage += s->events[t];
    if (usage > best) {
      best = usage;
      s->peak.time = t;
    }
  }
}

void PeakFinder::ListPeakValues() {
  MemoryPeak& all = sweeps_.front().peak;
  for (size_t v = 0; v < out_.values.size(); ++v) {
    const LiveValue& value = out_.values[v];
    if (value.instruction == kNone) continue;
    for (MemoryPeak* peak : {&all, &sweeps_[sweep_of_[v]].peak}) {
      if (value.start <= peak->time && peak->time <= value.end) {
        peak->values.push_back(v);
        peak->bytes += value.bytes();
      }
    }
  }
}

void PeakFinder::SortPeakValues(MemoryPeak* peak) const {
  std::sort(
      peak->values.begin(), peak->values.end(), [&](int64_t a, int64_t b) {
        const LiveValue& x = out_.values[a];
        const LiveValue& y = out_.values[b];
        if (x.bytes() != y.bytes()) return x.bytes() > y.bytes();
        const absl::string_view xn = out_.instructions[x.instruction].name();
        const absl::string_view yn = out_.instructions[y.instruction].name();
        const int by_name = TextCompare(xn, yn);
        if (by_name != 0) return by_name < 0;
        return x.index() < y.index();
      });
}

void PeakFinder::StorePeaks() {
  SortPeakValues(&sweeps_.front().peak);
  out_.peak = std::move(sweeps_.front().peak);
  std::vector<Sweep*> spaces;
  for (size_t k = 1; k < sweeps_.size(); ++k) spaces.push_back(&sweeps_[k]);
  std::sort(spaces.begin(), spaces.end(),
            [](const Sweep* a, const Sweep* b) { return a->space < b->space; });
  for (Sweep* s : spaces) {
    SortPeakValues(&s->peak);
    out_.space_peaks.push_back(std::move(s->peak));
  }
}

bool PeakFinder::FillCurve() {
  std::vector<int64_t>& curve = out_.curve;
  curve.assign(end_ + 1, 0);
  // Every difference and running sum is bounded by the values' total.
  int64_t total = 0;
  const size_t n = out_.values.size();
  for (size_t v = 0; v < n; ++v) {
    const LiveValue& value = out_.values[v];
    if (v + kShapesAhead < n) {
      Prefetch(out_.values[v + kShapesAhead].of, sizeof(Subshape));
    }
    if (value.instruction == kNone) continue;
    const int64_t bytes = value.bytes();
    if (__builtin_add_overflow(total, bytes, &total)) return false;
    const int64_t from = std::max<int64_t>(0, value.start);
    const int64_t to = std::min<int64_t>(value.end, end_ - 1);
    if (from <= to) {
      curve[from] += bytes;
      curve[to + 1] -= bytes;
    }
  }
  int64_t live = 0;
  for (int64_t t = 0; t < end_; ++t) {
    live += curve[t];
    curve[t] = live;
  }
  curve.resize(end_);
  return true;
}

}  // namespace

absl::Status Analyzer::Peaks() {
  // XLA chooses its peak moment with the byte size of each value's
  // DEFINING INSTRUCTION's whole shape (for a tuple-shaped result: its
  // index table only), not of the value; the values it then lists at that
  // moment have their own sizes. The all-memory peak follows XLA; the
  // per-space peaks use the values' sizes (PeakFinder).
  if (!PeakFinder(&out_, other_memory_spaces_, parallel_).Run()) {
    return absl::OutOfRangeError(
        absl::StrCat("the live values of module '", out_.module_name,
                     "' together pass 2^63-1 bytes: no peak can be computed"));
  }
  return absl::OkStatus();
}

}  // namespace memory_internal
MemoryPeak LogicalPeak(const MemoryAnalysis& a) {
  // The sweep of PeakFinder (memory/live_range_ranges.cc) with logical
  // sizes: each value counts its defining instruction's whole result from
  // its start through one step past its end; the peak is the first time
  // the sum is largest.
  MemoryPeak peak;
  const int64_t end = a.schedule_end;
  std::vector<int64_t> events(end + 3, 0);
  for (const LiveValue& v : a.values) {
    if (v.instruction < 0 || v.of == nullptr) continue;
    const int64_t size = static_cast<const memory_internal::Subshape*>(v.of)
                             ->whole_logical_bytes;
    const int64_t stop = std::min<int64_t>(int64_t{v.end} + 1, end + 1);
    events[v.start] += size;
    events[stop + 1] -= size;
  }
  int64_t usage = 0, best = 0;
  for (int64_t t = 0; t <= end + 1; ++t) {
    usage += events[t];
    if (usage > best) {
      best = usage;
      peak.time = t;
    }
  }
  for (size_t k = 0; k < a.values.size(); ++k) {
    const LiveValue& v = a.values[k];
    if (v.instruction < 0) continue;
    if (v.start <= peak.time && peak.time <= v.end) {
      peak.values.push_back(static_cast<int64_t>(k));
      peak.bytes += v.logical_bytes();
    }
  }
  std::sort(peak.values.begin(), peak.values.end(), [&](int64_t x, int64_t y) {
    const LiveValue& p = a.values[x];
    const LiveValue& q = a.values[y];
    if (p.logical_bytes() != q.logical_bytes()) {
      return p.logical_bytes() > q.logical_bytes();
    }
    // As unsigned bytes (char_traits<char>), as the analysis sorts.
    const int by_name = a.instructions[p.instruction].name().compare(
        a.instructions[q.instruction].name());
    if (by_name != 0) return by_name < 0;
    return p.index() < q.index();
  });
  return peak;
}

}  // namespace hlolayout

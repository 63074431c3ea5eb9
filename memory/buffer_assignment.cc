// XLA's buffer assignment of a scheduled module (memory/buffer_assignment.h;
// docs/memory.md, "What XLA allocates"): allocations in XLA's four phases
// (global computations, the heap simulation of the delayed temps,
// thread-local computations, live-out marking), the temp allocations
// combined into one, and compiled.memory_analysis() from the result.
#include "hlolayout/memory/buffer_assignment.h"

#include <algorithm>
#include <array>
#include <numeric>
#include <tuple>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/types/span.h"
#include "hlolayout/hlo/attribute_value.h"
#include "hlolayout/memory/buffer_assignment_internal.h"
#include "hlolayout/memory/heap_simulator.h"
#include "hlolayout/memory/scratch_pool.h"

namespace hlolayout {
namespace {

using buffer_internal::CanShareOperandBufferWithUser;
using buffer_internal::CompKind;
using buffer_internal::ModuleGraph;
using buffer_internal::ThreadLocalValue;
using buffer_internal::XlaIds;

// Parameters (number, index) that input_output_alias names.
std::vector<std::pair<int64_t, std::vector<int64_t>>> AliasedParameters(
    const HloModule& module) {
  std::vector<std::pair<int64_t, std::vector<int64_t>>> out;
  // Read once by the reader (HloModuleHeader::input_output_alias).
  for (const HloAliasPair& pair : module.header.input_output_alias) {
    out.emplace_back(pair.number, pair.index);
  }
  return out;
}

// The time of the async-done that ends the chain of each computation an
// async-start runs (-1 for the others). XLA's HloLiveRange ends every
// definition there no earlier (an async context) before it looks for a
// later position of the value, and a position counts only when strictly
// later: the async computation's root, which the async-start and the
// async-done forward, keeps its own position as its end.
std::vector<int64_t> AsyncContextEnds(const MemoryDataflow& df) {
  std::vector<int64_t> done(df.computations.size(), -1);
  std::vector<int64_t> next(df.nodes.size(), -1);  // start/update -> next
  for (size_t id = 0; id < df.nodes.size(); ++id) {
    const DataflowNode& n = df.nodes[id];
    if ((n.opcode == HloOpcode::kAsyncUpdate ||
         n.opcode == HloOpcode::kAsyncDone) &&
        n.operands_size > 0) {
      const int64_t from = df.Operands(n)[0];
      if (from >= 0) next[from] = static_cast<int64_t>(id);
    }
  }
  for (size_t c = 0; c < df.computations.size(); ++c) {
    for (int64_t site : df.computations[c].callsites) {
      if (site < 0 || df.nodes[site].opcode != HloOpcode::kAsyncStart) {
        continue;
      }
      int64_t last = site;
      for (size_t steps = 0; next[last] >= 0 && steps < df.nodes.size();
           ++steps) {
        last = next[last];
      }
      const DataflowNode& end = df.nodes[last];
      if (end.opcode == HloOpcode::kAsyncDone && end.time >= 0) {
        done[c] = std::max(done[c], static_cast<int64_t>(end.time));
      }
    }
  }
  // And the computations those run through call, while and conditional,
  // at any depth (as memory/live_range_ranges.cc's AsyncDoneTimes).
  for (bool grown = true; grown;) {
    grown = false;
    for (size_t c = 0; c < df.computations.size(); ++c) {
      if (done[c] >= 0) continue;
      for (int64_t site : df.computations[c].callsites) {
        if (site < 0) continue;
        const DataflowNode& n = df.nodes[site];
        const bool runs = n.opcode == HloOpcode::kCall ||
                          n.opcode == HloOpcode::kWhile ||
                          n.opcode == HloOpcode::kConditional;
        if (runs && done[n.computation] >= 0) {
          done[c] = done[n.computation];
          grown = true;
          break;
        }
      }
    }
  }
  return done;
}

// A global value (of the entry or a control-flow computation), 80 bytes
// (a 20 MB dump has some 100,000): values, nodes, positions, times and
// allocations in 32 bits, as the analysis numbers them (memory/dataflow.h).
struct GValue {
  int64_t id = 0;  // XLA's
  int64_t bytes = 0;
  // Where it was placed: the offset and the slot's size (and the
  // allocation below).
  int64_t offset = 0, slot = 0;
  int64_t color = 0;  // S(n), as the layout writes it
  int32_t v = 0;      // MemoryAnalysis::values index
  int32_t node = 0;   // defining node
  int32_t buffer = 0;
  int32_t start = 0, end = 0;
  // Where its live range ends (XLA's end_position): a position of the
  // value, the latest one in the schedule.
  int32_t end_node = 0;
  int32_t end_position = 0;
  // The allocation it was placed in (its creation number,
  // WorkAllocation::created), -1 before.
  int32_t allocation = -1;
  bool live_out = false;
  bool is_tuple = false;  // a tuple-shaped value
};
static_assert(sizeof(GValue) <= 80, "one per global value");

struct GBuffer {
  // Its values (GValue indices, by id): Assigner::buffer_values_[begin,
  // end); Assigner::Values(b) gives them.
  int64_t begin = 0, end = 0;
  int64_t size = 0;
  int64_t color = 0;
  bool live_out = false;
  int64_t order = 0;  // smallest post-order position of its values
  int64_t allocation = -1;
};

// An allocation while it is being built.
struct WorkAllocation {
  BufferAllocation a;        // its global values are filled in at the end
  int64_t created = 0;       // creation number (indices change in Combine)
  int64_t global_count = 0;  // global values assigned
  bool is_tuple = false;
  bool heap = false;  // the heap simulation's allocation
  // The assigned values by (start, end). Values that may share an
  // allocation live at most one step together (where one hands its place
  // to the other), so sorted by start their ends do not decrease, and the
  // values whose ranges meet a new one's are a run of this order; `sorted`
  // turns false if that ever fails (then every value is checked). Kept
  // only for allocations that can take more values.
  struct Range {
    int64_t start, end, gv;
  };
  std::vector<Range> by_start;
  bool sorted = true;
  bool readonly() const {
    return (a.is_parameter && !a.parameter_aliased) || a.is_constant;
  }
  bool reusable() const { return !a.is_thread_local && !is_tuple; }
};

// XLA:TPU's VMEM (S(1)).
constexpr int64_t kVmemColor = 1;
// The memory space of memory-space assignment's values on v4.
constexpr int64_t kV4VmemColor = 3;

class Assigner {
 public:
  Assigner(const HloModule& module, const MemoryAnalysis& analysis,
           const BufferAssignmentOptions& options)
      : module_(module),
        analysis_(analysis),
        options_(options),
        platform_(options.platform.value_or(XlaPlatform::kGpu)),
        g_(module, analysis),
        df_(*analysis.dataflow) {}

  BufferAssignment Run();

 private:
  // The global values (CollectGlobalValues), where their live ranges end
  // and which are live out (FindEnds), and their buffers (GroupBuffers).
  void CollectValues();
  void CollectGlobalValues();
  void FindEnds();
  void GroupBuffers();
  void AssignGlobal();
  void AssignSingle(int64_t b);
  bool MaybeAssign(int64_t allocation, int64_t b);
  bool Interferes(const GValue& a, const GValue& b) const;
  bool CanShareAsOperand(const GValue& user, const GValue& operand) const;
  // XLA:TPU: a value of buffer `b` may not be in a maybe-live-out
  // allocation (XlaTpuMustNotLiveOut).
  bool MustNotLiveOut(int64_t b) const;
  // XLA:TPU: node `n` copies a parameter of the entry computation.
  bool IsTpuEntryParameterCopy(int64_t n) const;
  // The delayed values, color by color, in one heap allocation each
  // (XLA's heap simulation).
  void SimulateHeap();
  class HeapTracer;
  std::vector<int64_t> DelayedColors() const;
  // The delayed values of `color` by (start, end, id).
  std::vector<int64_t> DelayedOfColor(int64_t color) const;
  // The heap allocation of `color` from the trace of its values `assign`.
  void PlaceHeap(int64_t color, absl::Span<const int64_t> assign,
                 const HeapTracer& tracer);
  void AssignThreadLocal();
  void Combine();
  void Finish();
  void ReleaseWorkTables();
  int64_t NewAllocation(int64_t size, int64_t color) {
    allocations_.emplace_back();
    WorkAllocation& w = allocations_.back();
    w.a.index = static_cast<int64_t>(allocations_.size()) - 1;
    w.created = w.a.index;
    w.a.size = size;
    w.a.color = color;
    return w.a.index;
  }
  void AddGlobal(int64_t allocation, int64_t gv, int64_t offset, int64_t size);
  // A tuple index table sized without the generation (XLA:TPU).
  void NoteTpuTable(const Shape& shape) {
    if (shape.IsTuple() && shape.tuple_size() != 0 &&
        !options_.tpu_generation.has_value()) {
      out_.tpu_tables_guessed = true;
    }
  }
  void AddBuffer(int64_t allocation, int64_t b) {
    for (int64_t gv : Values(b)) {
      AddGlobal(allocation, gv, 0, buffers_[b].size);
    }
    buffers_[b].allocation = allocation;
    if (buffers_[b].live_out) allocations_[allocation].a.maybe_live_out = true;
  }

  const HloModule& module_;
  const MemoryAnalysis& analysis_;
  const BufferAssignmentOptions options_;
  const XlaPlatform platform_;  // options_.platform, decided
  ModuleGraph g_;
  const MemoryDataflow& df_;
  XlaIds ids_;
  std::vector<GValue> values_;
  std::vector<int64_t> gvalue_of_;  // analysis value -> GValue, -1
  std::vector<GBuffer> buffers_;
  std::vector<WorkAllocation> allocations_;
  std::vector<int64_t> remembered_;     // reusable allocations, oldest first
  std::vector<int64_t> delayed_;        // GValues for the heap
  std::vector<int64_t> buffer_values_;  // values of each GBuffer
  std::vector<int64_t> by_id_;          // GValues by XLA id
  // Temp allocations merged into another: (created, created of the one
  // holding them), and each one's base there (WorkAllocation::base).
  std::vector<std::pair<int64_t, int64_t>> merged_;
  std::vector<int64_t> merged_base_;
  absl::Span<const int64_t> Values(int64_t b) const {
    return absl::MakeConstSpan(buffer_values_.data() + buffers_[b].begin,
                               buffers_[b].end - buffers_[b].begin);
  }
  std::vector<std::pair<int64_t, std::vector<int64_t>>> aliased_;
  BufferAssignment out_;
  HeapTrace trace_;
  std::vector<int64_t> trace_sizes_;
  std::vector<int64_t> heap_allocations_;
  // XLA:TPU: the allocation of memory-space assignment's preset chunks
  // (VMEM, color 1), made before any other; -1 elsewhere.
  int64_t preset_ = -1;
};

void Assigner::CollectValues() {
  CollectGlobalValues();
  FindEnds();
  GroupBuffers();
}

void Assigner::CollectGlobalValues() {
  const int64_t n = static_cast<int64_t>(analysis_.values.size());
  gvalue_of_.assign(n, -1);
  // Counted first: the table is reserved once, at its size (grown by
  // doubling, it took up to twice that, and three times while it moved).
  auto global = [&](int64_t v) {
    return analysis_.values[v].instruction >= 0 &&
           g_.kind[df_.nodes[df_.value_node[v]].computation] ==
               CompKind::kGlobal;
  };
  int64_t count = 0;
  for (int64_t v = 0; v < n; ++v) count += global(v) ? 1 : 0;
  values_.reserve(count);
  for (int64_t v = 0; v < n; ++v) {
    if (!global(v)) continue;
    const LiveValue& lv = analysis_.values[v];
    const int64_t node = df_.value_node[v];
    GValue gv;
    gv.v = static_cast<int32_t>(v);
    gv.id = ids_.value_id[v];
    gv.node = static_cast<int32_t>(node);
    gv.start = lv.start;
    gv.end = lv.end;
    gv.bytes = lv.bytes();
    gv.color = lv.memory_space();
    if (platform_ == XlaPlatform::kTpu && lv.shape() != nullptr) {
      const int64_t table_space = buffer_internal::XlaTpuSparseCoreTableSpace(
          *lv.shape(),
          module_.computations[df_.nodes[node].computation].execution_thread);
      if (table_space >= 0) {
        gv.bytes = 0;
        gv.color = table_space;
      } else {
        gv.bytes = buffer_internal::XlaTpuBufferBytes(*lv.shape(), gv.bytes,
                                                      options_.tpu_generation);
        NoteTpuTable(*lv.shape());
      }
    }
    gv.is_tuple = lv.shape() != nullptr && lv.shape()->IsTuple();
    gvalue_of_[v] = static_cast<int64_t>(values_.size());
    values_.push_back(std::move(gv));
  }
}

void Assigner::FindEnds() {
  // Live-out values and where live ranges end (XLA's end_position: of the
  // value's positions, the defining one, then any later one in the
  // schedule, a root counting at its computation's end, a definition in
  // an async computation at its async-done), in one pass over the
  // positions in node order.
  const int64_t entry = module_.entry_index;
  const int64_t root =
      entry >= 0 ? df_.computations[entry].root : static_cast<int64_t>(-1);
  std::vector<int64_t> end_time(values_.size());
  const std::vector<int64_t> async_end = AsyncContextEnds(df_);
  for (size_t k = 0; k < values_.size(); ++k) {
    GValue& gv = values_[k];
    gv.end_node = gv.node;
    gv.end_position = static_cast<int32_t>(df_.value_position[gv.v]);
    const DataflowNode& n = df_.nodes[gv.node];
    const DataflowComputation& c = df_.computations[n.computation];
    end_time[k] = std::max<int64_t>(c.root == gv.node ? c.span_end : n.time,
                                    async_end[n.computation]);
  }
  for (size_t node = 0; node < df_.nodes.size(); ++node) {
    const DataflowNode& n = df_.nodes[node];
    const DataflowComputation& c = df_.computations[n.computation];
    const int64_t t =
        c.root == static_cast<int64_t>(node) ? c.span_end : n.time;
    for (int64_t p = n.first_position; p < n.first_position + n.positions;
         ++p) {
      const int64_t value = df_.positions[p].value;
      if (value < 0) continue;
      const int64_t k = gvalue_of_[value];
      if (k < 0) continue;
      GValue& gv = values_[k];
      if (static_cast<int64_t>(node) == root) gv.live_out = true;
      if (p != df_.value_position[gv.v] && t > end_time[k]) {
        end_time[k] = t;
        gv.end_node = static_cast<int32_t>(node);
        gv.end_position = static_cast<int32_t>(p);
      }
    }
  }
}

void Assigner::GroupBuffers() {
  // Buffers: the analysis' alias sets, ordered by their smallest id. The
  // values by id first (ids are distinct and below the number of values
  // XLA numbers, fusion bodies included: a bucket per id).
  int64_t max_id = -1;
  for (const GValue& gv : values_) max_id = std::max(max_id, gv.id);
  std::vector<int64_t> slot(max_id + 1, -1);
  for (size_t k = 0; k < values_.size(); ++k) {
    if (values_[k].id >= 0) slot[values_[k].id] = static_cast<int64_t>(k);
  }
  std::vector<int64_t>& by_id = by_id_;
  by_id.reserve(values_.size());
  for (int64_t k : slot) {
    if (k >= 0) by_id.push_back(k);
  }
  std::vector<int64_t> buffer_of_root(analysis_.values.size(), -1);
  int64_t roots = 0;  // counted first, to reserve buffers_ at its size
  for (int64_t gv : by_id) {
    int64_t& mark = buffer_of_root[df_.value_buffer[values_[gv].v]];
    if (mark == -1) ++roots;
    mark = -2;
  }
  buffers_.reserve(roots);
  for (int64_t gv : by_id) {
    const int64_t r = df_.value_buffer[values_[gv].v];
    if (buffer_of_root[r] < 0) {
      buffer_of_root[r] = static_cast<int64_t>(buffers_.size());
      buffers_.emplace_back();
      buffers_.back().order = INT64_MAX;
    }
    GBuffer& b = buffers_[buffer_of_root[r]];
    values_[gv].buffer = static_cast<int32_t>(buffer_of_root[r]);
    ++b.end;  // a count for now
    b.size = std::max(b.size, values_[gv].bytes);
    b.live_out = b.live_out || values_[gv].live_out;
    b.order = std::min(b.order, ids_.node_position[values_[gv].node]);
  }
  int64_t total = 0;
  for (GBuffer& b : buffers_) {
    b.begin = total;
    total += b.end;
    b.end = b.begin;
  }
  buffer_values_.resize(total);
  for (int64_t gv : by_id) {
    buffer_values_[buffers_[values_[gv].buffer].end++] = gv;
  }
  for (GBuffer& b : buffers_) b.color = values_[buffer_values_[b.begin]].color;
}

void Assigner::AddGlobal(int64_t allocation, int64_t gv, int64_t offset,
                         int64_t size) {
  WorkAllocation& w = allocations_[allocation];
  GValue& v = values_[gv];
  v.allocation = static_cast<int32_t>(w.created);
  v.offset = offset;
  v.slot = size;
  ++w.global_count;
  if (v.live_out) w.a.maybe_live_out = true;
  if (w.heap || w.readonly() || !w.reusable()) return;  // takes no more
  const WorkAllocation::Range r{v.start, v.end, gv};
  auto at = std::upper_bound(
      w.by_start.begin(), w.by_start.end(), r,
      [](const WorkAllocation::Range& x, const WorkAllocation::Range& y) {
        return std::tie(x.start, x.end) < std::tie(y.start, y.end);
      });
  if (at != w.by_start.begin() && (at - 1)->end > v.end) w.sorted = false;
  if (at != w.by_start.end() && at->end < v.end) w.sorted = false;
  w.by_start.insert(at, r);
}

bool Assigner::CanShareAsOperand(const GValue& user,
                                 const GValue& operand) const {
  const DataflowNode& u = df_.nodes[user.node];
  if (u.opcode == HloOpcode::kCopy) return false;
  const int64_t end_node = operand.end_node;
  const absl::Span<const int64_t> ops = df_.Operands(u);
  if (std::find(ops.begin(), ops.end(), end_node) == ops.end()) return false;
  return CanShareOperandBufferWithUser(
      g_, platform_, end_node, df_.Index(operand.end_position), user.node,
      analysis_.values[user.v].index());
}

bool Assigner::MustNotLiveOut(int64_t b) const {
  if (platform_ != XlaPlatform::kTpu) return false;
  for (int64_t gv : Values(b)) {
    if (buffer_internal::XlaTpuMustNotLiveOut(
            df_.nodes[values_[gv].node].opcode)) {
      return true;
    }
  }
  return false;
}

bool Assigner::IsTpuEntryParameterCopy(int64_t n) const {
  const DataflowNode& node = df_.nodes[n];
  if (platform_ != XlaPlatform::kTpu || node.opcode != HloOpcode::kCopy) {
    return false;
  }
  for (int64_t op : df_.Operands(node)) {
    const DataflowNode& o = df_.nodes[op];
    if (o.opcode == HloOpcode::kParameter &&
        o.computation == module_.entry_index) {
      return true;
    }
  }
  return false;
}

bool Assigner::Interferes(const GValue& a, const GValue& b) const {
  if (a.start > b.end || b.start > a.end) return false;
  if (a.end == b.start) return !CanShareAsOperand(b, a);
  if (b.end == a.start) return !CanShareAsOperand(a, b);
  return true;
}

bool Assigner::MaybeAssign(int64_t allocation, int64_t b) {
  WorkAllocation& w = allocations_[allocation];
  const GBuffer& buffer = buffers_[b];
  if (buffer.color != w.a.color) return false;
  if (buffer.size > w.a.size) return false;
  if (w.readonly() || !w.reusable()) return false;
  if (w.a.maybe_live_out && MustNotLiveOut(b)) return false;
  // XLA checks every pair of an assigned value and a new one; the answer
  // only depends on the pairs whose live ranges meet, found by binary
  // search in `by_start` (see WorkAllocation).
  for (int64_t gv : Values(b)) {
    const GValue& v = values_[gv];
    auto begin = w.by_start.begin(), end = w.by_start.end();
    if (w.sorted) {
      begin = std::lower_bound(
          w.by_start.begin(), w.by_start.end(), v.start,
          [](const WorkAllocation::Range& x, int64_t s) { return x.end < s; });
      end = std::upper_bound(begin, w.by_start.end(), v.end,
                             [](int64_t e, const WorkAllocation::Range& x) {
                               return e < x.start;
                             });
    }
    for (auto it = begin; it != end; ++it) {
      if (Interferes(v, values_[it->gv])) return false;
    }
    // A copy does not share a buffer with its operand.
    const DataflowNode& node = df_.nodes[v.node];
    if (node.opcode == HloOpcode::kCopy) {
      for (int64_t op : df_.Operands(node)) {
        const DataflowNode& o = df_.nodes[op];
        for (int64_t p = o.first_position; p < o.first_position + o.positions;
             ++p) {
          const int64_t value = df_.positions[p].value;
          if (value < 0 || gvalue_of_[value] < 0) continue;
          if (buffers_[values_[gvalue_of_[value]].buffer].allocation ==
              allocation) {
            return false;
          }
        }
      }
    }
  }
  if (buffer.live_out && w.a.size != buffer.size) return false;
  AddBuffer(allocation, b);
  return true;
}

void Assigner::AssignSingle(int64_t b) {
  GBuffer& buffer = buffers_[b];
  const int64_t entry = module_.entry_index;
  for (int64_t gv : Values(b)) {
    const GValue& v = values_[gv];
    const DataflowNode& node = df_.nodes[v.node];
    if (node.opcode == HloOpcode::kConstant) {
      const int64_t a = NewAllocation(buffer.size, buffer.color);
      allocations_[a].a.is_constant = true;
      AddBuffer(a, b);
      return;
    }
    if (node.opcode == HloOpcode::kParameter && node.computation == entry &&
        node.source != nullptr) {
      const int64_t a = NewAllocation(buffer.size, buffer.color);
      BufferAllocation& alloc = allocations_[a].a;
      alloc.is_parameter = true;
      alloc.parameter_number = node.source->parameter_number.value_or(0);
      alloc.parameter_index.assign(analysis_.values[v.v].index().begin(),
                                   analysis_.values[v.v].index().end());
      alloc.parameter_shape = node.shape;
      for (const auto& [number, index] : aliased_) {
        if (number == alloc.parameter_number &&
            index == alloc.parameter_index) {
          alloc.parameter_aliased = true;
        }
      }
      AddBuffer(a, b);
      if (alloc.parameter_aliased) remembered_.push_back(a);
      return;
    }
  }
  for (int64_t gv : Values(b)) {
    const GValue& v = values_[gv];
    if (v.is_tuple) {
      const int64_t a = NewAllocation(buffer.size, buffer.color);
      allocations_[a].is_tuple = true;
      AddBuffer(a, b);
      return;
    }
    if (analysis_.values[v.v].index().empty()) {
      for (int64_t op : df_.Operands(df_.nodes[v.node])) {
        const DataflowNode& o = df_.nodes[op];
        if (o.positions == 0) continue;
        const int64_t ov = df_.positions[o.first_position].value;
        if (ov < 0 || gvalue_of_[ov] < 0) continue;
        const int64_t a = buffers_[values_[gvalue_of_[ov]].buffer].allocation;
        if (a >= 0 && MaybeAssign(a, b)) return;
      }
    }
  }
  for (auto it = remembered_.rbegin(); it != remembered_.rend(); ++it) {
    if (MaybeAssign(*it, b)) return;
  }
  if (!buffer.live_out) {
    for (int64_t gv : Values(b)) delayed_.push_back(gv);
    return;
  }
  const int64_t a = NewAllocation(buffer.size, buffer.color);
  AddBuffer(a, b);
  remembered_.push_back(a);
}

void Assigner::AssignGlobal() {
  std::vector<int64_t> order(buffers_.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) {
    const GBuffer& a = buffers_[x];
    const GBuffer& b = buffers_[y];
    if (a.size != b.size) return a.size > b.size;
    if (a.live_out != b.live_out) return a.live_out;
    return a.order < b.order;
  });
  for (int64_t b : order) AssignSingle(b);
}

// The heap simulation of the delayed values of one color, in XLA's event
// order: per step, the values defined there (a buffer's later values share
// its first one's place; a value of its own may take the place of an
// operand freed at that step), then those that end there. The values are
// `assign` (GValues sorted by start, end and id); value `k` of the trace is
// assign[k].
class Assigner::HeapTracer {
 public:
  HeapTracer(const Assigner& assigner, absl::Span<const int64_t> assign)
      : a_(assigner),
        assign_(assign),
        n_(static_cast<int64_t>(assign.size())),
        end_time_(assigner.analysis_.schedule_end) {
    SortByTime();
    GroupByBuffer();
  }

  // Makes the trace, then lets go of the tables it was made from.
  void Run();
  const HeapTrace& trace() const { return trace_; }
  // The step at which trace event `event` happens (-1 for none).
  int64_t StepOf(int64_t event) const {
    return event < 0 ? -1
                     : std::upper_bound(first_event_.begin(),
                                        first_event_.end(), event) -
                           first_event_.begin() - 1;
  }

 private:
  void SortByTime();
  void GroupByBuffer();
  void ReleaseTables();
  // Value `k` starting at step `t`: shares its buffer's place, takes an
  // operand's, or is allocated.
  void Define(int64_t k, int64_t t);
  bool ShareWithOperand(int64_t k, int64_t t);
  int64_t Find(int64_t x) {
    while (group_[x] != x) x = group_[x] = group_[group_[x]];
    return x;
  }
  int64_t SizeOf(int64_t x) { return group_size_[Find(x)]; }
  void Share(int64_t k, int64_t target) {
    const int64_t size = std::max(SizeOf(k), SizeOf(target));
    const int64_t a = Find(k), t = Find(target);
    if (a != t) group_[a] = t;
    group_size_[t] = size;
    trace_.ShareWith(k, target, size);
  }

  const Assigner& a_;
  const absl::Span<const int64_t> assign_;
  const int64_t n_;
  const int64_t end_time_;
  std::vector<int64_t> heap_of_;  // GValue -> k
  // The values starting and ending at each step, in `assign` order (a
  // counting sort by time): defined_[at_start_[t] ... at_start_[t + 1]).
  std::vector<int64_t> at_start_, at_end_, defined_, freed_;
  std::vector<int64_t> live_end_, start_of_, end_of_;
  std::vector<bool> freed_early_;  // freed by an in-place share
  // Shared groups (a union-find): every value of one buffer, with the
  // buffer's size.
  std::vector<int64_t> group_, group_size_;
  std::vector<int64_t> first_allocated_;  // by buffer
  HeapTrace trace_;
  // The first event of each step, to tell the heap peak's step.
  std::vector<int64_t> first_event_;
};

void Assigner::HeapTracer::SortByTime() {
  heap_of_.assign(a_.values_.size(), -1);
  for (int64_t k = 0; k < n_; ++k) heap_of_[assign_[k]] = k;
  at_start_.assign(end_time_ + 2, 0);
  at_end_.assign(end_time_ + 2, 0);
  live_end_.resize(n_);
  start_of_.resize(n_);
  end_of_.resize(n_);
  for (int64_t k = 0; k < n_; ++k) {
    const GValue& v = a_.values_[assign_[k]];
    start_of_[k] = std::min(std::max<int64_t>(v.start, 0), end_time_);
    end_of_[k] = std::min(std::max<int64_t>(v.end, 0), end_time_);
    ++at_start_[start_of_[k] + 1];
    ++at_end_[end_of_[k] + 1];
    live_end_[k] = v.end;
  }
  for (int64_t t = 0; t <= end_time_; ++t) {
    at_start_[t + 1] += at_start_[t];
    at_end_[t + 1] += at_end_[t];
  }
  defined_.resize(n_);
  freed_.resize(n_);
  std::vector<int64_t> ns(at_start_.begin(), at_start_.end() - 1);
  std::vector<int64_t> ne(at_end_.begin(), at_end_.end() - 1);
  for (int64_t k = 0; k < n_; ++k) {
    defined_[ns[start_of_[k]]++] = k;
    freed_[ne[end_of_[k]]++] = k;
  }
  freed_early_.assign(n_, false);
}

void Assigner::HeapTracer::GroupByBuffer() {
  group_.resize(n_);
  group_size_.resize(n_);
  std::vector<int64_t> first_of_buffer(a_.buffers_.size(), -1);
  for (int64_t k = 0; k < n_; ++k) {
    const int64_t b = a_.values_[assign_[k]].buffer;
    if (first_of_buffer[b] < 0) first_of_buffer[b] = k;
    group_[k] = first_of_buffer[b];
    group_size_[group_[k]] = a_.buffers_[b].size;
  }
  first_allocated_.assign(a_.buffers_.size(), -1);
}

void Assigner::HeapTracer::Run() {
  // Each value is defined once (allocated or shared) and freed once (at
  // its end or early, by an in-place share): two events a value.
  trace_.Reserve(2 * static_cast<size_t>(n_));
  first_event_.assign(end_time_ + 1, 0);
  for (int64_t t = 0; t <= end_time_; ++t) {
    first_event_[t] = static_cast<int64_t>(trace_.events().size());
    for (int64_t d = at_start_[t]; d < at_start_[t + 1]; ++d) {
      Define(defined_[d], t);
    }
    for (int64_t f = at_end_[t]; f < at_end_[t + 1]; ++f) {
      const int64_t k = freed_[f];
      if (!freed_early_[k]) trace_.Free(k, SizeOf(k));
    }
  }
  ReleaseTables();
}

void Assigner::HeapTracer::ReleaseTables() {
  // What the trace was made from goes before the heap is packed (the
  // packer's tables are the assignment's peak): trace_ and first_event_
  // are all PlaceHeap reads.
  for (std::vector<int64_t>* table :
       {&heap_of_, &at_start_, &at_end_, &defined_, &freed_, &live_end_,
        &start_of_, &end_of_, &group_, &group_size_, &first_allocated_}) {
    std::vector<int64_t>().swap(*table);
  }
  std::vector<bool>().swap(freed_early_);
}

void Assigner::HeapTracer::Define(int64_t k, int64_t t) {
  const int64_t b = a_.values_[assign_[k]].buffer;
  if (first_allocated_[b] >= 0) {
    Share(k, first_allocated_[b]);
    return;
  }
  if (a_.Values(b).size() == 1 && ShareWithOperand(k, t)) return;
  trace_.Alloc(k, SizeOf(k));
  first_allocated_[b] = k;
}

// The first operand value that ends at step `t`, is still to be freed
// there, is alone in its buffer and may lend its buffer to value `k`
// (CanShareOperandBufferWithUser; never to a copy) is freed early and `k`
// takes its place. XLA:TPU's S(6) heap never gives a copy of an entry
// parameter's place to its user (docs/xla-tpu.md, "Rules learned").
bool Assigner::HeapTracer::ShareWithOperand(int64_t k, int64_t t) {
  const GValue& v = a_.values_[assign_[k]];
  const MemoryDataflow& df = a_.df_;
  const DataflowNode& node = df.nodes[v.node];
  for (int64_t op : df.Operands(node)) {
    const DataflowNode& o = df.nodes[op];
    if (o.positions == 0) continue;
    const int64_t ov = df.positions[o.first_position].value;
    if (ov < 0 || a_.gvalue_of_[ov] < 0) continue;
    const int64_t og = a_.gvalue_of_[ov];
    const GValue& operand = a_.values_[og];
    if (a_.Values(operand.buffer).size() > 1) continue;
    const int64_t ok = heap_of_[og];
    if (ok < 0 || live_end_[ok] != t) continue;
    // Still to be freed at this step (not shared away already).
    if (end_of_[ok] != t || freed_early_[ok]) continue;
    const absl::Span<const int64_t> ops = df.Operands(node);
    if (std::find(ops.begin(), ops.end(), operand.node) == ops.end()) {
      continue;
    }
    if (node.opcode == HloOpcode::kCopy) continue;
    if (v.color == 6 && a_.IsTpuEntryParameterCopy(operand.node)) continue;
    if (!CanShareOperandBufferWithUser(a_.g_, a_.platform_, operand.node,
                                       a_.analysis_.values[operand.v].index(),
                                       v.node,
                                       a_.analysis_.values[v.v].index())) {
      continue;
    }
    trace_.Free(ok, SizeOf(ok));
    freed_early_[ok] = true;
    Share(k, ok);
    live_end_[ok] = v.end;
    return true;
  }
  return false;
}

std::vector<int64_t> Assigner::DelayedColors() const {
  // Each color once (a module has a few): not a value's color a value,
  // a table that lived through every heap's packing.
  std::vector<int64_t> colors;
  for (int64_t gv : delayed_) {
    const int64_t color = values_[gv].color;
    if (std::find(colors.begin(), colors.end(), color) == colors.end()) {
      colors.push_back(color);
    }
  }
  std::sort(colors.begin(), colors.end());
  return colors;
}

std::vector<int64_t> Assigner::DelayedOfColor(int64_t color) const {
  std::vector<int64_t> assign;
  size_t count = 0;  // counted first: reserved at its size
  for (int64_t gv : delayed_) count += values_[gv].color == color ? 1 : 0;
  assign.reserve(count);
  for (int64_t gv : delayed_) {
    if (values_[gv].color == color) assign.push_back(gv);
  }
  // Sorted by (start, end, id) with the keys inline.
  std::vector<std::array<int64_t, 4>> keyed(assign.size());
  for (size_t k = 0; k < assign.size(); ++k) {
    const GValue& v = values_[assign[k]];
    keyed[k] = {v.start, v.end, v.id, assign[k]};
  }
  std::sort(keyed.begin(), keyed.end());
  for (size_t k = 0; k < assign.size(); ++k) assign[k] = keyed[k][3];
  return assign;
}

void Assigner::PlaceHeap(int64_t color, absl::Span<const int64_t> assign,
                         const HeapTracer& tracer) {
  const int64_t n = static_cast<int64_t>(assign.size());
  std::vector<int64_t> keys(n), own(n);
  for (int64_t k = 0; k < n; ++k) {
    keys[k] = values_[assign[k]].id;
    own[k] = values_[assign[k]].bytes;
  }
  const HeapTrace& trace = tracer.trace();
  // XLA:TPU's HBM heap places its buffers best fit in the order they are
  // allocated; its other memory spaces, XLA:GPU's and XLA:CPU's heaps take
  // the smaller of the spatial and temporal layouts (docs/xla-tpu.md,
  // "Rules learned").
  const int64_t alignment = XlaAlignment(platform_, color);
  const HeapLayout heap =
      platform_ == XlaPlatform::kTpu && color == 0
          ? GlobalDecreasingSizeBestFit(trace, keys, alignment,
                                        HeapStrategy::kAllocationOrder)
          : ChooseBestHeap(trace, keys, alignment);
  // XLA:TPU's VMEM values are memory-space assignment's preset chunks, in
  // the allocation made for them first (their offsets are MSA's, not in
  // the dump: the heap simulation stands in for them).
  const bool preset = preset_ >= 0 && color == allocations_[preset_].a.color;
  const int64_t a = preset ? preset_ : NewAllocation(heap.heap_size, color);
  if (preset) allocations_[a].a.size = heap.heap_size;
  allocations_[a].heap = true;
  heap_allocations_.push_back(a);
  for (int64_t k = 0; k < n; ++k) {
    AddGlobal(a, assign[k], heap.chunks[k].offset, heap.chunks[k].size);
  }
  if (color != 0) return;
  out_.heap.reserve(out_.heap.size() + assign.size());
  out_.heap_size = heap.heap_size;
  const HeapTraceMoment peak = HeapTracePeakMoment(trace, own);
  out_.heap_peak = peak.bytes;
  out_.heap_peak_time = tracer.StepOf(peak.event);
  out_.heap_peak_blocks = peak.live;  // buffer k is out_.heap[k]
  for (int64_t k = 0; k < n; ++k) {
    const GValue& v = values_[assign[k]];
    out_.heap.push_back(
        {v.v, heap.chunks[k].offset, heap.chunks[k].size, v.start, v.end});
  }
}

void Assigner::SimulateHeap() {
  if (delayed_.empty()) return;
  for (int64_t color : DelayedColors()) {
    const std::vector<int64_t> assign = DelayedOfColor(color);
    HeapTracer tracer(*this, assign);
    tracer.Run();
    PlaceHeap(color, assign, tracer);
  }
}

void Assigner::AssignThreadLocal() {
  std::vector<ThreadLocalValue>& locals = ids_.thread_local_values;
  if (platform_ == XlaPlatform::kTpu) {
    for (ThreadLocalValue& v : locals) {
      v.bytes = buffer_internal::XlaTpuBufferBytes(*v.shape, v.bytes,
                                                   options_.tpu_generation);
      NoteTpuTable(*v.shape);
    }
  }
  std::vector<int64_t> order(locals.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) {
    const ThreadLocalValue& a = locals[x];
    const ThreadLocalValue& b = locals[y];
    if (a.bytes != b.bytes) return a.bytes > b.bytes;
    if (a.position != b.position) return a.position < b.position;
    return a.id < b.id;
  });
  for (int64_t k : order) {
    const ThreadLocalValue& v = locals[k];
    const HloInstruction& in =
        module_.computations[v.computation].instructions[v.instruction];
    int64_t color = 0;
    if (v.shape->IsArray() && v.shape->has_layout()) {
      color = v.shape->layout().memory_space();
    }
    const int64_t a = NewAllocation(v.bytes, color);
    BufferAllocation& alloc = allocations_[a].a;
    if (v.is_constant) {
      alloc.is_constant = true;
    } else {
      alloc.is_thread_local = true;
    }
    AssignedValue av;
    av.id = v.id;
    av.name = in.name();
    av.index = v.index;
    av.index_printed = in.shape != nullptr && in.shape->IsTuple();
    av.shape = v.shape;
    av.size = v.bytes;
    av.bytes = v.bytes;
    alloc.values.push_back(std::move(av));
  }
}

void Assigner::Combine() {
  // XLA's std::partition: the first temp from the front and the last
  // non-temp from the back swap places, until the two meet.
  int64_t first = 0, last = static_cast<int64_t>(allocations_.size());
  auto temp = [&](int64_t k) { return allocations_[k].a.is_temp(); };
  while (true) {
    while (first != last && !temp(first)) ++first;
    if (first == last) break;
    --last;
    while (first != last && temp(last)) --last;
    if (first == last) break;
    std::swap(allocations_[first], allocations_[last]);
    ++first;
  }
  std::vector<WorkAllocation> result(
      std::make_move_iterator(allocations_.begin()),
      std::make_move_iterator(allocations_.begin() + first));
  std::vector<WorkAllocation> combined;
  for (int64_t k = first; k < static_cast<int64_t>(allocations_.size()); ++k) {
    WorkAllocation& t = allocations_[k];
    const int64_t alignment = XlaAlignment(platform_, t.a.color);
    WorkAllocation* into = nullptr;
    for (WorkAllocation& c : combined) {
      if (c.a.color == t.a.color) into = &c;
    }
    if (into == nullptr) {
      if (t.heap && t.a.color == 0) out_.heap_offset = 0;
      combined.push_back(std::move(t));
      continue;
    }
    const int64_t base = (into->a.size + alignment - 1) / alignment * alignment;
    into->a.size = base + t.a.size;
    if (t.heap && t.a.color == 0) out_.heap_offset = base;
    for (AssignedValue& v : t.a.values) {
      v.offset += base;
      into->a.values.push_back(std::move(v));
    }
    into->global_count += t.global_count;
    // Its global values move with it (Finish places them).
    merged_.emplace_back(t.created, into->created);
    merged_base_.push_back(base);
  }
  for (WorkAllocation& c : combined) result.push_back(std::move(c));
  allocations_ = std::move(result);
}

void Assigner::Finish() {
  const int64_t entry = module_.entry_index;
  const int64_t root = entry >= 0 ? df_.computations[entry].root : -1;
  const int64_t root_value =
      root >= 0 && df_.nodes[root].positions > 0
          ? df_.positions[df_.nodes[root].first_position].value
          : -1;
  // Final index and base of every created allocation.
  std::vector<int64_t> final_of(allocations_.size() + merged_.size(), -1);
  std::vector<int64_t> base_of(final_of.size(), 0);
  for (size_t k = 0; k < allocations_.size(); ++k) {
    final_of[allocations_[k].created] = static_cast<int64_t>(k);
  }
  for (size_t k = 0; k < merged_.size(); ++k) {
    final_of[merged_[k].first] = final_of[merged_[k].second];
    base_of[merged_[k].first] = merged_base_[k];
  }
  // The global values, in id order into their allocations (so each
  // allocation's values come out by id, the thread-local ones having
  // smaller ids than any global one they could meet: none shares).
  for (WorkAllocation& w : allocations_) {
    w.a.values.reserve(w.a.values.size() + w.global_count);
  }
  for (int64_t gv : by_id_) {
    const GValue& v = values_[gv];
    if (v.allocation < 0) continue;
    const LiveValue& lv = analysis_.values[v.v];
    const DataflowNode& node = df_.nodes[v.node];
    BufferAllocation& a = allocations_[final_of[v.allocation]].a;
    a.values.emplace_back();
    AssignedValue& out = a.values.back();
    out.id = v.id;
    out.value = v.v;
    out.name = node.name;
    if (!lv.index().empty())
      out.index.assign(lv.index().begin(), lv.index().end());
    out.index_printed = node.shape != nullptr && node.shape->IsTuple();
    out.is_phi = lv.is_phi;
    out.shape = lv.shape();
    out.offset = v.offset + base_of[v.allocation];
    out.size = v.slot;
    out.bytes = v.bytes;
    out.start = v.start;
    out.end = v.end;
  }
  for (size_t k = 0; k < allocations_.size(); ++k) {
    BufferAllocation& a = allocations_[k].a;
    a.index = static_cast<int64_t>(k);
    // By id (the thread-local values of an allocation before its global
    // ones: sort when needed).
    const bool in_order =
        std::is_sorted(a.values.begin(), a.values.end(),
                       [](const AssignedValue& x, const AssignedValue& y) {
                         return x.id < y.id;
                       });
    if (!in_order) {
      std::sort(a.values.begin(), a.values.end(),
                [](const AssignedValue& x, const AssignedValue& y) {
                  return x.id < y.id;
                });
    }
    for (const AssignedValue& v : a.values) {
      if (root_value >= 0 && v.value == root_value) {
        a.output_shape = df_.nodes[root].shape;
      }
    }
    XlaMemoryStats& s = out_.stats;
    const bool host = a.color == XlaMemoryStats::kHostMemorySpace;
    if (a.is_parameter) {
      (host ? s.host_argument_size_in_bytes : s.argument_size_in_bytes) +=
          a.size;
    }
    if (a.is_parameter && a.parameter_aliased) {
      (host ? s.host_alias_size_in_bytes : s.alias_size_in_bytes) += a.size;
    }
    if (a.maybe_live_out) {
      (host ? s.host_output_size_in_bytes : s.output_size_in_bytes) += a.size;
    }
    if (a.is_temp()) {
      (host ? s.host_temp_size_in_bytes : s.temp_size_in_bytes) += a.size;
    }
    if (!a.is_thread_local &&
        (a.is_parameter || a.is_constant || a.maybe_live_out)) {
      int64_t largest = 0;
      for (const AssignedValue& v : a.values) {
        largest = std::max(largest, v.bytes);
      }
      out_.static_bytes += largest;
    }
    out_.allocations.push_back(std::move(a));
  }
  for (HeapBlock& h : out_.heap) h.offset += out_.heap_offset;
  out_.stats.peak_memory_in_bytes =
      out_.static_bytes + (platform_ == XlaPlatform::kGpu ? out_.heap_peak : 0);
}

void Assigner::ReleaseWorkTables() {
  // Everything but out_ (and what it points into: the module and the
  // analysis) is done with once the allocations are written.
  for (std::vector<int64_t>* table :
       {&gvalue_of_, &remembered_, &delayed_, &buffer_values_, &by_id_,
        &merged_base_, &trace_sizes_, &heap_allocations_}) {
    std::vector<int64_t>().swap(*table);
  }
  std::vector<GValue>().swap(values_);
  std::vector<GBuffer>().swap(buffers_);
  std::vector<WorkAllocation>().swap(allocations_);
  std::vector<std::pair<int64_t, int64_t>>().swap(merged_);
  ids_ = XlaIds();
  g_.Release();
}

BufferAssignment Assigner::Run() {
  out_.platform = platform_;
  if (platform_ == XlaPlatform::kTpu) {
    out_.tpu_generation = options_.tpu_generation;
  }
  out_.alignment = XlaAlignment(platform_);
  aliased_ = AliasedParameters(module_);
  ids_ = buffer_internal::ComputeXlaIds(g_, platform_,
                                        options_.xla_creation_order);
  if (platform_ == XlaPlatform::kTpu) {
    // XLA:TPU's buffer assignment starts from memory-space assignment's
    // preset allocation of VMEM (docs/xla-tpu.md): the first allocation
    // made, a temp one even when empty; S(1)'s, or S(3)'s on v4.
    preset_ = NewAllocation(0, options_.tpu_generation == TpuGeneration::kV4
                                   ? kV4VmemColor
                                   : kVmemColor);
    allocations_[preset_].heap = true;
  }
  CollectValues();
  AssignGlobal();
  SimulateHeap();
  AssignThreadLocal();
  Combine();
  Finish();
  // XLA:TPU's figures make tables of their own over the assignment: the
  // work tables go first (they were the peak's largest part).
  ReleaseWorkTables();
  if (platform_ == XlaPlatform::kTpu) {
    buffer_internal::SetXlaTpuMemoryStats(analysis_, out_);
  }
  return std::move(out_);
}

bool Contains(absl::string_view haystack, absl::string_view needle) {
  return haystack.find(needle) != absl::string_view::npos;
}

}  // namespace

absl::string_view XlaPlatformName(XlaPlatform platform) {
  switch (platform) {
    case XlaPlatform::kGpu:
      return "gpu";
    case XlaPlatform::kCpu:
      return "cpu";
    case XlaPlatform::kTpu:
      return "tpu";
  }
  return "gpu";
}

absl::string_view XlaPlatformTitle(XlaPlatform platform) {
  switch (platform) {
    case XlaPlatform::kGpu:
      return "XLA:GPU";
    case XlaPlatform::kCpu:
      return "XLA:CPU";
    case XlaPlatform::kTpu:
      return "XLA:TPU";
  }
  return "XLA:GPU";
}

int64_t XlaAlignment(XlaPlatform platform, int64_t memory_space) {
  switch (platform) {
    case XlaPlatform::kGpu:
      return 256;
    case XlaPlatform::kCpu:
      return 64;
    case XlaPlatform::kTpu:
      return buffer_internal::XlaTpuAlignment(memory_space);
  }
  return 256;
}

namespace {

bool HasTiles(const Shape& shape) {
  if (shape.IsTuple()) {
    for (const Shape& element : shape.tuple_shapes()) {
      if (HasTiles(element)) return true;
    }
    return false;
  }
  return shape.has_layout() && !shape.layout().tiles().empty();
}

}  // namespace

bool LooksLikeXlaTpu(const HloModule& module, absl::string_view file_name) {
  const size_t slash = file_name.rfind('/');
  const absl::string_view base = slash == absl::string_view::npos
                                     ? file_name
                                     : file_name.substr(slash + 1);
  if (Contains(base, "tpu")) return true;
  for (const HloComputation& c : module.computations) {
    for (const HloInstruction& in : c.instructions) {
      if (in.shape != nullptr && HasTiles(*in.shape)) return true;
    }
  }
  return false;
}

XlaPlatform DetectXlaPlatform(const HloModule& module,
                              absl::string_view file_name) {
  if (LooksLikeXlaTpu(module, file_name)) return XlaPlatform::kTpu;
  const size_t slash = file_name.rfind('/');
  const absl::string_view base = slash == absl::string_view::npos
                                     ? file_name
                                     : file_name.substr(slash + 1);
  if (Contains(base, ".sm_") || Contains(base, "_gpu_") ||
      Contains(base, ".gpu_") || Contains(base, "gpu_after")) {
    return XlaPlatform::kGpu;
  }
  if (Contains(base, ".cpu_") || Contains(base, "_cpu_") ||
      Contains(base, "cpu_after")) {
    return XlaPlatform::kCpu;
  }
  bool cpu = false;
  for (const HloComputation& c : module.computations) {
    for (const HloInstruction& in : c.instructions) {
      const absl::string_view config = in.backend_config();  // found once
      if (HloConfigHas(config, HloConfigHint::kGpu)) return XlaPlatform::kGpu;
      if (HloConfigHas(config, HloConfigHint::kCpu)) cpu = true;
      const uint8_t target = in.custom_call_families();
      if ((target & (kHloTargetCublas | kHloTargetCudnn | kHloTargetTriton)) !=
          0) {
        return XlaPlatform::kGpu;
      }
      if ((target & (kHloTargetOnednn | kHloTargetXnn)) != 0) cpu = true;
    }
  }
  return cpu ? XlaPlatform::kCpu : XlaPlatform::kGpu;
}

int64_t BufferAssignment::temp_allocation() const {
  for (const BufferAllocation& a : allocations) {
    if (a.is_temp()) return a.index;
  }
  return -1;
}

absl::StatusOr<BufferAssignment> AssignBuffers(
    const HloModule& module, const MemoryAnalysis& analysis,
    const BufferAssignmentOptions& options) {
  if (analysis.dataflow == nullptr) {
    return absl::InvalidArgumentError(
        "buffer assignment needs the analysis' dataflow (keep_dataflow)");
  }
  if (module.entry_index < 0 ||
      module.entry_index >= static_cast<int64_t>(module.computations.size())) {
    return absl::InvalidArgumentError("module has no entry computation");
  }
  if (!options.xla_creation_order.empty()) {
    absl::Status named =
        buffer_internal::CheckCreationOrder(module, options.xla_creation_order);
    if (!named.ok()) return named;
  }
  BufferAssignmentOptions decided = options;
  if (!decided.platform.has_value()) {
    decided.platform = DetectXlaPlatform(module, "");
  }
  Assigner assigner(module, analysis, decided);
  return assigner.Run();
}

absl::StatusOr<ModuleMemory> AnalyzeModuleMemory(
    const HloModule& module, const BufferAssignmentOptions& options) {
  MemoryAnalysisOptions analysis_options;
  analysis_options.keep_dataflow = true;
  analysis_options.threads = options.threads;
  absl::StatusOr<MemoryAnalysis> analysis;
  {
    // The live ranges' large tables are not kept for a next analysis
    // through the buffer assignment's peak (memory/scratch_pool.h).
    memory_internal::ScratchPool::DuringAnalysis during;
    analysis = AnalyzeMemory(module, analysis_options);
  }
  if (!analysis.ok()) return analysis.status();
  ModuleMemory out;
  out.live_ranges = *std::move(analysis);
  absl::StatusOr<BufferAssignment> buffers =
      AssignBuffers(module, out.live_ranges, options);
  if (!buffers.ok()) return buffers.status();
  out.buffers = *std::move(buffers);
  return out;
}

}  // namespace hlolayout

// XLA's value ids and the orders of its buffer assignment
// (memory/buffer_assignment_internal.h; docs/memory.md, "Value ids").
//
// XLA numbers values as HloDataflowAnalysis creates them: computation by
// computation in the module's computation order, instructions in post
// order, each defined index in pre-order; then the phi values, in the
// order its worklist propagation creates them. The entry computation comes
// last and the phis after everything, so their ids are exact whenever the
// number of values before them is; the order of the other computations is
// XLA's incremental topological sort of the call graph, which follows from
// the order the computations were created in (memory/
// xla_computation_order.cc: XLA:CPU's and XLA:GPU's).
#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdint>
#include <functional>
#include <numeric>
#include <queue>
#include <tuple>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/memory/buffer_assignment_internal.h"
#include "hlolayout/memory/value_rules.h"

namespace hlolayout {
namespace buffer_internal {
namespace {

bool IsWhile(HloOpcode op) { return op == HloOpcode::kWhile; }

// A loop's body= or condition= from what the reader recorded of its
// attributes (HloInstruction::attribute_facts, as the live ranges read
// them), -2 when the facts do not say. The attributes view the module's
// text, whose pages `hlolayout memory` gives back once the module is read:
// reading them again for every loop brought most of a 20 MB dump back
// into memory.
int64_t RecordedLoopPart(const HloModule& module, const HloInstruction& in,
                         absl::string_view name) {
  const uint8_t facts = in.attribute_facts;
  if ((facts & kHloFactsKnown) == 0 || (facts & kHloFactBody) == 0 ||
      (facts & kHloFactCondition) == 0) {
    return -2;
  }
  const absl::Span<const int32_t> callees = module.callees(in);
  if (callees.size() != 2) return -2;
  const bool body_first = (facts & kHloFactBodyFirst) != 0;
  if (name == "body") return callees[body_first ? 0 : 1];
  if (name == "condition") return callees[body_first ? 1 : 0];
  return -2;
}

// The computation named by attribute `name` of `in`, -1 if none: without
// any callee (most instructions) that is CalledComputation's answer too,
// found without reading the attributes.
int64_t AttributeComputation(const ModuleGraph& g, const HloInstruction& in,
                             absl::string_view name) {
  if (g.module.callees(in).empty()) return -1;
  const int64_t recorded = RecordedLoopPart(g.module, in, name);
  if (recorded != -2) return recorded;
  return CalledComputation(g.module, in, name);
}

int64_t SubshapeBytes(const Shape& shape) {
  if (shape.IsTuple()) return TupleTableBytes(shape);
  if (shape.IsArray()) {
    absl::StatusOr<ArraySizes> s = ComputeArraySizes(shape);
    return s.ok() ? s->padded_bytes : 0;
  }
  if (shape.IsOpaque()) return 8;
  return 0;
}

void Subshapes(
    const Shape& shape, std::vector<int64_t>* index,
    std::vector<std::pair<std::vector<int64_t>, const Shape*>>* out) {
  out->emplace_back(*index, &shape);
  if (!shape.IsTuple()) return;
  for (int64_t i = 0; i < shape.tuple_size(); ++i) {
    index->push_back(i);
    Subshapes(shape.tuple_shape(i), index, out);
    index->pop_back();
  }
}

}  // namespace

InstructionGraph BuildInstructionGraph(const HloComputation& computation) {
  InstructionGraph g;
  g.source = &computation;
  const int64_t n = static_cast<int64_t>(computation.instructions.size());
  for (int64_t i = 0; i < n; ++i) {
    const HloInstruction& in = computation.instructions[i];
    // A number past the instructions cannot be one of XLA's 0 to N-1
    // (one instruction each): it is left out, and the table stays within
    // the text's size.
    if (in.opcode == HloOpcode::kParameter && in.parameter_number.has_value() &&
        *in.parameter_number >= 0 && *in.parameter_number < n) {
      const int64_t k = *in.parameter_number;
      if (static_cast<int64_t>(g.parameters.size()) <= k) {
        g.parameters.resize(k + 1, -1);
      }
      g.parameters[k] = i;
    }
  }
  // Operands (resolved by the reader) in text order; users counted per
  // operand (an instruction that uses one twice counts once), then placed.
  std::vector<int64_t>& begin = g.operands.begin;
  begin.resize(n + 1);
  std::vector<int64_t>& users = g.users.begin;
  users.assign(n + 1, 0);
  std::vector<int64_t> last_user(n, -1);
  for (int64_t i = 0; i < n; ++i) {
    const auto& operands = computation.instructions[i].operands();
    begin[i + 1] = begin[i] + static_cast<int64_t>(operands.size());
    for (const HloOperand& o : operands) {
      if (o.index >= 0 && last_user[o.index] != i) {
        last_user[o.index] = i;
        ++users[o.index + 1];
      }
    }
  }
  for (int64_t i = 0; i < n; ++i) users[i + 1] += users[i];
  g.operands.ids.reserve(begin[n]);
  g.users.ids.resize(users[n]);
  std::vector<int64_t> next(users.begin(), users.end() - 1);
  std::fill(last_user.begin(), last_user.end(), -1);
  for (int64_t i = 0; i < n; ++i) {
    for (const HloOperand& o : computation.instructions[i].operands()) {
      g.operands.ids.push_back(o.index);
      if (o.index >= 0 && last_user[o.index] != i) {
        last_user[o.index] = i;
        g.users.ids[next[o.index]++] = i;
      }
    }
  }
  g.root = computation.root_index;
  return g;
}

ModuleGraph::ModuleGraph(const HloModule& m, const MemoryAnalysis& a)
    : module(m), analysis(a), df(*a.dataflow) {
  const int64_t comps = static_cast<int64_t>(m.computations.size());
  graphs_.resize(comps);
  // Calls of every instruction, a while's reordered to (body, condition).
  const int64_t instructions = static_cast<int64_t>(df.callee_begin.size()) - 1;
  call_begin.assign(df.callee_begin.begin(), df.callee_begin.end());
  calls.assign(df.callees.begin(), df.callees.end());
  std::vector<bool> fusion(comps, false);
  std::vector<int64_t> listed_by(comps, -1);  // callee -> last caller listed
  callees.resize(comps);
  for (int64_t c = 0; c < comps; ++c) {
    const std::vector<HloInstruction>& list = m.computations[c].instructions;
    const int64_t first = df.computation_first[c];
    std::vector<int64_t>& mine = callees[c];
    for (size_t k = 0; k < list.size(); ++k) {
      const int64_t i = first + static_cast<int64_t>(k);
      if (i >= instructions || call_begin[i] == call_begin[i + 1]) continue;
      const HloInstruction& in = list[k];
      int64_t* begin = calls.data() + call_begin[i];
      const int64_t n = call_begin[i + 1] - call_begin[i];
      if (n == 2 && in.opcode == HloOpcode::kWhile) {
        const int64_t body = AttributeComputation(*this, in, "body");
        if (body == begin[1]) std::swap(begin[0], begin[1]);
      }
      const bool is_fusion = in.opcode == HloOpcode::kFusion;
      for (int64_t j = 0; j < n; ++j) {
        if (is_fusion) fusion[begin[j]] = true;
        if (listed_by[begin[j]] != c) {
          listed_by[begin[j]] = c;
          mine.push_back(begin[j]);
        }
      }
    }
  }
  // GatherComputationsByAllocationType: what the entry reaches through
  // control flow is global; through anything else thread-local.
  kind.assign(comps, CompKind::kUnreached);
  std::vector<std::pair<int64_t, bool>> work;
  if (m.entry_index >= 0) work.emplace_back(m.entry_index, false);
  std::vector<uint8_t> seen(comps, 0);  // bit 1: global, bit 2: thread-local
  while (!work.empty()) {
    auto [c, local] = work.back();
    work.pop_back();
    const uint8_t bit = local ? 2 : 1;
    if (seen[c] & bit) continue;
    seen[c] |= bit;
    const std::vector<HloInstruction>& list = m.computations[c].instructions;
    const int64_t first = df.computation_first[c];
    for (size_t k = 0; k < list.size(); ++k) {
      const absl::Span<const int64_t> called =
          Calls(first + static_cast<int64_t>(k));
      if (called.empty()) continue;
      const bool control = CallKindOf(list[k].opcode) == CallKind::kControlFlow;
      for (int64_t callee : called) {
        work.emplace_back(callee, local || !control);
      }
    }
  }
  for (int64_t c = 0; c < comps; ++c) {
    if (seen[c] & 1) {
      kind[c] = CompKind::kGlobal;
    } else if (seen[c] & 2) {
      kind[c] = fusion[c] ? CompKind::kFusion : CompKind::kThreadLocal;
    }
  }
  // Users of each dataflow node, each once (an instruction may use an
  // operand twice): a count, then a fill that skips repeats.
  const int64_t nodes = static_cast<int64_t>(df.nodes.size());
  std::vector<int64_t> last_user(nodes, -1);
  user_begin.assign(nodes + 1, 0);
  for (int64_t id = 0; id < nodes; ++id) {
    for (int64_t op : df.Operands(df.nodes[id])) {
      if (last_user[op] == id) continue;
      last_user[op] = id;
      ++user_begin[op + 1];
    }
  }
  for (int64_t id = 0; id < nodes; ++id) user_begin[id + 1] += user_begin[id];
  user_ids.resize(user_begin[nodes]);
  std::vector<int64_t> next(user_begin.begin(), user_begin.end() - 1);
  std::fill(last_user.begin(), last_user.end(), -1);
  for (int64_t id = 0; id < nodes; ++id) {
    for (int64_t op : df.Operands(df.nodes[id])) {
      if (last_user[op] == id) continue;
      last_user[op] = id;
      user_ids[next[op]++] = id;
    }
  }
}

int64_t ModuleGraph::CalledComputation(const HloInstruction& instruction,
                                       absl::string_view attribute) const {
  return AttributeComputation(*this, instruction, attribute);
}

const InstructionGraph& ModuleGraph::Graph(int64_t computation) const {
  std::unique_ptr<InstructionGraph>& g = graphs_[computation];
  if (g == nullptr) {
    g = std::make_unique<InstructionGraph>(
        BuildInstructionGraph(module.computations[computation]));
  }
  return *g;
}

void ModuleGraph::Release() {
  std::vector<CompKind>().swap(kind);
  std::vector<std::vector<int64_t>>().swap(callees);
  for (std::vector<int64_t>* table :
       {&user_begin, &user_ids, &call_begin, &calls}) {
    std::vector<int64_t>().swap(*table);
  }
  std::vector<std::unique_ptr<InstructionGraph>>().swap(graphs_);
}

int64_t ModuleGraph::ValueAt(int64_t node,
                             absl::Span<const int64_t> index) const {
  const DataflowNode& n = df.nodes[node];
  for (int64_t p = n.first_position; p < n.first_position + n.positions; ++p) {
    if (df.Index(p) == index) {
      return df.positions[p].value;
    }
  }
  return -1;
}

namespace {

// The phis' worklist of HloDataflowAnalysis::Propagate, ordered by
// CalculatePostOrderSchedule: a bucket queue with a bit per key (at most
// one node has a key above 0), scanned from the smallest key that may be
// set; key 0 (instructions outside the schedule) in a heap by node id.
// SetXlaIdsSelfCheckForTesting's switch and counts.
std::atomic<bool> self_check{false};
std::atomic<int64_t> self_checks{0}, self_check_failures{0};

class PhiWorklist {
 public:
  PhiWorklist(std::vector<int64_t> priority, int64_t max_key,
              std::vector<bool> active)
      : priority_(std::move(priority)),
        max_key_(max_key),
        at_key_(max_key + 1, -1),
        bits_(max_key / 64 + 1, 0),
        words_(bits_.size() / 64 + 1, 0),
        lowest_(max_key + 1),
        queued_(priority_.size(), false),
        active_(std::move(active)) {}

  // Queues `node` unless it is queued, inactive (its positions are all
  // defined there: its update is a no-op) or -1.
  void Add(int64_t node) {
    if (node < 0 || queued_[node] || !active_[node]) return;
    queued_[node] = true;
    const int64_t key = priority_[node];
    if (key == 0) {
      at_zero_.push(node);
      return;
    }
    at_key_[key] = node;
    bits_[key >> 6] |= uint64_t{1} << (key & 63);
    words_[key >> 12] |= uint64_t{1} << ((key >> 6) & 63);
    lowest_ = std::min(lowest_, key);
  }

  // The queued node with the smallest key, unqueued; -1 when none is.
  int64_t Pop() {
    const int64_t node = Smallest();
    if (node >= 0) queued_[node] = false;
    return node;
  }

 private:
  int64_t Smallest() {
    if (!at_zero_.empty()) {
      const int64_t node = at_zero_.top();
      at_zero_.pop();
      return node;
    }
    int64_t w = lowest_ >> 6;
    if (w < static_cast<int64_t>(bits_.size())) {
      uint64_t word = bits_[w] & (~uint64_t{0} << (lowest_ & 63));
      // The next word with a key set, found in words_ 64 words at a time
      // (the keys queued are sparse: word by word, a pop read hundreds).
      if (word == 0) w = NextWord(w + 1);
      if (w >= 0) {
        if (word == 0) word = bits_[w];
        const int64_t key = w * 64 + __builtin_ctzll(word);
        bits_[w] &= ~(uint64_t{1} << (key & 63));
        if (bits_[w] == 0) words_[w >> 6] &= ~(uint64_t{1} << (w & 63));
        lowest_ = key;
        return at_key_[key];
      }
    }
    lowest_ = max_key_ + 1;
    return -1;
  }

  // The first word from `w` on with a key set, -1 when none.
  int64_t NextWord(int64_t w) const {
    for (int64_t s = w >> 6; s < static_cast<int64_t>(words_.size()); ++s) {
      uint64_t summary = words_[s];
      if (s == (w >> 6)) summary &= ~uint64_t{0} << (w & 63);
      if (summary != 0) return s * 64 + __builtin_ctzll(summary);
    }
    return -1;
  }

  std::vector<int64_t> priority_;
  int64_t max_key_;
  std::vector<int64_t> at_key_;
  std::vector<uint64_t> bits_;
  std::vector<uint64_t> words_;  // bit w: bits_[w] has a key set
  std::priority_queue<int64_t, std::vector<int64_t>, std::greater<int64_t>>
      at_zero_;
  int64_t lowest_;  // no key below this one is set
  std::vector<bool> queued_, active_;
};

// XLA's value ids as HloDataflowAnalysis creates them (see the file
// comment), in four steps: post orders, the values each instruction
// defines, the phis, the post-order positions.
class XlaIdNumbering {
 public:
  explicit XlaIdNumbering(const ModuleGraph& g)
      : g_(g),
        df_(g.df),
        module_(g.module),
        comps_(static_cast<int64_t>(g.module.computations.size())),
        self_check_(self_check.load(std::memory_order_relaxed)) {
    ids_.value_id.assign(g.analysis.values.size(), -1);
    ids_.node_position.assign(df_.nodes.size(), -1);
  }

  XlaIds Run(XlaPlatform platform, absl::Span<const std::string> created) {
    tpu_ = platform == XlaPlatform::kTpu;
    BuildPostOrders();
    // The numbering order of computations (see the file comment).
    const std::vector<int64_t> order =
        platform == XlaPlatform::kCpu || !created.empty()
            ? XlaCpuComputationOrder(g_, created)
            : XlaGpuComputationOrder(g_, platform == XlaPlatform::kTpu);
    NumberDefinedValues(order);
    NumberPhis();
    for (size_t v = 0; v < g_.analysis.values.size(); ++v) {
      if (ids_.value_id[v] >= 0) continue;
      const int64_t p = df_.value_position[v];
      ids_.value_id[v] = phi_here_[p] >= 0 ? phi_here_[p] : next_id_++;
    }
    SetPositions();
    return std::move(ids_);
  }

 private:
  // Computation c's post order: dataflow node ids for a scheduled
  // computation, instruction indices for the others.
  absl::Span<const int64_t> PostOrder(int64_t c) const {
    return absl::MakeConstSpan(post_flat_.data() + post_begin_[c],
                               post_begin_[c + 1] - post_begin_[c]);
  }

  void BuildPostOrders() {
    post_begin_.assign(comps_ + 1, 0);
    post_flat_.reserve(df_.nodes.size());
    node_state_.assign(df_.nodes.size(), 0);
    for (int64_t c = 0; c < comps_; ++c) {
      post_begin_[c] = static_cast<int64_t>(post_flat_.size());
      if (df_.computations[c].scheduled) {
        AppendScheduledPostOrder(c);
      } else {
        AppendUnscheduledPostOrder(c);
      }
    }
    post_begin_[comps_] = static_cast<int64_t>(post_flat_.size());
  }

  // The control predecessors of a scheduled computation's nodes, by node
  // (the reader linked them by instruction index); empty without any.
  std::vector<std::vector<int64_t>> ControlPredecessorNodes(int64_t c) const {
    const DataflowComputation& dc = df_.computations[c];
    const int64_t first = dc.first_node;
    const HloComputation& source = module_.computations[c];
    std::vector<std::vector<int64_t>> preds;
    std::vector<int64_t> node_of;  // node id by instruction index
    for (int64_t k = 0; k < dc.text_nodes; ++k) {
      const DataflowNode& n = df_.nodes[first + k];
      if (!n.control_predecessors) continue;
      if (preds.empty()) {
        preds.resize(dc.nodes);
        node_of.assign(source.instructions.size(), -1);
        for (int64_t j = 0; j < dc.text_nodes; ++j) {
          const HloInstruction* in = df_.nodes[first + j].source;
          node_of[in - source.instructions.data()] = first + j;
        }
      }
      for (int32_t p : module_.control_predecessors(*n.source)) {
        if (p >= 0 && node_of[p] >= 0) preds[k].push_back(node_of[p]);
      }
    }
    return preds;
  }

  // XLA:TPU: a copy-done without users that is not the root (memory-space
  // assignment's prefetch of a cross-program-prefetched argument again at
  // the program's end, which the schedule puts before the root) was added
  // last, so XLA's walk from the instructions without users, in the order
  // it holds them, reaches it after the root (docs/xla-tpu.md, "Value
  // ids"; the text prints it first).
  bool WalkedLast(int64_t node) const {
    const DataflowNode& n = df_.nodes[node];
    return tpu_ && n.opcode == HloOpcode::kCopyDone &&
           df_.computations[n.computation].root != node;
  }

  // The DFS of InstructionPostOrder over dataflow nodes (node ids).
  void AppendScheduledPostOrder(int64_t c) {
    const DataflowComputation& dc = df_.computations[c];
    const int64_t first = dc.first_node;
    std::fill_n(node_state_.data() + first, dc.nodes, 0);
    std::vector<int64_t> roots, last;
    for (int64_t r = first; r < first + dc.nodes; ++r) {
      if (!g_.Users(r).empty()) continue;
      (WalkedLast(r) ? last : roots).push_back(r);
    }
    roots.insert(roots.end(), last.begin(), last.end());
    AppendPostOrderFrom(c, roots);
  }

  // The DFS from each of `roots` in turn (nodes of scheduled computation c).
  void AppendPostOrderFrom(int64_t c, absl::Span<const int64_t> roots) {
    const int64_t first = df_.computations[c].first_node;
    const std::vector<std::vector<int64_t>> preds = ControlPredecessorNodes(c);
    uint8_t* const state = node_state_.data();
    std::vector<int64_t>& stack = node_stack_;
    stack.clear();
    for (int64_t r : roots) {
      if (state[r] == 2) continue;
      stack.push_back(r);
      while (!stack.empty()) {
        const int64_t cur = stack.back();
        uint8_t& st = state[cur];
        if (st == 0) {
          st = 1;
          const absl::Span<const int64_t> ops = df_.Operands(df_.nodes[cur]);
          for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
            if (state[*it] != 2) stack.push_back(*it);
          }
          if (!preds.empty()) {
            for (int64_t p : preds[cur - first]) {
              if (state[p] != 2) stack.push_back(p);
            }
          }
        } else {
          stack.pop_back();
          if (st != 2) {
            st = 2;
            post_flat_.push_back(cur);
          }
        }
      }
    }
  }

  void AppendUnscheduledPostOrder(int64_t c) {
    const InstructionGraph& ig = g_.Graph(c);
    std::vector<std::vector<int64_t>> preds(ig.operands.size());
    for (size_t k = 0; k < ig.operands.size(); ++k) {
      for (int32_t p : module_.control_predecessors(ig.at(k))) {
        if (p >= 0) preds[k].push_back(p);
      }
    }
    const std::vector<int64_t> order = InstructionPostOrder(
        static_cast<int64_t>(ig.operands.size()),
        [&](int64_t k) { return ig.operands[k]; },
        [&](int64_t k) -> const std::vector<int64_t>& { return preds[k]; },
        [&](int64_t k) { return !ig.users[k].empty(); });
    // XLA walks from the instructions without users in the order it holds
    // them, which begins with the parameters by number, whatever order the
    // text prints them in (XLA:GPU's sort comparators print unused
    // parameters last first): those come first, by number.
    auto unused_parameter = [&](int64_t k) {
      return ig.users[k].empty() && ig.at(k).opcode == HloOpcode::kParameter;
    };
    std::vector<int64_t> unused;
    for (int64_t k : order) {
      if (unused_parameter(k)) unused.push_back(k);
    }
    std::stable_sort(unused.begin(), unused.end(), [&](int64_t a, int64_t b) {
      return ig.at(a).parameter_number.value_or(-1) <
             ig.at(b).parameter_number.value_or(-1);
    });
    post_flat_.insert(post_flat_.end(), unused.begin(), unused.end());
    for (int64_t k : order) {
      if (!unused_parameter(k)) post_flat_.push_back(k);
    }
  }

  // Ids of the values instructions define, computation by computation in
  // `order`; the thread-local ones are listed with theirs.
  void NumberDefinedValues(const std::vector<int64_t>& order) {
    position_id_.assign(df_.positions.size(), -1);
    for (int64_t c : order) {
      if (!df_.computations[c].scheduled) {
        NumberUnscheduledValues(c);
        continue;
      }
      for (int64_t node : PostOrder(c)) {
        const DataflowNode& n = df_.nodes[node];
        for (int64_t p = n.first_position; p < n.first_position + n.positions;
             ++p) {
          if (df_.positions[p].source == PositionSource::kDefined) {
            position_id_[p] = next_id_++;
          }
        }
      }
    }
    for (size_t v = 0; v < g_.analysis.values.size(); ++v) {
      const int64_t p = df_.value_position[v];
      if (df_.positions[p].source == PositionSource::kDefined) {
        ids_.value_id[v] = position_id_[p];
      }
    }
  }

  void NumberUnscheduledValues(int64_t c) {
    const HloComputation& comp = module_.computations[c];
    const bool params_define =
        g_.kind[c] != CompKind::kGlobal;  // embedded or unreached
    const bool local = g_.kind[c] == CompKind::kThreadLocal;
    std::vector<std::pair<std::vector<int64_t>, const Shape*>> subs;
    std::vector<int64_t> scratch_index;
    for (int64_t i : PostOrder(c)) {
      const HloInstruction& in = comp.instructions[i];
      if (in.shape == nullptr) continue;
      const ValueRule rule = ValueRuleOf(in.opcode);
      subs.clear();
      scratch_index.clear();
      Subshapes(*in.shape, &scratch_index, &subs);
      for (const auto& [index, shape] : subs) {
        if (rule != ValueRule::kAll &&
            (rule == ValueRule::kNothing ||
             !DefinesValueAt(rule, index, shape->IsTuple(), params_define))) {
          continue;
        }
        if (local) {
          ThreadLocalValue v;
          v.computation = c;
          v.instruction = i;
          v.index = index;
          v.shape = shape;
          v.bytes = SubshapeBytes(*shape);
          v.id = next_id_;
          v.is_constant = in.opcode == HloOpcode::kConstant;
          ids_.thread_local_values.push_back(std::move(v));
        }
        ++next_id_;
      }
    }
  }

  // The worklist's keys: 1 + the ordinal for the instructions in the
  // schedule (distinct), 0 for the others (computations never run, which
  // no scheduled one depends on; among them the node id decides).
  PhiWorklist MakeWorklist() const {
    const int64_t nodes = static_cast<int64_t>(df_.nodes.size());
    std::vector<int64_t> priority(nodes, 0);
    int64_t max_key = 0, ordinal = 0;
    std::vector<bool> visited(comps_, false);
    std::vector<bool> has(nodes, false);
    std::function<void(int64_t)> walk = [&](int64_t c) {
      if (c < 0 || visited[c] || !df_.computations[c].scheduled) return;
      visited[c] = true;
      for (int64_t node : PostOrder(c)) {
        const DataflowNode& n = df_.nodes[node];
        if (n.source != nullptr) {
          if (n.opcode == HloOpcode::kCall ||
              n.opcode == HloOpcode::kConditional) {
            for (int64_t callee : g_.Calls(n.instruction)) walk(callee);
          } else if (IsWhile(n.opcode)) {
            walk(n.condition);
            walk(n.body);
          }
        }
        if (!has[node]) {
          has[node] = true;
          priority[node] = ordinal + 1;
          max_key = std::max(max_key, ordinal + 1);
        }
        ++ordinal;
      }
    };
    if (module_.entry_index >= 0) walk(module_.entry_index);
    // A node whose positions are all defined there never changes: its
    // update is a no-op, so it is never queued (the order of the others is
    // the same).
    std::vector<bool> active(nodes, false);
    for (const DataflowPosition& pos : df_.positions) {
      if (pos.source != PositionSource::kDefined) active[pos.node] = true;
    }
    return PhiWorklist(std::move(priority), max_key, std::move(active));
  }

  // HloDataflowAnalysis::Propagate: each node's forwarded and phi values
  // updated until nothing changes, a new id for each phi made.
  void NumberPhis() {
    current_.assign(df_.positions.size(), -1);
    for (size_t p = 0; p < df_.positions.size(); ++p) {
      if (df_.positions[p].source == PositionSource::kDefined) {
        current_[p] = position_id_[p];
      }
    }
    phi_here_.assign(df_.positions.size(), -1);
    IndexPhiInputs();
    PhiWorklist work = MakeWorklist();
    for (int64_t c = 0; c < comps_; ++c) {
      for (int64_t node : PostOrder(c)) {
        if (df_.computations[c].scheduled) work.Add(node);
      }
    }
    for (int64_t node = work.Pop(); node >= 0; node = work.Pop()) {
      if (UpdateNode(node)) QueueDependents(node, work);
    }
  }

  // A phi's inputs are its slots, phi_inputs[target ... target + inputs).
  // What XLA recomputes from all of them at each update (how many have a
  // value, the one value when one has, whether they changed since the phi
  // last registered them) is kept up to date as the slots' values change
  // (SetCurrent), so that an update does not read them all: a body shared
  // by thousands of loops has a parameter phi with an input per loop, and
  // it is updated once per loop.
  void IndexPhiInputs() {
    const size_t positions = df_.positions.size();
    const size_t slots = df_.phi_inputs.size();
    slot_phi_.assign(slots, -1);
    slots_begin_.assign(positions + 1, 0);
    with_value_.assign(positions, 0);
    value_sum_.assign(positions, 0);
    mismatched_.assign(positions, 0);
    registered_at_.assign(positions, 0);
    epoch_ = 0;
    registered_value_.assign(slots, -1);
    changed_at_.assign(slots, 0);
    for (size_t p = 0; p < positions; ++p) {
      const DataflowPosition& pos = df_.positions[p];
      if (pos.source != PositionSource::kPhi) continue;
      for (int64_t s = pos.target; s < pos.target + pos.inputs; ++s) {
        slot_phi_[s] = static_cast<int64_t>(p);
        const int64_t q = df_.phi_inputs[s];
        ++slots_begin_[q + 1];
        if (current_[q] >= 0) {
          ++with_value_[p];
          value_sum_[p] += current_[q];
        }
      }
    }
    for (size_t q = 0; q < positions; ++q) {
      slots_begin_[q + 1] += slots_begin_[q];
    }
    slots_of_.resize(slots_begin_[positions]);
    std::vector<int64_t> next(slots_begin_.begin(), slots_begin_.end() - 1);
    for (size_t s = 0; s < slots; ++s) {
      if (slot_phi_[s] >= 0) slots_of_[next[df_.phi_inputs[s]]++] = s;
    }
  }

  // current_[q] = v, and the same in every phi slot that reads q. A value
  // never goes back to -1 (none), so a phi's slots with a value only grow,
  // and while their number stays the same their values in slot order are
  // the list XLA registers: they equal the registered list exactly when
  // no slot's value differs from the one it had when it was registered.
  void SetCurrent(int64_t q, int64_t v) {
    const int64_t old = current_[q];
    current_[q] = v;
    for (int64_t i = slots_begin_[q]; i < slots_begin_[q + 1]; ++i) {
      const int64_t s = slots_of_[i];
      const int64_t p = slot_phi_[s];
      with_value_[p] += (v >= 0) - (old >= 0);
      value_sum_[p] += (v >= 0 ? v : 0) - (old >= 0 ? old : 0);
      if (registered_at_[p] == 0) continue;  // never registered
      if (changed_at_[s] < registered_at_[p]) {
        // The first change since the phi registered: `old` was registered.
        registered_value_[s] = old;
        changed_at_[s] = epoch_;
      }
      mismatched_[p] +=
          (v != registered_value_[s]) - (old != registered_value_[s]);
    }
  }

  // The node's positions from their sources; true when one changed.
  bool UpdateNode(int64_t node) {
    const DataflowNode& n = df_.nodes[node];
    bool changed = false;
    for (int64_t p = n.first_position; p < n.first_position + n.positions;
         ++p) {
      const DataflowPosition& pos = df_.positions[p];
      if (pos.source == PositionSource::kForward) {
        if (current_[p] != current_[pos.target]) {
          SetCurrent(p, current_[pos.target]);
          changed = true;
        }
      } else if (pos.source == PositionSource::kPhi) {
        changed |= UpdatePhi(p);
      }
    }
    return changed;
  }

  // A phi's inputs; a new id when it is a phi of two or more values not
  // yet made here (XLA's phi graph registers its inputs).
  bool UpdatePhi(int64_t p) {
    if (self_check_) CheckPhi(p);
    if (with_value_[p] == 0) return false;
    if (with_value_[p] == 1) {
      if (current_[p] == value_sum_[p]) return false;
      SetCurrent(p, value_sum_[p]);  // the one input with a value
      return true;
    }
    const bool same = registered_at_[p] != 0 && mismatched_[p] == 0;
    // The inputs are registered as they are now, before the phi's own
    // value changes (it may be an input of itself).
    registered_at_[p] = ++epoch_;
    mismatched_[p] = 0;
    if (self_check_) registered_lists_[p] = InputValues(p);
    if (current_[p] < 0 || current_[p] != phi_here_[p]) {
      phi_here_[p] = next_id_++;
      SetCurrent(p, phi_here_[p]);
      return true;
    }
    return !same;
  }

  // The values of phi p's inputs that have one, in slot order (read from
  // every input: for SetXlaIdsSelfCheckForTesting only).
  std::vector<int64_t> InputValues(int64_t p) const {
    const DataflowPosition& pos = df_.positions[p];
    std::vector<int64_t> values;
    for (int64_t s = pos.target; s < pos.target + pos.inputs; ++s) {
      const int64_t v = current_[df_.phi_inputs[s]];
      if (v >= 0) values.push_back(v);
    }
    return values;
  }

  // What UpdatePhi reads of the counts kept up to date (how many inputs
  // have a value, the one value, whether they changed since the phi
  // registered them), against the same read from every input.
  void CheckPhi(int64_t p) {
    if (registered_lists_.empty()) {
      registered_lists_.resize(df_.positions.size());
    }
    const std::vector<int64_t> values = InputValues(p);
    const int64_t with = static_cast<int64_t>(values.size());
    bool ok = with == with_value_[p];
    if (with == 1) ok = ok && values[0] == value_sum_[p];
    if (with >= 2) {
      const bool same =
          registered_at_[p] != 0 && values == registered_lists_[p];
      ok = ok && same == (registered_at_[p] != 0 && mismatched_[p] == 0);
    }
    self_checks.fetch_add(1, std::memory_order_relaxed);
    if (!ok) self_check_failures.fetch_add(1, std::memory_order_relaxed);
  }

  int64_t FirstParameter(int64_t c) const {
    if (c < 0 || df_.computations[c].parameters.empty()) return -1;
    return df_.computations[c].parameters[0];
  }

  // Queues what a changed node feeds: its users, the parameters of the
  // computations they call with it, and, for a root, its call sites.
  void QueueDependents(int64_t node, PhiWorklist& work) const {
    for (int64_t user : g_.Users(node)) {
      work.Add(user);
      const DataflowNode& u = df_.nodes[user];
      if (u.source == nullptr) continue;
      const absl::Span<const int64_t> ops = df_.Operands(u);
      if (u.opcode == HloOpcode::kConditional) {
        const absl::Span<const int64_t> branches = g_.Calls(u.instruction);
        for (size_t j = 0; j < branches.size() && j + 1 < ops.size(); ++j) {
          if (ops[j + 1] == node) work.Add(FirstParameter(branches[j]));
        }
      } else if (CallKindOf(u.opcode) == CallKind::kControlFlow &&
                 u.opcode != HloOpcode::kAsyncUpdate &&
                 u.opcode != HloOpcode::kAsyncDone) {
        for (int64_t callee : g_.Calls(u.instruction)) {
          const std::vector<int64_t>& params =
              df_.computations[callee].parameters;
          for (size_t k = 0; k < ops.size() && k < params.size(); ++k) {
            if (ops[k] == node) work.Add(params[k]);
          }
        }
      }
    }
    const DataflowComputation& dc =
        df_.computations[df_.nodes[node].computation];
    if (dc.root != node) return;
    for (int64_t site : dc.callsites) {
      const DataflowNode& s = df_.nodes[site];
      work.Add(site);
      if (IsWhile(s.opcode) && s.source != nullptr) {
        work.Add(FirstParameter(AttributeComputation(g_, *s.source, "body")));
        work.Add(
            FirstParameter(AttributeComputation(g_, *s.source, "condition")));
      }
    }
  }

  // Post-order positions (BufferAssigner's sort keys): computations in
  // reverse post order of the call graph, instructions in post order.
  // XLA's call graph lists callees in instruction-list order, which the
  // text does not keep; but XLA prints computations in exactly that
  // depth-first post order, so the text order, reversed, is the order.
  void SetPositions() {
    std::vector<int64_t> call_post(comps_);
    std::iota(call_post.begin(), call_post.end(), 0);
    std::reverse(call_post.begin(), call_post.end());
    int64_t position = 0;
    for (int64_t c : call_post) {
      if (g_.kind[c] != CompKind::kGlobal || !df_.computations[c].scheduled) {
        continue;
      }
      for (int64_t node : PostOrder(c)) ids_.node_position[node] = position++;
    }
    position = 0;
    std::vector<std::vector<int64_t>> local_position(comps_);
    for (int64_t c : call_post) {
      if (g_.kind[c] != CompKind::kThreadLocal) continue;
      local_position[c].assign(module_.computations[c].instructions.size(), -1);
      for (int64_t i : PostOrder(c)) local_position[c][i] = position++;
    }
    for (ThreadLocalValue& v : ids_.thread_local_values) {
      v.position = local_position[v.computation].empty()
                       ? 0
                       : local_position[v.computation][v.instruction];
    }
  }

  const ModuleGraph& g_;
  const MemoryDataflow& df_;
  const HloModule& module_;
  const int64_t comps_;
  XlaIds ids_;
  // Post orders of all computations, one after the other: computation c's
  // is post_flat_[post_begin_[c] ... post_begin_[c + 1]).
  std::vector<int64_t> post_flat_, post_begin_;
  std::vector<uint8_t> node_state_;  // scratch of the DFS
  bool tpu_ = false;                 // XLA:TPU's module
  std::vector<int64_t> node_stack_;  // scratch of the DFS
  int64_t next_id_ = 0;
  std::vector<int64_t> position_id_;  // ids of defined positions
  // The phis' propagation: each position's value id now and the phi made
  // there.
  std::vector<int64_t> current_, phi_here_;
  // Phi slots (IndexPhiInputs): the phi of each slot; the slots reading
  // position q, slots_of_[slots_begin_[q] ... slots_begin_[q + 1]).
  std::vector<int64_t> slot_phi_, slots_begin_, slots_of_;
  // By phi position: its slots with a value, the sum of those values (the
  // value when there is one), how many slots differ from what was
  // registered, and when it last registered (an epoch_, 0: never).
  std::vector<int64_t> with_value_, value_sum_, mismatched_, registered_at_;
  int64_t epoch_ = 0;
  // By slot: its value when its phi last registered, valid once the slot
  // changed after that (changed_at_ >= the phi's registered_at_).
  std::vector<int64_t> registered_value_, changed_at_;
  // SetXlaIdsSelfCheckForTesting: each phi's inputs with a value as it last
  // registered them, read from every input.
  const bool self_check_;
  std::vector<std::vector<int64_t>> registered_lists_;
};

}  // namespace

XlaIds ComputeXlaIds(const ModuleGraph& g, XlaPlatform platform,
                     absl::Span<const std::string> created) {
  return XlaIdNumbering(g).Run(platform, created);
}

void SetXlaIdsSelfCheckForTesting(bool on) {
  self_check.store(on, std::memory_order_relaxed);
  self_checks.store(0, std::memory_order_relaxed);
  self_check_failures.store(0, std::memory_order_relaxed);
}

std::pair<int64_t, int64_t> XlaIdsSelfCheckCountsForTesting() {
  return {self_checks.load(std::memory_order_relaxed),
          self_check_failures.load(std::memory_order_relaxed)};
}

}  // namespace buffer_internal
std::vector<int64_t> ValuesByXlaId(const BufferAssignment& assignment) {
  std::vector<std::pair<int64_t, int64_t>> by_id;  // (id, value)
  for (const BufferAllocation& allocation : assignment.allocations) {
    for (const AssignedValue& v : allocation.values) {
      if (v.value >= 0) by_id.emplace_back(v.id, v.value);
    }
  }
  std::sort(by_id.begin(), by_id.end());
  std::vector<int64_t> order;
  order.reserve(by_id.size());
  for (const auto& [id, value] : by_id) order.push_back(value);
  return order;
}

}  // namespace hlolayout

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

// The computation named by attribute `name` of `in`, -1 if none.
int64_t AttributeComputation(const ModuleGraph& g, const HloInstruction& in,
                             absl::string_view name) {
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
    if (in.opcode == HloOpcode::kParameter && in.parameter_number.has_value() &&
        *in.parameter_number >= 0 && *in.parameter_number < (1 << 20)) {
      const int64_t k = *in.parameter_number;
      if (static_cast<int64_t>(g.parameters.size()) <= k) {
        g.parameters.resize(k + 1, -1);
      }
      g.parameters[k] = i;
    }
  }
  g.operands.resize(n);
  g.users.resize(n);
  for (int64_t i = 0; i < n; ++i) {
    for (const HloOperand& o : computation.instructions[i].operands) {
      const int64_t op = o.index;  // resolved by the reader
      g.operands[i].push_back(op);
      if (op >= 0 && (g.users[op].empty() || g.users[op].back() != i)) {
        g.users[op].push_back(i);
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

XlaIds ComputeXlaIds(const ModuleGraph& g, bool cpu,
                     absl::Span<const std::string> created) {
  const HloModule& module = g.module;
  const MemoryDataflow& df = g.df;
  const int64_t comps = static_cast<int64_t>(module.computations.size());
  const int64_t entry = module.entry_index;
  XlaIds ids;
  ids.value_id.assign(g.analysis.values.size(), -1);
  ids.node_position.assign(df.nodes.size(), -1);

  // Post orders: dataflow node ids for scheduled computations, instruction
  // indices for the others.
  // Post orders of all computations, one after the other: computation
  // c's is post_flat[post_begin[c] ... post_begin[c + 1]).
  std::vector<int64_t> post_flat, post_begin(comps + 1, 0);
  post_flat.reserve(df.nodes.size());
  auto post_order = [&](int64_t c) {
    return absl::MakeConstSpan(post_flat.data() + post_begin[c],
                               post_begin[c + 1] - post_begin[c]);
  };
  std::vector<uint8_t> node_state(df.nodes.size(), 0);
  std::vector<int64_t> node_stack;
  for (int64_t c = 0; c < comps; ++c) {
    const DataflowComputation& dc = df.computations[c];
    post_begin[c] = static_cast<int64_t>(post_flat.size());
    if (dc.scheduled) {
      // The DFS of InstructionPostOrder over dataflow nodes (node ids).
      const int64_t first = dc.first_node;
      std::vector<std::vector<int64_t>> preds;  // only with control edges
      // Node id by instruction index, for control predecessors (which the
      // reader linked by index).
      std::vector<int64_t> node_of;
      const HloComputation& source = module.computations[c];
      for (int64_t k = 0; k < dc.text_nodes; ++k) {
        const DataflowNode& n = df.nodes[first + k];
        if (!n.control_predecessors) continue;
        if (preds.empty()) {
          preds.resize(dc.nodes);
          node_of.assign(source.instructions.size(), -1);
          for (int64_t j = 0; j < dc.text_nodes; ++j) {
            const HloInstruction* in = df.nodes[first + j].source;
            node_of[in - source.instructions.data()] = first + j;
          }
        }
        for (int32_t p : module.control_predecessors(*n.source)) {
          if (p >= 0 && node_of[p] >= 0) preds[k].push_back(node_of[p]);
        }
      }
      std::vector<int64_t>& order = post_flat;
      std::fill_n(node_state.data() + first, dc.nodes, 0);
      uint8_t* const state = node_state.data() + first - first;
      std::vector<int64_t>& stack = node_stack;
      stack.clear();
      for (int64_t r = first; r < first + dc.nodes; ++r) {
        if (!g.Users(r).empty() || state[r] == 2) continue;
        stack.push_back(r);
        while (!stack.empty()) {
          const int64_t cur = stack.back();
          uint8_t& st = state[cur];
          if (st == 0) {
            st = 1;
            const absl::Span<const int64_t> ops = df.Operands(df.nodes[cur]);
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
              order.push_back(cur);
            }
          }
        }
      }
    } else {
      const InstructionGraph& ig = g.Graph(c);
      std::vector<std::vector<int64_t>> preds(ig.operands.size());
      for (size_t k = 0; k < ig.operands.size(); ++k) {
        for (int32_t p : module.control_predecessors(ig.at(k))) {
          if (p >= 0) preds[k].push_back(p);
        }
      }
      const std::vector<int64_t> order = InstructionPostOrder(
          static_cast<int64_t>(ig.operands.size()),
          [&](int64_t k) -> const std::vector<int64_t>& {
            return ig.operands[k];
          },
          [&](int64_t k) -> const std::vector<int64_t>& { return preds[k]; },
          [&](int64_t k) { return !ig.users[k].empty(); });
      // XLA walks from the instructions without users in the order it
      // holds them, which begins with the parameters by number, whatever
      // order the text prints them in (XLA:GPU's sort comparators print
      // unused parameters last first): those come first, by number.
      std::vector<int64_t> unused;
      for (int64_t k : order) {
        if (ig.users[k].empty() && ig.at(k).opcode == HloOpcode::kParameter) {
          unused.push_back(k);
        }
      }
      std::stable_sort(unused.begin(), unused.end(), [&](int64_t a, int64_t b) {
        return ig.at(a).parameter_number.value_or(-1) <
               ig.at(b).parameter_number.value_or(-1);
      });
      post_flat.insert(post_flat.end(), unused.begin(), unused.end());
      for (int64_t k : order) {
        if (!(ig.users[k].empty() &&
              ig.at(k).opcode == HloOpcode::kParameter)) {
          post_flat.push_back(k);
        }
      }
    }
  }
  post_begin[comps] = static_cast<int64_t>(post_flat.size());

  // The numbering order of computations (see the file comment).
  const std::vector<int64_t> order = cpu || !created.empty()
                                         ? XlaCpuComputationOrder(g, created)
                                         : XlaGpuComputationOrder(g);

  // Non-phi values.
  int64_t next_id = 0;
  std::vector<int64_t> position_id(df.positions.size(), -1);
  // Thread-local values by computation and instruction: (first value).
  std::vector<std::vector<int64_t>> local_first(comps);
  std::vector<std::pair<std::vector<int64_t>, const Shape*>> subs;
  std::vector<int64_t> scratch_index;
  for (int64_t c : order) {
    const DataflowComputation& dc = df.computations[c];
    if (dc.scheduled) {
      for (int64_t node : post_order(c)) {
        const DataflowNode& n = df.nodes[node];
        for (int64_t p = n.first_position; p < n.first_position + n.positions;
             ++p) {
          if (df.positions[p].source == PositionSource::kDefined) {
            position_id[p] = next_id++;
          }
        }
      }
      continue;
    }
    const HloComputation& comp = module.computations[c];
    const bool params_define =
        g.kind[c] != CompKind::kGlobal;  // embedded or unreached
    const bool local = g.kind[c] == CompKind::kThreadLocal;
    if (local) local_first[c].assign(comp.instructions.size(), -1);
    for (int64_t i : post_order(c)) {
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
          v.id = next_id;
          v.is_constant = in.opcode == HloOpcode::kConstant;
          ids.thread_local_values.push_back(std::move(v));
        }
        ++next_id;
      }
    }
  }
  for (size_t v = 0; v < g.analysis.values.size(); ++v) {
    const int64_t p = df.value_position[v];
    if (df.positions[p].source == PositionSource::kDefined) {
      ids.value_id[v] = position_id[p];
    }
  }

  // Phis: HloDataflowAnalysis::Propagate's worklist, ordered by
  // CalculatePostOrderSchedule (instructions outside it first).
  const int64_t nodes = static_cast<int64_t>(df.nodes.size());
  // Keys of the worklist: 1 + the ordinal for the instructions in the
  // schedule (distinct), 0 for the others (computations never run, which
  // no scheduled one depends on; among them the node id decides).
  std::vector<int64_t> priority(nodes, 0);
  int64_t max_key = 0;
  {
    int64_t ordinal = 0;
    std::vector<bool> visited(comps, false);
    std::vector<bool> has(nodes, false);
    std::function<void(int64_t)> walk = [&](int64_t c) {
      if (c < 0 || visited[c] || !df.computations[c].scheduled) return;
      visited[c] = true;
      for (int64_t node : post_order(c)) {
        const DataflowNode& n = df.nodes[node];
        if (n.source != nullptr) {
          if (n.opcode == HloOpcode::kCall ||
              n.opcode == HloOpcode::kConditional) {
            for (int64_t callee : g.Calls(n.instruction)) walk(callee);
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
    if (entry >= 0) walk(entry);
  }
  std::vector<int64_t> current(df.positions.size(), -1);
  for (size_t p = 0; p < df.positions.size(); ++p) {
    if (df.positions[p].source == PositionSource::kDefined) {
      current[p] = position_id[p];
    }
  }
  std::vector<int64_t> phi_here(df.positions.size(), -1);
  // The inputs each phi was last registered with (XLA's phi graph), in
  // place: registered[target ... target + count) of the position.
  std::vector<int64_t> registered(df.phi_inputs.size(), -1);
  std::vector<int32_t> registered_count(df.positions.size(), 0);
  // A bucket queue: a bit per key (at most one node has a key above 0),
  // scanned from the smallest key that may be set; key 0 in a heap.
  std::vector<int64_t> at_key(max_key + 1, -1);
  std::vector<uint64_t> bits(max_key / 64 + 1, 0);
  std::priority_queue<int64_t, std::vector<int64_t>, std::greater<int64_t>>
      at_zero;
  int64_t lowest = max_key + 1;  // no key below this one is set
  std::vector<bool> queued(nodes, false);
  // A node whose positions are all defined there never changes: its
  // update is a no-op, so it is never queued (the order of the others is
  // the same).
  std::vector<bool> active(nodes, false);
  for (const DataflowPosition& pos : df.positions) {
    if (pos.source != PositionSource::kDefined) active[pos.node] = true;
  }
  auto add = [&](int64_t node) {
    if (node < 0 || queued[node] || !active[node]) return;
    queued[node] = true;
    const int64_t key = priority[node];
    if (key == 0) {
      at_zero.push(node);
      return;
    }
    at_key[key] = node;
    bits[key >> 6] |= uint64_t{1} << (key & 63);
    lowest = std::min(lowest, key);
  };
  // The queued node with the smallest key, -1 when none is.
  auto pop = [&]() -> int64_t {
    if (!at_zero.empty()) {
      const int64_t node = at_zero.top();
      at_zero.pop();
      return node;
    }
    for (int64_t w = lowest >> 6; w < static_cast<int64_t>(bits.size()); ++w) {
      uint64_t word = bits[w];
      if (w == (lowest >> 6)) word &= ~uint64_t{0} << (lowest & 63);
      if (word == 0) continue;
      const int64_t key = w * 64 + __builtin_ctzll(word);
      bits[w] &= ~(uint64_t{1} << (key & 63));
      lowest = key;
      return at_key[key];
    }
    lowest = max_key + 1;
    return -1;
  };
  for (int64_t c = 0; c < comps; ++c) {
    for (int64_t node : post_order(c)) {
      if (df.computations[c].scheduled) add(node);
    }
  }
  std::vector<int64_t> inputs;
  auto first_parameter = [&](int64_t c) -> int64_t {
    if (c < 0 || df.computations[c].parameters.empty()) return -1;
    return df.computations[c].parameters[0];
  };
  for (int64_t node = pop(); node >= 0; node = pop()) {
    queued[node] = false;
    const DataflowNode& n = df.nodes[node];
    bool changed = false;
    for (int64_t p = n.first_position; p < n.first_position + n.positions;
         ++p) {
      const DataflowPosition& pos = df.positions[p];
      if (pos.source == PositionSource::kForward) {
        if (current[p] != current[pos.target]) {
          current[p] = current[pos.target];
          changed = true;
        }
      } else if (pos.source == PositionSource::kPhi) {
        inputs.clear();
        for (int64_t k = 0; k < pos.inputs; ++k) {
          const int64_t v = current[df.phi_inputs[pos.target + k]];
          if (v >= 0) inputs.push_back(v);
        }
        if (inputs.empty()) continue;
        if (inputs.size() == 1) {
          if (current[p] != inputs[0]) {
            current[p] = inputs[0];
            changed = true;
          }
        } else {
          int64_t* reg = registered.data() + pos.target;
          int32_t& count = registered_count[p];
          const bool same = count == static_cast<int32_t>(inputs.size()) &&
                            std::equal(inputs.begin(), inputs.end(), reg);
          if (current[p] < 0 || current[p] != phi_here[p]) {
            phi_here[p] = next_id++;
            current[p] = phi_here[p];
            changed = true;
          } else if (!same) {
            changed = true;
          }
          std::copy(inputs.begin(), inputs.end(), reg);
          count = static_cast<int32_t>(inputs.size());
        }
      }
    }
    if (!changed) continue;
    for (int64_t user : g.Users(node)) {
      add(user);
      const DataflowNode& u = df.nodes[user];
      if (u.source == nullptr) continue;
      const absl::Span<const int64_t> ops = df.Operands(u);
      if (u.opcode == HloOpcode::kConditional) {
        const absl::Span<const int64_t> branches = g.Calls(u.instruction);
        for (size_t j = 0; j < branches.size() && j + 1 < ops.size(); ++j) {
          if (ops[j + 1] == node) add(first_parameter(branches[j]));
        }
      } else if (CallKindOf(u.opcode) == CallKind::kControlFlow &&
                 u.opcode != HloOpcode::kAsyncUpdate &&
                 u.opcode != HloOpcode::kAsyncDone) {
        for (int64_t callee : g.Calls(u.instruction)) {
          const std::vector<int64_t>& params =
              df.computations[callee].parameters;
          for (size_t k = 0; k < ops.size() && k < params.size(); ++k) {
            if (ops[k] == node) add(params[k]);
          }
        }
      }
    }
    const DataflowComputation& dc = df.computations[n.computation];
    if (dc.root == node) {
      for (int64_t site : dc.callsites) {
        const DataflowNode& s = df.nodes[site];
        add(site);
        if (IsWhile(s.opcode) && s.source != nullptr) {
          add(first_parameter(AttributeComputation(g, *s.source, "body")));
          add(first_parameter(AttributeComputation(g, *s.source, "condition")));
        }
      }
    }
  }
  for (size_t v = 0; v < g.analysis.values.size(); ++v) {
    if (ids.value_id[v] >= 0) continue;
    const int64_t p = df.value_position[v];
    ids.value_id[v] = phi_here[p] >= 0 ? phi_here[p] : next_id++;
  }

  // Post-order positions (BufferAssigner's sort keys): computations in
  // reverse post order of the call graph, instructions in post order.
  // XLA's call graph lists callees in instruction-list order, which the
  // text does not keep; but XLA prints computations in exactly that
  // depth-first post order, so the text order, reversed, is the order.
  std::vector<int64_t> call_post(comps);
  std::iota(call_post.begin(), call_post.end(), 0);
  std::reverse(call_post.begin(), call_post.end());
  int64_t position = 0;
  for (int64_t c : call_post) {
    if (g.kind[c] != CompKind::kGlobal || !df.computations[c].scheduled) {
      continue;
    }
    for (int64_t node : post_order(c)) ids.node_position[node] = position++;
  }
  std::vector<int64_t> instruction_position;
  position = 0;
  std::vector<std::vector<int64_t>> local_position(comps);
  for (int64_t c : call_post) {
    if (g.kind[c] != CompKind::kThreadLocal) continue;
    local_position[c].assign(module.computations[c].instructions.size(), -1);
    for (int64_t i : post_order(c)) local_position[c][i] = position++;
  }
  for (ThreadLocalValue& v : ids.thread_local_values) {
    v.position = local_position[v.computation].empty()
                     ? 0
                     : local_position[v.computation][v.instruction];
  }
  return ids;
}

}  // namespace buffer_internal
}  // namespace hlolayout

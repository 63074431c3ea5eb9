// Where the get-tuple-elements folded into `%name#N` operands ran: XLA's
// memory schedulers replayed on each computation's scheduling graph
// (memory/xla_schedulers.h; docs/memory.md, "Where the folded
// get-tuple-elements ran"), with the shortcuts of docs/memory-speed.md,
// "Speed".
#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/types/optional.h"
#include "absl/types/span.h"
#include "hlolayout/memory/live_range_analyzer.h"
#include "hlolayout/memory/xla_schedulers.h"

namespace hlolayout {
namespace memory_internal {

// The text keeps the order of the instructions it prints, not where the
// get-tuple-elements folded into `%name#N` operands ran. XLA's default
// scheduler keeps the best of three schedulers; the first of them whose
// replay gives the text's order places the folded ones (docs/memory.md).
// When none does, they stay right after their producers.
void Analyzer::PlaceFoldedGetTupleElements() {
  // The computations with restored get-tuple-elements, largest first.
  ScratchVector<int64_t> comps;
  for (size_t c = 0; c < comps_.size(); ++c) {
    if (comps_[c].built && comps_[c].folded_size > 0) {
      comps.push_back(static_cast<int64_t>(c));
    }
  }
  if (comps.empty()) return;
  std::stable_sort(comps.begin(), comps.end(), [&](int64_t x, int64_t y) {
    return comps_[x].text_nodes > comps_[y].text_nodes;
  });
  const bool shortcuts = options_.replay_shortcuts;
  XlaReplayCache cache;
  SchedulingGraph graph;
  // Replays of each computation, by scheduler (XlaScheduler's numbering),
  // run as the choice of the scheduler asks for them.
  struct Sampled {
    FlatSchedulingGraph flat;
    ScratchVector<int64_t> node_of;
    bool emitted = false, with_buffers = false;
    std::array<bool, 4> replayed{};
    std::array<absl::optional<std::vector<int64_t>>, 4> orders;
  };
  std::vector<Sampled> sampled;
  auto replay = [&](Sampled& r, int64_t c, XlaScheduler scheduler) {
    const int e = static_cast<int>(scheduler);
    if (r.replayed[e]) return;
    if (shortcuts && scheduler == XlaScheduler::kPostOrder &&
        !PostOrderMayGiveText(c)) {
      r.orders[e] = absl::nullopt;
      r.replayed[e] = true;
      return;
    }
    const bool buffers = ReplayReadsBuffers(scheduler);
    if (!r.emitted || (buffers && !r.with_buffers)) {
      EmitSchedulingGraph(c, buffers, &r.flat, &r.node_of);
      r.emitted = true;
      r.with_buffers = buffers;
    }
    if (shortcuts) {
      r.orders[e] = cache.Replay(r.flat, scheduler);
    } else {
      DecodeSchedulingGraph(r.flat, &graph);
      r.orders[e] = ReplayXlaScheduler(graph, scheduler);
    }
    r.replayed[e] = true;
  };
  // The largest computations, where a replay that reproduces the text is
  // the strongest evidence, decide which scheduler XLA ran
  // (ChooseXlaScheduler); the replays run as the choice asks for them.
  constexpr size_t kSample = 8;
  sampled.resize(comps.size());
  const absl::optional<XlaScheduler> chosen = ChooseXlaScheduler(
      comps.size(), kSample,
      [&](size_t k, XlaScheduler s) {
        replay(sampled[k], comps[k], s);
        return sampled[k].orders[static_cast<int>(s)].has_value();
      },
      /*skip=*/shortcuts);
  if (!chosen.has_value()) return;
  const XlaScheduler scheduler = *chosen;
  out_.replayed_scheduler = std::string(XlaSchedulerName(scheduler));
  FlatSchedulingGraph flat;
  ScratchVector<int64_t> node_of;
  auto apply = [&](int64_t c, const absl::optional<std::vector<int64_t>>& order,
                   const ScratchVector<int64_t>& nodes) {
    if (!order.has_value()) return;
    absl::Span<int32_t> sequence = Sequence(comps_[c]);
    for (size_t i = 0; i < order->size(); ++i) {
      sequence[i] = nodes[(*order)[i]];
    }
  };
  const int e = static_cast<int>(scheduler);
  for (size_t k = 0; k < comps.size(); ++k) {
    if (sampled[k].replayed[e]) {  // while choosing
      apply(comps[k], sampled[k].orders[e], sampled[k].node_of);
      continue;
    }
    if (shortcuts && scheduler == XlaScheduler::kPostOrder &&
        !PostOrderMayGiveText(comps[k])) {
      continue;
    }
    EmitSchedulingGraph(comps[k], ReplayReadsBuffers(scheduler), &flat,
                        &node_of);
    if (shortcuts) {
      apply(comps[k], cache.Replay(flat, scheduler), node_of);
    } else {
      DecodeSchedulingGraph(flat, &graph);
      apply(comps[k], ReplayXlaScheduler(graph, scheduler), node_of);
    }
  }
}

// The order of computation `c`'s nodes in its scheduling graph (the
// computation's creation order as far as the text shows it): parameters
// by number, then the text, each restored get-tuple-element right after
// its producer. `index_of[id - first node]` is a node's place.
void Analyzer::GraphOrder(int64_t c, ScratchVector<int64_t>* node_of,
                          ScratchVector<int64_t>* index_of) {
  const Comp& comp = comps_[c];
  // The computation's nodes: its text, then its restored get-tuple-elements.
  const int64_t first = comp.first_node;
  const int64_t text = comp.text_nodes;
  const int64_t size = text + comp.folded_size;
  // `folded` is sorted by producer: fold_begin[k] is where text node k's
  // start.
  const absl::Span<const std::pair<int64_t, int64_t>> folded = Folded(comp);
  ScratchVector<int64_t>& fold_begin = scratch_fold_begin_;
  FillScratch(&fold_begin, text + 1, int64_t{0});
  for (const auto& f : folded) ++fold_begin[f.first - first + 1];
  for (int64_t k = 0; k < text; ++k) fold_begin[k + 1] += fold_begin[k];
  node_of->resize(size);
  FillScratch(index_of, size, kNone);
  int64_t n = 0;
  auto push = [&](int64_t id) {  // a text node and its restored GTEs
    const int64_t k = id - first;
    (*index_of)[k] = n;
    (*node_of)[n++] = id;
    for (int64_t f = fold_begin[k]; f < fold_begin[k + 1]; ++f) {
      (*index_of)[folded[f].second - first] = n;
      (*node_of)[n++] = folded[f].second;
    }
  };
  for (int64_t p : Parameters(comp)) {
    if (p != kNone && (*index_of)[p - first] == kNone) push(p);
  }
  for (int64_t id = first; id < first + text; ++id) {
    if ((*index_of)[id - first] == kNone) push(id);
  }
}

// The post-order scheduler (HloComputation::MakeInstructionPostOrder) runs
// first the instruction a depth-first walk reaches from the first
// instruction without users by first operands (or a control predecessor)
// until one without any. If that one is printed and is not the text's
// first instruction, the replay cannot give the text's order; this tells
// so without building the graph. True when it cannot tell (control
// predecessors, a get-tuple-element first).
bool Analyzer::PostOrderMayGiveText(int64_t c) {
  const Comp& comp = comps_[c];
  const int64_t first = comp.first_node;
  const int64_t size = comp.text_nodes + comp.folded_size;
  if (comp.text_nodes == 0) return true;
  ScratchVector<int64_t>& node_of = scratch_node_of_;
  ScratchVector<int64_t>& index_of = scratch_index_of_;
  GraphOrder(c, &node_of, &index_of);
  ScratchVector<int64_t>& used = scratch_used_;  // by id - first; 1: used
  FillScratch(&used, size, int64_t{0});
  for (int64_t id = first; id < first + size; ++id) {
    for (int64_t op : Operands(nodes_[id])) {
      const int64_t local = op - first;
      if (local >= 0 && local < size) used[local] = 1;
    }
  }
  int64_t x = kNone;
  for (int64_t id : node_of) {
    if (!used[id - first]) {
      x = id;
      break;
    }
  }
  if (x == kNone) return true;
  std::fill_n(used.data(), size, 0);
  // The walk; a node met again (a cycle) runs first.
  for (int64_t steps = 0; steps <= size; ++steps) {
    const Node& node = nodes_[x];
    if (node.has_control_predecessors) return true;
    used[x - first] = 2;  // on the walk
    const absl::Span<const int32_t> operands = Operands(node);
    if (operands.empty()) break;
    const int64_t next = operands[0];
    if (next - first < 0 || next - first >= size) return true;
    x = next;
    if (used[next - first] == 2) break;
  }
  if (nodes_[x].restored) return true;  // folded: not checked
  return x == first;
}

// Writes computation `c`'s scheduling graph in the flat form (the format
// of FlatSchedulingGraph::data): a row per instruction (flags, operands,
// control predecessors, the buffers of the operands' values, the buffers
// it defines), then the buffers' sizes, the root's buffers, the root and
// the text's places. The array goes into a scratch buffer that only grows
// (Room makes space for the next writes); a list is a count slot
// (OpenCount) filled when the list is done (CloseCount).
class Analyzer::GraphEmitter {
 public:
  GraphEmitter(Analyzer* a, int64_t c, bool buffers,
               ScratchVector<int64_t>* node_of)
      : a_(*a),
        comp_(a->comps_[c]),
        c_(c),
        first_(comp_.first_node),
        size_(comp_.text_nodes + comp_.folded_size),
        buffers_(buffers),
        node_of_(*node_of),
        index_of_(a->scratch_index_of_),
        bytes_(a->scratch_buffer_bytes_),
        data_(a->scratch_flat_),
        mark_(a->scratch_mark_),
        stamp_(a->scratch_stamp_) {
    bytes_.clear();
    if (data_.size() < 64) data_.resize(64);
    out_ = data_.data();
  }

  void Run(FlatSchedulingGraph* flat);

 private:
  void Room(size_t more) {
    const size_t at = out_ - data_.data();
    if (at + more > data_.size()) {
      data_.resize(std::max(2 * data_.size(), at + more));
      out_ = data_.data() + at;
    }
  }
  size_t OpenCount() { return out_++ - data_.data(); }
  void CloseCount(size_t slot) {
    data_[slot] = (out_ - data_.data()) - static_cast<int64_t>(slot) - 1;
  }
  // The graph's buffer of value `v` (numbered as met), kNone when it is
  // not one of this computation's buffers.
  int64_t Buffer(int64_t v) __attribute__((always_inline));
  // Row `i`, the graph's instruction node_of[i].
  void EmitRow(int64_t i, FlatSchedulingGraph* flat)
      __attribute__((always_inline));
  // The list of a node that has control predecessors.
  void EmitControlPredecessors(const Node& node, size_t values_after);
  // The buffers of the operands' values, distinct.
  void EmitOperandBuffers(absl::Span<const int32_t> operands)
      __attribute__((always_inline));
  void EmitDefinedBuffers(const Node& node, int64_t id)
      __attribute__((always_inline));
  // The root's buffers (every buffer of the computation is numbered by
  // then: it was met where it is defined), distinct.
  void ListLiveOut();

  Analyzer& a_;
  const Comp& comp_;
  const int64_t c_, first_, size_;
  const bool buffers_;
  ScratchVector<int64_t>& node_of_;
  ScratchVector<int64_t>& index_of_;  // id - first -> index
  ScratchVector<int64_t>& bytes_;     // by buffer
  ScratchVector<int64_t>& data_;
  int64_t* out_;
  // Distinct buffers per list: a buffer is in the list being filled when
  // its mark is the list's stamp (stamps grow across graphs).
  ScratchVector<int64_t>& mark_;
  int64_t stamp_;
  // List positions of the text instructions, for control predecessors
  // (filled when first needed).
  absl::flat_hash_map<const HloInstruction*, int64_t> text_index_;
};

void Analyzer::GraphEmitter::Run(FlatSchedulingGraph* flat) {
  flat->names.resize(size_);
  Room(1);
  *out_++ = size_;
  for (int64_t i = 0; i < size_; ++i) EmitRow(i, flat);
  ListLiveOut();
  a_.scratch_stamp_ = stamp_;
  const ScratchVector<int64_t>& live_out = a_.scratch_live_out_;
  const int64_t text = comp_.text_nodes;
  Room(5 + bytes_.size() + live_out.size() + text);
  *out_++ = static_cast<int64_t>(bytes_.size());
  out_ = std::copy(bytes_.begin(), bytes_.end(), out_);
  *out_++ = static_cast<int64_t>(live_out.size());
  out_ = std::copy(live_out.begin(), live_out.end(), out_);
  *out_++ = comp_.root != kNone ? index_of_[comp_.root - first_] : -1;
  *out_++ = text;
  out_ = std::copy(index_of_.begin(), index_of_.begin() + text, out_);
  flat->data.assign(data_.data(), out_);
}

inline int64_t Analyzer::GraphEmitter::Buffer(int64_t v) {
  if (a_.buffer_owner_[v] != c_) return kNone;
  if (a_.buffer_of_[v].first == c_) return a_.buffer_of_[v].second;
  const int64_t b = static_cast<int64_t>(bytes_.size());
  bytes_.push_back(a_.ValueSubshape(v).bytes);
  a_.buffer_of_[v] = {c_, b};
  return b;
}

inline void Analyzer::GraphEmitter::EmitRow(int64_t i,
                                            FlatSchedulingGraph* flat) {
  const Node& node = a_.nodes_[node_of_[i]];
  const absl::Span<const int32_t> operands = a_.Operands(node);
  // At most: the flags, four counts, the operands, their values and the
  // node's own values (control predecessors make their own room).
  size_t values_after = 2;
  if (buffers_) {
    values_after += node.subshapes.size();
    for (int64_t op : operands) values_after += a_.nodes_[op].subshapes.size();
  }
  Room(3 + operands.size() + values_after);
  const bool is_folded = node.restored;
  flat->names[i] = is_folded ? absl::string_view() : a_.NameOf(node);
  const bool parameter = node.op == Op::kParameter;
  *out_++ =
      (is_folded ? FlatSchedulingGraph::kFolded : 0) |
      (parameter || node.op == Op::kConstant ? FlatSchedulingGraph::kIgnored
                                             : 0) |
      (parameter ? FlatSchedulingGraph::kParameter : 0) |
      (node.effective_scalar ? FlatSchedulingGraph::kEffectiveScalar : 0);
  // (Members read into locals: the writes through out_ could alias them.)
  int64_t* count = out_++;
  int64_t* out = out_;
  const int64_t first = first_, size = size_;
  const int64_t* index_of = index_of_.data();
  for (int64_t op : operands) {
    const int64_t local = op - first;
    if (local >= 0 && local < size && index_of[local] != kNone) {
      *out++ = index_of[local];
    }
  }
  *count = out - count - 1;
  out_ = out;
  if (node.has_control_predecessors) {
    EmitControlPredecessors(node, values_after);
  } else {
    *out_++ = 0;  // an empty list
  }
  EmitOperandBuffers(buffers_ ? operands : absl::Span<const int32_t>());
  EmitDefinedBuffers(node, node_of_[i]);
}

void Analyzer::GraphEmitter::EmitControlPredecessors(const Node& node,
                                                     size_t values_after) {
  const size_t count = OpenCount();
  // Linked by the reader: indices into the node's computation.
  const HloModule& module = a_.module_;
  const HloComputation& computation = module.computations[node.computation];
  for (int32_t p : module.control_predecessors(*a_.SourceOf(node))) {
    if (p < 0) continue;
    if (text_index_.empty()) {
      for (int64_t k = 0; k < size_; ++k) {
        const Node& listed = a_.nodes_[node_of_[k]];
        if (!listed.restored) text_index_[a_.SourceOf(listed)] = k;
      }
    }
    auto found = text_index_.find(&computation.instructions[p]);
    if (found == text_index_.end()) continue;
    Room(1 + values_after);
    *out_++ = found->second;
  }
  CloseCount(count);
}

inline void Analyzer::GraphEmitter::EmitOperandBuffers(
    absl::Span<const int32_t> operands) {
  const size_t count = OpenCount();
  const int64_t stamp = ++stamp_;
  for (int64_t op : operands) {
    const Node& operand = a_.nodes_[op];
    const int32_t* values = a_.value_of_.data() + operand.first_position;
    const size_t subshapes = operand.subshapes.size();
    for (size_t s = 0; s < subshapes; ++s) {
      const int64_t v = values[s];
      if (v == kNone) continue;
      const int64_t b = Buffer(v);
      if (b == kNone || mark_[b] == stamp) continue;
      mark_[b] = stamp;
      *out_++ = b;
    }
  }
  CloseCount(count);
}

inline void Analyzer::GraphEmitter::EmitDefinedBuffers(const Node& node,
                                                       int64_t id) {
  const size_t count = OpenCount();
  const int32_t* values = a_.value_of_.data() + node.first_position;
  const size_t subshapes = buffers_ ? node.subshapes.size() : 0;
  for (size_t s = 0; s < subshapes; ++s) {
    const int64_t v = values[s];
    if (v == kNone || a_.value_def_node_[v] != id) continue;
    const int64_t b = Buffer(v);
    if (b != kNone) *out_++ = b;
  }
  CloseCount(count);
}

void Analyzer::GraphEmitter::ListLiveOut() {
  ScratchVector<int64_t>& live_out = a_.scratch_live_out_;
  live_out.clear();
  if (comp_.root == kNone || !buffers_) return;
  ++stamp_;
  const Node& root = a_.nodes_[comp_.root];
  const int32_t* values = a_.value_of_.data() + root.first_position;
  for (size_t s = 0; s < root.subshapes.size(); ++s) {
    const int64_t v = values[s];
    if (v == kNone) continue;
    const int64_t b = Buffer(v);
    if (b == kNone || mark_[b] == stamp_) continue;
    mark_[b] = stamp_;
    live_out.push_back(b);
  }
}

void Analyzer::PrepareGraphBuffers() {
  // Buffers: the values a computation defines, except those of parameters
  // and constants (XLA's list scheduler ignores them), numbered as they are
  // met.
  if (buffer_of_.size() == value_def_position_.size()) return;
  // Which computation's buffer each value is (kNone: ignored).
  buffer_owner_.resize(value_def_position_.size());
  for (size_t v = 0; v < value_def_position_.size(); ++v) {
    const Node& def = nodes_[value_def_node_[v]];
    buffer_owner_[v] = def.op == Op::kParameter || def.op == Op::kConstant
                           ? kNone
                           : def.computation;
  }
  buffer_of_.assign(value_def_position_.size(), {kNone, kNone});
  scratch_mark_.assign(value_def_position_.size(), -1);  // buffers <= values
}

// Computation `c` as XLA's schedulers see it, in the flat form
// XlaReplayCache keys on; `node_of` maps the graph's instructions to node
// ids. Without `buffers`, the buffer lists and sizes are left empty (all
// the post-order scheduler needs is the rest).
void Analyzer::EmitSchedulingGraph(int64_t c, bool buffers,
                                   FlatSchedulingGraph* flat,
                                   ScratchVector<int64_t>* node_of) {
  GraphOrder(c, node_of, &scratch_index_of_);
  PrepareGraphBuffers();
  GraphEmitter(this, c, buffers, node_of).Run(flat);
}
}  // namespace memory_internal
}  // namespace hlolayout

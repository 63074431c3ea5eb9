#include "hlolayout/memory/live_range.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <tuple>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/memory/phi_graph.h"
#include "hlolayout/memory/value_rules.h"
#include "hlolayout/memory/xla_schedulers.h"

namespace hlolayout {

std::string ShapeIndexString(const std::vector<int64_t>& index) {
  return absl::StrCat("{", absl::StrJoin(index, ","), "}");
}

namespace {

constexpr int64_t kNone = -1;

// XLA's memory schedulers, in the order of preference when several
// reproduce as many computations: XLA's own (list, DFS, post-order), with
// DFS with the parameters first (XLA:CPU's schedules) before post-order.
constexpr XlaScheduler kXlaSchedulers[4] = {
    XlaScheduler::kList, XlaScheduler::kDfs, XlaScheduler::kDfsParametersFirst,
    XlaScheduler::kPostOrder};

// Subshapes of a shape in pre-order: {}, {0}, {0,0}, ..., {1}, ...
struct Subshape {
  std::vector<int64_t> index;
  const Shape* shape;
};

void ListSubshapes(const Shape& shape, std::vector<int64_t>* index,
                   std::vector<Subshape>* out) {
  out->push_back({*index, &shape});
  if (!shape.IsTuple()) return;
  for (int64_t i = 0; i < shape.tuple_size(); ++i) {
    index->push_back(i);
    ListSubshapes(shape.tuple_shape(i), index, out);
    index->pop_back();
  }
}

// The opcodes the analysis treats specially, classified once per node so
// that the passes compare small integers, not strings.
enum class Op : uint8_t {
  kOther,
  kParameter,
  kGetTupleElement,
  kTuple,
  kWhile,
  kCall,
  kConditional,
  kAsyncStart,
  kConstant,
  kFusion,
  kCustomCall,
  kDynamicUpdateSlice,
  kCopy,
  kDomain,
};

Op OpOf(absl::string_view opcode) {
  // By length first: one string comparison at most.
  switch (opcode.size()) {
    case 4:
      if (opcode == "call") return Op::kCall;
      if (opcode == "copy") return Op::kCopy;
      break;
    case 5:
      if (opcode == "tuple") return Op::kTuple;
      if (opcode == "while") return Op::kWhile;
      break;
    case 6:
      if (opcode == "fusion") return Op::kFusion;
      if (opcode == "domain") return Op::kDomain;
      break;
    case 8:
      if (opcode == "constant") return Op::kConstant;
      break;
    case 9:
      if (opcode == "parameter") return Op::kParameter;
      break;
    case 11:
      if (opcode == "conditional") return Op::kConditional;
      if (opcode == "async-start") return Op::kAsyncStart;
      if (opcode == "custom-call") return Op::kCustomCall;
      break;
    case 17:
      if (opcode == "get-tuple-element") return Op::kGetTupleElement;
      break;
    case 20:
      if (opcode == "dynamic-update-slice") return Op::kDynamicUpdateSlice;
      break;
  }
  return Op::kOther;
}

// The subshapes of one distinct Shape object, shared by every node whose
// result (or restored get-tuple-element) has that shape.
using Subshapes = std::vector<Subshape>;

struct Node {              // an instruction of a scheduled computation
  absl::string_view name;  // a restored GTE's name lives in gte_names_
  absl::string_view opcode;
  Op op = Op::kOther;
  ValueRule rule = ValueRule::kAll;
  bool has_control_predecessors = false;
  absl::string_view op_name;      // from the metadata
  bool effective_scalar = false;  // an array whose dimensions are all 1
  const HloInstruction* source = nullptr;  // null for a restored GTE
  int64_t gte_index = kNone;               // restored GTE: the element
  const Shape* shape = nullptr;
  int64_t computation = 0;
  absl::InlinedVector<int64_t, 2> operands;  // node ids
  absl::InlinedVector<int64_t, 2> callees;   // computation ids, in order
  int64_t body = kNone, condition = kNone;   // a while's computations
  const Subshapes* subshapes = nullptr;
  int64_t first_position = 0;
  int64_t time = kNone;
};

enum class Context : uint8_t { kEntry, kControlFlow, kEmbedded, kUncalled };

struct Comp {
  const HloComputation* source = nullptr;
  std::vector<int64_t> sequence;    // node ids, schedule order
  std::vector<int64_t> parameters;  // node id by parameter number
  int64_t root = kNone;
  Context context = Context::kUncalled;
  std::vector<int64_t> callsites;  // node ids of callers (control flow)
  // Restored get-tuple-elements: (producer, node id), by producer (then in
  // first-use order).
  std::vector<std::pair<int64_t, int64_t>> folded;
  int64_t first_node = 0, text_nodes = 0;  // the text's nodes
  bool built = false;
  int64_t span_start = kNone, span_end = kNone;
};

int64_t CountSubshapes(const Shape& shape) {
  int64_t n = 1;
  if (shape.IsTuple()) {
    for (const Shape& element : shape.tuple_shapes()) {
      n += CountSubshapes(element);
    }
  }
  return n;
}

// Pre-order position of `index` among the subshapes of `shape`.
int64_t SubshapeOffset(const Shape& shape, const std::vector<int64_t>& index,
                       size_t from = 0) {
  if (from == index.size()) return 0;
  int64_t offset = 1;
  for (int64_t i = 0; i < index[from]; ++i) {
    offset += CountSubshapes(shape.tuple_shape(i));
  }
  return offset +
         SubshapeOffset(shape.tuple_shape(index[from]), index, from + 1);
}

// Value sources of positions, before phi resolution.
enum class SourceKind : uint8_t { kDefined, kForward, kPhi };
struct Source {
  SourceKind kind = SourceKind::kDefined;
  int64_t target = kNone;       // kForward: a position
  std::vector<int64_t> inputs;  // kPhi: positions
};

// The op_name="..." of a metadata attribute's value (empty if none).
absl::string_view OpNameOf(absl::string_view metadata) {
  const size_t at = metadata.find("op_name=\"");
  if (at == absl::string_view::npos) return {};
  const size_t b = at + 9;
  const size_t e = metadata.find('"', b);
  return e == absl::string_view::npos ? absl::string_view()
                                      : metadata.substr(b, e - b);
}

// XLA's ShapeUtil::IsEffectiveScalar: an array whose dimensions are all 1.
bool EffectiveScalar(const Shape& shape) {
  if (!shape.IsArray()) return false;
  for (int64_t d : shape.dimensions()) {
    if (d != 1) return false;
  }
  return true;
}

// The computation called as `attribute` by `in` (while's body/condition).
int64_t CalleeByAttribute(
    const HloInstruction& in, absl::string_view attribute,
    const absl::flat_hash_map<absl::string_view, int64_t>& comp_index) {
  absl::optional<absl::string_view> v =
      FindHloAttribute(in.attributes, attribute);
  if (!v.has_value()) return kNone;
  absl::string_view n = *v;
  if (!n.empty() && n[0] == '%') n.remove_prefix(1);
  auto it = comp_index.find(n);
  return it == comp_index.end() ? kNone : it->second;
}

class Analyzer {
 public:
  explicit Analyzer(const HloModule& module) : module_(module) {}

  absl::StatusOr<MemoryAnalysis> Run();

 private:
  absl::Status Build();
  absl::Status BuildComputation(int64_t c);
  void Flatten(int64_t c);
  int64_t Position(int64_t node, const std::vector<int64_t>& index) const {
    return nodes_[node].first_position +
           SubshapeOffset(*nodes_[node].shape, index);
  }
  bool HasIndex(int64_t node, const std::vector<int64_t>& index) const {
    const Shape* s = nodes_[node].shape;
    for (int64_t i : index) {
      if (s == nullptr || !s->IsTuple() || i < 0 || i >= s->tuple_size()) {
        return false;
      }
      s = &s->tuple_shape(i);
    }
    return s != nullptr;
  }
  absl::Status SetSources();
  absl::Status ResolveValues();
  std::pair<int64_t, int64_t> ArrayBytes(const Shape* shape);
  // (padded, logical) bytes: 8 per tuple element, an array's exact sizes,
  // 8 for opaque, 0 for tokens.
  std::pair<int64_t, int64_t> SubshapeBytes(const Shape* shape);
  int64_t ValueBytes(int64_t value);
  void PlaceFoldedGetTupleElements();
  void BuildSchedulingGraph(int64_t c, SchedulingGraph* g,
                            std::vector<int64_t>* node_of);
  void ComputeUses();
  void LiveRanges();
  void Normalize();
  void Peaks();

  const HloModule& module_;
  std::vector<Node> nodes_;
  std::vector<Comp> comps_;
  absl::flat_hash_map<absl::string_view, int64_t> comp_index_;
  std::vector<int64_t> schedule_;  // node ids by time
  int64_t positions_ = 0;
  std::vector<Source> sources_;
  std::vector<int64_t> value_of_;  // position -> value id
  std::vector<int64_t> use_end_;   // value -> latest time it is used
  MemoryAnalysis out_;
  std::vector<int64_t> value_def_position_;
  std::vector<int64_t> value_def_node_;  // value -> defining node
  absl::flat_hash_map<const Shape*, std::pair<int64_t, int64_t>> sizes_;
  absl::flat_hash_map<absl::string_view, int64_t> scratch_by_name_;
  absl::flat_hash_map<std::pair<int64_t, int64_t>, int64_t> scratch_gtes_;
  std::vector<std::pair<int64_t, int64_t>> scratch_after_;
  std::vector<absl::string_view> scratch_names_;
  std::vector<int64_t> scratch_pending_;
  std::vector<int64_t> comp_first_instruction_;
  std::vector<int64_t> callee_begin_, callee_ids_;
  std::deque<std::string> gte_names_;  // names of restored GTEs
  // Value -> (computation, scheduling graph buffer id).
  std::vector<std::pair<int64_t, int64_t>> buffer_of_;
  std::vector<int64_t> buffer_owner_;
  std::vector<int64_t> scratch_index_of_, scratch_mark_;
  int64_t scratch_stamp_ = 0;
  absl::flat_hash_map<const Shape*, const Subshapes*> subshape_cache_;
  std::deque<Subshapes> subshape_store_;
};

absl::Status Analyzer::Build() {
  bool scheduled = false;
  for (const HloAttribute& a : module_.header.attributes) {
    if (a.name == "is_scheduled" && a.value == "true") scheduled = true;
  }
  if (!scheduled) {
    return absl::InvalidArgumentError(absl::StrCat(
        "module ", module_.header.name.empty() ? "(no name)" : "",
        module_.header.name,
        " is not scheduled (no is_scheduled=true): its text order is not "
        "an execution order, so there is no live range to compute"));
  }
  comps_.resize(module_.computations.size());
  for (size_t c = 0; c < module_.computations.size(); ++c) {
    comps_[c].source = &module_.computations[c];
    comp_index_.emplace(module_.computations[c].header.name, c);
  }
  // Contexts: every caller's kind; embedded wins. The callees of every
  // instruction are kept (callee_ids_ from callee_begin_[i] to
  // callee_begin_[i + 1], i counting instructions over all computations).
  std::vector<absl::string_view>& names = scratch_names_;
  comp_first_instruction_.resize(module_.computations.size());
  callee_begin_.reserve(module_.instruction_count() + 1);
  for (size_t c = 0; c < module_.computations.size(); ++c) {
    comp_first_instruction_[c] = static_cast<int64_t>(callee_begin_.size());
    for (const HloInstruction& in : module_.computations[c].instructions) {
      callee_begin_.push_back(static_cast<int64_t>(callee_ids_.size()));
      names.clear();
      AppendCalledComputationNames(in, &names);
      for (absl::string_view n : names) {
        auto it = comp_index_.find(n);
        if (it == comp_index_.end()) {
          return absl::InvalidArgumentError(
              absl::StrCat("instruction '", in.name,
                           "' calls unknown computation '", n, "'"));
        }
        callee_ids_.push_back(it->second);
        Context& ctx = comps_[it->second].context;
        if (CallKindOf(in.opcode) == CallKind::kEmbedded) {
          ctx = Context::kEmbedded;
        } else if (ctx != Context::kEmbedded) {
          ctx = Context::kControlFlow;
        }
      }
    }
  }
  callee_begin_.push_back(static_cast<int64_t>(callee_ids_.size()));
  if (module_.entry_index < 0) {
    return absl::InvalidArgumentError("module has no entry computation");
  }
  comps_[module_.entry_index].context = Context::kEntry;
  // Build every computation that is not embedded.
  nodes_.reserve(static_cast<size_t>(module_.instruction_count()) * 3 / 2);
  for (size_t c = 0; c < comps_.size(); ++c) {
    if (comps_[c].context == Context::kEmbedded) continue;
    absl::Status status = BuildComputation(c);
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

absl::Status Analyzer::BuildComputation(int64_t c) {
  Comp& comp = comps_[c];
  const HloComputation& source = *comp.source;
  // Scratch maps, reused from computation to computation.
  auto& by_name = scratch_by_name_;
  auto& gtes = scratch_gtes_;
  auto& after = scratch_after_;
  by_name.clear();
  by_name.reserve(source.instructions.size());
  gtes.clear();
  after.clear();
  // The text's instructions become nodes base, base + 1, ...
  const int64_t base = static_cast<int64_t>(nodes_.size());
  const int64_t count = static_cast<int64_t>(source.instructions.size());
  for (const HloInstruction& in : source.instructions) {
    Node node;
    node.name = in.name;
    node.opcode = in.opcode;
    node.op = OpOf(in.opcode);
    node.rule = ValueRuleOf(in.opcode);
    node.source = &in;
    node.shape = in.shape;
    node.computation = c;
    // One pass over the attributes while the instruction is in cache.
    bool metadata_seen = false;  // the first one counts, as elsewhere
    for (const HloAttribute& a : in.attributes) {
      if (a.name == "control-predecessors") {
        node.has_control_predecessors = true;
      } else if (a.name == "metadata" && !metadata_seen) {
        metadata_seen = true;
        node.op_name = OpNameOf(a.value);
      }
    }
    if (node.shape == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "instruction '", in.name, "' in '", source.header.name,
          "' has no shape; memory analysis needs every result shape"));
    }
    node.effective_scalar = EffectiveScalar(*node.shape);
    by_name[in.name] = static_cast<int64_t>(nodes_.size());
    nodes_.push_back(std::move(node));
  }
  // Operands, restoring get-tuple-elements written as `%name#N` right after
  // their producer (one per distinct producer and N, in first-use order).
  for (int64_t id = base; id < base + count; ++id) {
    const HloInstruction& in = *nodes_[id].source;
    for (const HloOperand& operand : in.operands) {
      auto it = by_name.find(operand.name);
      if (it == by_name.end()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "operand '", operand.name, "' of '", in.name,
            "' is not an instruction of '", source.header.name, "'"));
      }
      int64_t producer = it->second;
      if (operand.has_output_index()) {
        const auto key = std::make_pair(producer, operand.output_index);
        auto g = gtes.find(key);
        if (g == gtes.end()) {
          const Shape* ps = nodes_[producer].shape;
          if (!ps->IsTuple() || operand.output_index >= ps->tuple_size()) {
            return absl::InvalidArgumentError(absl::StrCat(
                "operand '", operand.name, "#", operand.output_index, "' of '",
                in.name, "' selects no element of ", nodes_[producer].name,
                "'s result"));
          }
          Node gte;
          gte_names_.push_back(
              absl::StrCat(nodes_[producer].name, "#", operand.output_index));
          gte.name = gte_names_.back();
          gte.opcode = "get-tuple-element";
          gte.op = Op::kGetTupleElement;
          gte.rule = ValueRule::kNothing;
          gte.gte_index = operand.output_index;
          gte.shape = &ps->tuple_shape(operand.output_index);
          gte.effective_scalar = EffectiveScalar(*gte.shape);
          gte.computation = c;
          gte.operands.push_back(producer);
          const int64_t gid = static_cast<int64_t>(nodes_.size());
          nodes_.push_back(std::move(gte));
          g = gtes.emplace(key, gid).first;
          after.emplace_back(producer, gid);
        }
        producer = g->second;
      }
      nodes_[id].operands.push_back(producer);
    }
    const int64_t global = comp_first_instruction_[c] + (id - base);
    for (int64_t k = callee_begin_[global]; k < callee_begin_[global + 1];
         ++k) {
      nodes_[id].callees.push_back(callee_ids_[k]);
    }
    if (nodes_[id].op == Op::kWhile) {
      nodes_[id].body = CalleeByAttribute(in, "body", comp_index_);
      nodes_[id].condition = CalleeByAttribute(in, "condition", comp_index_);
    }
    if (in.parameter_number.has_value()) {
      const int64_t number = *in.parameter_number;
      if (number >= static_cast<int64_t>(comp.parameters.size())) {
        comp.parameters.resize(number + 1, kNone);
      }
      comp.parameters[number] = id;
    }
  }
  // Each producer's restored get-tuple-elements go right after it, past
  // the constants that directly follow it (where XLA's schedulers put them
  // in the dumps of docs/memory.md).
  // `after` holds (producer, restored GTE) in first-use order: sorted by
  // producer, stably, it is read along the text.
  comp.first_node = base;
  comp.text_nodes = count;
  std::stable_sort(
      after.begin(), after.end(),
      [](const std::pair<int64_t, int64_t>& x,
         const std::pair<int64_t, int64_t>& y) { return x.first < y.first; });
  comp.folded = after;
  comp.sequence.reserve(count + after.size());
  std::vector<int64_t>& pending = scratch_pending_;
  pending.clear();
  size_t next = 0;
  for (int64_t id = base; id < base + count; ++id) {
    if (!pending.empty() && nodes_[id].op != Op::kConstant) {
      for (int64_t g : pending) comp.sequence.push_back(g);
      pending.clear();
    }
    comp.sequence.push_back(id);
    for (; next < after.size() && after[next].first == id; ++next) {
      pending.push_back(after[next].second);
    }
  }
  for (int64_t g : pending) comp.sequence.push_back(g);
  if (source.root_index >= 0) comp.root = base + source.root_index;
  comp.built = true;
  return absl::OkStatus();
}

void Analyzer::Flatten(int64_t c) {
  Comp& comp = comps_[c];
  if (comp.span_start != kNone || !comp.built) return;
  comp.span_start = static_cast<int64_t>(schedule_.size());
  for (int64_t id : comp.sequence) {
    const Node& node = nodes_[id];
    if (node.op == Op::kCall || node.op == Op::kConditional ||
        node.op == Op::kAsyncStart) {
      for (int64_t callee : node.callees) Flatten(callee);
    } else if (node.op == Op::kWhile) {
      // condition first, then body, whatever the attribute order.
      if (node.condition != kNone) Flatten(node.condition);
      if (node.body != kNone) Flatten(node.body);
    }
    if (nodes_[id].time == kNone) {
      nodes_[id].time = static_cast<int64_t>(schedule_.size());
      schedule_.push_back(id);
    }
  }
  comp.span_end = static_cast<int64_t>(schedule_.size());
}

absl::Status Analyzer::SetSources() {
  // Positions.
  std::vector<int64_t> idx;
  for (Node& node : nodes_) {
    const Subshapes*& cached = subshape_cache_[node.shape];
    if (cached == nullptr) {
      subshape_store_.emplace_back();
      idx.clear();
      ListSubshapes(*node.shape, &idx, &subshape_store_.back());
      cached = &subshape_store_.back();
    }
    node.subshapes = cached;
    node.first_position = positions_;
    positions_ += static_cast<int64_t>(cached->size());
  }
  sources_.assign(positions_, Source());
  // Control-flow callers of each computation (for its parameters).
  for (size_t id = 0; id < nodes_.size(); ++id) {
    const Node& node = nodes_[id];
    if (node.callees.empty() ||
        CallKindOf(node.opcode) != CallKind::kControlFlow) {
      continue;
    }
    for (int64_t callee : node.callees) {
      if (node.opcode == "async-update" || node.opcode == "async-done") {
        continue;
      }
      comps_[callee].callsites.push_back(id);
    }
  }
  // The position `index` of `from` into `*list`; false when `from`'s
  // shape has no such index (a loop, call or branch whose computations'
  // shapes do not fit).
  auto Push = [&](std::vector<int64_t>* list, int64_t from,
                  const std::vector<int64_t>& index) {
    if (!HasIndex(from, index)) return false;
    list->push_back(Position(from, index));
    return true;
  };
  auto Mismatch = [&](const Node& node, const std::vector<int64_t>& index) {
    return absl::InvalidArgumentError(absl::StrCat(
        node.opcode, " '", node.name, "' at index ", ShapeIndexString(index),
        ": the shapes of its caller and callee computations do not fit"));
  };
  auto forward = [&](int64_t pos, int64_t node,
                     const std::vector<int64_t>& index) {
    if (!HasIndex(node, index)) return false;
    sources_[pos].kind = SourceKind::kForward;
    sources_[pos].target = Position(node, index);
    return true;
  };
  auto cat = [](std::vector<int64_t> a, const std::vector<int64_t>& b,
                size_t from) {
    a.insert(a.end(), b.begin() + from, b.end());
    return a;
  };
  for (size_t id = 0; id < nodes_.size(); ++id) {
    const Node& node = nodes_[id];
    const Comp& comp = comps_[node.computation];
    const ValueRule rule = node.rule;
    const bool params_define = comp.context != Context::kControlFlow;
    for (size_t k = 0; k < node.subshapes->size(); ++k) {
      const int64_t pos = node.first_position + static_cast<int64_t>(k);
      const std::vector<int64_t>& index = (*node.subshapes)[k].index;
      const bool is_tuple = (*node.subshapes)[k].shape->IsTuple();
      if (DefinesValueAt(rule, index, is_tuple, params_define)) continue;
      bool ok = true;
      const absl::string_view op = node.opcode;
      if (node.op == Op::kParameter) {
        const int64_t number = node.source->parameter_number.value_or(0);
        std::vector<int64_t> inputs;
        bool is_while = false;
        for (int64_t site : comp.callsites) {
          const Node& caller = nodes_[site];
          if (caller.op == Op::kWhile) {
            is_while = true;
            if (!caller.operands.empty()) {
              if (!Push(&inputs, caller.operands[0], index))
                return Mismatch(node, index);
            }
            const int64_t body = caller.body;
            if (body != kNone && comps_[body].root != kNone &&
                comps_[body].root != static_cast<int64_t>(id)) {
              if (!Push(&inputs, comps_[body].root, index))
                return Mismatch(node, index);
            }
          } else if (caller.op == Op::kConditional) {
            for (size_t b = 0; b < caller.callees.size(); ++b) {
              if (caller.callees[b] == node.computation &&
                  b + 1 < caller.operands.size()) {
                if (!Push(&inputs, caller.operands[b + 1], index))
                  return Mismatch(node, index);
              }
            }
          } else if (number < static_cast<int64_t>(caller.operands.size())) {
            if (!Push(&inputs, caller.operands[number], index))
              return Mismatch(node, index);
          }
        }
        if (inputs.size() == 1 && !is_while) {
          sources_[pos].kind = SourceKind::kForward;
          sources_[pos].target = inputs[0];
        } else if (!inputs.empty()) {
          sources_[pos].kind = SourceKind::kPhi;
          sources_[pos].inputs = std::move(inputs);
        }
        continue;  // no caller: defines (kDefined)
      }
      if (node.op == Op::kGetTupleElement) {
        int64_t element = node.gte_index;
        if (element == kNone && node.source != nullptr) {
          absl::optional<absl::string_view> v =
              FindHloAttribute(node.source->attributes, "index");
          if (v.has_value() && !absl::SimpleAtoi(*v, &element)) {
            element = kNone;
          }
        }
        ok = !node.operands.empty() &&
             forward(pos, node.operands[0], cat({element}, index, 0));
      } else if (op == "bitcast" || op == "domain" || op == "opt-barrier" ||
                 op == "add-dependency" || op == "all-reduce-done" ||
                 op == "copy" || op == "async-update") {
        ok = !node.operands.empty() && forward(pos, node.operands[0], index);
      } else if (node.op == Op::kTuple) {
        ok = !index.empty() && index[0] < (int64_t)node.operands.size() &&
             forward(pos, node.operands[index[0]], cat({}, index, 1));
      } else if (op == "copy-done") {
        ok = !node.operands.empty() &&
             forward(pos, node.operands[0], cat({0}, index, 0));
      } else if (op == "all-gather-done" || op == "collective-permute-done" ||
                 op == "async-done") {
        ok = !node.operands.empty() &&
             forward(pos, node.operands[0], cat({1}, index, 0));
      } else if (op == "copy-start" || op == "collective-permute-start" ||
                 op == "send" || op == "recv-done") {
        ok = !node.operands.empty() &&
             forward(pos, node.operands[0],
                     op == "recv-done" ? index : cat({}, index, 1));
      } else if (op == "all-gather-start") {
        if (node.operands.size() == 1) {
          ok = forward(pos, node.operands[0], cat({}, index, 1));
        } else {
          ok = index.size() >= 2 && index[1] < (int64_t)node.operands.size() &&
               forward(pos, node.operands[index[1]], cat({}, index, 2));
        }
      } else if (node.op == Op::kAsyncStart) {
        if (!index.empty() && index[0] == 0 && index.size() >= 2 &&
            index[1] < (int64_t)node.operands.size()) {
          ok = forward(pos, node.operands[index[1]], cat({}, index, 2));
        } else if (!index.empty() && index[0] == 1 && !node.callees.empty() &&
                   comps_[node.callees[0]].root != kNone) {
          ok = forward(pos, comps_[node.callees[0]].root, cat({}, index, 1));
        } else {
          ok = false;
        }
      } else if (node.op == Op::kCall) {
        ok = !node.callees.empty() && comps_[node.callees[0]].root != kNone &&
             forward(pos, comps_[node.callees[0]].root, index);
      } else if (node.op == Op::kWhile) {
        const int64_t body = node.body;
        sources_[pos].kind = SourceKind::kPhi;
        if (body != kNone && comps_[body].root != kNone) {
          if (!Push(&sources_[pos].inputs, comps_[body].root, index))
            return Mismatch(node, index);
        }
        if (!node.operands.empty()) {
          if (!Push(&sources_[pos].inputs, node.operands[0], index))
            return Mismatch(node, index);
        }
      } else if (node.op == Op::kConditional) {
        std::vector<int64_t> inputs;
        for (int64_t callee : node.callees) {
          if (comps_[callee].root != kNone) {
            if (!Push(&inputs, comps_[callee].root, index))
              return Mismatch(node, index);
          }
        }
        if (inputs.size() == 1) {
          sources_[pos].kind = SourceKind::kForward;
          sources_[pos].target = inputs[0];
        } else {
          sources_[pos].kind = SourceKind::kPhi;
          sources_[pos].inputs = std::move(inputs);
        }
      }
      if (!ok) {
        return absl::InvalidArgumentError(absl::StrCat(
            "cannot follow ", node.opcode, " '", node.name, "' at index ",
            ShapeIndexString(index), " to its operand"));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status Analyzer::ResolveValues() {
  // Phi graph nodes: one per defined position and per phi position.
  PhiGraph graph;
  std::vector<int64_t> node_of(positions_, kNone);
  graph.nodes.reserve(positions_);
  for (int64_t p = 0; p < positions_; ++p) {
    if (sources_[p].kind == SourceKind::kForward) continue;
    node_of[p] = static_cast<int64_t>(graph.nodes.size());
    graph.nodes.emplace_back();
    graph.nodes.back().is_phi = sources_[p].kind == SourceKind::kPhi;
  }
  // A forward chain ends at a defined or phi position.
  std::vector<int64_t> end_of(positions_, kNone);
  std::vector<int64_t> path;
  for (int64_t p = 0; p < positions_; ++p) {
    if (end_of[p] != kNone) continue;
    path.clear();
    int64_t q = p;
    while (end_of[q] == kNone && sources_[q].kind == SourceKind::kForward) {
      if (static_cast<int64_t>(path.size()) > positions_) {
        return absl::InvalidArgumentError("cyclic value forwarding");
      }
      path.push_back(q);
      q = sources_[q].target;
    }
    if (end_of[q] == kNone) end_of[q] = q;
    for (int64_t x : path) end_of[x] = end_of[q];
  }
  for (int64_t p = 0; p < positions_; ++p) {
    if (sources_[p].kind != SourceKind::kPhi) continue;
    for (int64_t in : sources_[p].inputs) {
      graph.nodes[node_of[p]].operands.push_back(node_of[end_of[in]]);
    }
  }
  graph.Optimize();
  // Values: surviving graph nodes, in position order (position order is
  // computation text order; phis after the defined values, as XLA
  // numbers them).
  std::vector<int64_t> value_of_node(graph.nodes.size(), kNone);
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t id = 0; id < nodes_.size(); ++id) {
      const int64_t from = nodes_[id].first_position;
      const int64_t to =
          from + static_cast<int64_t>(nodes_[id].subshapes->size());
      for (int64_t p = from; p < to; ++p) {
        const int64_t n = node_of[p];
        if (n == kNone || graph.nodes[n].dead) continue;
        if (graph.nodes[n].is_phi != (pass == 1)) continue;
        value_of_node[n] = static_cast<int64_t>(value_def_position_.size());
        value_def_position_.push_back(p);
        value_def_node_.push_back(static_cast<int64_t>(id));
      }
    }
  }
  value_of_.assign(positions_, kNone);
  for (int64_t p = 0; p < positions_; ++p) {
    const int64_t n = node_of[end_of[p]];
    value_of_[p] = value_of_node[graph.Find(n)];
  }
  return absl::OkStatus();
}

void Analyzer::ComputeUses() {
  // The latest time at which each value is used. A `while` uses its
  // operand at the time of its body's parameter. `get-tuple-element` and
  // `copy` read only the tuple node {} of their operand, `tuple` and
  // `domain` nothing, a `conditional` only its predicate or branch index.
  use_end_.assign(value_def_position_.size(), kNone);
  for (size_t id = 0; id < nodes_.size(); ++id) {
    const Node& user = nodes_[id];
    if (user.op == Op::kTuple || user.op == Op::kDomain) continue;
    int64_t used = static_cast<int64_t>(id);
    if (user.op == Op::kWhile && user.body != kNone &&
        !comps_[user.body].parameters.empty() &&
        comps_[user.body].parameters[0] != kNone) {
      used = comps_[user.body].parameters[0];
    }
    const int64_t time = nodes_[used].time;
    if (time == kNone) continue;
    const bool top_only =
        user.op == Op::kGetTupleElement || user.op == Op::kCopy;
    const size_t operands = user.op == Op::kConditional
                                ? std::min<size_t>(1, user.operands.size())
                                : user.operands.size();
    for (size_t k = 0; k < operands; ++k) {
      const Node& operand = nodes_[user.operands[k]];
      const size_t subshapes = top_only ? 1 : operand.subshapes->size();
      for (size_t s = 0; s < subshapes; ++s) {
        const int64_t v = value_of_[operand.first_position + s];
        if (v != kNone) use_end_[v] = std::max(use_end_[v], time);
      }
    }
  }
}

}  // namespace

absl::StatusOr<MemoryAnalysis> Analyzer::Run() {
  absl::Status status = Build();
  if (!status.ok()) return status;
  status = SetSources();
  if (!status.ok()) return status;
  status = ResolveValues();
  if (!status.ok()) return status;
  PlaceFoldedGetTupleElements();
  Flatten(module_.entry_index);
  ComputeUses();
  out_.module_name = module_.header.name;
  out_.schedule_end = static_cast<int64_t>(schedule_.size());
  out_.instructions.reserve(schedule_.size());
  for (int64_t id : schedule_) {
    const Node& node = nodes_[id];
    ScheduledInstruction s;
    s.name = std::string(node.name);
    s.opcode = node.opcode;
    s.computation = comps_[node.computation].source->header.name;
    s.shape = node.shape;
    s.op_name = node.op_name;
    out_.instructions.push_back(std::move(s));
  }
  for (size_t t = 0; t < schedule_.size(); ++t) {
    for (int64_t site : comps_[nodes_[schedule_[t]].computation].callsites) {
      if (nodes_[site].time != kNone) {
        out_.instructions[t].caller = nodes_[site].time;
        break;
      }
    }
  }
  LiveRanges();
  Normalize();
  Peaks();
  return std::move(out_);
}

namespace {

// Parameters (number, index) that input_output_alias names.
std::vector<std::pair<int64_t, std::vector<int64_t>>> AliasedParameters(
    const HloModule& module,
    std::vector<std::vector<int64_t>>* output_indices) {
  std::vector<std::pair<int64_t, std::vector<int64_t>>> out;
  absl::optional<absl::string_view> v =
      FindHloAttribute(module.header.attributes, "input_output_alias");
  if (!v.has_value()) return out;
  absl::string_view s = *v;
  auto read_index = [](absl::string_view text, size_t* at) {
    std::vector<int64_t> index;
    if (*at >= text.size() || text[*at] != '{') return index;
    const size_t close = text.find('}', *at);
    for (absl::string_view part : absl::StrSplit(
             text.substr(*at + 1, close - *at - 1), ',', absl::SkipEmpty())) {
      int64_t i = 0;
      if (absl::SimpleAtoi(absl::StripAsciiWhitespace(part), &i)) {
        index.push_back(i);
      }
    }
    *at = close == absl::string_view::npos ? text.size() : close + 1;
    return index;
  };
  size_t at = 0;
  // { {out}: (param, {index}, kind), ... }
  while (true) {
    const size_t colon = s.find(": (", at);
    if (colon == absl::string_view::npos) break;
    size_t open = s.rfind('{', colon);
    size_t oi = open;
    std::vector<int64_t> output = read_index(s, &oi);
    size_t p = colon + 3;
    int64_t number = 0;
    while (p < s.size() && s[p] >= '0' && s[p] <= '9') {
      number = number * 10 + (s[p++] - '0');
    }
    while (p < s.size() && (s[p] == ',' || s[p] == ' ')) ++p;
    std::vector<int64_t> index = read_index(s, &p);
    out.emplace_back(number, index);
    if (output_indices != nullptr) output_indices->push_back(output);
    at = p;
  }
  return out;
}

}  // namespace

std::pair<int64_t, int64_t> Analyzer::ArrayBytes(const Shape* shape) {
  // Shapes are shared between instructions (HloModule::shapes), so their
  // sizes are computed once per distinct shape.
  auto cached = sizes_.find(shape);
  if (cached == sizes_.end()) {
    absl::StatusOr<ArraySizes> sizes = ComputeArraySizes(*shape);
    cached =
        sizes_
            .emplace(shape, sizes.ok() ? std::make_pair(sizes->padded_bytes,
                                                        sizes->logical_bytes)
                                       : std::make_pair<int64_t, int64_t>(0, 0))
            .first;
  }
  return cached->second;
}

std::pair<int64_t, int64_t> Analyzer::SubshapeBytes(const Shape* shape) {
  if (shape->IsTuple()) {
    const int64_t table = TupleTableBytes(*shape);
    return {table, table};
  }
  if (shape->IsArray()) return ArrayBytes(shape);
  if (shape->IsOpaque()) return {8, 8};
  return {0, 0};  // tokens
}

int64_t Analyzer::ValueBytes(int64_t value) {
  const int64_t p = value_def_position_[value];
  const Node& node = nodes_[value_def_node_[value]];
  return SubshapeBytes((*node.subshapes)[p - node.first_position].shape).first;
}

// The text keeps the order of the instructions it prints, not where the
// get-tuple-elements folded into `%name#N` operands ran. XLA's default
// scheduler keeps the best of three schedulers; the first of them whose
// replay gives the text's order places the folded ones (docs/memory.md).
// When none does, they stay right after their producers.
void Analyzer::PlaceFoldedGetTupleElements() {
  // The computations with restored get-tuple-elements, largest first.
  std::vector<int64_t> comps;
  for (size_t c = 0; c < comps_.size(); ++c) {
    if (comps_[c].built && !comps_[c].folded.empty()) {
      comps.push_back(static_cast<int64_t>(c));
    }
  }
  if (comps.empty()) return;
  std::stable_sort(comps.begin(), comps.end(), [&](int64_t x, int64_t y) {
    return comps_[x].text_nodes > comps_[y].text_nodes;
  });
  // XLA schedules every computation of a module with one scheduler. The
  // largest computations, where a replay that reproduces the text is the
  // strongest evidence, decide which: the first (in kXlaSchedulers' order)
  // of those reproducing the most of them. If none reproduces any, every
  // computation is tried.
  constexpr size_t kSample = 8;
  SchedulingGraph g;
  std::vector<int64_t> node_of;
  auto apply = [&](int64_t c, const std::vector<int64_t>& order,
                   const std::vector<int64_t>& nodes) {
    std::vector<int64_t>& sequence = comps_[c].sequence;
    sequence.clear();
    for (int64_t i : order) sequence.push_back(nodes[i]);
  };
  struct Sampled {
    std::vector<int64_t> node_of;
    std::array<absl::optional<std::vector<int64_t>>, 4> orders;
  };
  std::vector<Sampled> sampled;
  int best = -1;
  for (size_t round = 0; round < 2 && best < 0; ++round) {
    const size_t n =
        round == 0 ? std::min(kSample, comps.size()) : comps.size();
    if (round == 1 && n == sampled.size()) break;
    sampled.resize(n);
    for (size_t k = round == 0 ? 0 : kSample; k < n; ++k) {
      BuildSchedulingGraph(comps[k], &g, &sampled[k].node_of);
      sampled[k].orders = ReplayXlaSchedulers(g);
    }
    size_t best_count = 0;
    for (int s = 0; s < 4; ++s) {
      const int e = static_cast<int>(kXlaSchedulers[s]);
      size_t count = 0;
      for (const Sampled& r : sampled) count += r.orders[e].has_value();
      if (count > best_count) {
        best_count = count;
        best = s;
      }
    }
  }
  if (best < 0) return;
  const XlaScheduler scheduler = kXlaSchedulers[best];
  out_.replayed_scheduler = std::string(XlaSchedulerName(scheduler));
  for (size_t k = 0; k < comps.size(); ++k) {
    if (k < sampled.size()) {
      const auto& order = sampled[k].orders[static_cast<int>(scheduler)];
      if (order.has_value()) apply(comps[k], *order, sampled[k].node_of);
      continue;
    }
    BuildSchedulingGraph(comps[k], &g, &node_of);
    absl::optional<std::vector<int64_t>> order =
        ReplayXlaScheduler(g, scheduler);
    if (order.has_value()) apply(comps[k], *order, node_of);
  }
}

// Computation `c` as XLA's schedulers see it; `node_of` maps the graph's
// instructions to node ids.
void Analyzer::BuildSchedulingGraph(int64_t c, SchedulingGraph* graph,
                                    std::vector<int64_t>* node_of_out) {
  Comp& comp = comps_[c];
  SchedulingGraph& g = *graph;
  g.Clear();
  std::vector<int64_t>& node_of = *node_of_out;
  node_of.clear();
  // The computation's nodes: its text, then its restored get-tuple-elements.
  const int64_t first = comp.first_node;
  const int64_t size =
      comp.text_nodes + static_cast<int64_t>(comp.folded.size());
  // Graph order: parameters by number, then the text, each restored
  // get-tuple-element right after its producer.
  const std::vector<std::pair<int64_t, int64_t>>& folded = comp.folded;
  auto push_with_folded = [&](int64_t id) {
    node_of.push_back(id);
    auto it = std::lower_bound(
        folded.begin(), folded.end(), std::make_pair(id, int64_t{-1}),
        [](const std::pair<int64_t, int64_t>& x,
           const std::pair<int64_t, int64_t>& y) { return x.first < y.first; });
    for (; it != folded.end() && it->first == id; ++it) {
      node_of.push_back(it->second);
    }
  };
  std::vector<int64_t>& index_of = scratch_index_of_;  // id - first -> index
  index_of.assign(size, kNone);
  for (int64_t p : comp.parameters) {
    if (p != kNone && index_of[p - first] == kNone) {
      index_of[p - first] = 0;  // marks a parameter pushed first
      push_with_folded(p);
    }
  }
  for (int64_t id = first; id < first + comp.text_nodes; ++id) {
    if (index_of[id - first] == kNone) push_with_folded(id);
  }
  for (size_t i = 0; i < node_of.size(); ++i) {
    index_of[node_of[i] - first] = static_cast<int64_t>(i);
  }
  // Buffers: the values this computation defines, except those of
  // parameters and constants (XLA's list scheduler ignores them).
  if (buffer_of_.size() != value_def_position_.size()) {
    // Which computation's buffer each value is (kNone: ignored).
    buffer_owner_.resize(value_def_position_.size());
    for (size_t v = 0; v < value_def_position_.size(); ++v) {
      const Node& def = nodes_[value_def_node_[v]];
      buffer_owner_[v] = def.op == Op::kParameter || def.op == Op::kConstant
                             ? kNone
                             : def.computation;
    }
    buffer_of_.assign(value_def_position_.size(), {kNone, kNone});
  }
  auto buffer = [&](int64_t v) -> int64_t {
    if (buffer_owner_[v] != c) return kNone;
    if (buffer_of_[v].first == c) return buffer_of_[v].second;
    const int64_t b = static_cast<int64_t>(g.buffer_bytes.size());
    g.buffer_bytes.push_back(ValueBytes(v));
    buffer_of_[v] = {c, b};
    return b;
  };
  // Distinct buffers per list: a buffer is in the list being filled when
  // its mark is the list's stamp (stamps grow across graphs).
  std::vector<int64_t>& mark = scratch_mark_;
  int64_t& stamp = scratch_stamp_;
  auto values_at = [&](int64_t id, auto&& emit) {
    const Node& node = nodes_[id];
    for (size_t s = 0; s < node.subshapes->size(); ++s) {
      const int64_t v = value_of_[node.first_position + s];
      if (v == kNone) continue;
      const int64_t b = buffer(v);
      if (b == kNone) continue;
      if (static_cast<int64_t>(mark.size()) <= b) {
        mark.resize(std::max<size_t>(b + 1, 2 * mark.size()), -1);
      }
      if (mark[b] == stamp) continue;
      mark[b] = stamp;
      emit(b);
    }
  };
  absl::flat_hash_map<absl::string_view, int64_t> text_index;  // lazily
  g.instructions.resize(node_of.size());
  auto add_used = [&](int64_t b) { g.used_buffers.Add(b); };
  for (size_t i = 0; i < node_of.size(); ++i) {
    const Node& node = nodes_[node_of[i]];
    SchedulingGraph::Instruction& in = g.instructions[i];
    in.folded = node.source == nullptr;
    if (!in.folded) in.name = node.name;
    in.parameter = node.op == Op::kParameter;
    in.ignored = in.parameter || node.op == Op::kConstant;
    in.effective_scalar = node.effective_scalar;
    ++stamp;
    for (int64_t op : node.operands) {
      const int64_t local = op - first;
      if (local >= 0 && local < size && index_of[local] != kNone) {
        g.operands.Add(index_of[local]);
      }
      values_at(op, add_used);
    }
    g.operands.EndRow();
    g.used_buffers.EndRow();
    if (node.has_control_predecessors) {
      absl::optional<absl::string_view> preds =
          FindHloAttribute(node.source->attributes, "control-predecessors");
      if (preds.has_value()) {
        if (text_index.empty()) {
          for (size_t k = 0; k < node_of.size(); ++k) {
            if (nodes_[node_of[k]].source != nullptr) {
              text_index[nodes_[node_of[k]].name] = static_cast<int64_t>(k);
            }
          }
        }
        for (absl::string_view name : absl::StrSplit(
                 *preds, absl::ByAnyChar("{}, %"), absl::SkipEmpty())) {
          auto by_name = text_index.find(name);
          if (by_name != text_index.end()) {
            g.control_predecessors.Add(by_name->second);
          }
        }
      }
    }
    g.control_predecessors.EndRow();
    for (size_t s = 0; s < node.subshapes->size(); ++s) {
      const int64_t v = value_of_[node.first_position + s];
      if (v == kNone || value_def_node_[v] != node_of[i]) continue;
      const int64_t b = buffer(v);
      if (b != kNone) g.defined_buffers.Add(b);
    }
    g.defined_buffers.EndRow();
  }
  for (int64_t id = first; id < first + comp.text_nodes; ++id) {
    g.text_order.push_back(index_of[id - first]);
  }
  if (comp.root != kNone) {
    g.root = index_of[comp.root - first];
    ++stamp;
    values_at(comp.root, [&](int64_t b) { g.live_out.push_back(b); });
  }
  g.SetUsers();
}

void Analyzer::LiveRanges() {
  std::vector<std::vector<int64_t>> outputs;
  const auto aliased = AliasedParameters(module_, &outputs);
  std::vector<int64_t> root_end(value_def_position_.size(), kNone);
  for (const Comp& c : comps_) {
    if (c.root == kNone || c.span_end == kNone) continue;
    const Node& n = nodes_[c.root];
    for (size_t s = 0; s < n.subshapes->size(); ++s) {
      const int64_t v = value_of_[n.first_position + s];
      if (v != kNone) root_end[v] = std::max(root_end[v], c.span_end);
    }
  }
  out_.values.reserve(value_def_position_.size());
  for (size_t v = 0; v < value_def_position_.size(); ++v) {
    const int64_t p = value_def_position_[v];
    const Node& node = nodes_[value_def_node_[v]];
    const Subshape& sub = (*node.subshapes)[p - node.first_position];
    LiveValue value;
    value.instruction = node.time;
    value.index = sub.index;
    value.shape = sub.shape;
    value.is_phi = sources_[p].kind == SourceKind::kPhi;
    std::tie(value.bytes, value.logical_bytes) = SubshapeBytes(sub.shape);
    if (sub.shape->IsArray() && sub.shape->has_layout()) {
      value.memory_space = sub.shape->layout().memory_space();
    }
    if (node.time == kNone) {
      value.instruction = kNone;  // not scheduled: no live range
      out_.values.push_back(std::move(value));
      continue;
    }
    int64_t start = node.time;
    int64_t end = use_end_[v];
    const Comp& comp = comps_[node.computation];
    if (node.op == Op::kParameter && comp.span_start != kNone) {
      start = std::min(start, comp.span_start);
    }
    if (end == kNone) end = start;
    // A position of the value at a computation's root: live to its end.
    end = std::max(end, root_end[v]);
    if (node.op == Op::kParameter && node.computation == module_.entry_index &&
        node.source != nullptr) {
      const int64_t number = node.source->parameter_number.value_or(0);
      bool has_alias = false;
      for (const auto& a : aliased) {
        if (a.first == number && a.second == sub.index) has_alias = true;
      }
      if (!has_alias) end = out_.schedule_end;
    }
    value.start = start;
    value.end = end;
    out_.values.push_back(std::move(value));
  }
}

void Analyzer::Normalize() {
  // Buffers: union-find over values that XLA's alias analysis puts in one.
  const int64_t n = static_cast<int64_t>(out_.values.size());
  std::vector<int64_t> parent(n);
  for (int64_t i = 0; i < n; ++i) parent[i] = i;
  auto find = [&](int64_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  auto unite = [&](int64_t a, int64_t b) {
    if (a == kNone || b == kNone) return;
    a = find(a);
    b = find(b);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  };
  auto value_at = [&](int64_t node, const std::vector<int64_t>& index) {
    if (node == kNone || !HasIndex(node, index)) return kNone;
    return value_of_[Position(node, index)];
  };
  std::vector<int8_t> has_update(comps_.size(), -1);
  for (size_t id = 0; id < nodes_.size(); ++id) {
    const Node& node = nodes_[id];
    if (node.op == Op::kWhile) {
      const int64_t body = node.body;
      const int64_t cond = node.condition;
      for (const Subshape& s : *node.subshapes) {
        const int64_t w = value_at(id, s.index);
        if (!node.operands.empty())
          unite(w, value_at(node.operands[0], s.index));
        for (int64_t c : {body, cond}) {
          if (c == kNone) continue;
          if (!comps_[c].parameters.empty()) {
            unite(w, value_at(comps_[c].parameters[0], s.index));
          }
        }
        if (body != kNone) unite(w, value_at(comps_[body].root, s.index));
      }
    } else if (node.op == Op::kConditional) {
      for (const Subshape& s : *node.subshapes) {
        for (int64_t callee : node.callees) {
          unite(value_at(id, s.index), value_at(comps_[callee].root, s.index));
        }
      }
    } else if (node.op == Op::kDynamicUpdateSlice && !node.operands.empty()) {
      unite(value_at(id, {}), value_at(node.operands[0], {}));
    } else if (node.op == Op::kFusion && node.source != nullptr) {
      // In place: the fused root (or a root tuple element) is a
      // dynamic-update-slice or scatter of a fusion parameter.
      absl::optional<absl::string_view> calls =
          FindHloAttribute(node.source->attributes, "calls");
      if (!calls.has_value()) continue;
      absl::string_view cn = *calls;
      if (!cn.empty() && cn[0] == '%') cn.remove_prefix(1);
      auto it = comp_index_.find(cn);
      if (it == comp_index_.end()) continue;
      const HloComputation& fused = *comps_[it->second].source;
      if (fused.root_index < 0) continue;
      // Most fusions update nothing in place: look once per computation.
      int8_t& updates = has_update[it->second];
      if (updates < 0) {
        updates = 0;
        for (const HloInstruction& in : fused.instructions) {
          if (in.opcode == "dynamic-update-slice" || in.opcode == "scatter") {
            updates = 1;
          }
        }
      }
      if (updates == 0) continue;
      absl::flat_hash_map<absl::string_view, const HloInstruction*> by_name;
      for (const HloInstruction& in : fused.instructions)
        by_name[in.name] = &in;
      auto param_of = [&](const HloInstruction* in) -> int64_t {
        while (in != nullptr && in->opcode == "bitcast" &&
               !in->operands.empty()) {
          auto f = by_name.find(in->operands[0].name);
          in = f == by_name.end() ? nullptr : f->second;
        }
        if (in == nullptr || in->opcode != "parameter") return kNone;
        return in->parameter_number.value_or(kNone);
      };
      auto in_place = [&](const HloInstruction* root,
                          const std::vector<int64_t>& out_index) {
        if (root == nullptr || root->operands.empty()) return;
        if (root->opcode != "dynamic-update-slice" &&
            root->opcode != "scatter") {
          return;
        }
        auto f = by_name.find(root->operands[0].name);
        if (f == by_name.end()) return;
        const int64_t param = param_of(f->second);
        if (param == kNone || param >= (int64_t)node.operands.size()) return;
        unite(value_at(id, out_index), value_at(node.operands[param], {}));
      };
      const HloInstruction* root = &fused.instructions[fused.root_index];
      if (root->opcode == "tuple") {
        for (size_t i = 0; i < root->operands.size(); ++i) {
          auto f = by_name.find(root->operands[i].name);
          if (f != by_name.end()) {
            in_place(f->second, {static_cast<int64_t>(i)});
          }
        }
      } else {
        in_place(root, {});
      }
    } else if (node.op == Op::kCustomCall && node.source != nullptr) {
      absl::optional<absl::string_view> v = FindHloAttribute(
          node.source->attributes, "output_to_operand_aliasing");
      if (!v.has_value()) continue;
      // {{out}: (operand, {index}), ...}
      absl::string_view s = *v;
      size_t at = 0;
      while (true) {
        const size_t colon = s.find(": (", at);
        if (colon == absl::string_view::npos) break;
        const size_t open = s.rfind('{', colon);
        std::vector<int64_t> out_index;
        for (absl::string_view part :
             absl::StrSplit(s.substr(open + 1, colon - open - 2), ',',
                            absl::SkipEmpty())) {
          int64_t i;
          if (absl::SimpleAtoi(absl::StripAsciiWhitespace(part), &i)) {
            out_index.push_back(i);
          }
        }
        size_t p = colon + 3;
        int64_t operand = 0;
        while (p < s.size() && s[p] >= '0' && s[p] <= '9') {
          operand = operand * 10 + (s[p++] - '0');
        }
        std::vector<int64_t> in_index;
        const size_t ob = s.find('{', p), cb = s.find('}', p);
        if (ob != absl::string_view::npos && cb != absl::string_view::npos) {
          for (absl::string_view part : absl::StrSplit(
                   s.substr(ob + 1, cb - ob - 1), ',', absl::SkipEmpty())) {
            int64_t i;
            if (absl::SimpleAtoi(absl::StripAsciiWhitespace(part), &i)) {
              in_index.push_back(i);
            }
          }
        }
        if (operand < (int64_t)node.operands.size()) {
          unite(value_at(id, out_index),
                value_at(node.operands[operand], in_index));
        }
        at = cb == absl::string_view::npos ? s.size() : cb + 1;
      }
    }
  }
  // input_output_alias: entry parameter value and root output value.
  std::vector<std::vector<int64_t>> outputs;
  const auto aliased = AliasedParameters(module_, &outputs);
  const Comp& entry = comps_[module_.entry_index];
  for (size_t i = 0; i < aliased.size(); ++i) {
    const int64_t number = aliased[i].first;
    if (number < (int64_t)entry.parameters.size()) {
      unite(value_at(entry.parameters[number], aliased[i].second),
            value_at(entry.root, outputs[i]));
    }
  }
  // Per buffer: sort by (start, end, id); the next range ends at the later
  // of the two ends, and a range ends no later than the next starts.
  // Buffers of several values, grouped by a counting sort on their root.
  std::vector<int64_t> first(n + 1, 0);
  for (int64_t v = 0; v < n; ++v) {
    if (out_.values[v].instruction != kNone) ++first[find(v) + 1];
  }
  for (int64_t r = 0; r < n; ++r) first[r + 1] += first[r];
  std::vector<int64_t> grouped(first[n]);
  {
    std::vector<int64_t> next(first.begin(), first.end() - 1);
    for (int64_t v = 0; v < n; ++v) {
      if (out_.values[v].instruction != kNone) grouped[next[find(v)]++] = v;
    }
  }
  for (int64_t r = 0; r < n; ++r) {
    if (first[r + 1] - first[r] < 2) continue;
    auto begin = grouped.begin() + first[r],
         end = grouped.begin() + first[r + 1];
    std::sort(begin, end, [&](int64_t a, int64_t b) {
      const LiveValue& x = out_.values[a];
      const LiveValue& y = out_.values[b];
      return std::tie(x.start, x.end, a) < std::tie(y.start, y.end, b);
    });
    for (auto it = begin; it + 1 < end; ++it) {
      LiveValue& a = out_.values[*it];
      LiveValue& b = out_.values[*(it + 1)];
      b.end = std::max(a.end, b.end);
      a.end = std::min(a.end, b.start);
    }
  }
}

void Analyzer::Peaks() {
  // XLA chooses its peak moment with the byte size of each value's
  // DEFINING INSTRUCTION's whole shape (for a tuple-shaped result: its
  // index table only), not of the value; the values it then lists at that
  // moment have their own sizes. The all-memory peak follows XLA; the
  // per-space peaks use the values' sizes.
  std::vector<int64_t> xla_size(out_.values.size(), 0);
  for (size_t v = 0; v < out_.values.size(); ++v) {
    const LiveValue& value = out_.values[v];
    if (value.instruction == kNone) continue;
    const Shape* shape = out_.instructions[value.instruction].shape;
    if (shape->IsTuple()) {
      xla_size[v] = TupleTableBytes(*shape);
    } else if (value.index.empty()) {
      xla_size[v] = value.bytes;
    } else {
      xla_size[v] = 0;
    }
  }
  auto sweep = [&](int64_t space) {
    MemoryPeak peak;
    peak.memory_space = space;
    // XLA sorts (start, +size) and (end + 1, -size) events by time, starts
    // first, and keeps the first time the running sum is largest. Starts
    // only add, so per time: add every start, compare, then take the ends.
    std::vector<int64_t> starts(out_.schedule_end + 2, 0);
    std::vector<int64_t> ends(out_.schedule_end + 2, 0);
    for (size_t v = 0; v < out_.values.size(); ++v) {
      const LiveValue& value = out_.values[v];
      if (value.instruction == kNone) continue;
      if (space >= 0 && value.memory_space != space) continue;
      const int64_t bytes = space < 0 ? xla_size[v] : value.bytes;
      starts[value.start] += bytes;
      ends[std::min(value.end + 1, out_.schedule_end + 1)] += bytes;
    }
    int64_t usage = 0, best = 0;
    for (int64_t t = 0; t <= out_.schedule_end + 1; ++t) {
      usage += starts[t];
      if (usage > best) {
        best = usage;
        peak.time = t;
      }
      usage -= ends[t];
    }
    for (size_t v = 0; v < out_.values.size(); ++v) {
      const LiveValue& value = out_.values[v];
      if (value.instruction == kNone) continue;
      if (space >= 0 && value.memory_space != space) continue;
      if (value.start <= peak.time && peak.time <= value.end) {
        peak.values.push_back(v);
        peak.bytes += value.bytes;
      }
    }
    std::sort(peak.values.begin(), peak.values.end(),
              [&](int64_t a, int64_t b) {
                const LiveValue& x = out_.values[a];
                const LiveValue& y = out_.values[b];
                if (x.bytes != y.bytes) return x.bytes > y.bytes;
                const std::string& xn = out_.instructions[x.instruction].name;
                const std::string& yn = out_.instructions[y.instruction].name;
                if (xn != yn) return xn < yn;
                return x.index < y.index;
              });
    return peak;
  };
  out_.peak = sweep(-1);
  std::vector<int64_t> spaces;
  for (const LiveValue& v : out_.values) {
    if (v.instruction == kNone) continue;
    if (std::find(spaces.begin(), spaces.end(), v.memory_space) ==
        spaces.end()) {
      spaces.push_back(v.memory_space);
    }
  }
  std::sort(spaces.begin(), spaces.end());
  for (int64_t s : spaces) out_.space_peaks.push_back(sweep(s));
  // Live bytes at every time, by differences then a running sum.
  std::vector<int64_t> delta(out_.schedule_end + 2, 0);
  for (const LiveValue& v : out_.values) {
    if (v.instruction == kNone) continue;
    const int64_t start = std::max<int64_t>(0, v.start);
    const int64_t end = std::min(v.end, out_.schedule_end - 1);
    if (start > end) continue;
    delta[start] += v.bytes;
    delta[end + 1] -= v.bytes;
  }
  out_.curve.assign(out_.schedule_end, 0);
  int64_t live = 0;
  for (int64_t t = 0; t < out_.schedule_end; ++t) {
    live += delta[t];
    out_.curve[t] = live;
  }
}

absl::StatusOr<MemoryAnalysis> AnalyzeMemory(const HloModule& module) {
  Analyzer analyzer(module);
  return analyzer.Run();
}

namespace {

// 1594000 -> "1 594 000".
std::string GroupedNumber(int64_t n) {
  std::string digits = absl::StrCat(n < 0 ? -n : n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ' ';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

struct BreakdownNode {
  std::string label;
  int64_t current = 0, total = 0;
  std::vector<std::unique_ptr<BreakdownNode>> children;

  BreakdownNode* Child(const std::string& name) {
    for (auto& c : children) {
      if (c->label == name) return c.get();
    }
    children.push_back(std::make_unique<BreakdownNode>());
    children.back()->label = name;
    return children.back().get();
  }
  int64_t Sum() {
    total = current;
    for (auto& c : children) total += c->Sum();
    std::stable_sort(children.begin(), children.end(),
                     [](const std::unique_ptr<BreakdownNode>& x,
                        const std::unique_ptr<BreakdownNode>& y) {
                       if (x->total != y->total) return x->total > y->total;
                       return x->label < y->label;
                     });
    return total;
  }
};

void PrintBreakdown(const BreakdownNode& node, const std::string& prefix,
                    const std::string& branch, int64_t peak, int64_t* remaining,
                    std::string* out) {
  *remaining -= node.current;
  absl::StrAppend(
      out, prefix, branch, node.label, " (",
      absl::StrFormat("%.1f", peak == 0
                                  ? 0.0
                                  : 100.0 * static_cast<double>(node.total) /
                                        static_cast<double>(peak)),
      "%, total: ", GroupedNumber(node.total),
      " bytes, current: ", GroupedNumber(node.current),
      " bytes, remaining: ", GroupedNumber(*remaining), " bytes)\n");
  // The root's children start under it; deeper ones carry the bars of
  // their ancestors.
  const std::string next =
      branch.empty()
          ? prefix + "  "
          : prefix + (branch == "\u2514\u2500\u2500 " ? "    " : "\u2502   ");
  for (size_t i = 0; i < node.children.size(); ++i) {
    const bool last = i + 1 == node.children.size();
    PrintBreakdown(*node.children[i], next,
                   last ? "\u2514\u2500\u2500 " : "\u251c\u2500\u2500 ", peak,
                   remaining, out);
  }
}

}  // namespace

std::string XlaStackTraceText(const MemoryAnalysis& a) {
  BreakdownNode root;  // the entry computation
  for (const ScheduledInstruction& in : a.instructions) {
    if (in.caller < 0) {
      root.label = std::string(in.computation);
      break;
    }
  }
  for (int64_t id : a.peak.values) {
    const LiveValue& v = a.values[id];
    // The path of callers, outermost first.
    std::vector<int64_t> callers;
    for (int64_t t = a.instructions[v.instruction].caller;
         t >= 0 && callers.size() < a.instructions.size();
         t = a.instructions[t].caller) {
      callers.push_back(t);
    }
    BreakdownNode* node = &root;
    for (auto it = callers.rbegin(); it != callers.rend(); ++it) {
      const ScheduledInstruction& caller = a.instructions[*it];
      node = node->Child(caller.op_name.empty() ? caller.name
                                                : std::string(caller.op_name));
      const int64_t inner =
          it + 1 == callers.rend() ? v.instruction : *(it + 1);
      node = node->Child(std::string(a.instructions[inner].computation));
    }
    const ScheduledInstruction& def = a.instructions[v.instruction];
    std::string label =
        def.op_name.empty() ? def.name : std::string(def.op_name);
    if (!v.index.empty()) label += ShapeIndexString(v.index);
    node->Child(label)->current += v.bytes;
  }
  root.Sum();
  std::string out = absl::StrCat("  Stack trace breakdown for peak usage: ",
                                 GroupedNumber(root.total), " bytes\n");
  int64_t remaining = root.total;
  PrintBreakdown(root, "    ", "", root.total, &remaining, &out);
  return out;
}

std::string XlaLiveRangeText(const MemoryAnalysis& a) {
  std::string out = absl::StrCat("HloLiveRange (max ", a.schedule_end, "):\n",
                                 "  InstructionSequence:\n");
  for (size_t i = 0; i < a.instructions.size(); ++i) {
    absl::StrAppend(&out, "    ", i, ":", a.instructions[i].name, "\n");
  }
  absl::StrAppend(&out, "  BufferLiveRange:\n");
  for (const LiveValue& v : a.values) {
    if (v.instruction < 0) continue;
    absl::StrAppend(&out, "    ", a.instructions[v.instruction].name,
                    ShapeIndexString(v.index), ":", v.start, "-", v.end, "\n");
  }
  absl::StrAppend(&out, "  Live ranges at ", a.peak.time, " (peak):\n");
  int64_t cumulative = 0;
  for (int64_t id : a.peak.values) {
    const LiveValue& v = a.values[id];
    cumulative += v.bytes;
    absl::StrAppend(&out, "    ", a.instructions[v.instruction].name,
                    ShapeIndexString(v.index), ": ", v.bytes,
                    " bytes (cumulative: ", cumulative, " bytes)\n");
  }
  absl::StrAppend(&out, XlaStackTraceText(a));
  return out;
}

}  // namespace hlolayout

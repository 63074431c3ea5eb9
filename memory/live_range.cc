// The analysis of memory/live_range.h. The rules are XLA's, stated in
// docs/memory.md; the printers of XLA's dump text are in live_range_text.cc.
//
// Layout for speed (docs/memory.md, "Speed"): the reader's instruction
// records are read once, into one node per scheduled instruction (and per
// get-tuple-element restored from a `%name#N` operand); every later pass
// works on the nodes. Lists (operands, callees, sequences, phi inputs,
// callers) are slices of flat arrays, so the analysis allocates about as
// many times as it has passes, not per instruction.
#include "hlolayout/memory/live_range.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <deque>
#include <tuple>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/types/span.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/memory/phi_graph.h"
#include "hlolayout/memory/value_rules.h"
#include "hlolayout/memory/xla_schedulers.h"

namespace hlolayout {
namespace {

constexpr int64_t kNone = -1;

template <size_t N>
inline bool Eq(absl::string_view s, const char (&literal)[N]) {
  return s.size() == N - 1 && std::memcmp(s.data(), literal, N - 1) == 0;
}

// a == b for names and opcodes: lengths and the last and first bytes
// first (most unequal names of a computation differ there), then the
// rest.
inline bool SameText(absl::string_view a, absl::string_view b) {
  return a.size() == b.size() &&
         (a.empty() || (a.back() == b.back() && a.front() == b.front() &&
                        std::memcmp(a.data(), b.data(), a.size()) == 0));
}

// Subshapes of a shape in pre-order: {}, {0}, {0,0}, ..., {1}, ...
struct Subshape {
  std::vector<int64_t> index;
  const Shape* shape;
  int64_t count = 1;  // subshapes in this one's subtree, itself included
  // Sizes (padded, and without tile/L padding): 8 per tuple element, an
  // array's exact sizes, 8 for opaque, 0 for tokens.
  int64_t bytes = 0, logical_bytes = 0;
  int64_t memory_space = 0;  // S(n) of an array with a layout, else 0
  bool effective_scalar = false;
};
// The subshapes of one distinct Shape object, shared by every node whose
// result (or restored get-tuple-element) has that shape.
using Subshapes = std::vector<Subshape>;

void ListSubshapes(const Shape& shape, std::vector<int64_t>* index,
                   Subshapes* out) {
  const size_t at = out->size();
  out->push_back({*index, &shape});
  if (shape.IsTuple()) {
    for (int64_t i = 0; i < shape.tuple_size(); ++i) {
      index->push_back(i);
      ListSubshapes(shape.tuple_shape(i), index, out);
      index->pop_back();
    }
  }
  (*out)[at].count = static_cast<int64_t>(out->size() - at);
}

// The pre-order offset, among `subshapes`, of the index `head` followed by
// `tail`; kNone when the shape has no such index.
int64_t SubshapeAt(const Subshapes& subshapes, absl::Span<const int64_t> head,
                   absl::Span<const int64_t> tail = {}) {
  int64_t k = 0;
  for (absl::Span<const int64_t> part : {head, tail}) {
    for (int64_t i : part) {
      const Shape* s = subshapes[k].shape;
      if (!s->IsTuple() || i < 0 || i >= s->tuple_size()) return kNone;
      int64_t child = k + 1;
      for (int64_t j = 0; j < i; ++j) child += subshapes[child].count;
      k = child;
    }
  }
  return k;
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

// Where an instruction's result positions that it does not define come
// from (docs/memory.md, "Values"), for the opcodes that only forward an
// operand; the others (parameters, get-tuple-element, tuple, all-gather-
// start, async-start, call, while, conditional) have their own rules.
enum class Forward : uint8_t {
  kNone,
  kSameIndex,  // operand 0 at the same index
  kUnder0,     // operand 0 at {0, index...} (copy-done)
  kUnder1,     // operand 0 at {1, index...} (the *-done of async pairs)
  kDropFirst,  // operand 0 at index without its first element
  kAllGatherStart,
};

Forward ForwardOf(absl::string_view op) {
  if (Eq(op, "bitcast") || Eq(op, "domain") || Eq(op, "opt-barrier") ||
      Eq(op, "add-dependency") || Eq(op, "all-reduce-done") || Eq(op, "copy") ||
      Eq(op, "async-update") || Eq(op, "recv-done")) {
    return Forward::kSameIndex;
  }
  if (Eq(op, "copy-done")) return Forward::kUnder0;
  if (Eq(op, "all-gather-done") || Eq(op, "collective-permute-done") ||
      Eq(op, "async-done")) {
    return Forward::kUnder1;
  }
  if (Eq(op, "copy-start") || Eq(op, "collective-permute-start") ||
      Eq(op, "send")) {
    return Forward::kDropFirst;
  }
  if (Eq(op, "all-gather-start")) return Forward::kAllGatherStart;
  return Forward::kNone;
}

// Everything the analysis derives from an opcode.
struct OpcodeClass {
  Op op = Op::kOther;
  ValueRule rule = ValueRule::kAll;
  Forward forward = Forward::kNone;
  CallKind call_kind = CallKind::kEmbedded;
  bool async_update_or_done = false;
};

// OpcodeClass of the opcodes met so far, in a small direct-mapped table:
// a dump uses few distinct opcodes, so nearly every instruction finds its
// opcode's class with one comparison.
class OpcodeClasses {
 public:
  const OpcodeClass& Of(absl::string_view opcode) {
    const size_t slot =
        opcode.empty()
            ? 0
            : (opcode.size() * 7 + static_cast<unsigned char>(opcode[0]) * 3 +
               static_cast<unsigned char>(opcode.back())) %
                  kSlots;
    Entry& e = entries_[slot];
    if (!e.used || !SameText(e.opcode, opcode)) {
      e.used = true;
      e.opcode = opcode;
      e.value.op = OpOf(opcode);
      e.value.rule = ValueRuleOf(opcode);
      e.value.forward = ForwardOf(opcode);
      e.value.call_kind = CallKindOf(opcode);
      e.value.async_update_or_done =
          opcode == "async-update" || opcode == "async-done";
    }
    return e.value;
  }

 private:
  static constexpr size_t kSlots = 64;
  struct Entry {
    bool used = false;
    absl::string_view opcode;
    OpcodeClass value;
  };
  Entry entries_[kSlots];
};

// Kept small: every pass of the analysis walks the nodes. The shape is
// (*subshapes)[0].shape; the opcode and op_name are the instruction's
// (Analyzer::infos_[info]).
struct Node {  // an instruction of a scheduled computation
  // A restored get-tuple-element's name is its producer's: it prints as
  // "name#gte_index".
  absl::string_view name;
  const HloInstruction* source = nullptr;  // null for a restored GTE
  const Subshapes* subshapes = nullptr;
  int64_t first_position = 0;
  int64_t time = kNone;
  int32_t info = 0;  // the instruction (a restored GTE: its producer)
  int32_t computation = 0;
  int32_t gte_index = -1;             // restored GTE: the element
  int32_t body = -1, condition = -1;  // a while's computations
  // Slices of Analyzer::operand_ids_ (node ids) and callee_ids_
  // (computation ids, in attribute order).
  uint32_t operands_begin = 0, operands_size = 0;
  uint32_t callees_begin = 0, callees_size = 0;
  Op op = Op::kOther;
  ValueRule rule = ValueRule::kAll;
  Forward forward = Forward::kNone;
  // A control-flow caller (CallKindOf(opcode) == kControlFlow) that is not
  // async-update or async-done: its callees' parameters are its operands.
  bool calls_parameters = false;
  bool has_control_predecessors = false;
  bool effective_scalar = false;  // an array whose dimensions are all 1
};

enum class Context : uint8_t { kEntry, kControlFlow, kEmbedded, kUncalled };

struct Comp {
  const HloComputation* source = nullptr;
  // Slices of Analyzer::sequence_ids_ (node ids, schedule order),
  // parameter_ids_ (node id by parameter number, kNone for gaps),
  // callsite_ids_ (control-flow callers) and folded_ (restored
  // get-tuple-elements: (producer, node id), by producer, then in
  // first-use order).
  int64_t sequence_begin = 0, sequence_size = 0;
  int64_t parameters_begin = 0, parameters_size = 0;
  int64_t callsites_begin = 0, callsites_size = 0;
  int64_t folded_begin = 0, folded_size = 0;
  int64_t root = kNone;
  Context context = Context::kUncalled;
  int64_t first_node = 0, text_nodes = 0;  // the text's nodes
  bool built = false;
  int64_t span_start = kNone, span_end = kNone;
};

// What the analysis reads from an instruction's attributes, in one pass.
// What the analysis reads from an instruction's record, copied in one
// pass over the module (the records are scattered; the copies are read
// in order when the nodes are built).
struct InstructionInfo {
  const HloInstruction* source = nullptr;
  absl::string_view name, opcode;
  const Shape* shape = nullptr;
  const HloOperand* operands = nullptr;
  uint32_t operand_count = 0;
  OpcodeClass opcode_class;
  bool has_parameter_number = false;
  bool has_control_predecessors = false;
  int64_t parameter_number = 0;
  absl::string_view op_name;
  // The computations of the first `body` and `condition` attributes.
  int64_t body = kNone, condition = kNone;
};

// Value sources of positions, before phi resolution.
enum class SourceKind : uint8_t { kDefined, kForward, kPhi };
struct Source {
  SourceKind kind = SourceKind::kDefined;
  int64_t target = kNone;  // kForward: a position; kPhi: into phi_inputs_
  int64_t inputs = 0;      // kPhi: how many positions
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
bool IsEffectiveScalar(const Shape& shape) {
  if (!shape.IsArray()) return false;
  for (int64_t d : shape.dimensions()) {
    if (d != 1) return false;
  }
  return true;
}

// Asks for `bytes` at `p` ahead of their use. Each computation's
// instruction records are an allocation of their own, as are each
// instruction's operands and attributes: the hardware prefetcher does not
// see them coming, and reading them is most of the time of building the
// nodes (docs/memory.md, "Speed").
inline void Prefetch(const void* p, size_t bytes) {
  const char* c = static_cast<const char*>(p);
  for (size_t i = 0; i < bytes; i += 64) __builtin_prefetch(c + i);
}

// The records of computation `c` (up to `most` of them), and, when
// `lists`, the operand and attribute arrays they point to (the records
// should be in cache by then).
inline void PrefetchComputation(const HloModule& module, size_t c, size_t most,
                                bool lists) {
  if (c >= module.computations.size()) return;
  const std::vector<HloInstruction>& instructions =
      module.computations[c].instructions;
  const size_t n = std::min(most, instructions.size());
  if (!lists) {
    Prefetch(instructions.data(), n * sizeof(HloInstruction));
    return;
  }
  for (size_t k = 0; k < n; ++k) {
    Prefetch(instructions[k].operands.data(), 64);
    Prefetch(instructions[k].attributes.data(), 64);
  }
}

// Names are looked up in a hash map only in computations larger than
// this; smaller ones are scanned (from the end: the last of equal names
// wins, as in the map).
constexpr int64_t kScannedComputation = 16;

class Analyzer {
 public:
  Analyzer(const HloModule& module, const MemoryAnalysisOptions& options)
      : module_(module), options_(options) {}

  absl::StatusOr<MemoryAnalysis> Run();

 private:
  absl::Status Build();
  absl::Status BuildComputation(int64_t c);
  void Flatten(int64_t c);
  absl::Span<const int64_t> Operands(const Node& node) const {
    return absl::MakeConstSpan(operand_ids_.data() + node.operands_begin,
                               node.operands_size);
  }
  absl::Span<const int64_t> Callees(const Node& node) const {
    return absl::MakeConstSpan(callee_ids_.data() + node.callees_begin,
                               node.callees_size);
  }
  absl::Span<int64_t> Sequence(const Comp& comp) {
    return absl::MakeSpan(sequence_ids_.data() + comp.sequence_begin,
                          comp.sequence_size);
  }
  absl::Span<const int64_t> Parameters(const Comp& comp) const {
    return absl::MakeConstSpan(parameter_ids_.data() + comp.parameters_begin,
                               comp.parameters_size);
  }
  // Node of parameter 0 of computation `c`, kNone when it has none.
  int64_t FirstParameter(int64_t c) const {
    return comps_[c].parameters_size == 0
               ? kNone
               : parameter_ids_[comps_[c].parameters_begin];
  }
  absl::Span<const int64_t> Callsites(const Comp& comp) const {
    return absl::MakeConstSpan(callsite_ids_.data() + comp.callsites_begin,
                               comp.callsites_size);
  }
  absl::Span<const std::pair<int64_t, int64_t>> Folded(const Comp& comp) const {
    return absl::MakeConstSpan(folded_.data() + comp.folded_begin,
                               comp.folded_size);
  }
  // "name", or "producer#N" for a restored get-tuple-element.
  std::string NodeName(const Node& node) const {
    return node.source == nullptr ? absl::StrCat(node.name, "#", node.gte_index)
                                  : std::string(node.name);
  }
  absl::string_view Opcode(const Node& node) const {
    return node.source == nullptr ? absl::string_view("get-tuple-element")
                                  : infos_[node.info].opcode;
  }
  const Shape* NodeShape(const Node& node) const {
    return (*node.subshapes)[0].shape;
  }
  // The position of `node` at the index `head` followed by `tail`, kNone
  // when its shape has no such index.
  int64_t PositionAt(int64_t node, absl::Span<const int64_t> head,
                     absl::Span<const int64_t> tail = {}) const {
    const Node& n = nodes_[node];
    const int64_t k = SubshapeAt(*n.subshapes, head, tail);
    return k == kNone ? kNone : n.first_position + k;
  }
  int64_t ComputationByAttribute(absl::string_view value) const;
  const Subshapes* SubshapesOf(const Shape* shape);
  absl::Status SetSources();
  absl::Status ResolveValues();
  std::pair<int64_t, int64_t> ArrayBytes(const Shape* shape);
  // (padded, logical) bytes: 8 per tuple element, an array's exact sizes,
  // 8 for opaque, 0 for tokens.
  std::pair<int64_t, int64_t> SubshapeBytes(const Shape* shape);
  const Subshape& ValueSubshape(int64_t value) const {
    const Node& node = nodes_[value_def_node_[value]];
    return (*node.subshapes)[value_def_position_[value] - node.first_position];
  }
  void PlaceFoldedGetTupleElements();
  void GraphOrder(int64_t c, std::vector<int64_t>* node_of,
                  std::vector<int64_t>* index_of);
  bool PostOrderMayGiveText(int64_t c);
  void EmitSchedulingGraph(int64_t c, bool buffers, FlatSchedulingGraph* flat,
                           std::vector<int64_t>* node_of);
  void ComputeUses();
  void LiveRanges();
  void Normalize();
  void Peaks();

  const HloModule& module_;
  const MemoryAnalysisOptions options_;
  std::vector<Node> nodes_;
  std::vector<Comp> comps_;
  absl::flat_hash_map<absl::string_view, int64_t> comp_index_;
  std::vector<InstructionInfo> infos_;  // by instruction over the module
  std::vector<int64_t> operand_ids_;
  std::vector<int64_t> sequence_ids_, parameter_ids_, callsite_ids_;
  std::vector<std::pair<int64_t, int64_t>> folded_;
  std::vector<int64_t> schedule_;  // node ids by time
  int64_t positions_ = 0;
  std::vector<Source> sources_;
  std::vector<int64_t> phi_inputs_;  // positions
  std::vector<int64_t> value_of_;    // position -> value id
  std::vector<int64_t> use_end_;     // value -> latest time it is used
  MemoryAnalysis out_;
  std::vector<int64_t> value_def_position_;
  std::vector<int64_t> value_def_node_;  // value -> defining node
  absl::flat_hash_map<const Shape*, std::pair<int64_t, int64_t>> sizes_;
  absl::flat_hash_map<absl::string_view, int64_t> scratch_by_name_;
  // Restored get-tuple-elements of the computation being built, as lists
  // per producer: head by producer's local index, entries (N, node, next).
  std::vector<int64_t> scratch_gte_head_, scratch_gte_tail_;
  struct GteEntry {
    int64_t index, node, next;
  };
  std::vector<GteEntry> scratch_gtes_;
  std::vector<absl::string_view> scratch_names_;
  std::vector<int64_t> scratch_pending_;
  std::vector<std::pair<int64_t, int64_t>> scratch_new_gtes_;
  std::vector<int64_t> comp_first_instruction_;
  std::vector<uint32_t> callee_begin_;
  std::vector<int64_t> callee_ids_;
  // Value -> (computation, scheduling graph buffer id).
  std::vector<std::pair<int64_t, int64_t>> buffer_of_;
  std::vector<int64_t> buffer_owner_;
  std::vector<int64_t> scratch_index_of_, scratch_mark_, scratch_fold_begin_;
  std::vector<int64_t> scratch_buffer_bytes_, scratch_live_out_, scratch_flat_;
  std::vector<int64_t> scratch_node_of_, scratch_used_;
  int64_t scratch_stamp_ = 0;
  absl::flat_hash_map<const Shape*, const Subshapes*> subshape_cache_;
  std::deque<Subshapes> subshape_store_;
  static constexpr size_t kRecentShapes = 64;
  std::pair<const Shape*, const Subshapes*> recent_shapes_[kRecentShapes] = {};
  OpcodeClasses opcode_classes_;
};

int64_t Analyzer::ComputationByAttribute(absl::string_view n) const {
  if (!n.empty() && n[0] == '%') n.remove_prefix(1);
  auto it = comp_index_.find(n);
  return it == comp_index_.end() ? kNone : it->second;
}

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
  const size_t computations = module_.computations.size();
  comps_.resize(computations);
  comp_index_.reserve(computations);
  for (size_t c = 0; c < computations; ++c) {
    comps_[c].source = &module_.computations[c];
    comp_index_.emplace(module_.computations[c].header.name, c);
  }
  // One pass over every instruction's attributes: contexts (every caller's
  // kind; embedded wins), the callees of every instruction (callee_ids_
  // from callee_begin_[i] to callee_begin_[i + 1], i counting instructions
  // over all computations), and what the nodes need (infos_).
  std::vector<absl::string_view>& names = scratch_names_;
  comp_first_instruction_.resize(computations);
  const int64_t instructions = module_.instruction_count();
  callee_begin_.reserve(instructions + 1);
  infos_.resize(instructions);
  int64_t g = 0;
  for (size_t c = 0; c < computations; ++c) {
    comp_first_instruction_[c] = g;
    PrefetchComputation(module_, c + 8, 16, /*lists=*/false);
    PrefetchComputation(module_, c + 4, 16, /*lists=*/true);
    for (const HloInstruction& in : module_.computations[c].instructions) {
      callee_begin_.push_back(static_cast<uint32_t>(callee_ids_.size()));
      InstructionInfo& info = infos_[g++];
      info.source = &in;
      info.name = in.name;
      info.opcode = in.opcode;
      info.shape = in.shape;
      info.operands = in.operands.data();
      info.operand_count = static_cast<uint32_t>(in.operands.size());
      info.opcode_class = opcode_classes_.Of(in.opcode);
      if (in.parameter_number.has_value()) {
        info.has_parameter_number = true;
        info.parameter_number = *in.parameter_number;
      }
      names.clear();
      AppendCalledComputationNames(in, &names);
      if (!names.empty()) {
        const bool embedded =
            info.opcode_class.call_kind == CallKind::kEmbedded;
        for (absl::string_view n : names) {
          auto it = comp_index_.find(n);
          if (it == comp_index_.end()) {
            return absl::InvalidArgumentError(
                absl::StrCat("instruction '", in.name,
                             "' calls unknown computation '", n, "'"));
          }
          callee_ids_.push_back(it->second);
          Context& ctx = comps_[it->second].context;
          if (embedded) {
            ctx = Context::kEmbedded;
          } else if (ctx != Context::kEmbedded) {
            ctx = Context::kControlFlow;
          }
        }
      }
      bool metadata_seen = false;  // the first one counts, as elsewhere
      bool body_seen = false, condition_seen = false;
      for (const HloAttribute& a : in.attributes) {
        switch (a.name.size()) {
          case 4:
            if (!body_seen && Eq(a.name, "body")) {
              body_seen = true;
              info.body = ComputationByAttribute(a.value);
            }
            break;
          case 8:
            if (!metadata_seen && Eq(a.name, "metadata")) {
              metadata_seen = true;
              info.op_name = OpNameOf(a.value);
            }
            break;
          case 9:
            if (!condition_seen && Eq(a.name, "condition")) {
              condition_seen = true;
              info.condition = ComputationByAttribute(a.value);
            }
            break;
          case 20:
            if (Eq(a.name, "control-predecessors")) {
              info.has_control_predecessors = true;
            }
            break;
          default:
            break;
        }
      }
    }
  }
  callee_begin_.push_back(static_cast<uint32_t>(callee_ids_.size()));
  if (module_.entry_index < 0) {
    return absl::InvalidArgumentError("module has no entry computation");
  }
  comps_[module_.entry_index].context = Context::kEntry;
  // Build every computation that is not embedded.
  nodes_.reserve(static_cast<size_t>(instructions) * 5 / 4 + 16);
  operand_ids_.reserve(static_cast<size_t>(instructions) * 2);
  sequence_ids_.reserve(static_cast<size_t>(instructions) * 5 / 4 + 16);
  for (size_t c = 0; c < comps_.size(); ++c) {
    PrefetchComputation(module_, c + 8, 16, /*lists=*/false);
    PrefetchComputation(module_, c + 4, 16, /*lists=*/true);
    if (comps_[c].context == Context::kEmbedded) continue;
    absl::Status status = BuildComputation(c);
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

absl::Status Analyzer::BuildComputation(int64_t c) {
  Comp& comp = comps_[c];
  const HloComputation& source = *comp.source;
  // The text's instructions become nodes base, base + 1, ...
  const int64_t base = static_cast<int64_t>(nodes_.size());
  const int64_t count = static_cast<int64_t>(source.instructions.size());
  const int64_t first_instruction = comp_first_instruction_[c];
  int64_t parameters = 0;  // 1 + the largest parameter number
  const InstructionInfo* const infos = infos_.data() + first_instruction;
  for (int64_t k = 0; k < count; ++k) {
    const InstructionInfo& info = infos[k];
    if (k + 4 < count) Prefetch(infos[k + 4].operands, 64);
    if (info.shape == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "instruction '", info.name, "' in '", source.header.name,
          "' has no shape; memory analysis needs every result shape"));
    }
    nodes_.emplace_back();
    Node& node = nodes_.back();
    node.name = info.name;
    const OpcodeClass& opcode = info.opcode_class;
    node.op = opcode.op;
    node.rule = opcode.rule;
    node.forward = opcode.forward;
    node.source = info.source;
    node.subshapes = SubshapesOf(info.shape);
    node.info = static_cast<int32_t>(first_instruction + k);
    node.computation = static_cast<int32_t>(c);
    node.has_control_predecessors = info.has_control_predecessors;
    node.effective_scalar = (*node.subshapes)[0].effective_scalar;
    const int64_t global = first_instruction + k;
    node.callees_begin = callee_begin_[global];
    node.callees_size = callee_begin_[global + 1] - callee_begin_[global];
    node.calls_parameters = node.callees_size > 0 &&
                            opcode.call_kind == CallKind::kControlFlow &&
                            !opcode.async_update_or_done;
    if (node.op == Op::kWhile) {
      node.body = static_cast<int32_t>(info.body);
      node.condition = static_cast<int32_t>(info.condition);
    }
    if (info.has_parameter_number && info.parameter_number >= 0) {
      parameters = std::max(parameters, info.parameter_number + 1);
    }
  }
  // Node by parameter number (the last one written with a number counts).
  comp.parameters_begin = static_cast<int64_t>(parameter_ids_.size());
  comp.parameters_size = parameters;
  parameter_ids_.resize(parameter_ids_.size() + parameters, kNone);
  if (parameters > 0) {
    for (int64_t k = 0; k < count; ++k) {
      if (infos[k].has_parameter_number && infos[k].parameter_number >= 0) {
        parameter_ids_[comp.parameters_begin + infos[k].parameter_number] =
            base + k;
      }
    }
  }
  // Names: scanned in small computations, hashed in large ones.
  const bool hashed = count > kScannedComputation;
  auto& by_name = scratch_by_name_;
  if (hashed) {
    by_name.clear();
    by_name.reserve(count);
    for (int64_t k = 0; k < count; ++k) by_name[infos[k].name] = base + k;
  }
  auto find = [&](absl::string_view name) -> int64_t {
    if (hashed) {
      auto it = by_name.find(name);
      return it == by_name.end() ? kNone : it->second;
    }
    for (int64_t k = count - 1; k >= 0; --k) {
      if (SameText(infos[k].name, name)) return base + k;
    }
    return kNone;
  };
  // Operands, restoring get-tuple-elements written as `%name#N` (one per
  // distinct producer and N, in first-use order).
  std::vector<int64_t>& head = scratch_gte_head_;
  std::vector<int64_t>& tail = scratch_gte_tail_;
  head.resize(count);
  tail.resize(count);
  std::fill(head.begin(), head.end(), kNone);
  scratch_gtes_.clear();
  // A restored get-tuple-element's operand is written after the operands
  // of the instruction that first uses it.
  std::vector<std::pair<int64_t, int64_t>>& new_gtes = scratch_new_gtes_;
  for (int64_t k = 0; k < count; ++k) {
    const InstructionInfo& in = infos[k];
    if (k + 4 < count) Prefetch(infos[k + 4].operands, 64);
    const size_t begin = operand_ids_.size();
    new_gtes.clear();
    for (size_t o = 0; o < in.operand_count; ++o) {
      const HloOperand& operand = in.operands[o];
      int64_t producer = find(operand.name);
      if (producer == kNone) {
        return absl::InvalidArgumentError(absl::StrCat(
            "operand '", operand.name, "' of '", in.name,
            "' is not an instruction of '", source.header.name, "'"));
      }
      if (operand.has_output_index()) {
        const int64_t local = producer - base;
        int64_t e = head[local];
        while (e != kNone && scratch_gtes_[e].index != operand.output_index) {
          e = scratch_gtes_[e].next;
        }
        if (e == kNone) {
          const Shape* ps = NodeShape(nodes_[producer]);
          if (!ps->IsTuple() || operand.output_index >= ps->tuple_size()) {
            return absl::InvalidArgumentError(absl::StrCat(
                "operand '", operand.name, "#", operand.output_index, "' of '",
                in.name, "' selects no element of ", nodes_[producer].name,
                "'s result"));
          }
          const int64_t gid = static_cast<int64_t>(nodes_.size());
          nodes_.emplace_back();
          Node& gte = nodes_.back();
          gte.name = nodes_[producer].name;
          gte.info = nodes_[producer].info;
          gte.op = Op::kGetTupleElement;
          gte.rule = ValueRule::kNothing;
          gte.gte_index = static_cast<int32_t>(operand.output_index);
          gte.subshapes = SubshapesOf(&ps->tuple_shape(operand.output_index));
          gte.effective_scalar = (*gte.subshapes)[0].effective_scalar;
          gte.computation = static_cast<int32_t>(c);
          gte.operands_size = 1;
          new_gtes.emplace_back(gid, producer);
          e = static_cast<int64_t>(scratch_gtes_.size());
          scratch_gtes_.push_back({operand.output_index, gid, kNone});
          if (head[local] == kNone) {
            head[local] = e;
          } else {
            scratch_gtes_[tail[local]].next = e;
          }
          tail[local] = e;
        }
        producer = scratch_gtes_[e].node;
      }
      operand_ids_.push_back(producer);
    }
    Node& node = nodes_[base + k];
    node.operands_begin = static_cast<uint32_t>(begin);
    node.operands_size = in.operand_count;
    for (const auto& [gid, producer] : new_gtes) {
      nodes_[gid].operands_begin = static_cast<uint32_t>(operand_ids_.size());
      operand_ids_.push_back(producer);
    }
  }
  // Each producer's restored get-tuple-elements go right after it, past
  // the constants that directly follow it (where XLA's schedulers put them
  // in the dumps of docs/memory.md).
  comp.first_node = base;
  comp.text_nodes = count;
  comp.folded_begin = static_cast<int64_t>(folded_.size());
  comp.folded_size = static_cast<int64_t>(scratch_gtes_.size());
  comp.sequence_begin = static_cast<int64_t>(sequence_ids_.size());
  comp.sequence_size = count + comp.folded_size;
  std::vector<int64_t>& pending = scratch_pending_;
  pending.clear();
  for (int64_t k = 0; k < count; ++k) {
    const int64_t id = base + k;
    if (!pending.empty() && nodes_[id].op != Op::kConstant) {
      for (int64_t g : pending) sequence_ids_.push_back(g);
      pending.clear();
    }
    sequence_ids_.push_back(id);
    for (int64_t e = head[k]; e != kNone; e = scratch_gtes_[e].next) {
      pending.push_back(scratch_gtes_[e].node);
      folded_.emplace_back(id, scratch_gtes_[e].node);
    }
  }
  for (int64_t g : pending) sequence_ids_.push_back(g);
  if (source.root_index >= 0) comp.root = base + source.root_index;
  comp.built = true;
  return absl::OkStatus();
}

void Analyzer::Flatten(int64_t c) {
  Comp& comp = comps_[c];
  if (comp.span_start != kNone || !comp.built) return;
  comp.span_start = static_cast<int64_t>(schedule_.size());
  for (int64_t id : Sequence(comp)) {
    const Node& node = nodes_[id];
    if (node.op == Op::kCall || node.op == Op::kConditional ||
        node.op == Op::kAsyncStart) {
      for (int64_t callee : Callees(node)) Flatten(callee);
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

const Subshapes* Analyzer::SubshapesOf(const Shape* shape) {
  // A module has few distinct shapes: a small direct-mapped table before
  // the map.
  const size_t slot = (reinterpret_cast<uintptr_t>(shape) >> 4) % kRecentShapes;
  if (recent_shapes_[slot].first == shape) return recent_shapes_[slot].second;
  const Subshapes*& cached = subshape_cache_[shape];
  if (cached == nullptr) {
    subshape_store_.emplace_back();
    Subshapes& list = subshape_store_.back();
    std::vector<int64_t> index;
    ListSubshapes(*shape, &index, &list);
    for (Subshape& sub : list) {
      std::tie(sub.bytes, sub.logical_bytes) = SubshapeBytes(sub.shape);
      if (sub.shape->IsArray() && sub.shape->has_layout()) {
        sub.memory_space = sub.shape->layout().memory_space();
      }
      sub.effective_scalar = IsEffectiveScalar(*sub.shape);
    }
    cached = &list;
  }
  recent_shapes_[slot] = {shape, cached};
  return cached;
}

absl::Status Analyzer::SetSources() {
  // Positions.
  for (Node& node : nodes_) {
    node.first_position = positions_;
    positions_ += static_cast<int64_t>(node.subshapes->size());
  }
  sources_.assign(positions_, Source());
  // Control-flow callers of each computation (for its parameters), in node
  // order, by a counting sort.
  auto is_caller = [](const Node& node) { return node.calls_parameters; };
  for (const Node& node : nodes_) {
    if (!is_caller(node)) continue;
    for (int64_t callee : Callees(node)) ++comps_[callee].callsites_size;
  }
  int64_t total = 0;
  for (Comp& comp : comps_) {
    comp.callsites_begin = total;
    total += comp.callsites_size;
    comp.callsites_size = 0;
  }
  callsite_ids_.resize(total);
  for (size_t id = 0; id < nodes_.size(); ++id) {
    if (!is_caller(nodes_[id])) continue;
    for (int64_t callee : Callees(nodes_[id])) {
      Comp& comp = comps_[callee];
      callsite_ids_[comp.callsites_begin + comp.callsites_size++] =
          static_cast<int64_t>(id);
    }
  }
  // Phi inputs go to phi_inputs_ as they are found; `Push` adds the
  // position `index` of `from`, false when `from`'s shape has no such index
  // (a loop, call or branch whose computations' shapes do not fit).
  auto Push = [&](int64_t from, absl::Span<const int64_t> index) {
    const int64_t p = PositionAt(from, index);
    if (p == kNone) return false;
    phi_inputs_.push_back(p);
    return true;
  };
  auto Mismatch = [&](const Node& node, const std::vector<int64_t>& index) {
    return absl::InvalidArgumentError(absl::StrCat(
        Opcode(node), " '", NodeName(node), "' at index ",
        ShapeIndexString(index),
        ": the shapes of its caller and callee computations do not fit"));
  };
  auto forward = [&](int64_t pos, int64_t node, absl::Span<const int64_t> head,
                     absl::Span<const int64_t> tail) {
    const int64_t p = PositionAt(node, head, tail);
    if (p == kNone) return false;
    sources_[pos].kind = SourceKind::kForward;
    sources_[pos].target = p;
    return true;
  };
  // Positions whose inputs were pushed from `begin` on: one input forwards
  // when `single_forwards`, otherwise a phi.
  auto set_inputs = [&](int64_t pos, size_t begin, bool single_forwards) {
    const size_t n = phi_inputs_.size() - begin;
    if (n == 1 && single_forwards) {
      sources_[pos].kind = SourceKind::kForward;
      sources_[pos].target = phi_inputs_[begin];
      phi_inputs_.resize(begin);
    } else {
      sources_[pos].kind = SourceKind::kPhi;
      sources_[pos].target = static_cast<int64_t>(begin);
      sources_[pos].inputs = static_cast<int64_t>(n);
    }
  };
  for (size_t id = 0; id < nodes_.size(); ++id) {
    const Node& node = nodes_[id];
    const Comp& comp = comps_[node.computation];
    const ValueRule rule = node.rule;
    const bool params_define = comp.context != Context::kControlFlow;
    const absl::Span<const int64_t> operands = Operands(node);
    // A get-tuple-element's element, read once.
    int64_t element = node.gte_index;
    if (node.op == Op::kGetTupleElement && element == kNone &&
        node.source != nullptr) {
      absl::optional<absl::string_view> v =
          FindHloAttribute(node.source->attributes, "index");
      if (v.has_value() && !absl::SimpleAtoi(*v, &element)) element = kNone;
    }
    for (size_t k = 0; k < node.subshapes->size(); ++k) {
      const int64_t pos = node.first_position + static_cast<int64_t>(k);
      const std::vector<int64_t>& index = (*node.subshapes)[k].index;
      const bool is_tuple = (*node.subshapes)[k].shape->IsTuple();
      if (rule == ValueRule::kAll ||
          (rule != ValueRule::kNothing &&
           DefinesValueAt(rule, index, is_tuple, params_define))) {
        continue;
      }
      bool ok = true;
      const absl::Span<const int64_t> all = index;
      if (node.op == Op::kParameter) {
        const int64_t number = node.source->parameter_number.value_or(0);
        const size_t begin = phi_inputs_.size();
        bool is_while = false;
        for (int64_t site : Callsites(comp)) {
          const Node& caller = nodes_[site];
          const absl::Span<const int64_t> caller_operands = Operands(caller);
          if (caller.op == Op::kWhile) {
            is_while = true;
            if (!caller_operands.empty()) {
              if (!Push(caller_operands[0], index))
                return Mismatch(node, index);
            }
            const int64_t body = caller.body;
            if (body != kNone && comps_[body].root != kNone &&
                comps_[body].root != static_cast<int64_t>(id)) {
              if (!Push(comps_[body].root, index)) return Mismatch(node, index);
            }
          } else if (caller.op == Op::kConditional) {
            const absl::Span<const int64_t> callees = Callees(caller);
            for (size_t b = 0; b < callees.size(); ++b) {
              if (callees[b] == node.computation &&
                  b + 1 < caller_operands.size()) {
                if (!Push(caller_operands[b + 1], index))
                  return Mismatch(node, index);
              }
            }
          } else if (number < static_cast<int64_t>(caller_operands.size())) {
            if (!Push(caller_operands[number], index))
              return Mismatch(node, index);
          }
        }
        // No caller: defines (kDefined).
        if (phi_inputs_.size() > begin) set_inputs(pos, begin, !is_while);
        continue;
      }
      if (node.op == Op::kGetTupleElement) {
        ok = !operands.empty() && forward(pos, operands[0], {element}, all);
      } else if (node.forward == Forward::kSameIndex) {
        ok = !operands.empty() && forward(pos, operands[0], all, {});
      } else if (node.op == Op::kTuple) {
        ok = !index.empty() && index[0] < (int64_t)operands.size() &&
             forward(pos, operands[index[0]], all.subspan(1), {});
      } else if (node.forward == Forward::kUnder0) {
        ok = !operands.empty() && forward(pos, operands[0], {0}, all);
      } else if (node.forward == Forward::kUnder1) {
        ok = !operands.empty() && forward(pos, operands[0], {1}, all);
      } else if (node.forward == Forward::kDropFirst) {
        ok = !operands.empty() &&
             forward(pos, operands[0],
                     all.subspan(std::min<size_t>(1, all.size())), {});
      } else if (node.forward == Forward::kAllGatherStart) {
        if (operands.size() == 1) {
          ok = forward(pos, operands[0],
                       all.subspan(std::min<size_t>(1, all.size())), {});
        } else {
          ok = index.size() >= 2 && index[1] < (int64_t)operands.size() &&
               forward(pos, operands[index[1]], all.subspan(2), {});
        }
      } else if (node.op == Op::kAsyncStart) {
        const absl::Span<const int64_t> callees = Callees(node);
        if (!index.empty() && index[0] == 0 && index.size() >= 2 &&
            index[1] < (int64_t)operands.size()) {
          ok = forward(pos, operands[index[1]], all.subspan(2), {});
        } else if (!index.empty() && index[0] == 1 && !callees.empty() &&
                   comps_[callees[0]].root != kNone) {
          ok = forward(pos, comps_[callees[0]].root, all.subspan(1), {});
        } else {
          ok = false;
        }
      } else if (node.op == Op::kCall) {
        const absl::Span<const int64_t> callees = Callees(node);
        ok = !callees.empty() && comps_[callees[0]].root != kNone &&
             forward(pos, comps_[callees[0]].root, all, {});
      } else if (node.op == Op::kWhile) {
        const int64_t body = node.body;
        const size_t begin = phi_inputs_.size();
        if (body != kNone && comps_[body].root != kNone) {
          if (!Push(comps_[body].root, index)) return Mismatch(node, index);
        }
        if (!operands.empty()) {
          if (!Push(operands[0], index)) return Mismatch(node, index);
        }
        set_inputs(pos, begin, /*single_forwards=*/false);
      } else if (node.op == Op::kConditional) {
        const size_t begin = phi_inputs_.size();
        for (int64_t callee : Callees(node)) {
          if (comps_[callee].root != kNone) {
            if (!Push(comps_[callee].root, index)) return Mismatch(node, index);
          }
        }
        set_inputs(pos, begin, /*single_forwards=*/true);
      }
      if (!ok) {
        return absl::InvalidArgumentError(absl::StrCat(
            "cannot follow ", Opcode(node), " '", NodeName(node), "' at index ",
            ShapeIndexString(index), " to its operand"));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status Analyzer::ResolveValues() {
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
  // The phi graph: every phi position (ids in position order, the order
  // the optimization visits them in) and the defined positions their
  // inputs reach. Other defined positions would be nodes without operands
  // or users, which the optimization leaves alone.
  PhiGraph graph;
  value_def_position_.reserve(positions_);
  value_def_node_.reserve(positions_);
  std::vector<int64_t> node_of(positions_, kNone);
  std::vector<int64_t> position_of;  // graph node -> position
  position_of.reserve(positions_);
  for (int64_t p = 0; p < positions_; ++p) {
    if (sources_[p].kind != SourceKind::kPhi) continue;
    node_of[p] = graph.AddNode(/*is_phi=*/true);
    position_of.push_back(p);
  }
  std::vector<int64_t> operands;
  for (int64_t p = 0; p < positions_; ++p) {
    if (sources_[p].kind != SourceKind::kPhi) continue;
    operands.clear();
    for (int64_t i = 0; i < sources_[p].inputs; ++i) {
      const int64_t e = end_of[phi_inputs_[sources_[p].target + i]];
      if (node_of[e] == kNone) {  // a defined position
        node_of[e] = graph.AddNode(/*is_phi=*/false);
        position_of.push_back(e);
      }
      operands.push_back(node_of[e]);
    }
    graph.SetOperands(node_of[p], operands);
  }
  graph.Optimize();
  // Values: defined positions, then the surviving phis, in position order
  // (position order is computation text order; phis after the defined
  // values, as XLA numbers them).
  std::vector<int64_t> value_at(positions_, kNone);  // its own value
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t id = 0; id < nodes_.size(); ++id) {
      const int64_t from = nodes_[id].first_position;
      const int64_t to =
          from + static_cast<int64_t>(nodes_[id].subshapes->size());
      for (int64_t p = from; p < to; ++p) {
        const SourceKind kind = sources_[p].kind;
        if (pass == 0 ? kind != SourceKind::kDefined
                      : kind != SourceKind::kPhi || graph.dead(node_of[p])) {
          continue;
        }
        value_at[p] = static_cast<int64_t>(value_def_position_.size());
        value_def_position_.push_back(p);
        value_def_node_.push_back(static_cast<int64_t>(id));
      }
    }
  }
  value_of_.resize(positions_);
  for (int64_t p = 0; p < positions_; ++p) {
    const int64_t e = end_of[p];
    value_of_[p] = sources_[e].kind == SourceKind::kPhi
                       ? value_at[position_of[graph.Find(node_of[e])]]
                       : value_at[e];
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
        FirstParameter(user.body) != kNone) {
      used = FirstParameter(user.body);
    }
    const int64_t time = nodes_[used].time;
    if (time == kNone) continue;
    const bool top_only =
        user.op == Op::kGetTupleElement || user.op == Op::kCopy;
    const absl::Span<const int64_t> operands = Operands(user);
    const size_t n = user.op == Op::kConditional
                         ? std::min<size_t>(1, operands.size())
                         : operands.size();
    for (size_t k = 0; k < n; ++k) {
      const Node& operand = nodes_[operands[k]];
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
  schedule_.reserve(nodes_.size());
  Flatten(module_.entry_index);
  ComputeUses();
  out_.module_name = module_.header.name;
  out_.schedule_end = static_cast<int64_t>(schedule_.size());
  out_.instructions.resize(schedule_.size());
  for (size_t t = 0; t < schedule_.size(); ++t) {
    const Node& node = nodes_[schedule_[t]];
    ScheduledInstruction& s = out_.instructions[t];
    if (node.source != nullptr) {
      s.name = std::string(node.name.data(), node.name.size());
    } else {  // "producer#N"
      char name[64];
      if (node.name.size() + 22 <= sizeof(name)) {
        std::memcpy(name, node.name.data(), node.name.size());
        char* end = name + node.name.size();
        *end++ = '#';
        end = std::to_chars(end, name + sizeof(name), node.gte_index).ptr;
        s.name = std::string(name, end);
      } else {
        s.name = NodeName(node);
      }
    }
    s.opcode = Opcode(node);
    const Comp& comp = comps_[node.computation];
    s.computation = comp.source->header.name;
    s.shape = NodeShape(node);
    if (node.source != nullptr) s.op_name = infos_[node.info].op_name;
    for (int64_t site : Callsites(comp)) {
      if (nodes_[site].time != kNone) {
        s.caller = nodes_[site].time;
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

// The text keeps the order of the instructions it prints, not where the
// get-tuple-elements folded into `%name#N` operands ran. XLA's default
// scheduler keeps the best of three schedulers; the first of them whose
// replay gives the text's order places the folded ones (docs/memory.md).
// When none does, they stay right after their producers.
void Analyzer::PlaceFoldedGetTupleElements() {
  // The computations with restored get-tuple-elements, largest first.
  std::vector<int64_t> comps;
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
    std::vector<int64_t> node_of;
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
  std::vector<int64_t> node_of;
  auto apply = [&](int64_t c, const absl::optional<std::vector<int64_t>>& order,
                   const std::vector<int64_t>& nodes) {
    if (!order.has_value()) return;
    absl::Span<int64_t> sequence = Sequence(comps_[c]);
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
void Analyzer::GraphOrder(int64_t c, std::vector<int64_t>* node_of,
                          std::vector<int64_t>* index_of) {
  const Comp& comp = comps_[c];
  // The computation's nodes: its text, then its restored get-tuple-elements.
  const int64_t first = comp.first_node;
  const int64_t text = comp.text_nodes;
  const int64_t size = text + comp.folded_size;
  // `folded` is sorted by producer: fold_begin[k] is where text node k's
  // start.
  const absl::Span<const std::pair<int64_t, int64_t>> folded = Folded(comp);
  std::vector<int64_t>& fold_begin = scratch_fold_begin_;
  fold_begin.resize(text + 1);
  std::fill(fold_begin.begin(), fold_begin.end(), 0);
  for (const auto& f : folded) ++fold_begin[f.first - first + 1];
  for (int64_t k = 0; k < text; ++k) fold_begin[k + 1] += fold_begin[k];
  node_of->resize(size);
  index_of->resize(size);
  std::fill(index_of->begin(), index_of->end(), kNone);
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
  std::vector<int64_t>& node_of = scratch_node_of_;
  std::vector<int64_t>& index_of = scratch_index_of_;
  GraphOrder(c, &node_of, &index_of);
  std::vector<int64_t>& used = scratch_used_;  // by id - first; 1: used
  used.resize(size);
  std::fill(used.begin(), used.end(), 0);
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
  std::fill(used.begin(), used.end(), 0);
  // The walk; a node met again (a cycle) runs first.
  for (int64_t steps = 0; steps <= size; ++steps) {
    const Node& node = nodes_[x];
    if (node.has_control_predecessors) return true;
    used[x - first] = 2;  // on the walk
    const absl::Span<const int64_t> operands = Operands(node);
    if (operands.empty()) break;
    const int64_t next = operands[0];
    if (next - first < 0 || next - first >= size) return true;
    x = next;
    if (used[next - first] == 2) break;
  }
  if (nodes_[x].source == nullptr) return true;  // folded: not checked
  return x == first;
}

// Computation `c` as XLA's schedulers see it, in the flat form
// XlaReplayCache keys on; `node_of` maps the graph's instructions to node
// ids. Without `buffers`, the buffer lists and sizes are left empty (all
// the post-order scheduler needs is the rest).
void Analyzer::EmitSchedulingGraph(int64_t c, bool buffers,
                                   FlatSchedulingGraph* flat,
                                   std::vector<int64_t>* node_of_out) {
  const Comp& comp = comps_[c];
  const int64_t first = comp.first_node;
  const int64_t text = comp.text_nodes;
  const int64_t size = text + comp.folded_size;
  std::vector<int64_t>& node_of = *node_of_out;
  std::vector<int64_t>& index_of = scratch_index_of_;  // id - first -> index
  GraphOrder(c, &node_of, &index_of);
  // Buffers: the values this computation defines, except those of
  // parameters and constants (XLA's list scheduler ignores them), numbered
  // as they are met.
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
    scratch_mark_.assign(value_def_position_.size(), -1);  // buffers <= values
  }
  std::vector<int64_t>& bytes = scratch_buffer_bytes_;
  bytes.clear();
  auto buffer = [&](int64_t v) -> int64_t {
    if (buffer_owner_[v] != c) return kNone;
    if (buffer_of_[v].first == c) return buffer_of_[v].second;
    const int64_t b = static_cast<int64_t>(bytes.size());
    bytes.push_back(ValueSubshape(v).bytes);
    buffer_of_[v] = {c, b};
    return b;
  };
  // The array is written through `out` into a buffer that only grows;
  // `room` makes space for the next writes.
  std::vector<int64_t>& data = scratch_flat_;
  if (data.size() < 64) data.resize(64);
  int64_t* out = data.data();
  auto room = [&](size_t more) {
    const size_t at = out - data.data();
    if (at + more > data.size()) {
      data.resize(std::max(2 * data.size(), at + more));
      out = data.data() + at;
    }
  };
  // Distinct buffers per list: a buffer is in the list being filled when
  // its mark is the list's stamp (stamps grow across graphs).
  std::vector<int64_t>& mark = scratch_mark_;
  int64_t stamp = scratch_stamp_;
  absl::flat_hash_map<absl::string_view, int64_t> text_index;  // lazily
  flat->names.resize(size);
  room(1);
  *out++ = size;
  for (int64_t i = 0; i < size; ++i) {
    const Node& node = nodes_[node_of[i]];
    const absl::Span<const int64_t> operands = Operands(node);
    // At most: the flags, four counts, the operands, their values and the
    // node's own values (control predecessors make their own room).
    size_t values_after = 2;
    if (buffers) {
      values_after += node.subshapes->size();
      for (int64_t op : operands) values_after += nodes_[op].subshapes->size();
    }
    room(3 + operands.size() + values_after);
    const bool is_folded = node.source == nullptr;
    flat->names[i] = is_folded ? absl::string_view() : node.name;
    const bool parameter = node.op == Op::kParameter;
    *out++ =
        (is_folded ? FlatSchedulingGraph::kFolded : 0) |
        (parameter || node.op == Op::kConstant ? FlatSchedulingGraph::kIgnored
                                               : 0) |
        (parameter ? FlatSchedulingGraph::kParameter : 0) |
        (node.effective_scalar ? FlatSchedulingGraph::kEffectiveScalar : 0);
    // Operands.
    int64_t* count = out++;
    for (int64_t op : operands) {
      const int64_t local = op - first;
      if (local >= 0 && local < size && index_of[local] != kNone) {
        *out++ = index_of[local];
      }
    }
    *count = out - count - 1;
    // Control predecessors.
    count = out++;
    if (node.has_control_predecessors) {
      absl::optional<absl::string_view> preds =
          FindHloAttribute(node.source->attributes, "control-predecessors");
      if (preds.has_value()) {
        if (text_index.empty()) {
          for (int64_t k = 0; k < size; ++k) {
            if (nodes_[node_of[k]].source != nullptr) {
              text_index[nodes_[node_of[k]].name] = k;
            }
          }
        }
        for (absl::string_view name : absl::StrSplit(
                 *preds, absl::ByAnyChar("{}, %"), absl::SkipEmpty())) {
          auto by_name = text_index.find(name);
          if (by_name == text_index.end()) continue;
          const size_t place = count - data.data();
          room(1 + values_after);
          count = data.data() + place;
          *out++ = by_name->second;
        }
      }
    }
    *count = out - count - 1;
    // Buffers of the operands' values, distinct.
    count = out++;
    ++stamp;
    for (int64_t op : buffers ? operands : absl::Span<const int64_t>()) {
      const Node& operand = nodes_[op];
      const int64_t* values = value_of_.data() + operand.first_position;
      const size_t subshapes = operand.subshapes->size();
      for (size_t s = 0; s < subshapes; ++s) {
        const int64_t v = values[s];
        if (v == kNone) continue;
        const int64_t b = buffer(v);
        if (b == kNone || mark[b] == stamp) continue;
        mark[b] = stamp;
        *out++ = b;
      }
    }
    *count = out - count - 1;
    // Buffers this node defines.
    count = out++;
    const int64_t* values = value_of_.data() + node.first_position;
    const size_t subshapes = buffers ? node.subshapes->size() : 0;
    for (size_t s = 0; s < subshapes; ++s) {
      const int64_t v = values[s];
      if (v == kNone || value_def_node_[v] != node_of[i]) continue;
      const int64_t b = buffer(v);
      if (b != kNone) *out++ = b;
    }
    *count = out - count - 1;
  }
  // The root's buffers (every buffer of the computation is numbered by
  // now: it was met where it is defined).
  std::vector<int64_t>& live_out = scratch_live_out_;
  live_out.clear();
  if (comp.root != kNone && buffers) {
    ++stamp;
    const Node& root = nodes_[comp.root];
    const int64_t* values = value_of_.data() + root.first_position;
    for (size_t s = 0; s < root.subshapes->size(); ++s) {
      const int64_t v = values[s];
      if (v == kNone) continue;
      const int64_t b = buffer(v);
      if (b == kNone || mark[b] == stamp) continue;
      mark[b] = stamp;
      live_out.push_back(b);
    }
  }
  scratch_stamp_ = stamp;
  room(5 + bytes.size() + live_out.size() + text);
  *out++ = static_cast<int64_t>(bytes.size());
  out = std::copy(bytes.begin(), bytes.end(), out);
  *out++ = static_cast<int64_t>(live_out.size());
  out = std::copy(live_out.begin(), live_out.end(), out);
  *out++ = comp.root != kNone ? index_of[comp.root - first] : -1;
  *out++ = text;
  out = std::copy(index_of.begin(), index_of.begin() + text, out);
  flat->data.assign(data.data(), out);
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
  out_.values.resize(value_def_position_.size());
  for (size_t v = 0; v < value_def_position_.size(); ++v) {
    const int64_t p = value_def_position_[v];
    const Node& node = nodes_[value_def_node_[v]];
    const Subshape& sub = (*node.subshapes)[p - node.first_position];
    LiveValue& value = out_.values[v];
    value.instruction = node.time;
    if (!sub.index.empty()) value.index = sub.index;
    value.shape = sub.shape;
    value.is_phi = sources_[p].kind == SourceKind::kPhi;
    value.bytes = sub.bytes;
    value.logical_bytes = sub.logical_bytes;
    value.memory_space = sub.memory_space;
    if (node.time == kNone) {
      value.instruction = kNone;  // not scheduled: no live range
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
  auto value_at = [&](int64_t node, absl::Span<const int64_t> index) {
    if (node == kNone) return kNone;
    const int64_t p = PositionAt(node, index);
    return p == kNone ? kNone : value_of_[p];
  };
  std::vector<int8_t> has_update(comps_.size(), -1);
  for (size_t id = 0; id < nodes_.size(); ++id) {
    const Node& node = nodes_[id];
    const absl::Span<const int64_t> operands = Operands(node);
    if (node.op == Op::kWhile) {
      const int64_t body = node.body;
      const int64_t cond = node.condition;
      for (const Subshape& s : *node.subshapes) {
        const int64_t w = value_at(id, s.index);
        if (!operands.empty()) unite(w, value_at(operands[0], s.index));
        for (int64_t c : {body, cond}) {
          if (c == kNone) continue;
          const int64_t parameter = FirstParameter(c);
          if (comps_[c].parameters_size > 0) {
            unite(w, value_at(parameter, s.index));
          }
        }
        if (body != kNone) unite(w, value_at(comps_[body].root, s.index));
      }
    } else if (node.op == Op::kConditional) {
      for (const Subshape& s : *node.subshapes) {
        for (int64_t callee : Callees(node)) {
          unite(value_at(id, s.index), value_at(comps_[callee].root, s.index));
        }
      }
    } else if (node.op == Op::kDynamicUpdateSlice && !operands.empty()) {
      unite(value_at(id, {}), value_at(operands[0], {}));
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
        if (param == kNone || param >= (int64_t)operands.size()) return;
        unite(value_at(id, out_index), value_at(operands[param], {}));
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
        if (operand < (int64_t)operands.size()) {
          unite(value_at(id, out_index), value_at(operands[operand], in_index));
        }
        at = cb == absl::string_view::npos ? s.size() : cb + 1;
      }
    }
  }
  // input_output_alias: entry parameter value and root output value.
  std::vector<std::vector<int64_t>> outputs;
  const auto aliased = AliasedParameters(module_, &outputs);
  const Comp& entry = comps_[module_.entry_index];
  const absl::Span<const int64_t> entry_parameters = Parameters(entry);
  for (size_t i = 0; i < aliased.size(); ++i) {
    const int64_t number = aliased[i].first;
    if (number < (int64_t)entry_parameters.size()) {
      unite(value_at(entry_parameters[number], aliased[i].second),
            value_at(entry.root, outputs[i]));
    }
  }
  // Per buffer: sort by (start, end, id); the next range ends at the later
  // of the two ends, and a range ends no later than the next starts.
  // Buffers of several values, grouped by a counting sort on their root
  // (parent[v] becomes v's root).
  std::vector<int64_t> first(n + 1, 0);
  for (int64_t v = 0; v < n; ++v) {
    parent[v] = find(v);
    if (out_.values[v].instruction != kNone) ++first[parent[v] + 1];
  }
  for (int64_t r = 0; r < n; ++r) first[r + 1] += first[r];
  std::vector<int64_t> grouped(first[n]);
  {
    std::vector<int64_t> next(first.begin(), first.end() - 1);
    for (int64_t v = 0; v < n; ++v) {
      if (out_.values[v].instruction != kNone) grouped[next[parent[v]]++] = v;
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
  std::vector<int64_t> starts, ends;
  auto sweep = [&](int64_t space) {
    MemoryPeak peak;
    peak.memory_space = space;
    // XLA sorts (start, +size) and (end + 1, -size) events by time, starts
    // first, and keeps the first time the running sum is largest. Starts
    // only add, so per time: add every start, compare, then take the ends.
    starts.assign(out_.schedule_end + 2, 0);
    ends.assign(out_.schedule_end + 2, 0);
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
  std::vector<int64_t>& delta = starts;
  delta.assign(out_.schedule_end + 2, 0);
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

absl::StatusOr<MemoryAnalysis> AnalyzeMemory(
    const HloModule& module, const MemoryAnalysisOptions& options) {
  Analyzer analyzer(module, options);
  return analyzer.Run();
}

absl::StatusOr<MemoryAnalysis> AnalyzeMemory(const HloModule& module) {
  return AnalyzeMemory(module, MemoryAnalysisOptions());
}

}  // namespace hlolayout

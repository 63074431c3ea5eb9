// memory/live_range_analyzer.h: the analysis behind memory/live_range.h,
// shared by its source files; not a public header. live_range.cc reads the
// module into nodes, finds their values and runs the passes;
// live_range_sources.cc sets what each position holds (its sources, phis
// for parameters and control flow); live_range_schedule.cc places the
// get-tuple-elements folded into `%name#N` operands by replaying XLA's
// schedulers; live_range_ranges.cc computes live ranges, their
// normalization and the peaks; views/live_range_text.cc prints XLA's dump
// text.
// The rules are XLA's, stated in docs/memory.md; the layout is for speed
// (docs/memory-speed.md, "Speed"): the reader's instruction records are read
// once, into one node per scheduled instruction (and per get-tuple-element
// restored from a `%name#N` operand), and every later pass works on the
// nodes. Lists (operands, callees, sequences, phi inputs, callers) are
// slices of flat arrays, so the analysis allocates about as many times as
// it has passes, not per instruction.
#ifndef HLOLAYOUT_MEMORY_LIVE_RANGE_ANALYZER_H_
#define HLOLAYOUT_MEMORY_LIVE_RANGE_ANALYZER_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "hlolayout/hlo/module.h"
#include "hlolayout/memory/live_range.h"
#include "hlolayout/memory/scratch_pool.h"
#include "hlolayout/memory/subshape_list.h"
#include "hlolayout/memory/value_rules.h"
#include "hlolayout/memory/xla_schedulers.h"
#include "hlolayout/shape/shape.h"
#include "hlolayout/util/side_by_side.h"

namespace hlolayout {

class PhiGraph;  // memory/phi_graph.h

namespace memory_internal {

constexpr int64_t kNone = -1;
// Positions, values and phi inputs are numbered in 32 bits (the tables by
// position or value hold int32_t): a module with more is refused
// (CheckIds), never wrapped.
constexpr int64_t kMostIds = INT32_MAX;

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

// The value of an instruction's first metadata={...} (empty when none):
// where the reader recorded it (HloInstruction::metadata_attribute), else
// found among the attributes.
inline absl::string_view MetadataOf(const HloInstruction& in) {
  return in.metadata();
}

// The opcode as written of a node's or scheduled instruction's source
// instruction; "get-tuple-element" for a restored one (no source).
inline absl::string_view OpcodeText(const HloInstruction* source) {
  return source == nullptr ? absl::string_view("get-tuple-element")
                           : source->opcode_name();
}

// Asks for `bytes` at `p` ahead of their use (a prefetch never faults: a
// null or stale `p` does no harm). The analysis reads scattered objects:
// each computation's instruction records, each instruction's operands and
// attributes, the nodes in schedule order, the subshape lists and the
// shapes. The hardware prefetcher does not see them coming
// (docs/memory-speed.md, "Speed" and "Fewer cache misses").
inline void Prefetch(const void* p, size_t bytes) {
  const char* c = static_cast<const char*>(p);
  for (size_t i = 0; i < bytes; i += 64) __builtin_prefetch(c + i);
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
  kAllReduceStart,
  kAsyncUpdate,
  kAsyncDone,
};
Op OpOf(HloOpcode opcode);

// Where an instruction's result positions that it does not define come
// from (docs/memory.md, "Values"), for the opcodes that forward an
// operand; the others (parameters, get-tuple-element, tuple, async-start,
// call, while, conditional) have their own rules.
enum class Forward : uint8_t {
  kNone,
  kSameIndex,  // operand 0 at the same index
  kUnder0,     // operand 0 at {0, index...} (copy-done)
  kUnder1,     // operand 0 at {1, index...} (the *-done of async pairs)
  kDropFirst,  // operand 0 at index without its first element
  kAllGatherStart,
};
Forward ForwardOf(HloOpcode opcode);

// Everything the analysis derives from an opcode.
struct OpcodeClass {
  Op op = Op::kOther;
  ValueRule rule = ValueRule::kAll;
  Forward forward = Forward::kNone;
  CallKind call_kind = CallKind::kEmbedded;
  bool async_update_or_done = false;
};

// The OpcodeClass of `opcode`, from a table built once.
const OpcodeClass& OpcodeClassOf(HloOpcode opcode);

// A control-flow caller's callees (while, conditional, call, async-start:
// HasCalls), copied from its record as its node is made: the passes that
// follow the calls read them here, not from the record (cold by then).
struct NodeCalls {
  int32_t body = -1, condition = -1;  // a while's computations (-1: none)
  uint32_t first_callee = 0;          // in HloModule::callee_indices
  uint32_t callee_count = 0;
};
inline bool HasCalls(Op op) {
  return op == Op::kWhile || op == Op::kConditional || op == Op::kCall ||
         op == Op::kAsyncStart;
}

// Kept small: every pass of the analysis walks the nodes. The shape is
// subshapes[0].shape; the instruction is Analyzer::SourceOf (found from
// `computation` and `info`), the opcode is its, the metadata the
// instruction's (MetadataOf).
struct Node {  // an instruction of a scheduled computation
  Subshapes subshapes;
  // 32 bits: positions are numbered in 32 bits (NumberPositions refuses
  // more), and a node's time counts nodes, of fewer.
  int32_t first_position = 0;
  int32_t time = kNone;
  // The instruction, numbered over the module's computations in order
  // (Analyzer::comp_first_instruction_); a restored GTE: its producer. Its
  // name is the instruction's (Analyzer::NameOf); a restored
  // get-tuple-element's is its producer's, printed "name#gte_index".
  int32_t info = 0;
  int32_t computation = 0;
  // A restored GTE's element (gte_index()), a control-flow caller's
  // callees as Analyzer::calls_[calls()] (Body, Condition, Callees), a
  // parameter's number (ParameterNumber), a get-tuple-element's
  // HloInstruction::tuple_index (Analyzer::GetTupleElementIndex), or a
  // fusion's fused computation (FusedComputation): one field, as a node is
  // at most one of these. The last three are copied while the record is at
  // hand: read later, each record missed the cache. -1 for every other
  // node.
  int32_t element_or_calls = -1;
  // A slice of Analyzer::operand_ids_ (node ids). Its callees are those of
  // its instruction (Analyzer::Callees; none for a restored GTE).
  uint32_t operands_begin = 0, operands_size = 0;
  Op op = Op::kOther;
  ValueRule rule = ValueRule::kAll;
  Forward forward = Forward::kNone;
  // A control-flow caller (CallKindOf(opcode) == kControlFlow) that is not
  // async-update or async-done: its callees' parameters are its operands.
  bool calls_parameters : 1;
  bool has_control_predecessors : 1;
  bool effective_scalar : 1;  // an array whose dimensions are all 1
  // A restored get-tuple-element: no instruction of its own.
  bool restored : 1;
  // The instruction may have output_to_operand_aliasing (what the reader
  // recorded, HloInstruction::may_have): custom-calls without it are not
  // read again when the buffers are united.
  bool may_alias_operands : 1;

  Node()
      : calls_parameters(false),
        has_control_predecessors(false),
        effective_scalar(false),
        restored(false),
        may_alias_operands(false) {}

  // A restored GTE's element; -1 for every other node.
  int32_t gte_index() const { return restored ? element_or_calls : -1; }
  // A control-flow caller's index into Analyzer::calls_ (HasCalls); -1
  // for every other node.
  int32_t calls() const { return HasCalls(op) ? element_or_calls : -1; }

  // N of parameter(N) (0 when the text gives none); 0 for every other
  // node.
  int64_t ParameterNumber() const {
    return op == Op::kParameter ? element_or_calls : 0;
  }
  // A fusion's fused computation (its first callee); -1 when it has none,
  // and for every other node.
  int32_t FusedComputation() const {
    return op == Op::kFusion && !restored ? element_or_calls : -1;
  }
};
static_assert(sizeof(Node) <= 40, "every pass walks the nodes: keep it small");

enum class Context : uint8_t { kEntry, kControlFlow, kEmbedded, kUncalled };

struct Comp {
  const HloComputation* source = nullptr;
  // Slices of Analyzer::sequence_ids_ (node ids, schedule order),
  // parameter_ids_ (node id by parameter number, kNone for gaps),
  // callsite_ids_ (control-flow callers) and folded_ (restored
  // get-tuple-elements: (producer, node id), by producer, then in
  // first-use order).
  // 32 bits, as the nodes' fields: every slice and id counts nodes,
  // instructions or positions, of which a module may have at most
  // kMostIds.
  int32_t sequence_begin = 0, sequence_size = 0;
  int32_t parameters_begin = 0, parameters_size = 0;
  int32_t callsites_begin = 0, callsites_size = 0;
  int32_t folded_begin = 0, folded_size = 0;
  int32_t root = kNone;
  int32_t first_node = 0, text_nodes = 0;  // the text's nodes
  int32_t span_start = kNone, span_end = kNone;
  Context context = Context::kUncalled;
  bool built = false;
};
static_assert(sizeof(Comp) <= 64, "one per computation: keep it small");

// What a node takes from its instruction's record and attributes
// (Analyzer::ReadInfo), read as the node is made.
struct InstructionInfo {
  const HloInstruction* source = nullptr;
  absl::string_view name;
  const Shape* shape = nullptr;
  OpcodeClass opcode_class;
  bool has_parameter_number = false;
  bool has_control_predecessors = false;
  int64_t parameter_number = 0;
  // The computations of the first `body` and `condition` attributes.
  int64_t body = kNone, condition = kNone;
};

// Value sources of positions, before phi resolution.
enum class SourceKind : uint8_t { kDefined, kForward, kPhi };
struct Source {
  SourceKind kind = SourceKind::kDefined;
  int32_t target = kNone;  // kForward: a position; kPhi: into phi_inputs_
  int32_t inputs = 0;      // kPhi: how many positions
};

// The first `n` items of scratch vector `v` set to `x`. The vector only
// grows, so that one reused for computations of every size is allocated
// once.
template <typename Vector, typename T>
void FillScratch(Vector* v, size_t n, T x) {
  if (v->size() < n) v->resize(n);
  std::fill_n(v->data(), n, x);
}

// Names are looked up in a hash map only in computations larger than
// this; smaller ones are scanned (from the end: the last of equal names
// wins, as in the map).
constexpr int64_t kScannedComputation = 16;

// One analysis (AnalyzeMemory): Run builds the nodes (Build), their values
// (SetSources, ResolveValues), places the folded get-tuple-elements
// (PlaceFoldedGetTupleElements), flattens the schedule, then computes
// uses, live ranges, their normalization and the peaks.
class Analyzer {
 public:
  Analyzer(const HloModule& module, const MemoryAnalysisOptions& options)
      : module_(module), options_(options) {}

  absl::StatusOr<MemoryAnalysis> Run();

 private:
  absl::Status Build();
  // Fails on a call of a computation the module does not have (the first
  // such call in text order).
  absl::Status CheckCalleesKnown() const;
  // Fails on a cycle of calls or calls nested past kMaxCallDepth (from the
  // module's callees, before any walk of the call graph).
  absl::Status CheckCallGraph() const;
  void ReadInfo(const HloInstruction& in, InstructionInfo* info);
  // The same from what the reader recorded of the attributes
  // (HloInstruction::attribute_facts), without reading them: false when it
  // did not record enough (then they are read).
  bool ReadRecordedInfo(const HloInstruction& in, InstructionInfo* info) const;
  // The nodes of computation `c`: its text's (AddTextNodes), parameters
  // by number (IndexParameters), operands with the get-tuple-elements
  // restored from `%name#N` (AddOperands), and its sequence
  // (SequenceNodes).
  struct EarlyTail;
  // `early`: the tail being filled ahead, or null (StartEarlyTail).
  absl::Status BuildComputation(int64_t c, EarlyTail* early);
  // Adds a node per instruction; returns 1 + the largest parameter number.
  absl::StatusOr<int64_t> AddTextNodes(int64_t c, EarlyTail* early);
  static constexpr int kRecentShapesLog2 = 10;
  static constexpr size_t kRecentShapes = size_t{1} << kRecentShapesLog2;
  // The slot of `shape` in a direct-mapped table of the shapes met last
  // (kRecentShapes): a module has few distinct shapes, and a hash map's
  // probes missed the cache. Shapes are objects of some hundred bytes,
  // allocated one after the other: their addresses are hashed (Fibonacci),
  // not cut to their low bits, which collided.
  static size_t RecentShapeSlot(const Shape* shape) {
    return static_cast<size_t>(((reinterpret_cast<uintptr_t>(shape) >> 4) *
                                uint64_t{0x9E3779B97F4A7C15}) >>
                               (64 - kRecentShapesLog2));
  }
  // What the second half of a computation's nodes makes on its thread: it
  // numbers the distinct shapes its nodes have, then makes their subshape
  // lists in an arena of its own (the CLI's heap is one arena with one
  // lock, cli/heap.cc: lists allocated one by one beside the calling
  // thread's contended for it on every list, 4,000 futex calls on a 75 MB
  // dump). The calling thread takes the lists of the shapes it has not
  // met as it joins the half (JoinHalf).
  struct HalfTables {
    ScratchVector<int32_t> shape_ids;  // per node: its shape in `shapes`
    std::vector<const Shape*> shapes;  // distinct, in the order met
    // By shape: its list (children counted from child_offsets' start), and
    // whether the shape is an effective scalar.
    std::vector<Subshape*> lists;
    ScratchVector<char> scalar;
    SubshapeArena arena;
    ScratchVector<int32_t> child_offsets;
    absl::flat_hash_map<const Shape*, int32_t> ids;
    std::pair<const Shape*, int32_t> recent[kRecentShapes] = {};
    ScratchVector<NodeCalls> calls;
    ScratchVector<std::pair<int64_t, int64_t>> parameters;
    absl::Status status;
    // The number of `shape` in `shapes`, added when new.
    int32_t IdOf(const Shape* shape);
  };
  // Computations of this many instructions or more have their nodes filled
  // in two halves when the analysis runs side by side (parallel_).
  static constexpr int64_t kHalvedComputation = 8192;
  // The last nodes of a computation, filled on a second thread into a table
  // of their own while the calling thread fills the first ones (AddTextNodes
  // joins them). The largest computation's tail starts with the build
  // (StartEarlyTail), while the calling thread builds the computations
  // before it: the small computations a dump builds before its entry no
  // longer wait on one thread. A later large computation's second half
  // starts when it is built.
  struct EarlyTail {
    int64_t computation = kNone;  // kNone once joined
    int64_t begin = 0;          // its instructions [begin, end) are filled here
    ScratchVector<Node> nodes;  // one per instruction from `begin`
    HalfTables tables;
    std::unique_ptr<SideTask> task;  // last: destroyed (joined) first
  };
  // The tail of the largest computation to build, started, when the
  // analysis runs side by side and it has kHalvedComputation instructions
  // or more (parallel_from, when smaller: tests); null otherwise.
  std::unique_ptr<EarlyTail> StartEarlyTail();
  // Starts filling instructions [begin, end) of computation `c`.
  std::unique_ptr<EarlyTail> StartTail(int64_t c, int64_t begin, int64_t end);
  // The nodes of computation `c`'s instructions [begin, end): out[k - begin]
  // for instruction k (the nodes exist, as made by Node()). Writes only
  // those nodes, `calls` and `parameters` (instruction, number), and, with
  // `half`, each node's shape there (HalfTables::shape_ids) instead of its
  // subshape list (SubshapesOf): two disjoint ranges may be filled at once,
  // one with `half` (whose lists are then made by ListHalfShapes).
  absl::Status FillTextNodes(
      int64_t c, int64_t begin, int64_t end, Node* out, HalfTables* half,
      ScratchVector<NodeCalls>* calls,
      ScratchVector<std::pair<int64_t, int64_t>>* parameters);
  // Makes the subshape lists of `half`'s shapes, in its own arena.
  static void ListHalfShapes(HalfTables* half);
  // Joins the nodes [begin, end) that `tail` filled on a second thread: they
  // get the lists of the analysis for the shapes it has, their own for the
  // others, and their calls follow the analysis' own.
  void JoinHalf(int64_t begin, int64_t end, EarlyTail* tail);
  void IndexParameters(int64_t c, int64_t base, int64_t parameters);
  // The operands of the text nodes from `base` on (one restored
  // get-tuple-element per distinct producer and N, in first-use order).
  absl::Status AddOperands(int64_t c, int64_t base);
  // The restored get-tuple-element of element `n` of the text node `local`
  // (from the computation's first), kNone when there is none yet.
  int64_t FindRestoredGetTupleElement(int64_t local, int64_t n) const
      __attribute__((always_inline));
  // Adds the node of element N of `producer` (N from `operand`'s `#N`, used
  // by the instruction named `user`) at its first use.
  absl::StatusOr<int64_t> AddRestoredGetTupleElement(int64_t c, int64_t base,
                                                     int64_t producer,
                                                     const HloOperand& operand,
                                                     absl::string_view user);
  void SequenceNodes(int64_t c, int64_t base);
  void Flatten(int64_t c);
  absl::Span<const int32_t> Operands(const Node& node) const {
    return absl::MakeConstSpan(operand_ids_.data() + node.operands_begin,
                               node.operands_size);
  }
  // The computations its instruction calls, in attribute order (none for
  // a restored get-tuple-element): a control-flow caller's from its calls
  // (HasCalls), any other's from its record (HloModule::callees).
  absl::Span<const int32_t> Callees(const Node& node) const {
    if (node.restored) return {};
    if (node.calls() < 0) return module_.callees(*SourceOf(node));
    const NodeCalls& calls = calls_[node.calls()];
    return absl::MakeConstSpan(module_.callee_indices)
        .subspan(calls.first_callee, calls.callee_count);
  }
  // A while's computations; kNone for any other node or when not found.
  int64_t Body(const Node& node) const {
    return node.op != Op::kWhile || node.calls() < 0
               ? kNone
               : calls_[node.calls()].body;
  }
  int64_t Condition(const Node& node) const {
    return node.op != Op::kWhile || node.calls() < 0
               ? kNone
               : calls_[node.calls()].condition;
  }
  absl::Span<int32_t> Sequence(const Comp& comp) {
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
  // The name of a node's instruction; a restored get-tuple-element's
  // producer's (instruction `info` of the same computation). Not after
  // ReleaseNodeTables.
  absl::string_view NameOf(const Node& node) const {
    return InstructionOf(node).name();
  }
  // A node's instruction; a restored get-tuple-element's producer's. Not
  // after ReleaseNodeTables.
  const HloInstruction& InstructionOf(const Node& node) const {
    const int64_t c = node.computation;
    return comps_[c]
        .source->instructions[node.info - comp_first_instruction_[c]];
  }
  // A node's instruction; null for a restored get-tuple-element.
  const HloInstruction* SourceOf(const Node& node) const {
    return node.restored ? nullptr : &InstructionOf(node);
  }
  // "name", or "producer#N" for a restored get-tuple-element.
  std::string NodeName(const Node& node) const {
    return node.restored ? absl::StrCat(NameOf(node), "#", node.gte_index())
                         : std::string(NameOf(node));
  }
  absl::string_view Opcode(const Node& node) const {
    return OpcodeText(SourceOf(node));
  }
  const Shape* NodeShape(const Node& node) const {
    return node.subshapes[0].shape;
  }
  // The position of `node` at the index `head` followed by `tail`, kNone
  // when its shape has no such index.
  int64_t PositionAt(int64_t node, absl::Span<const int64_t> head,
                     absl::Span<const int64_t> tail = {}) const {
    const Node& n = nodes_[node];
    const int64_t k = SubshapeAt(n.subshapes, child_offsets_, head, tail);
    return k == kNone ? kNone : n.first_position + k;
  }
  // One past node `id`'s last position (after NumberPositions): the next
  // node's first, so that walks over every node's positions need not read
  // each node's subshape list (scattered: its size missed the cache).
  int64_t PositionsEnd(size_t id) const {
    return id + 1 < nodes_.size() ? nodes_[id + 1].first_position : positions_;
  }
  // The subshape list of `shape`, made when first asked for.
  Subshapes SubshapesOf(const Shape* shape);
  // Numbers the positions and sets each one's source: defined, forwarded
  // from another position, or a phi of several.
  absl::Status SetSources();
  // How many chunks of nodes SetSources' two threads take in turn.
  static constexpr size_t kSourceChunks = 32;
  // Where the sources of some nodes write their phis' inputs: phi_inputs_,
  // or a list of their own (a later chunk of the nodes, possibly set on
  // another thread, joined to phi_inputs_ after; `phis` then lists its phi
  // positions).
  struct PhiInputs {
    ScratchVector<int32_t>* inputs;
    ScratchVector<int32_t>* phis = nullptr;
  };
  // The sources of the positions of nodes [begin, end). Writes only their
  // positions' sources and `out`: two disjoint ranges may be set at once.
  absl::Status SetSourcesOf(size_t begin, size_t end, PhiInputs out);
  // Fails past kMostIds positions.
  absl::Status NumberPositions();
  // The control-flow callers of each computation (for its parameters).
  void ListCallsites();
  // N of a get-tuple-element (its `index` attribute for one of the text).
  int64_t GetTupleElementIndex(const Node& node) const;
  // The source of position `pos` (at `index`) of node `id`, which does not
  // define a value there (not a parameter: SetParameterSources).
  absl::Status SetPositionSource(int64_t id, int64_t element, int64_t pos,
                                 absl::Span<const int64_t> index, PhiInputs out)
      __attribute__((always_inline));
  // The positions of parameter `id` that `rule` does not define, all at
  // once: its callers are read once, not once a position. `from` and
  // `ks` are scratch lists of the calling thread.
  absl::Status SetParameterSources(int64_t id, bool params_define,
                                   ScratchVector<int32_t>* from,
                                   std::vector<int32_t>* ks, PhiInputs out);
  // The error for a parameter whose positions `ks` a caller's input
  // (`from`) does not have: the first such position, then the first such
  // input; OK when every input fits.
  absl::Status FirstCallMismatch(const Node& node,
                                 absl::Span<const int32_t> from,
                                 absl::Span<const int32_t> ks) const;
  // A while's or conditional's position: a phi of its computations' roots
  // (and a loop's init).
  absl::Status SetResultPhi(const Node& node, int64_t pos,
                            absl::Span<const int64_t> index, PhiInputs out);
  // The other forwarding opcodes; false when the operand has no such
  // position.
  bool SetForwardSource(const Node& node, int64_t element, int64_t pos,
                        absl::Span<const int64_t> index)
      __attribute__((always_inline));
  // Phi inputs go to `out` as they are found: adds the position `index`
  // of `from`, false when `from`'s shape has no such index (a loop, call or
  // branch whose computations' shapes do not fit).
  bool PushPhiInput(int64_t from, absl::Span<const int64_t> index,
                    PhiInputs out) const __attribute__((always_inline));
  absl::Status CallShapesMismatch(const Node& node,
                                  absl::Span<const int64_t> index) const;
  // Position `pos` forwards to `node`'s position at `head` then `tail`;
  // false when there is none.
  bool ForwardTo(int64_t pos, int64_t node, absl::Span<const int64_t> head,
                 absl::Span<const int64_t> tail) __attribute__((always_inline));
  // Position `pos` takes the inputs pushed to `out` from `begin` on: one
  // input forwards when `single_forwards`, otherwise a phi.
  void SetInputs(int64_t pos, size_t begin, bool single_forwards, PhiInputs out)
      __attribute__((always_inline));
  // Numbers the values (value_of_, value_def_position_, value_def_node_):
  // FollowForwards, then BuildPhiGraph and its optimization, then
  // NumberValues.
  absl::Status ResolveValues();
  // Each position's chain end (a defined or phi position) in `end_of`.
  absl::Status FollowForwards(ScratchVector<int32_t>* end_of) const;
  // Each position's kind, counted, from the sources.
  struct PositionKinds {
    ScratchVector<SourceKind> of;  // by position
    size_t phis = 0, defined = 0;
  };
  // A phi position and its inputs (a slice of phi_inputs_).
  struct PhiSource {
    int32_t position, first_input, inputs;
  };
  // Each position's kind, and the phis in position order, from the
  // sources (only read: FollowForwards runs beside it).
  void CollectPhis(PositionKinds* kinds, ScratchVector<PhiSource>* phis) const;
  // The phi graph: every phi position (nodes 0 to kinds.phis - 1, in
  // position order) and the defined positions their inputs reach
  // (`position_of`: node -> position). A chain end that is a graph node
  // has its node in `end_of`, as GraphNodeEntry(node). Frees the sources
  // unless the dataflow is kept.
  void BuildPhiGraph(ScratchVector<int32_t>* end_of, const PositionKinds& kinds,
                     const ScratchVector<PhiSource>& phis, PhiGraph* graph,
                     ScratchVector<int32_t>* position_of);
  // After the graph's optimization: the values, in `end_of` (which then
  // maps every position to its value) and the values' tables.
  void NumberValues(const PositionKinds& kinds, const PhiGraph& graph,
                    const ScratchVector<int32_t>& position_of,
                    ScratchVector<int32_t>* end_of);
  const Subshape& ValueSubshape(int64_t value) const {
    const Node& node = nodes_[value_def_node_[value]];
    return node.subshapes[value_def_position_[value] - node.first_position];
  }
  void PlaceFoldedGetTupleElements();
  void GraphOrder(int64_t c, ScratchVector<int64_t>* node_of,
                  ScratchVector<int64_t>* index_of);
  bool PostOrderMayGiveText(int64_t c);
  void EmitSchedulingGraph(int64_t c, bool buffers, FlatSchedulingGraph* flat,
                           ScratchVector<int64_t>* node_of);
  class GraphEmitter;  // EmitSchedulingGraph's writer
  // Numbers no buffer yet: tells which computation's buffer each value is
  // (once per analysis).
  void PrepareGraphBuffers();
  void ComputeUses();
  void LiveRanges();
  ScratchVector<int64_t> AsyncDoneTimes() const;
  // Puts the values XLA's alias analysis puts in one buffer together (a
  // union-find over values: UniteValues, in value_parent_). Reads the
  // values' ids, not their live ranges: it may run while LiveRanges does.
  void UniteBuffers();
  // Groups the values by buffer and normalizes each buffer's ranges
  // (NormalizeBuffer); after UniteBuffers and LiveRanges.
  void NormalizeBuffers();
  int64_t FindValueRoot(int64_t value) __attribute__((always_inline));
  // Either may be kNone.
  void UniteValues(int64_t a, int64_t b) __attribute__((always_inline));
  // The value at `node`'s position `index`; kNone when there is none.
  int64_t ValueAt(int64_t node, absl::Span<const int64_t> index) const
      __attribute__((always_inline));
  // A while's values with its init, parameters and body root's; a
  // conditional's with its branches' roots.
  void UniteControlFlow(int64_t id);
  // A fusion whose root (or root tuple element) updates a parameter in
  // place; `has_update` remembers, by fused computation, whether it holds a
  // dynamic-update-slice or scatter at all (-1: not looked yet).
  void UniteInPlaceFusion(int64_t id, ScratchVector<int8_t>* has_update);
  void UniteAllReduceStart(int64_t id);
  void UniteCustomCallAliases(int64_t id);  // output_to_operand_aliasing
  void UniteInputOutputAliases();           // the module's input_output_alias
  // The live ranges of one buffer's values (value ids).
  void NormalizeBuffer(absl::Span<int32_t> values);
  // Fails when the values' bytes together pass int64 (no sum can wrap).
  absl::Status Peaks();
  void ExportDataflow();
  // MemoryAnalysis::instructions, from the nodes in schedule order.
  void ListInstructions();
  // Each frees the tables no later pass needs, as soon as it can, so that
  // fewer of them are held at the peak (after NormalizeBuffers): the build's
  // scratch tables and shape caches; the scheduler replays'; the values'
  // sources, ids and buffers and the operand, sequence and callee lists
  // (the instructions are then written in their memory).
  void ReleaseBuildTables();
  void ReleaseScheduleTables();
  // The positions' sources and phi inputs, which ResolveValues reads last
  // (ExportDataflow too).
  void ReleasePositionSources();
  void ReleaseValueTables();
  // Frees the nodes and what the instructions were read from: the peaks
  // need only the result.
  void ReleaseNodeTables();

  const HloModule& module_;
  const MemoryAnalysisOptions options_;
  // Whether independent steps run side by side on two threads
  // (MemoryAnalysisOptions::threads; decided once the nodes are built).
  bool parallel_ = false;
  // Whether a value is in a memory space other than 0 (LiveRanges): the
  // peak search reads the values' shapes only then.
  bool other_memory_spaces_ = false;
  ScratchVector<Node> nodes_;
  ScratchVector<Comp> comps_;
  ScratchVector<int32_t> operand_ids_;   // node ids (Node::operands_begin)
  ScratchVector<int32_t> sequence_ids_;  // node ids
  ScratchVector<int64_t> parameter_ids_, callsite_ids_;
  ScratchVector<std::pair<int64_t, int64_t>> folded_;
  ScratchVector<int32_t> schedule_;  // node ids by time
  int64_t positions_ = 0;
  ScratchVector<Source> sources_;
  ScratchVector<int32_t> phi_inputs_;  // positions
  // Values from here on are phis (ResolveValues numbers them last).
  size_t first_phi_value_ = 0;
  ScratchVector<int32_t> value_of_;  // position -> value id
  ScratchVector<int32_t> use_end_;   // value -> latest use or position
  MemoryAnalysis out_;
  ScratchVector<int32_t> value_def_position_;
  ScratchVector<int32_t> value_def_node_;  // value -> defining node
  ScratchVector<int64_t> value_buffer_;    // value -> its buffer's root
  ScratchVector<int32_t> value_parent_;    // UniteBuffers' union-find
  // Restored get-tuple-elements of the computation being built, as lists
  // per producer: head by producer's local index, entries (N, node, next).
  ScratchVector<int64_t> scratch_gte_head_, scratch_gte_tail_;
  struct GteEntry {
    int64_t index, node, next;
  };
  ScratchVector<GteEntry> scratch_gtes_;
  std::vector<absl::string_view> scratch_names_;
  ScratchVector<int64_t> scratch_pending_;
  // (text index, N) of the computation's parameter(N), N >= 0, in text
  // order (AddTextNodes for IndexParameters).
  ScratchVector<std::pair<int64_t, int64_t>> scratch_parameters_;
  ScratchVector<std::pair<int64_t, int64_t>> scratch_new_gtes_;
  ScratchVector<int64_t> comp_first_instruction_;
  // (body, condition) of each while node (Node::loop), kNone when its
  // attribute names no computation.
  ScratchVector<NodeCalls> calls_;
  // Value -> (computation, scheduling graph buffer id).
  ScratchVector<std::pair<int64_t, int64_t>> buffer_of_;
  ScratchVector<int64_t> buffer_owner_;
  ScratchVector<int64_t> scratch_index_of_, scratch_mark_, scratch_fold_begin_;
  ScratchVector<int64_t> scratch_buffer_bytes_, scratch_live_out_,
      scratch_flat_;
  ScratchVector<int64_t> scratch_node_of_, scratch_used_;
  int64_t scratch_stamp_ = 0;
  absl::flat_hash_map<const Shape*, Subshapes> subshape_cache_;
  ScratchVector<int32_t> child_offsets_;  // Subshape::children
  // The subshape lists (the values' shape indices point into them) and
  // the restored get-tuple-elements' names: MemoryAnalysis::storage.
  struct Storage {
    SubshapeArena subshapes;
    std::string restored_names;
    // Their records, in schedule order (reserved whole: never moved).
    std::vector<RestoredGetTupleElement> restored;
  };
  std::shared_ptr<Storage> storage_ = std::make_shared<Storage>();
  std::pair<const Shape*, Subshapes> recent_shapes_[kRecentShapes] = {};
};

}  // namespace memory_internal
}  // namespace hlolayout

#endif  // HLOLAYOUT_MEMORY_LIVE_RANGE_ANALYZER_H_

// When a value may take its operand's place: the rules docs/memory.md
// states in "Buffer sharing rules" ("May a value take its operand's
// place", "Written in place", "The generic rules", "Elementwise" and "A
// fusion writing an output over an operand"), implemented from those
// statements on the module's dataflow and its fusion bodies read from the
// text. Their origins, named in the statements, are XLA's
// HloDataflowAnalysis::CanShareOperandBufferWithUser and
// GetInPlaceInputOutputPairs, HloInstruction::IsElementwiseOnOperand and
// XLA:GPU's CanShareBufferHint; the code is organised around the
// statements, not around those functions.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "hlolayout/hlo/attribute_value.h"
#include "hlolayout/hlo/backend_config.h"
#include "hlolayout/memory/buffer_assignment_internal.h"

namespace hlolayout {
namespace buffer_internal {
namespace {

const Shape* SubshapeAt(const Shape* shape, absl::Span<const int64_t> index) {
  for (int64_t i : index) {
    if (shape == nullptr || !shape->IsTuple() || i < 0 ||
        i >= shape->tuple_size()) {
      return nullptr;
    }
    shape = &shape->tuple_shape(i);
  }
  return shape;
}

// An array of one element (every dimension 1, or none).
bool IsSingleElement(const Shape& s) {
  return s.IsArray() &&
         std::all_of(s.dimensions().begin(), s.dimensions().end(),
                     [](int64_t d) { return d == 1; });
}

// The number of elements of an array; nullopt when it does not fit in 64
// bits.
std::optional<int64_t> ElementCount(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s.dimensions()) {
    if (__builtin_mul_overflow(n, d, &n)) return std::nullopt;
  }
  return n;
}

// How many of `ops` are `x`, and the position of the first (-1: none).
struct Occurrences {
  int64_t first = -1;
  int64_t count = 0;
};
Occurrences Find(absl::Span<const int64_t> ops, int64_t x) {
  Occurrences o;
  for (size_t k = 0; k < ops.size(); ++k) {
    if (ops[k] != x) continue;
    if (o.count++ == 0) o.first = static_cast<int64_t>(k);
  }
  return o;
}

// ---------------------------------------------------------------------
// Elementwise (docs/memory.md, "Buffer sharing rules", "Elementwise").

// The opcodes that compute each output element from the same element of
// every operand (XLA's list).
bool IsElementwiseOpcode(HloOpcode op) {
  switch (op) {
    case HloOpcode::kAbs:
    case HloOpcode::kAdd:
    case HloOpcode::kAnd:
    case HloOpcode::kAtan2:
    case HloOpcode::kCbrt:
    case HloOpcode::kCeil:
    case HloOpcode::kClamp:
    case HloOpcode::kCompare:
    case HloOpcode::kComplex:
    case HloOpcode::kConvert:
    case HloOpcode::kCopy:
    case HloOpcode::kCosine:
    case HloOpcode::kCountLeadingZeros:
    case HloOpcode::kDivide:
    case HloOpcode::kErf:
    case HloOpcode::kExponential:
    case HloOpcode::kExponentialMinusOne:
    case HloOpcode::kFloor:
    case HloOpcode::kImag:
    case HloOpcode::kIsFinite:
    case HloOpcode::kLog:
    case HloOpcode::kLogPlusOne:
    case HloOpcode::kLogistic:
    case HloOpcode::kMap:
    case HloOpcode::kMaximum:
    case HloOpcode::kMinimum:
    case HloOpcode::kMultiply:
    case HloOpcode::kNegate:
    case HloOpcode::kNot:
    case HloOpcode::kOr:
    case HloOpcode::kPopcnt:
    case HloOpcode::kPower:
    case HloOpcode::kReal:
    case HloOpcode::kReducePrecision:
    case HloOpcode::kRemainder:
    case HloOpcode::kRoundNearestAfz:
    case HloOpcode::kRoundNearestEven:
    case HloOpcode::kRsqrt:
    case HloOpcode::kSelect:
    case HloOpcode::kShiftLeft:
    case HloOpcode::kShiftRightArithmetic:
    case HloOpcode::kShiftRightLogical:
    case HloOpcode::kSign:
    case HloOpcode::kSine:
    case HloOpcode::kSqrt:
    case HloOpcode::kStochasticConvert:
    case HloOpcode::kSubtract:
    case HloOpcode::kTan:
    case HloOpcode::kTanh:
    case HloOpcode::kXor:
      return true;
    default:
      return false;
  }
}

// Whether `in` is elementwise at operand slot `slot` (-1: at every slot,
// "elementwise"): an elementwise opcode, a bitcast-convert between types
// of one bit width whose operand's type is written at the use, a
// dynamic-update-slice at slot 0 only. A fusion is not (the statement's
// nested fusions).
bool ElementwiseAt(const HloInstruction& in, int64_t slot) {
  switch (in.opcode) {
    case HloOpcode::kDynamicUpdateSlice:
      return slot == 0;
    case HloOpcode::kBitcastConvert: {
      const Shape* from =
          in.operands().empty() ? nullptr : in.operands()[0].shape;
      return in.shape != nullptr && from != nullptr &&
             BitWidth(in.shape->element_type()) ==
                 BitWidth(from->element_type());
    }
    default:
      return IsElementwiseOpcode(in.opcode);
  }
}

// The first operand slot of body instruction `user` that holds `x`, -1
// when none does.
int64_t FirstSlot(const InstructionGraph& body, int64_t user, int64_t x) {
  return Find(body.operands[user], x).first;
}

// How many operand slots of body instruction `user` hold `x`.
int64_t SlotsHolding(const InstructionGraph& body, int64_t user, int64_t x) {
  return Find(body.operands[user], x).count;
}

// Whether body instruction `u` is elementwise at every slot holding `x`.
bool ElementwiseAtEverySlotOf(const InstructionGraph& body, int64_t u,
                              int64_t x) {
  const absl::Span<const int64_t> ops = body.operands[u];
  for (size_t k = 0; k < ops.size(); ++k) {
    if (ops[k] == x && !ElementwiseAt(body.at(u), k)) return false;
  }
  return true;
}

// The reach of body instruction `from`: `from` and every user of a reached
// instruction, nothing through `stop` (-1: no such instruction). One flag
// per instruction.
std::vector<bool> Reach(const InstructionGraph& body, int64_t from,
                        int64_t stop) {
  std::vector<bool> reached(body.operands.size(), false);
  if (from < 0) return reached;
  std::vector<int64_t> todo = {from};
  reached[from] = true;
  while (!todo.empty()) {
    const int64_t x = todo.back();
    todo.pop_back();
    if (x == stop) continue;
    for (int64_t u : body.users[x]) {
      if (!reached[u]) {
        reached[u] = true;
        todo.push_back(u);
      }
    }
  }
  return reached;
}

// P's uses are elementwise or tuples: every user of every instruction of
// P's reach is a tuple or elementwise at every slot holding it.
bool UsesElementwiseOrTuple(const InstructionGraph& body, int64_t p) {
  if (p < 0) return false;
  const std::vector<bool> reach = Reach(body, p, -1);
  for (size_t x = 0; x < reach.size(); ++x) {
    if (!reach[x]) continue;
    for (int64_t u : body.users[x]) {
      if (body.at(u).opcode != HloOpcode::kTuple &&
          !ElementwiseAtEverySlotOf(body, u, static_cast<int64_t>(x))) {
        return false;
      }
    }
  }
  return true;
}

// P's reach numbered breadth-first, users in text order: number[x] is x's
// number, -1 when x is not reached.
std::vector<int64_t> BreadthFirstNumbers(const InstructionGraph& body,
                                         int64_t p) {
  std::vector<int64_t> number(body.operands.size(), -1);
  std::vector<int64_t> numbered = {p};
  number[p] = 0;
  for (size_t k = 0; k < numbered.size(); ++k) {
    for (int64_t u : body.users[numbered[k]]) {
      if (number[u] >= 0) continue;
      number[u] = static_cast<int64_t>(numbered.size());
      numbered.push_back(u);
    }
  }
  return number;
}

// The fusion is elementwise on P in visit order: every instruction of P's
// reach but P is elementwise, or elementwise at every slot holding its
// first reached operand (the one with the smallest number).
bool ElementwiseInVisitOrder(const InstructionGraph& body, int64_t p) {
  if (p < 0) return false;
  const std::vector<int64_t> number = BreadthFirstNumbers(body, p);
  for (size_t u = 0; u < number.size(); ++u) {
    if (number[u] <= 0 || ElementwiseAt(body.at(u), -1)) continue;
    int64_t first = -1;
    for (int64_t x : body.operands[u]) {
      if (x < 0 || number[x] < 0) continue;
      if (first < 0 || number[x] < number[first]) first = x;
    }
    if (!ElementwiseAtEverySlotOf(body, static_cast<int64_t>(u), first)) {
      return false;
    }
  }
  return true;
}

// ---------------------------------------------------------------------
// A fusion writing an output over an operand on XLA:GPU (docs/memory.md,
// "Buffer sharing rules"; origin: XLA:GPU's FusionCanShareBufferHint).

// The body as the rule names its parts.
struct SharingBody {
  const InstructionGraph* body = nullptr;
  int64_t parameter = -1;   // P
  int64_t output = -1;      // O
  int64_t writer = -1;      // W
  int64_t output_slot = 0;  // i (0 for a fusion of one output)
  int64_t hero = -1;        // the hero reduce, -1 when none
  bool tuple_root = false;  // the root builds a tuple
};

// Whether going up from body instruction `r` to its one operand stays on
// the way to a hero: a bitcast, a copy that keeps shape and layout, an
// elementwise instruction of one operand.
bool OnTheWayToHero(const InstructionGraph& body, int64_t r) {
  const absl::Span<const int64_t> ops = body.operands[r];
  if (ops.size() != 1 || ops[0] < 0) return false;
  const HloInstruction& in = body.at(r);
  switch (in.opcode) {
    case HloOpcode::kBitcast:
      return true;
    case HloOpcode::kCopy: {
      const Shape* from = body.at(ops[0]).shape;
      return in.shape != nullptr && from != nullptr && *in.shape == *from;
    }
    default:
      return ElementwiseAt(in, -1);
  }
}

// The hero of an input fusion's body: the first reduce met going up from
// each root element in turn through OnTheWayToHero instructions; -1 when
// there is none or the fusion is of another kind.
int64_t HeroReduce(const InstructionGraph& body,
                   absl::optional<HloFusionKind> kind) {
  if (kind != HloFusionKind::kInput || body.root < 0) return -1;
  const bool tuple = body.at(body.root).opcode == HloOpcode::kTuple;
  const absl::Span<const int64_t> elements =
      tuple ? body.operands[body.root] : absl::MakeConstSpan(&body.root, 1);
  for (int64_t r : elements) {
    // Each step goes to an operand: the body's size bounds the climb.
    for (size_t climbed = 0;
         r >= 0 && climbed < body.operands.size() && OnTheWayToHero(body, r);
         ++climbed) {
      r = body.operands[r][0];
    }
    if (r >= 0 && body.at(r).opcode == HloOpcode::kReduce) return r;
  }
  return -1;
}

// The parts of fusion `user`'s body for output `user_index` and operand
// slot `operand_number`; nullopt when the body cannot be read that way.
std::optional<SharingBody> ReadSharingBody(
    const ModuleGraph& g, const HloInstruction& fusion, int64_t operand_number,
    absl::Span<const int64_t> user_index) {
  const int64_t c = g.CalledComputation(fusion, "calls");
  if (c < 0) return std::nullopt;
  SharingBody s;
  s.body = &g.Graph(c);
  const InstructionGraph& body = *s.body;
  if (operand_number < 0 ||
      operand_number >= static_cast<int64_t>(body.parameters.size()) ||
      body.parameters[operand_number] < 0 || body.root < 0) {
    return std::nullopt;
  }
  s.parameter = body.parameters[operand_number];
  s.output_slot = user_index.empty() ? 0 : user_index[0];
  s.tuple_root = body.at(body.root).opcode == HloOpcode::kTuple;
  s.output = body.root;
  if (s.tuple_root) {
    const absl::Span<const int64_t> elements = body.operands[body.root];
    if (user_index.empty() || user_index[0] < 0 ||
        user_index[0] >= static_cast<int64_t>(elements.size()) ||
        elements[user_index[0]] < 0) {
      return std::nullopt;
    }
    s.output = elements[user_index[0]];
  }
  s.writer = s.output;
  if (body.at(s.output).opcode == HloOpcode::kBitcast &&
      !body.operands[s.output].empty()) {
    s.writer = body.operands[s.output][0];
    if (s.writer < 0) return std::nullopt;
  }
  s.hero = HeroReduce(body, fusion.fusion_kind());
  return s;
}

// Condition 1: the operand's buffer holds the output.
bool Room(const Shape& operand, const Shape& output) {
  if (operand == output) return true;
  if (!operand.IsArray() || !output.IsArray()) return false;
  const std::optional<int64_t> a = ElementCount(operand),
                               b = ElementCount(output);
  return a.has_value() && a == b &&
         ByteWidth(operand.element_type()) == ByteWidth(output.element_type());
}

// Conditions 3.3-3.5: the writer takes `x` in at `slot` as what it writes
// over in place.
bool WriterTakesInPlace(const SharingBody& s, int64_t x, int64_t slot) {
  const InstructionGraph& body = *s.body;
  const HloInstruction& w = body.at(s.writer);
  switch (w.opcode) {
    case HloOpcode::kDynamicUpdateSlice:
      return slot == 1;
    case HloOpcode::kScatter: {
      const int64_t inputs =
          w.shape != nullptr && w.shape->IsTuple() ? w.shape->tuple_size() : 1;
      return slot < inputs && SlotsHolding(body, s.writer, x) == 1;
    }
    case HloOpcode::kSort:
      return slot == s.output_slot && SlotsHolding(body, s.writer, x) == 1;
    default:
      return false;
  }
}

// Condition 3.6: `u` is a dynamic-slice of what the writer, a
// dynamic-update-slice, writes: the same operand 0, the update's shape,
// and single elements or the same start indices.
bool SlicesWhatTheWriterWrites(const SharingBody& s, int64_t u) {
  const InstructionGraph& body = *s.body;
  const HloInstruction& slice = body.at(u);
  if (slice.opcode != HloOpcode::kDynamicSlice ||
      body.at(s.writer).opcode != HloOpcode::kDynamicUpdateSlice) {
    return false;
  }
  const absl::Span<const int64_t> reads = body.operands[u];
  const absl::Span<const int64_t> writes = body.operands[s.writer];
  if (reads.empty() || writes.size() < 2 || writes[1] < 0 ||
      reads[0] != writes[0]) {
    return false;
  }
  const Shape* update = body.at(writes[1]).shape;
  if (slice.shape == nullptr || update == nullptr ||
      !(*slice.shape == *update)) {
    return false;
  }
  if (IsSingleElement(*slice.shape) && IsSingleElement(*update)) return true;
  // The slice's start indices (its operands 1...) are the writer's (its
  // operands 2...).
  return reads.size() - 1 <= writes.size() - 2 &&
         std::equal(reads.begin() + 1, reads.end(), writes.begin() + 2);
}

// Condition 3: step (x, u) reads in the output's order.
bool StepReadsInOrder(const SharingBody& s, int64_t x, int64_t u) {
  const HloInstruction& in = s.body->at(u);
  const int64_t slot = FirstSlot(*s.body, u, x);
  if (in.opcode == HloOpcode::kBitcast || in.opcode == HloOpcode::kTuple ||
      u == s.hero) {
    return true;  // 3.1
  }
  if (in.opcode != HloOpcode::kCopy && ElementwiseAt(in, slot)) {
    return true;  // 3.2
  }
  if (u == s.writer && WriterTakesInPlace(s, x, slot)) return true;
  return SlicesWhatTheWriterWrites(s, u);
}

// Whether fusion `user` may write its output at `user_index` over the
// buffer of `operand`, its operand at slot `operand_number`
// (docs/memory.md, "A fusion writing an output over an operand").
bool GpuFusionWritesOver(const ModuleGraph& g, const DataflowNode& user,
                         const DataflowNode& operand, int64_t operand_number,
                         absl::Span<const int64_t> user_index) {
  const Shape* output_shape = SubshapeAt(user.shape, user_index);
  if (output_shape == nullptr || operand.shape == nullptr ||
      !Room(*operand.shape, *output_shape)) {
    return false;  // 1
  }
  const std::optional<SharingBody> s =
      ReadSharingBody(g, *user.source, operand_number, user_index);
  if (!s.has_value()) return false;
  const InstructionGraph& body = *s->body;
  const std::vector<bool> reach = Reach(body, s->parameter, s->hero);
  if (!reach[s->output]) return false;  // 2
  for (size_t x = 0; x < reach.size(); ++x) {
    if (!reach[x] || static_cast<int64_t>(x) == s->hero) continue;
    for (int64_t u : body.users[x]) {
      if (!StepReadsInOrder(*s, static_cast<int64_t>(x), u)) return false;
    }
  }
  if (s->tuple_root && !ElementwiseAt(body.at(s->writer), -1)) {
    for (int64_t e : body.operands[body.root]) {  // 4
      if (e >= 0 && e != s->output && reach[e]) return false;
    }
  }
  return true;
}

// ---------------------------------------------------------------------
// The question: may `user` write its output at `out` into the buffer of
// the value `operand` (one of its operands) holds at `in`?
struct Question {
  const ModuleGraph& g;
  const DataflowNode& user;
  const DataflowNode& operand;
  int64_t operand_id;
  absl::Span<const int64_t> in, out;
  absl::Span<const int64_t> ops;  // the user's operands
  int64_t slot;                   // the first of them that is the operand
  // The fused parameter of the slot in a fusion user's body (-1: none),
  // with the body (null: no body).
  const InstructionGraph* body = nullptr;
  int64_t parameter = -1;
};

// ---------------------------------------------------------------------
// Written in place (docs/memory.md, "Buffer sharing rules").

// An operand position: operand `number`, index `index` in it.
struct OperandPosition {
  int64_t number = 0;
  std::vector<int64_t> index;
};

// The entries of an `output_to_operand_aliasing` for output `out`.
void AliasedOver(const HloModule& module, const HloInstruction& in,
                 absl::Span<const int64_t> out,
                 std::vector<OperandPosition>* over) {
  for (const HloAliasPair& pair : module.operand_aliasing(in)) {
    if (absl::MakeConstSpan(pair.output_index) == out) {
      over->push_back({pair.number, pair.index});
    }
  }
}

// The number of the fused parameter that the body's output at `out`
// updates in place: that output is a dynamic-update-slice or scatter
// whose operand 0, through bitcasts, is the parameter. -1: none.
int64_t UpdatedParameter(const InstructionGraph& body,
                         absl::Span<const int64_t> out) {
  if (body.root < 0) return -1;
  int64_t output = body.root;
  if (body.at(body.root).opcode == HloOpcode::kTuple) {
    const absl::Span<const int64_t> elements = body.operands[body.root];
    if (out.size() != 1 || out[0] < 0 ||
        out[0] >= static_cast<int64_t>(elements.size())) {
      return -1;
    }
    output = elements[out[0]];
  } else if (!out.empty()) {
    return -1;
  }
  if (output < 0 || body.operands[output].empty()) return -1;
  const HloOpcode op = body.at(output).opcode;
  if (op != HloOpcode::kDynamicUpdateSlice && op != HloOpcode::kScatter) {
    return -1;
  }
  int64_t x = body.operands[output][0];
  while (x >= 0 && body.at(x).opcode == HloOpcode::kBitcast &&
         !body.operands[x].empty()) {
    x = body.operands[x][0];
  }
  if (x < 0 || body.at(x).opcode != HloOpcode::kParameter) return -1;
  return body.at(x).parameter_number.value_or(-1);
}

// The operand positions that `user` writes its output `out` over.
std::vector<OperandPosition> WrittenOver(const ModuleGraph& g,
                                         const DataflowNode& user,
                                         absl::Span<const int64_t> out) {
  std::vector<OperandPosition> over;
  if (user.source == nullptr) return over;
  const int64_t i = out.size() == 1 ? out[0] : -1;  // out = {i}
  switch (user.opcode) {
    case HloOpcode::kDynamicUpdateSlice:
      if (out.empty()) over.push_back({0, {}});
      break;
    case HloOpcode::kScatter: {
      const int64_t results = user.shape != nullptr && user.shape->IsTuple()
                                  ? user.shape->tuple_size()
                                  : 1;
      if (results > 1 && i >= 0 && i < results) over.push_back({i, {}});
      if (results <= 1 && out.empty()) over.push_back({0, {}});
      break;
    }
    case HloOpcode::kAllReduceStart: {
      if (user.source->backend_config_has(HloConfigHint::kNvshmem)) break;
      const int64_t n = static_cast<int64_t>(g.df.Operands(user).size());
      if (n == 1 && out.empty()) over.push_back({0, {}});
      if (n > 1 && i >= 0 && i < n) over.push_back({i, {}});
      break;
    }
    case HloOpcode::kFusion: {
      const int64_t c = g.CalledComputation(*user.source, "calls");
      const int64_t k = c >= 0 ? UpdatedParameter(g.Graph(c), out) : -1;
      if (k >= 0) over.push_back({k, {}});
      AliasedOver(g.module, *user.source, out, &over);
      break;
    }
    case HloOpcode::kCustomCall:
      AliasedOver(g.module, *user.source, out, &over);
      break;
    default:
      break;
  }
  return over;
}

// Step 2: the user writes `out` in place over a position at which its
// operand holds the operand's value at `in`.
bool WrittenInPlace(const Question& q) {
  const int64_t value = q.g.ValueAt(q.operand_id, q.in);
  if (value < 0) return false;
  for (const OperandPosition& p : WrittenOver(q.g, q.user, q.out)) {
    if (p.number >= 0 && p.number < static_cast<int64_t>(q.ops.size()) &&
        q.g.ValueAt(q.ops[p.number], p.index) == value) {
      return true;
    }
  }
  return false;
}

// ---------------------------------------------------------------------
// XLA:GPU's hint for the other opcodes (docs/memory.md, "May a value take
// its operand's place", step 3).

// A custom call: cuBLASLt's bias (operand 2) when beta is not zero,
// cuSOLVER's Cholesky into output {0}, nothing else.
bool CustomCallWritesOver(const Question& q) {
  const HloInstruction& in = *q.user.source;
  if (in.custom_call_is(kHloTargetCublasLtMatmul)) {
    const absl::string_view config = in.backend_config();
    const bool beta_zero = config.empty() || HloConfigBetaIsZero(config);
    return !beta_zero && q.ops.size() > 2 && q.ops[2] == q.operand_id;
  }
  if (in.custom_call_is(kHloTargetCusolverCholesky)) {
    return q.out.size() == 1 && q.out[0] == 0;
  }
  return false;
}

// An all-reduce (or collective-broadcast) writes result {i} over operand
// i, and a single operand's result over it.
bool AllReduceWritesOver(const Question& q) {
  return q.ops.size() == 1 || (q.out.size() == 1 && q.out[0] >= 0 &&
                               q.out[0] < static_cast<int64_t>(q.ops.size()) &&
                               q.ops[q.out[0]] == q.operand_id);
}

// Step 3: XLA:GPU's answer, nullopt when it has none for this user.
std::optional<bool> GpuHint(const Question& q) {
  switch (q.user.opcode) {
    case HloOpcode::kFusion:
      return GpuFusionWritesOver(q.g, q.user, q.operand, q.slot, q.out);
    case HloOpcode::kAllReduce:
    case HloOpcode::kCollectiveBroadcast:
      return AllReduceWritesOver(q);
    case HloOpcode::kCustomCall:
      return CustomCallWritesOver(q);
    default:
      return std::nullopt;
  }
}

// XLA:TPU's answer, observed (docs/xla-tpu.md, "Rules learned"): an
// all-reduce writes its result {i} over its operand i (the whole result
// over a single operand), as XLA:GPU's does; an output fusion (kOutput)
// writes its output over an operand of the same shape whose uses in the
// body are elementwise or tuples, as the generic rule lets a loop or input
// fusion do (case 2; for an output fusion the generic rule takes only a
// dot's or convolution's addend, case 3); nullopt for every other user.
std::optional<bool> TpuHint(const Question& q, bool same_shapes) {
  if (q.user.opcode == HloOpcode::kAllReduce) return AllReduceWritesOver(q);
  if (same_shapes && q.user.opcode == HloOpcode::kFusion && q.body != nullptr &&
      q.user.source->fusion_kind() == HloFusionKind::kOutput &&
      UsesElementwiseOrTuple(*q.body, q.parameter)) {
    return true;
  }
  return std::nullopt;
}

// ---------------------------------------------------------------------
// The generic rules (docs/memory.md, "Buffer sharing rules"), taken when
// the two parts' shapes are equal.

// Cases 1-3 and 10: a fusion user, by kind.
bool FusionGenericRule(const Question& q) {
  if (q.body == nullptr) return false;  // 1
  const InstructionGraph& body = *q.body;
  const absl::optional<HloFusionKind> kind = q.user.source->fusion_kind();
  if (kind == HloFusionKind::kLoop || kind == HloFusionKind::kInput) {
    return UsesElementwiseOrTuple(body, q.parameter);  // 2
  }
  if (kind == HloFusionKind::kOutput && body.root >= 0 &&
      body.at(body.root).opcode == HloOpcode::kAdd) {  // 3
    const absl::Span<const int64_t> addends = body.operands[body.root];
    const auto product =
        std::find_if(addends.begin(), addends.end(), [&](int64_t x) {
          return x >= 0 && (body.at(x).opcode == HloOpcode::kDot ||
                            body.at(x).opcode == HloOpcode::kConvolution);
        });
    if (product == addends.end() || q.parameter < 0) return false;
    const int64_t other = product == addends.begin() ? 1 : 0;
    const absl::Span<const int64_t> users = body.users[q.parameter];
    return users.size() == 1 && users[0] == body.root &&
           FirstSlot(body, body.root, q.parameter) == other;
  }
  return ElementwiseInVisitOrder(body, q.parameter);  // 10
}

// Cases 5 and 6: the operand is once among the user's operands, at
// `position`.
bool OnlyAt(const Question& q, int64_t position) {
  const Occurrences o = Find(q.ops, q.operand_id);
  return o.count == 1 && o.first == position;
}

bool GenericRule(const Question& q) {
  switch (q.user.opcode) {
    case HloOpcode::kFusion:
      return FusionGenericRule(q);
    case HloOpcode::kWhile:
    case HloOpcode::kConditional:
      return true;  // 4
    case HloOpcode::kDynamicUpdateSlice:
    case HloOpcode::kScatter:
    case HloOpcode::kSetDimensionSize:
      return OnlyAt(q, 0);  // 5
    case HloOpcode::kTriangularSolve:
      return OnlyAt(q, 1);    // 6
    case HloOpcode::kSort: {  // 7
      if (q.g.Users(q.operand_id).size() != 1) return false;
      if (q.ops.size() == 1) return true;
      const Occurrences o = Find(q.ops, q.operand_id);
      return o.count == 1 && !q.out.empty() && q.out[0] == o.first;
    }
    case HloOpcode::kCall:
      return false;  // 8
    default:         // 9, 11
      return q.user.source != nullptr && ElementwiseAt(*q.user.source, q.slot);
  }
}

}  // namespace

bool CanShareOperandBufferWithUser(const ModuleGraph& g, XlaPlatform platform,
                                   int64_t operand,
                                   absl::Span<const int64_t> operand_index,
                                   int64_t user,
                                   absl::Span<const int64_t> user_index) {
  const DataflowNode& op = g.df.nodes[operand];
  const DataflowNode& us = g.df.nodes[user];
  if (op.opcode == HloOpcode::kConstant) return false;  // 1
  const Shape* in_part = SubshapeAt(op.shape, operand_index);
  const Shape* out_part = SubshapeAt(us.shape, user_index);
  if (in_part == nullptr || out_part == nullptr) return false;
  const absl::Span<const int64_t> ops = g.df.Operands(us);
  Question q{g,
             us,
             op,
             operand,
             operand_index,
             user_index,
             ops,
             Find(ops, operand).first};
  if (us.opcode == HloOpcode::kFusion && us.source != nullptr) {
    const int64_t c = g.CalledComputation(*us.source, "calls");
    if (c >= 0) {
      q.body = &g.Graph(c);
      if (q.slot >= 0 &&
          q.slot < static_cast<int64_t>(q.body->parameters.size())) {
        q.parameter = q.body->parameters[q.slot];
      }
    }
  }
  const bool same_shapes = *in_part == *out_part;
  if (same_shapes && WrittenInPlace(q)) return true;  // 2
  if (platform == XlaPlatform::kGpu && us.source != nullptr) {
    if (std::optional<bool> hint = GpuHint(q)) return *hint;  // 3
  }
  if (platform == XlaPlatform::kTpu) {
    if (std::optional<bool> hint = TpuHint(q, same_shapes)) {
      return *hint;  // 3
    }
  }
  return same_shapes && GenericRule(q);  // 4, 5
}

}  // namespace buffer_internal
}  // namespace hlolayout

// When a value may take its operand's place (docs/memory.md, "When a
// value takes its operand's place" and "Buffer sharing rules"): the
// generic rules of XLA's HloDataflowAnalysis::CanShareOperandBufferWithUser
// and XLA:GPU's hint (CanShareBufferHint); XLA:CPU gives none. A fusion
// writing an output over an operand on XLA:GPU is decided by the rule
// docs/memory.md states ("A fusion writing an output over an operand"),
// whose origin is XLA:GPU's FusionCanShareBufferHint; the code below
// (GpuFusionWritesOver) follows that statement's conditions 1-4. Fusion
// bodies are read from the module text.
#include <algorithm>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/hlo/attribute_value.h"
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

// The opcodes that compute each output element from the same element of
// every operand (docs/memory.md, "Buffer sharing rules", 3.2: XLA's list of
// elementwise opcodes).
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

// Whether `in` is elementwise at operand slot `slot` (-1: at every slot):
// an elementwise opcode, a bitcast-convert between types of one bit width,
// a dynamic-update-slice at slot 0 only.
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
  const absl::Span<const int64_t> ops = body.operands[user];
  const auto it = std::find(ops.begin(), ops.end(), x);
  return it == ops.end() ? -1 : static_cast<int64_t>(it - ops.begin());
}

// How many operand slots of body instruction `user` hold `x`.
int64_t SlotsHolding(const InstructionGraph& body, int64_t user, int64_t x) {
  const absl::Span<const int64_t> ops = body.operands[user];
  return std::count(ops.begin(), ops.end(), x);
}

// The reach of body instruction `from` (docs/memory.md, "Buffer sharing
// rules"): `from` and every user of a reached instruction, nothing through
// `stop` (-1: no such instruction). One flag per instruction.
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

// Whether body instruction `u` is elementwise at every slot holding `x`.
bool ElementwiseAtEverySlotOf(const InstructionGraph& body, int64_t u,
                              int64_t x) {
  const absl::Span<const int64_t> ops = body.operands[u];
  for (size_t k = 0; k < ops.size(); ++k) {
    if (ops[k] == x && !ElementwiseAt(body.at(u), k)) return false;
  }
  return true;
}

// Whether a fusion is elementwise on its parameter `param` as XLA's
// HloInstruction::IsElementwiseOnOperand decides it: breadth-first from the
// parameter, each instruction met for the first time is elementwise, or
// elementwise at every slot holding the instruction it was met from.
bool FusionElementwiseOn(const InstructionGraph& body, int64_t param) {
  if (param < 0) return false;
  std::deque<int64_t> work = {param};
  absl::flat_hash_set<int64_t> visited = {param};
  while (!work.empty()) {
    const int64_t x = work.front();
    work.pop_front();
    for (int64_t user : body.users[x]) {
      if (visited.contains(user)) continue;
      if (!ElementwiseAt(body.at(user), -1) &&
          !ElementwiseAtEverySlotOf(body, user, x)) {
        return false;
      }
      work.push_back(user);
      visited.insert(user);
    }
  }
  return true;
}

// Whether every use of what parameter `param` reaches is elementwise at
// the slots it comes in by, or a tuple (the loop and input fusion rule of
// docs/memory.md, "When a value takes its operand's place").
bool AllUsesElementwiseOrTuple(const InstructionGraph& body, int64_t param) {
  if (param < 0) return false;
  const std::vector<bool> reach = Reach(body, param, -1);
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

absl::string_view FusionKind(const HloInstruction& fusion) {
  absl::optional<absl::string_view> k =
      FindHloAttribute(fusion.attributes(), "kind");
  return k.has_value() ? *k : absl::string_view();
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
int64_t HeroReduce(const InstructionGraph& body, absl::string_view kind) {
  if (kind != "kInput" || body.root < 0) return -1;
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
  s.hero = HeroReduce(body, FusionKind(fusion));
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

// True when the JSON object `config` (a backend_config) has `"key": 0`,
// with any JSON space (line breaks too) around the ':' and after the 0.
bool JsonFieldIsZero(absl::string_view config, absl::string_view key) {
  const std::string quoted = absl::StrCat("\"", key, "\"");
  for (size_t at = config.find(quoted); at != absl::string_view::npos;
       at = config.find(quoted, at + 1)) {
    size_t p = SkipHloSpace(config, at + quoted.size());
    if (p >= config.size() || config[p] != ':') continue;
    p = SkipHloSpace(config, p + 1);
    if (p >= config.size() || config[p] != '0') continue;
    p = SkipHloSpace(config, p + 1);
    if (p < config.size() && (config[p] == ',' || config[p] == '}')) {
      return true;
    }
  }
  return false;
}

// The in-place (operand number, operand index) -> output index pairs of
// XLA's GetInPlaceInputOutputPairs.
struct InPlacePair {
  int64_t operand = 0;
  std::vector<int64_t> operand_index;
  std::vector<int64_t> output_index;
};

// `{{1}: (0, {})}`-style aliasing attributes, on one line or several
// (hlo/attribute_value.h).
void ParseAliasing(absl::string_view s, std::vector<InPlacePair>* out) {
  for (HloAliasPair& pair : ParseHloAliasPairs(s)) {
    out->push_back(
        {pair.number, std::move(pair.index), std::move(pair.output_index)});
  }
}

std::vector<InPlacePair> InPlacePairs(const ModuleGraph& g,
                                      const DataflowNode& user) {
  std::vector<InPlacePair> pairs;
  if (user.source == nullptr) return pairs;
  const HloOpcode op = user.opcode;
  if (op == HloOpcode::kDynamicUpdateSlice || op == HloOpcode::kScatter) {
    const int64_t outputs = op == HloOpcode::kScatter &&
                                    user.shape != nullptr &&
                                    user.shape->IsTuple()
                                ? user.shape->tuple_size()
                                : 0;
    if (outputs > 1) {
      for (int64_t i = 0; i < outputs; ++i) pairs.push_back({i, {}, {i}});
    } else {
      pairs.push_back({0, {}, {}});
    }
    return pairs;
  }
  if (op == HloOpcode::kAllReduceStart) {
    // NCCL reduces in place: operand i is written as output {i} (the whole
    // output for one operand), unless an NVSHMEM algorithm is configured
    // (it needs separate buffers). XLA's GetInPlaceInputOutputPairs.
    absl::optional<absl::string_view> config =
        FindHloAttribute(user.source->attributes(), "backend_config");
    if (config.has_value() &&
        absl::StrContains(absl::AsciiStrToLower(*config), "nvshmem")) {
      return pairs;
    }
    const int64_t operands = static_cast<int64_t>(g.df.Operands(user).size());
    if (operands == 1) {
      pairs.push_back({0, {}, {}});
    } else {
      for (int64_t i = 0; i < operands; ++i) pairs.push_back({i, {}, {i}});
    }
    return pairs;
  }
  if (op == HloOpcode::kCustomCall || op == HloOpcode::kFusion) {
    absl::optional<absl::string_view> a = FindHloAttribute(
        user.source->attributes(), "output_to_operand_aliasing");
    if (op == HloOpcode::kFusion) {
      // The fused root (or each root tuple element) that is an in-place
      // op of a fusion parameter, through bitcasts.
      const int64_t c = g.CalledComputation(*user.source, "calls");
      if (c >= 0) {
        const InstructionGraph& body = g.Graph(c);
        auto in_place = [&](int64_t r, std::vector<int64_t> out_index) {
          if (r < 0) return;
          const HloOpcode rop = body.at(r).opcode;
          if (rop != HloOpcode::kDynamicUpdateSlice &&
              rop != HloOpcode::kScatter)
            return;
          if (body.operands[r].empty()) return;
          int64_t x = body.operands[r][0];
          while (x >= 0 && body.at(x).opcode == HloOpcode::kBitcast &&
                 !body.operands[x].empty()) {
            x = body.operands[x][0];
          }
          if (x < 0 || body.at(x).opcode != HloOpcode::kParameter) return;
          const int64_t number = body.at(x).parameter_number.value_or(-1);
          if (number >= 0) pairs.push_back({number, {}, std::move(out_index)});
        };
        if (body.root >= 0 && body.at(body.root).opcode == HloOpcode::kTuple) {
          const absl::Span<const int64_t> ops = body.operands[body.root];
          for (size_t i = 0; i < ops.size(); ++i) {
            in_place(ops[i], {static_cast<int64_t>(i)});
          }
        } else {
          in_place(body.root, {});
        }
      }
    }
    if (a.has_value()) ParseAliasing(*a, &pairs);
  }
  return pairs;
}

// The first operand number of `operand` among `ops` and how many times it
// is there.
std::pair<int64_t, int64_t> FirstAndCount(absl::Span<const int64_t> ops,
                                          int64_t operand) {
  int64_t count = 0, first = -1;
  for (size_t k = 0; k < ops.size(); ++k) {
    if (ops[k] == operand) {
      if (first < 0) first = static_cast<int64_t>(k);
      ++count;
    }
  }
  return {first, count};
}

// Whether the user's in-place pairs (XLA's GetInPlaceInputOutputPairs) put
// the operand's value at `user_index`.
bool InPlacePairShares(const ModuleGraph& g, const DataflowNode& us,
                       absl::Span<const int64_t> ops, int64_t operand,
                       absl::Span<const int64_t> operand_index,
                       absl::Span<const int64_t> user_index) {
  const int64_t value = g.ValueAt(operand, operand_index);
  if (value < 0) return false;
  for (const InPlacePair& pair : InPlacePairs(g, us)) {
    if (absl::MakeConstSpan(pair.output_index) != user_index) continue;
    if (pair.operand < 0 || pair.operand >= static_cast<int64_t>(ops.size())) {
      continue;
    }
    if (g.ValueAt(ops[pair.operand], pair.operand_index) == value) return true;
  }
  return false;
}

// XLA:GPU's hint for a user with a source (fusions, all-reduce, cuBLAS and
// cuSOLVER custom calls); nullopt when GPU says nothing of this user.
absl::optional<bool> GpuHint(const ModuleGraph& g, const DataflowNode& us,
                             const DataflowNode& op, int64_t operand,
                             int64_t operand_number,
                             absl::Span<const int64_t> ops,
                             absl::Span<const int64_t> user_index) {
  const HloOpcode uop = us.opcode;
  if (uop == HloOpcode::kFusion) {
    return GpuFusionWritesOver(g, us, op, operand_number, user_index);
  }
  if (uop == HloOpcode::kAllReduce || uop == HloOpcode::kCollectiveBroadcast) {
    return ops.size() == 1 ||
           (user_index.size() == 1 && user_index[0] >= 0 &&
            user_index[0] < static_cast<int64_t>(ops.size()) &&
            ops[user_index[0]] == operand);
  }
  if (uop != HloOpcode::kCustomCall) return absl::nullopt;
  absl::optional<absl::string_view> target =
      FindHloAttribute(us.source->attributes(), "custom_call_target");
  const absl::string_view t = target.has_value() ? *target : "";
  if (t == "\"__cublas$lt$matmul\"") {
    absl::optional<absl::string_view> config =
        FindHloAttribute(us.source->attributes(), "backend_config");
    // beta != 0: the bias (operand 2) is written in place.
    const bool beta = config.has_value() && !JsonFieldIsZero(*config, "beta");
    return beta && ops.size() > 2 && ops[2] == operand;
  }
  if (t == "\"__cusolver$cholesky\"") {
    return user_index.size() == 1 && user_index[0] == 0;
  }
  return false;
}

// A loop or input fusion whose parameter reaches the root elementwise, or
// an output fusion adding to a dot's or convolution's result; nullopt for
// the other kinds (the generic rules decide).
absl::optional<bool> FusionKindShares(const ModuleGraph& g,
                                      const DataflowNode& us,
                                      int64_t operand_number) {
  const int64_t c = g.CalledComputation(*us.source, "calls");
  if (c < 0 || operand_number < 0) return absl::nullopt;
  const InstructionGraph& body = g.Graph(c);
  const int64_t param =
      operand_number < static_cast<int64_t>(body.parameters.size())
          ? body.parameters[operand_number]
          : -1;
  const absl::string_view kind = FusionKind(*us.source);
  if (kind == "kLoop" || kind == "kInput") {
    return AllUsesElementwiseOrTuple(body, param);
  }
  if (kind != "kOutput" || body.root < 0 ||
      body.at(body.root).opcode != HloOpcode::kAdd) {
    return absl::nullopt;
  }
  const absl::Span<const int64_t> add = body.operands[body.root];
  int64_t matched = -1;
  for (size_t k = 0; k < add.size(); ++k) {
    if (add[k] >= 0 && (body.at(add[k]).opcode == HloOpcode::kConvolution ||
                        body.at(add[k]).opcode == HloOpcode::kDot)) {
      matched = static_cast<int64_t>(k);
      break;
    }
  }
  if (matched < 0 || param < 0) return false;
  const int64_t other = matched == 0 ? 1 : 0;
  return body.users[param].size() == 1 && body.users[param][0] == body.root &&
         FirstSlot(body, body.root, param) == other;
}

// The opcode rules of equal shapes (XLA's CanShareOperandBufferWithUser
// after the platform's hint).
bool SameShapeRules(const ModuleGraph& g, const DataflowNode& us,
                    int64_t operand, int64_t operand_number,
                    absl::Span<const int64_t> ops,
                    absl::Span<const int64_t> user_index) {
  const HloOpcode uop = us.opcode;
  if (uop == HloOpcode::kFusion && us.source != nullptr) {
    if (absl::optional<bool> kind = FusionKindShares(g, us, operand_number)) {
      return *kind;
    }
  }
  if (uop == HloOpcode::kWhile || uop == HloOpcode::kConditional) return true;
  if (uop == HloOpcode::kDynamicUpdateSlice || uop == HloOpcode::kScatter ||
      uop == HloOpcode::kTriangularSolve ||
      uop == HloOpcode::kSetDimensionSize) {
    const int64_t want = uop == HloOpcode::kTriangularSolve ? 1 : 0;
    const auto [first, count] = FirstAndCount(ops, operand);
    return count == 1 && first == want;
  }
  if (uop == HloOpcode::kSort) {
    if (g.Users(operand).size() != 1) return false;
    if (ops.size() == 1) return true;
    const auto [first, count] = FirstAndCount(ops, operand);
    return count == 1 && !user_index.empty() && user_index[0] == first;
  }
  if (uop == HloOpcode::kCall) return false;  // needs the callee's uses; rare
  if (us.source == nullptr) return false;
  if (uop == HloOpcode::kFusion) {
    const int64_t c = g.CalledComputation(*us.source, "calls");
    if (c < 0 || operand_number < 0) return false;
    const InstructionGraph& body = g.Graph(c);
    return operand_number < static_cast<int64_t>(body.parameters.size()) &&
           FusionElementwiseOn(body, body.parameters[operand_number]);
  }
  return ElementwiseAt(*us.source, operand_number);
}

}  // namespace

bool CanShareOperandBufferWithUser(const ModuleGraph& g, XlaPlatform platform,
                                   int64_t operand,
                                   absl::Span<const int64_t> operand_index,
                                   int64_t user,
                                   absl::Span<const int64_t> user_index) {
  const MemoryDataflow& df = g.df;
  const DataflowNode& op = df.nodes[operand];
  const DataflowNode& us = df.nodes[user];
  if (op.opcode == HloOpcode::kConstant) return false;
  const Shape* operand_sub = SubshapeAt(op.shape, operand_index);
  const Shape* user_sub = SubshapeAt(us.shape, user_index);
  if (operand_sub == nullptr || user_sub == nullptr) return false;
  const absl::Span<const int64_t> ops = df.Operands(us);
  const int64_t operand_number = FirstAndCount(ops, operand).first;
  const bool shapes_equal = *operand_sub == *user_sub;
  if (shapes_equal &&
      InPlacePairShares(g, us, ops, operand, operand_index, user_index)) {
    return true;
  }
  if (platform == XlaPlatform::kGpu && us.source != nullptr) {
    if (absl::optional<bool> hint =
            GpuHint(g, us, op, operand, operand_number, ops, user_index)) {
      return *hint;
    }
  }
  if (!shapes_equal) return false;
  return SameShapeRules(g, us, operand, operand_number, ops, user_index);
}

}  // namespace buffer_internal
}  // namespace hlolayout

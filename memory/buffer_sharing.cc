// When a value may take its operand's place (docs/memory.md, "When a
// value takes its operand's place"): XLA's
// HloDataflowAnalysis::CanShareOperandBufferWithUser, with XLA:GPU's hint
// (buffer_sharing.cc's FusionCanShareBufferHint and CanShareBufferHint);
// XLA:CPU gives none. Fusion bodies are read from the module text.
#include <algorithm>
#include <deque>
#include <string>

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

bool IsEffectiveScalar(const Shape& s) {
  if (!s.IsArray()) return false;
  for (int64_t d : s.dimensions()) {
    if (d != 1) return false;
  }
  return true;
}

int64_t Elements(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s.dimensions()) n *= d;
  return n;
}

// The opcodes XLA calls elementwise on every operand (its
// IsElementwiseImpl's lists).
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

// XLA's IsElementwiseImpl for one operand (-1: the instruction as a whole).
bool ElementwiseOn(const HloInstruction& in, int64_t operand,
                   const InstructionGraph* graph) {
  const HloOpcode op = in.opcode;

  if (op == HloOpcode::kDynamicUpdateSlice) return operand == 0;
  if (op == HloOpcode::kBitcastConvert) {
    if (in.shape == nullptr || in.operands().empty() ||
        in.operands()[0].shape == nullptr) {
      return false;
    }
    return BitWidth(in.shape->element_type()) ==
           BitWidth(in.operands()[0].shape->element_type());
  }
  (void)graph;
  return IsElementwiseOpcode(op);
}

// Index of the first operand of `in` (in `graph`) that is instruction `x`.
int64_t OperandIndex(const InstructionGraph& graph, int64_t in, int64_t x) {
  const absl::Span<const int64_t> ops = graph.operands[in];
  for (size_t k = 0; k < ops.size(); ++k) {
    if (ops[k] == x) return static_cast<int64_t>(k);
  }
  return -1;
}

// XLA's HloInstruction::IsElementwiseOnOperand for a fusion: every
// instruction reached from the fused parameter is elementwise on it.
bool FusionElementwiseOn(const InstructionGraph& body, int64_t param) {
  if (param < 0) return false;
  std::deque<int64_t> work = {param};
  absl::flat_hash_set<int64_t> visited = {param};
  while (!work.empty()) {
    const int64_t x = work.front();
    work.pop_front();
    for (int64_t user : body.users[x]) {
      if (visited.contains(user)) continue;
      const absl::Span<const int64_t> ops = body.operands[user];
      bool ok = ElementwiseOn(body.at(user), -1, &body);
      if (!ok) {
        ok = true;
        for (size_t k = 0; k < ops.size(); ++k) {
          if (ops[k] == x && !ElementwiseOn(body.at(user), k, &body))
            ok = false;
        }
      }
      if (!ok) return false;
      work.push_back(user);
      visited.insert(user);
    }
  }
  return true;
}

// XLA's AreTransitiveUsesElementwiseOrTuple.
bool TransitiveUsesElementwiseOrTuple(const InstructionGraph& body,
                                      int64_t param) {
  if (param < 0) return false;
  std::vector<int64_t> stack = {param};
  absl::flat_hash_set<int64_t> visited;
  while (!stack.empty()) {
    const int64_t x = stack.back();
    stack.pop_back();
    visited.insert(x);
    for (int64_t user : body.users[x]) {
      const absl::Span<const int64_t> ops = body.operands[user];
      for (size_t k = 0; k < ops.size(); ++k) {
        if (ops[k] != x) continue;
        if (!ElementwiseOn(body.at(user), k, &body) &&
            body.at(user).opcode != HloOpcode::kTuple) {
          return false;
        }
      }
      if (!visited.contains(user)) stack.push_back(user);
    }
  }
  return true;
}

absl::string_view FusionKind(const HloInstruction& fusion) {
  absl::optional<absl::string_view> k =
      FindHloAttribute(fusion.attributes(), "kind");
  return k.has_value() ? *k : absl::string_view();
}

// Whether XLA's hero search goes up through `r` to its one operand
// (IsIntermediate with one operand allowed): a bitcast, or an elementwise
// instruction of one operand (a copy only when it keeps the shape and
// layout).
bool Intermediate(const InstructionGraph& body, int64_t r) {
  const HloInstruction& in = body.at(r);
  if (body.operands[r].size() != 1 || body.operands[r][0] < 0) return false;
  if (in.opcode == HloOpcode::kBitcast) return true;
  if (in.opcode == HloOpcode::kCopy) {
    const HloInstruction& from = body.at(body.operands[r][0]);
    return in.shape != nullptr && from.shape != nullptr &&
           *in.shape == *from.shape;
  }
  return ElementwiseOn(in, -1, &body);
}

// The reduce a reduction-emitter fusion computes first (XLA's hero
// reduction): what a root, or a root tuple's element, computes from a
// `reduce` through intermediate instructions (bitcasts, elementwise ones of
// one operand: the norm's sqrt of a sum), in an input fusion; -1 when there
// is none.
int64_t ReductionHero(const InstructionGraph& body, absl::string_view kind) {
  if (kind != "kInput" || body.root < 0) return -1;
  std::vector<int64_t> roots;
  if (body.at(body.root).opcode == HloOpcode::kTuple) {
    roots.assign(body.operands[body.root].begin(),
                 body.operands[body.root].end());
  } else {
    roots.push_back(body.root);
  }
  for (int64_t r : roots) {
    for (size_t steps = 0;
         r >= 0 && steps < body.operands.size() && Intermediate(body, r);
         ++steps) {
      r = body.operands[r][0];
    }
    if (r >= 0 && body.at(r).opcode == HloOpcode::kReduce) return r;
  }
  return -1;
}

// Whether the operand's buffer can hold the user's output: equal shapes, or
// arrays of as many elements of one byte width.
bool SameBytesShapes(const Shape& operand, const Shape& user) {
  if (operand == user) return true;
  return operand.IsArray() && user.IsArray() &&
         Elements(operand) == Elements(user) &&
         ByteWidth(operand.element_type()) == ByteWidth(user.element_type());
}

// The fusion body's instruction that writes output `user_index`, and the
// one under its bitcast; false when there is none.
struct FusionOutput {
  int64_t output = -1;
  int64_t non_bitcast_root = -1;
  bool tuple_root = false;
};

bool FindFusionOutput(const InstructionGraph& body,
                      absl::Span<const int64_t> user_index, FusionOutput* o) {
  o->output = body.root;
  o->tuple_root = body.at(body.root).opcode == HloOpcode::kTuple;
  if (o->tuple_root) {
    if (user_index.empty() ||
        user_index[0] >=
            static_cast<int64_t>(body.operands[body.root].size())) {
      return false;
    }
    o->output = body.operands[body.root][user_index[0]];
    if (o->output < 0) return false;
  }
  o->non_bitcast_root = o->output;
  if (body.at(o->output).opcode == HloOpcode::kBitcast &&
      !body.operands[o->output].empty()) {
    o->non_bitcast_root = body.operands[o->output][0];
    if (o->non_bitcast_root < 0) return false;
  }
  return true;
}

// XLA:GPU's FusionCanShareBufferHint.
bool GpuFusionHint(const ModuleGraph& g, const DataflowNode& user,
                   const DataflowNode& operand, int64_t operand_number,
                   absl::Span<const int64_t> user_index) {
  const Shape* user_sub = SubshapeAt(user.shape, user_index);
  const Shape* operand_shape = operand.shape;
  if (user_sub == nullptr || operand_shape == nullptr) return false;
  if (!SameBytesShapes(*operand_shape, *user_sub)) return false;
  const int64_t c = g.CalledComputation(*user.source, "calls");
  if (c < 0) return false;
  const InstructionGraph& body = g.Graph(c);
  const absl::string_view kind = FusionKind(*user.source);
  const int64_t hero = ReductionHero(body, kind);
  if (operand_number < 0 ||
      operand_number >= static_cast<int64_t>(body.parameters.size())) {
    return false;
  }
  const int64_t param = body.parameters[operand_number];
  if (param < 0 || body.root < 0) return false;
  FusionOutput fo;
  if (!FindFusionOutput(body, user_index, &fo)) return false;
  const int64_t output = fo.output, non_bitcast_root = fo.non_bitcast_root;
  const bool tuple_root = fo.tuple_root;
  const HloInstruction& nbr = body.at(non_bitcast_root);
  std::deque<int64_t> q = {param};
  absl::flat_hash_set<int64_t> visited = {param};
  bool found = false;
  while (!q.empty()) {
    const int64_t x = q.front();
    q.pop_front();
    if (x == output) found = true;
    if (x == hero) continue;
    for (int64_t u : body.users[x]) {
      if (visited.insert(u).second) q.push_back(u);
      const HloInstruction& hlo = body.at(u);
      const int64_t idx = OperandIndex(body, u, x);
      if (u == non_bitcast_root && hlo.opcode == HloOpcode::kScatter) {
        const int64_t inputs = hlo.shape != nullptr && hlo.shape->IsTuple()
                                   ? hlo.shape->tuple_size()
                                   : 1;
        const int64_t count =
            std::count(body.operands[u].begin(), body.operands[u].end(), x);
        if (idx < inputs && count == 1) continue;
      }
      // A sort root sorts its outputs in place: output {i} may take the
      // buffer of sort operand i when the path comes in there, once (the
      // sort custom fusions of XLA:GPU: argsort, jax.random.permutation).
      if (u == non_bitcast_root && hlo.opcode == HloOpcode::kSort) {
        const int64_t want = user_index.empty() ? 0 : user_index[0];
        const int64_t count =
            std::count(body.operands[u].begin(), body.operands[u].end(), x);
        if (idx == want && count == 1) continue;
      }
      if (nbr.opcode == HloOpcode::kDynamicUpdateSlice &&
          hlo.opcode == HloOpcode::kDynamicSlice &&
          !body.operands[non_bitcast_root].empty() &&
          !body.operands[u].empty() &&
          body.operands[non_bitcast_root][0] == body.operands[u][0] &&
          body.operands[non_bitcast_root].size() >= 2 &&
          body.operands[non_bitcast_root][1] >= 0 && hlo.shape != nullptr &&
          body.at(body.operands[non_bitcast_root][1]).shape != nullptr &&
          *hlo.shape == *body.at(body.operands[non_bitcast_root][1]).shape) {
        const Shape& update =
            *body.at(body.operands[non_bitcast_root][1]).shape;
        if (!IsEffectiveScalar(*hlo.shape) || !IsEffectiveScalar(update)) {
          const absl::Span<const int64_t> ds = body.operands[u];
          const absl::Span<const int64_t> dus = body.operands[non_bitcast_root];
          for (size_t i = 1; i < ds.size(); ++i) {
            if (i + 1 >= dus.size() || ds[i] != dus[i + 1]) return false;
          }
        }
      } else if ((!ElementwiseOn(hlo, idx, &body) ||
                  hlo.opcode == HloOpcode::kCopy) &&
                 hlo.opcode != HloOpcode::kBitcast &&
                 hlo.opcode != HloOpcode::kTuple && u != hero) {
        if (u != non_bitcast_root ||
            hlo.opcode != HloOpcode::kDynamicUpdateSlice || idx != 1) {
          return false;
        }
      }
    }
  }
  if (tuple_root && !ElementwiseOn(nbr, -1, &body)) {
    for (int64_t o : body.operands[body.root]) {
      if (o != output && visited.contains(o)) return false;
    }
  }
  return found;
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
    return GpuFusionHint(g, us, op, operand_number, user_index);
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
    return TransitiveUsesElementwiseOrTuple(body, param);
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
         OperandIndex(body, body.root, param) == other;
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
  return ElementwiseOn(*us.source, operand_number, nullptr);
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

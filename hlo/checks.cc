#include "hlolayout/hlo/checks.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "hlolayout/hlo/attribute_value.h"
#include "hlolayout/hlo/literal.h"
#include "hlolayout/hlo/names.h"
#include "hlolayout/hlo/opcode.h"
#include "hlolayout/hlo/shape_inference.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/util/check.h"

namespace hlolayout {
namespace {

bool OneOf(absl::string_view s, std::initializer_list<absl::string_view> set) {
  for (absl::string_view x : set) {
    if (s == x) return true;
  }
  return false;
}

// `s == literal` with the length known at compile time, inlined.
template <size_t N>
inline bool Eq(absl::string_view s, const char (&literal)[N]) {
  return s.size() == N - 1 && std::memcmp(s.data(), literal, N - 1) == 0;
}

// Where `view` (a view into the text) starts, plus `plus`.
size_t At(const char* text_begin, absl::string_view view, size_t plus = 0) {
  return static_cast<size_t>(view.data() - text_begin) + plus;
}

absl::Status Bad(size_t* error_offset, size_t offset, std::string message) {
  *error_offset = offset;
  return absl::InvalidArgumentError(std::move(message));
}

constexpr uint16_t kTranscendental = kHloTranscendental;
constexpr uint16_t kOneDimension = kHloOneDimension;
constexpr uint16_t kCallsNothing = kHloCallsNothing;
constexpr uint16_t kArity = kHloArity;
constexpr uint16_t kShapeRule = kHloShapeRule;
constexpr uint16_t kOperandRule = kHloOperandRule;

// Every opcode of XLA's HloOpcode list. Operand counts are given (kArity)
// where the checks apply them; the others take any number here.
constexpr HloOpcodeInfo kOpcodes[] = {
    // One operand.
    {"abs", 1, 1, kArity, -1},
    {"negate", 1, 1, kArity, -1},
    {"copy", 1, 1, kArity, -1},
    {"sqrt", 1, 1, kArity | kTranscendental, -1},
    {"rsqrt", 1, 1, kArity | kTranscendental, -1},
    {"cbrt", 1, 1, kArity | kTranscendental, -1},
    {"exponential", 1, 1, kArity | kTranscendental, -1},
    {"exponential-minus-one", 1, 1, kArity | kTranscendental, -1},
    {"log", 1, 1, kArity | kTranscendental, -1},
    {"log-plus-one", 1, 1, kArity | kTranscendental, -1},
    {"logistic", 1, 1, kArity | kTranscendental, -1},
    {"tanh", 1, 1, kArity | kTranscendental, -1},
    {"tan", 1, 1, kArity | kTranscendental, -1},
    {"sine", 1, 1, kArity | kTranscendental, -1},
    {"cosine", 1, 1, kArity | kTranscendental, -1},
    {"erf", 1, 1, kArity | kTranscendental, -1},
    {"ceil", 1, 1, kArity, -1},
    {"floor", 1, 1, kArity, -1},
    {"round-nearest-afz", 1, 1, kArity, -1},
    {"round-nearest-even", 1, 1, kArity, -1},
    {"sign", 1, 1, kArity, -1},
    {"not", 1, 1, kArity, -1},
    {"popcnt", 1, 1, kArity, -1},
    {"count-leading-zeros", 1, 1, kArity, -1},
    {"real", 1, 1, kArity, -1},
    {"imag", 1, 1, kArity, -1},
    {"is-finite", 1, 1, kArity, -1},
    {"convert", 1, 1, kArity, -1},
    {"bitcast-convert", 1, 1, kArity, -1},
    {"bitcast", 1, 1, kArity, -1},
    {"broadcast", 1, 1, kArity | kOperandRule, -1},
    {"transpose", 1, 1, kArity, -1},
    {"reverse", 1, 1, kArity, -1},
    {"slice", 1, 1, kArity, -1},
    {"get-tuple-element", 1, 1, kArity | kOperandRule, -1},
    {"copy-start", 1, 1, kArity, -1},
    {"copy-done", 1, 1, kArity, -1},
    {"reduce-precision", 1, 1, kArity, -1},
    {"while", 1, 1, kArity, -1},
    {"send-done", 1, 1, kArity | kCallsNothing, -1},
    {"recv-done", 1, 1, kArity | kCallsNothing, -1},
    {"domain", 1, 1, kArity, -1},
    {"get-dimension-size", 1, 1, kArity | kOneDimension, -1},
    {"infeed", 1, 1, kArity | kShapeRule, -1},
    {"recv", 1, 1, kArity | kCallsNothing | kShapeRule, -1},
    {"all-reduce-done", 1, 1, kArity, -1},
    {"all-gather-done", 1, 1, kArity, -1},
    {"collective-permute-done", 1, 1, kArity, -1},
    {"rng-bit-generator", 1, 1, kArity, -1},
    {"fft", 1, 1, kArity, -1},
    {"cholesky", 1, 1, kArity, -1},
    {"reshape", 1, 1, kArity, -1},
    // Two operands.
    {"add", 2, 2, kArity, -1},
    {"subtract", 2, 2, kArity, -1},
    {"multiply", 2, 2, kArity, -1},
    {"divide", 2, 2, kArity, -1},
    {"remainder", 2, 2, kArity, -1},
    {"maximum", 2, 2, kArity, -1},
    {"minimum", 2, 2, kArity, -1},
    {"power", 2, 2, kArity, -1},
    {"atan2", 2, 2, kArity, -1},
    {"and", 2, 2, kArity, -1},
    {"or", 2, 2, kArity, -1},
    {"xor", 2, 2, kArity, -1},
    {"shift-left", 2, 2, kArity, -1},
    {"shift-right-arithmetic", 2, 2, kArity, -1},
    {"shift-right-logical", 2, 2, kArity, -1},
    {"compare", 2, 2, kArity, -1},
    {"complex", 2, 2, kArity, -1},
    {"dot", 2, 2, kArity, -1},
    {"send", 2, 2, kArity | kCallsNothing, -1},
    {"add-dependency", 2, 2, kArity, -1},
    {"pad", 2, 2, kArity, -1},
    {"set-dimension-size", 2, 2, kArity | kOneDimension, -1},
    // Three.
    {"select", 3, 3, kArity, -1},
    {"clamp", 3, 3, kArity, -1},
    // At least.
    {"conditional", 1, -1, kArity | kOperandRule, -1},
    {"dynamic-reshape", 1, -1, kArity, -1},
    {"reduce", 2, -1, kArity, -1},
    {"reduce-window", 2, -1, kArity, -1},
    {"scatter", 2, -1, kArity, -1},
    {"scan", 2, -1, kArity | kOneDimension, -1},
    // Other rules only.
    {"all-gather", 0, 0, kOneDimension, -1},
    {"all-gather-start", 0, 0, kOneDimension, -1},
    {"reduce-scatter", 0, 0, kOneDimension, -1},
    {"after-all", 0, 0, kCallsNothing, -1},
    {"parameter", 0, 0, kCallsNothing, -1},
    {"constant", 0, 0, kCallsNothing | kShapeRule, -1},
    // Asynchronous wrappers.
    {"async-start", 0, 0, 0, 0},
    {"async-update", 0, 0, 0, 1},
    {"async-done", 0, 0, 0, 2},
    // The rest of XLA's opcodes: known, no rule here.
    {"acos", 0, 0, 0, -1},
    {"acosh", 0, 0, 0, -1},
    {"all-reduce", 0, 0, 0, -1},
    {"all-reduce-start", 0, 0, 0, -1},
    {"all-to-all", 0, 0, 0, -1},
    {"asin", 0, 0, 0, -1},
    {"asinh", 0, 0, 0, -1},
    {"atan", 0, 0, 0, -1},
    {"atanh", 0, 0, 0, -1},
    {"batch-norm-grad", 0, 0, 0, -1},
    {"batch-norm-inference", 0, 0, 0, -1},
    {"batch-norm-training", 0, 0, 0, -1},
    {"call", 0, 0, 0, -1},
    {"collective-broadcast", 0, 0, 0, -1},
    {"collective-permute", 0, 0, 0, -1},
    {"collective-permute-start", 0, 0, 0, -1},
    {"collective-reduce", 0, 0, 0, -1},
    {"concatenate", 0, 0, 0, -1},
    {"convolution", 0, 0, 0, -1},
    {"cosh", 0, 0, 0, -1},
    {"custom-call", 0, 0, 0, -1},
    {"dynamic-slice", 0, 0, 0, -1},
    {"dynamic-update-slice", 0, 0, 0, -1},
    {"fusion", 0, 0, 0, -1},
    {"gather", 0, 0, 0, -1},
    {"iota", 0, 0, 0, -1},
    {"map", 0, 0, 0, -1},
    {"mulhi", 0, 0, 0, -1},
    {"opt-barrier", 0, 0, 0, -1},
    {"outfeed", 0, 0, 0, -1},
    {"partition-id", 0, 0, 0, -1},
    {"ragged-all-to-all", 0, 0, 0, -1},
    {"ragged-dot", 0, 0, 0, -1},
    {"replica-id", 0, 0, 0, -1},
    {"rng", 0, 0, 0, -1},
    {"rng-get-and-update-state", 0, 0, 0, -1},
    {"scaled-dot", 0, 0, 0, -1},
    {"select-and-scatter", 0, 0, 0, -1},
    {"shuffle", 0, 0, 0, -1},
    {"sinh", 0, 0, 0, -1},
    {"sort", 0, 0, 0, -1},
    {"stochastic-convert", 0, 0, 0, -1},
    {"topk", 0, 0, 0, -1},
    {"triangular-solve", 0, 0, 0, -1},
    {"tuple", 0, 0, 0, -1},
};

// kOpcodes by HloOpcode (null for kWrappedAsync and kUnknown).
class OpcodeTable {
 public:
  OpcodeTable() {
    for (const HloOpcodeInfo& info : kOpcodes) {
      const HloOpcode opcode = HloOpcodeOf(info.name);
      HLOLAYOUT_CHECK(opcode != HloOpcode::kUnknown &&
                      opcode != HloOpcode::kWrappedAsync);
      by_opcode_[static_cast<int>(opcode)] = &info;
    }
  }
  const HloOpcodeInfo* Find(HloOpcode opcode) const {
    return by_opcode_[static_cast<int>(opcode)];
  }

 private:
  const HloOpcodeInfo* by_opcode_[kHloOpcodeCount] = {};
};

// dim_labels=b01f_01io->b01f, as XLA's parser reads it.
absl::Status CheckDimLabels(absl::string_view value, size_t offset,
                            size_t* error_offset) {
  const size_t underscore = value.find('_');
  const size_t arrow = value.find("->");
  if (underscore == absl::string_view::npos ||
      arrow == absl::string_view::npos || arrow < underscore) {
    return Bad(error_offset, offset,
               "dim_labels expects lhs_rhs->output, e.g. b01f_01io->b01f");
  }
  const absl::string_view parts[3] = {
      value.substr(0, underscore),
      value.substr(underscore + 1, arrow - underscore - 1),
      value.substr(arrow + 2)};
  const char* names[3] = {"lhs", "rhs", "output"};
  const char* letters[3] = {"bf", "io", "bf"};
  int spatial[3] = {0, 0, 0};
  for (int k = 0; k < 3; ++k) {
    const absl::string_view part = parts[k];
    bool seen[256] = {};
    for (char c : part) {
      if (c == '?') continue;
      if (seen[static_cast<unsigned char>(c)]) {
        return Bad(error_offset, offset,
                   absl::StrCat("dim_labels expects unique ", names[k],
                                " dimension numbers, but sees ", part));
      }
      seen[static_cast<unsigned char>(c)] = true;
    }
    for (char c : part) {
      if (c != letters[k][0] && c != letters[k][1] && c != '?') ++spatial[k];
    }
    for (char c : part) {
      if (c == '?' || c == letters[k][0] || c == letters[k][1]) continue;
      if (c < '0' || c >= '0' + static_cast<int>(part.size()) ||
          c - '0' >= spatial[k]) {
        return Bad(error_offset, offset,
                   absl::StrCat("dim_labels expects [0-", part.size() - 1,
                                letters[k], "?] in ", names[k],
                                " dimension numbers, but sees ", part));
      }
    }
  }
  if (spatial[0] != spatial[1] || spatial[0] != spatial[2]) {
    return Bad(error_offset, offset,
               absl::StrCat("dim_labels: input, kernel and output must have "
                            "the same number of spatial dimensions, but got ",
                            spatial[0], ", ", spatial[1], ", ", spatial[2]));
  }
  return absl::OkStatus();
}

// window={size=3x3 stride=2x2 pad=0_1x1_1 ...}: each pad entry low_high.
absl::Status CheckWindow(absl::string_view value, size_t offset,
                         size_t* error_offset) {
  absl::string_view inner = value;
  if (!absl::ConsumePrefix(&inner, "{") || !absl::ConsumeSuffix(&inner, "}")) {
    return Bad(error_offset, offset, "window expects {key=value ...}");
  }
  // Items are separated as tokens are: spaces, line breaks, comments.
  for (absl::string_view item : HloValueWords(inner)) {
    const size_t eq = item.find('=');
    if (eq == absl::string_view::npos) {
      return Bad(error_offset, At(value.data() - offset, item),
                 absl::StrCat("window expects key=value, found '", item, "'"));
    }
    const absl::string_view key = item.substr(0, eq);
    const absl::string_view dims = item.substr(eq + 1);
    if (key != "pad") continue;
    for (absl::string_view dim : absl::StrSplit(dims, 'x')) {
      std::vector<absl::string_view> parts = absl::StrSplit(dim, '_');
      bool ok = parts.size() == 2;
      for (absl::string_view p : parts) {
        absl::ConsumePrefix(&p, "-");
        ok = ok && !p.empty() &&
             p.find_first_not_of("0123456789") == absl::string_view::npos;
      }
      if (!ok) {
        return Bad(error_offset, offset + (item.data() - value.data()),
                   absl::StrCat("window pad expects padding_low and "
                                "padding_high separated by '_', found '",
                                dim, "'"));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status CheckResultAccuracy(absl::string_view value, size_t offset,
                                 size_t* error_offset) {
  absl::string_view inner = value;
  if (!absl::ConsumePrefix(&inner, "{") || !absl::ConsumeSuffix(&inner, "}")) {
    return Bad(error_offset, offset, "result_accuracy expects {...}");
  }
  inner = StripHloSpace(inner);
  const size_t eq = inner.find('=');
  if (eq == absl::string_view::npos) {
    return Bad(error_offset, offset,
               absl::StrCat("result_accuracy expects attribute name "
                            "(mode or tolerance), found '",
                            inner, "'"));
  }
  const absl::string_view key = StripHloSpace(inner.substr(0, eq));
  const absl::string_view rest = StripHloSpace(inner.substr(eq + 1));
  if (key == "mode") {
    if (!OneOf(rest, {"default", "highest", "DEFAULT", "HIGHEST"})) {
      return Bad(error_offset, offset,
                 absl::StrCat("result_accuracy mode expects default or "
                              "highest, found '",
                              rest, "'"));
    }
    return absl::OkStatus();
  }
  if (key != "tolerance") {
    return Bad(error_offset, offset,
               absl::StrCat("result_accuracy: invalid attribute name '", key,
                            "' (mode or tolerance)"));
  }
  absl::string_view fields = rest;
  if (!absl::ConsumePrefix(&fields, "{") ||
      !absl::ConsumeSuffix(&fields, "}")) {
    return Bad(error_offset, offset, "result_accuracy tolerance expects {...}");
  }
  for (absl::string_view field :
       absl::StrSplit(fields, ',', absl::SkipWhitespace())) {
    const size_t feq = field.find('=');
    const absl::string_view name = StripHloSpace(field.substr(0, feq));
    if (feq == absl::string_view::npos ||
        !OneOf(name, {"atol", "rtol", "ulps"})) {
      return Bad(error_offset, offset,
                 absl::StrCat("result_accuracy tolerance: invalid attribute "
                              "name '",
                              name, "' (atol, rtol or ulps)"));
    }
  }
  return absl::OkStatus();
}

// replica_groups=mesh['a'=2,'b'=2, device_ids=(...)] {'a'}: the axes named
// in the braces exist, and device_ids (when given) has one id per device.
absl::Status CheckMeshGroups(absl::string_view value, size_t offset,
                             size_t* error_offset) {
  const size_t open = value.find('[');
  const size_t close = value.find(']');
  if (open == absl::string_view::npos || close == absl::string_view::npos ||
      close < open) {
    return absl::OkStatus();  // another form: not checked
  }
  std::vector<std::string> axes;
  int64_t devices = 1;
  int64_t device_ids = -1;
  absl::string_view body = value.substr(open + 1, close - open - 1);
  const size_t ids = body.find("device_ids");
  if (ids != absl::string_view::npos) {
    const size_t lp = body.find('(', ids);
    const size_t rp = body.find(')', ids);
    if (lp != absl::string_view::npos && rp != absl::string_view::npos) {
      absl::string_view list = body.substr(lp + 1, rp - lp - 1);
      device_ids =
          list.empty() ? 0 : std::count(list.begin(), list.end(), ',') + 1;
    }
    body = body.substr(0, ids);
  }
  for (absl::string_view axis :
       absl::StrSplit(body, ',', absl::SkipWhitespace())) {
    axis = StripHloSpace(axis);
    const size_t eq = axis.find('=');
    if (eq == absl::string_view::npos) continue;
    std::string name(StripHloSpace(axis.substr(0, eq)));
    name.erase(std::remove(name.begin(), name.end(), '\''), name.end());
    int64_t size = 0;
    for (char c : axis.substr(eq + 1)) {
      if (c >= '0' && c <= '9' && size < (int64_t{1} << 40)) {
        size = size * 10 + (c - '0');
      }
    }
    axes.push_back(name);
    devices = devices > (int64_t{1} << 40) ? devices : devices * size;
  }
  // Looked up once per chosen axis below (both lists as long as the text).
  const absl::flat_hash_set<std::string> axis_names(axes.begin(), axes.end());
  if (device_ids >= 0 && device_ids != devices) {
    return Bad(error_offset, offset,
               absl::StrCat("mesh has ", devices,
                            " devices but device_ids has ", device_ids));
  }
  const size_t brace = value.find('{', close);
  if (brace == absl::string_view::npos) return absl::OkStatus();
  const size_t end = value.find('}', brace);
  absl::string_view chosen = value.substr(brace + 1, end - brace - 1);
  for (absl::string_view axis :
       absl::StrSplit(chosen, ',', absl::SkipWhitespace())) {
    std::string name(StripHloSpace(axis));
    name.erase(std::remove(name.begin(), name.end(), '\''), name.end());
    bool found = axis_names.contains(name);
    if (!found && !name.empty() &&
        name.find_first_not_of("0123456789") == std::string::npos) {
      if (name.size() > 6 ||
          std::stoll(name) >= static_cast<int64_t>(axes.size())) {
        return Bad(error_offset, offset + brace,
                   absl::StrCat("mesh axis index ", name,
                                " is out of bounds for mesh of ", axes.size(),
                                " axes"));
      }
      found = true;
    }
    if (!found) {
      return Bad(
          error_offset, offset + brace,
          absl::StrCat("'", name,
                       "' is not a valid axis name or index of the mesh"));
    }
  }
  return absl::OkStatus();
}

// operand_layout_constraints={f32[2,3]{1,0}, ...}: one per operand, each of
// the operand's type and dimensions (the shapes: CheckHloOperandRule).
absl::Status CheckLayoutConstraints(absl::string_view value, size_t offset,
                                    size_t operand_count,
                                    absl::string_view opcode,
                                    HloOperandShapeFn operand_shape,
                                    HloOperandTextFn operand_text,
                                    HloOperandRuleFn unknown,
                                    size_t* error_offset) {
  absl::string_view inner = value;
  if (!absl::ConsumePrefix(&inner, "{") || !absl::ConsumeSuffix(&inner, "}")) {
    return Bad(error_offset, offset,
               "operand_layout_constraints expects {...}");
  }
  // The shapes, split at commas outside brackets.
  std::vector<absl::string_view> texts;
  int depth = 0;
  size_t begin = 0;
  for (size_t i = 0; i <= inner.size(); ++i) {
    const char c = i < inner.size() ? inner[i] : ',';
    if (c == '{' || c == '[' || c == '(') ++depth;
    if (c == '}' || c == ']' || c == ')') --depth;
    if (c == ',' && depth == 0) {
      const absl::string_view text =
          StripHloSpace(inner.substr(begin, i - begin));
      if (!text.empty()) texts.push_back(text);
      begin = i + 1;
    }
  }
  if (texts.size() != operand_count) {
    return Bad(
        error_offset, offset,
        absl::StrCat("expected ", operand_count,
                     " operand layout constraints, ", texts.size(), " given"));
  }
  for (size_t i = 0; i < texts.size(); ++i) {
    // The same text as the operand's shape (what XLA prints): compatible.
    const absl::string_view text = operand_text(i);
    if (text == texts[i]) continue;
    HloOperandRule rule;
    rule.kind = HloOperandRule::Kind::kLayoutConstraint;
    rule.operand = i;
    rule.opcode = opcode;
    rule.constraint_index = i;
    rule.constraint = texts[i];
    rule.offset = offset;
    const Shape* operand = operand_shape(i);
    if (operand == nullptr) {
      unknown(rule);
      continue;
    }
    absl::Status status =
        CheckHloOperandRule(rule, *operand, text, error_offset);
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

// Built on first use (opcode.cc's index may not be built before main yet).
const OpcodeTable& Opcodes() {
  static const OpcodeTable* const table = new OpcodeTable;
  return *table;
}

}  // namespace

const HloOpcodeInfo* FindHloOpcode(absl::string_view opcode) {
  return Opcodes().Find(HloOpcodeOf(opcode));
}

const HloOpcodeInfo* HloOpcodeInfoOf(HloOpcode opcode) {
  return Opcodes().Find(opcode);
}

uint32_t HloAttributeKindOf(absl::string_view n) {
  // One length compare for most (metadata, backend_config, sharding,
  // frontend_attributes...).
  switch (n.size()) {
    case 5:
      return Eq(n, "calls") ? kHloAttrCalls | kHloAttrCallee : 0;
    case 6:
      if (Eq(n, "window")) return kHloAttrSyntax;
      break;
    case 10:
      if (Eq(n, "dimensions")) return kHloAttrDimensions;
      return Eq(n, "dim_labels") ? kHloAttrSyntax : 0;
    case 11:
      return Eq(n, "api_version") ? kHloAttrSyntax : 0;
    case 14:
      return Eq(n, "replica_groups") ? kHloAttrSyntax : 0;
    case 15:
      return Eq(n, "result_accuracy") ? kHloAttrSyntax : 0;
    case 19:
      if (Eq(n, "branch_computations")) {
        return kHloAttrCallee | kHloAttrBranches;
      }
      break;
    case 20:
      return Eq(n, "control-predecessors") ? kHloAttrControl : 0;
    case 22:
      return Eq(n, "async_execution_thread") ? kHloAttrAsyncThread : 0;
    case 26:
      return Eq(n, "operand_layout_constraints") ? kHloAttrSyntax : 0;
    default:
      break;
  }
  return IsCalleeAttribute(n) ? kHloAttrCallee : 0;
}

absl::Status CheckHloOperandRule(const HloOperandRule& rule,
                                 const Shape& operand,
                                 absl::string_view operand_text,
                                 size_t* error_offset) {
  switch (rule.kind) {
    case HloOperandRule::Kind::kDimensionInRange:
      if (operand.IsArray() && rule.dimension >= operand.rank()) {
        return Bad(error_offset, rule.offset,
                   absl::StrCat("dimension ", rule.dimension,
                                " is out of range for '", rule.opcode, "'"));
      }
      return absl::OkStatus();
    case HloOperandRule::Kind::kLayoutConstraint: {
      if (!operand_text.empty() && operand_text == rule.constraint) {
        return absl::OkStatus();
      }
      size_t at = 0;
      Shape shape;
      if (!ParseShapeAt(rule.constraint, &at, &shape).ok() ||
          at != rule.constraint.size()) {
        return Bad(error_offset, rule.offset,
                   "operand_layout_constraints expects shapes with layouts");
      }
      if (!Shape::Equal().IgnoreLayout().IgnoreDynamicDimension()(operand,
                                                                  shape)) {
        return Bad(error_offset, rule.offset,
                   absl::StrCat("operand layout constraint ",
                                rule.constraint_index, " (", shape.ToString(),
                                ") is not compatible with operand shape ",
                                operand.ToString()));
      }
      return absl::OkStatus();
    }
    case HloOperandRule::Kind::kBroadcastOfScalar:
      if (operand.IsArray() && operand.rank() > 0) {
        return Bad(error_offset, rule.offset,
                   "a broadcast of a non-scalar needs dimensions=");
      }
      return absl::OkStatus();
    case HloOperandRule::Kind::kTupleIndexInRange:
      // XLA's verifier infers the element's shape: an index past the
      // tuple (or an operand that is no tuple) is refused.
      if (!operand.IsTuple() || rule.dimension >= operand.tuple_size()) {
        return Bad(error_offset, rule.offset,
                   absl::StrCat("tuple index ", rule.dimension,
                                " is out of range for ", operand.ToString()));
      }
      return absl::OkStatus();
    case HloOperandRule::Kind::kConditionalPredicate: {
      const bool pred = operand.IsArray() && operand.rank() == 0 &&
                        operand.element_type() == PRED;
      const bool index = operand.IsArray() && operand.rank() == 0 &&
                         operand.element_type() == S32;
      if (!pred && !index) {
        return Bad(error_offset, rule.offset,
                   absl::StrCat("the first operand of a conditional must be a "
                                "scalar of pred or s32, found ",
                                operand.ToString()));
      }
      if (pred && rule.branch_computations) {
        return Bad(error_offset, rule.offset,
                   "a conditional on a pred takes true_computation and "
                   "false_computation, not branch_computations");
      }
      return absl::OkStatus();
    }
  }
  return absl::OkStatus();
}

bool IsAsyncWrapperOpcode(absl::string_view opcode, absl::string_view* wrapped,
                          int* stage) {
  static constexpr absl::string_view kAsync[3] = {"async-start", "async-update",
                                                  "async-done"};
  for (int k = 0; k < 3; ++k) {
    if (opcode == kAsync[k]) {
      *wrapped = absl::string_view();
      *stage = k;
      return true;
    }
  }
  const HloAsyncSugar sugar = HloAsyncSugarOf(opcode);
  if (sugar.stage < 0) return false;
  *wrapped = sugar.wrapped;
  *stage = sugar.stage;
  return true;
}

bool IsUnknownHloOpcode(absl::string_view opcode) {
  const HloOpcodeInfo* info = FindHloOpcode(opcode);
  absl::string_view wrapped;
  return info == nullptr && HloAsyncStage(info, opcode, &wrapped) < 0;
}

int HloAsyncStage(const HloOpcodeInfo* info, absl::string_view opcode,
                  absl::string_view* wrapped) {
  *wrapped = absl::string_view();
  if (info != nullptr) return info->async_stage;
  int stage = -1;
  return IsAsyncWrapperOpcode(opcode, wrapped, &stage) ? stage : -1;
}

namespace {

// CheckHloInstruction's stages.

// The operand count of an opcode with one.
absl::Status CheckArity(const HloInstruction& in, const HloOpcodeInfo* info,
                        size_t operand_count, const char* text_begin,
                        size_t* error_offset) {
  const absl::string_view opcode = in.opcode_name();
  const int n = static_cast<int>(operand_count);
  if (n >= info->min_operands &&
      (info->max_operands < 0 || n <= info->max_operands)) {
    return absl::OkStatus();
  }
  const std::string expected =
      info->max_operands == info->min_operands
          ? absl::StrCat(info->min_operands)
          : absl::StrCat(info->min_operands,
                         info->max_operands < 0
                             ? " or more"
                             : absl::StrCat(" to ", info->max_operands));
  return Bad(error_offset, At(text_begin, opcode),
             absl::StrCat("'", opcode, "' takes ", expected,
                          info->min_operands == 1 && info->max_operands == 1
                              ? " operand"
                              : " operands",
                          ", found ", n));
}

// An asynchronous start, update or done (`stage`): its first operand and
// the shape of a start or update.
absl::Status CheckAsyncShape(const HloInstruction& in, int stage,
                             size_t operand_count, const char* text_begin,
                             size_t* error_offset) {
  if (stage > 0 && operand_count == 0) {
    return Bad(error_offset, At(text_begin, in.opcode_name()),
               absl::StrCat("'", in.opcode_name(),
                            "' needs the asynchronous operation as its "
                            "first operand; found no operand"));
  }
  if (stage < 2 && in.shape != nullptr &&
      (!in.shape->IsTuple() || in.shape->tuple_size() < 2 ||
       !in.shape->tuple_shape(0).IsTuple())) {
    return Bad(error_offset, At(text_begin, in.shape_text()),
               absl::StrCat("'", in.opcode_name(),
                            "' expects the shape ((operand shapes...), "
                            "output shape, ...), found ",
                            in.shape_text()));
  }
  return absl::OkStatus();
}

// The result shapes of recv and infeed, a constant's literal.
absl::Status CheckShapeRule(const HloInstruction& in, const char* text_begin,
                            size_t* error_offset) {
  const absl::string_view opcode = in.opcode_name();
  if (opcode == "recv" &&
      (!in.shape->IsTuple() || in.shape->tuple_size() != 3)) {
    return Bad(error_offset, At(text_begin, in.shape_text()),
               "recv's shape must be the tuple (data, u32[], token[])");
  }
  if (opcode == "infeed" &&
      (!in.shape->IsTuple() || in.shape->tuple_size() == 0)) {
    return Bad(error_offset, At(text_begin, in.shape_text()),
               "infeed must have a non-empty tuple shape");
  }
  if (opcode == "constant") {
    size_t at = 0;
    absl::Status status = CheckHloLiteral(in.literal(), *in.shape, &at);
    if (!status.ok()) {
      return Bad(error_offset, At(text_begin, in.literal(), at),
                 std::string(status.message()));
    }
  }
  return absl::OkStatus();
}

// What CheckHloInstruction's attribute checks need of the instruction.
struct InstructionContext {
  absl::string_view opcode;
  uint32_t flags;
  size_t operand_count;
  const char* text_begin;
  HloOperandShapeFn operand_shape;
  HloOperandTextFn operand_text;
  HloOperandRuleFn unknown;
  size_t* error_offset;

  // A rule on an operand's shape: checked now, or handed to `unknown`.
  absl::Status OnOperand(const HloOperandRule& rule) const {
    const Shape* operand = operand_shape(rule.operand);
    if (operand == nullptr) {
      unknown(rule);
      return absl::OkStatus();
    }
    return CheckHloOperandRule(rule, *operand, operand_text(rule.operand),
                               error_offset);
  }
};

// dimensions= of an opcode that takes one dimension.
absl::Status CheckOneDimension(const InstructionContext& c,
                               absl::string_view value) {
  const size_t value_at = At(c.text_begin, value);
  absl::StatusOr<std::vector<int64_t>> dims = ParseHloIntegerList(value);
  if (!dims.ok() || dims->size() != 1) {
    return Bad(
        c.error_offset, value_at,
        absl::StrCat("'", c.opcode,
                     "' expects dimensions= of one dimension, found ", value));
  }
  const int64_t d = (*dims)[0];
  if (d < 0) {
    return Bad(
        c.error_offset, value_at,
        absl::StrCat("dimension ", d, " is out of range for '", c.opcode, "'"));
  }
  if (c.operand_count == 0) return absl::OkStatus();
  HloOperandRule rule;
  rule.kind = HloOperandRule::Kind::kDimensionInRange;
  rule.opcode = c.opcode;
  rule.dimension = d;
  rule.offset = value_at;
  return c.OnOperand(rule);
}

// index= of a get-tuple-element: a number, of an element of its operand.
absl::Status CheckTupleIndex(const InstructionContext& c,
                             absl::string_view value) {
  const size_t value_at = At(c.text_begin, value);
  int64_t index = 0;
  if (!absl::SimpleAtoi(value, &index) || index < 0) {
    return Bad(c.error_offset, value_at,
               absl::StrCat("'get-tuple-element' expects index= of a tuple "
                            "element, found ",
                            value));
  }
  HloOperandRule rule;
  rule.kind = HloOperandRule::Kind::kTupleIndexInRange;
  rule.opcode = c.opcode;
  rule.dimension = index;
  rule.offset = value_at;
  return c.OnOperand(rule);
}

// api_version= of a custom-call.
absl::Status CheckApiVersion(const InstructionContext& c,
                             absl::string_view value) {
  const size_t value_at = At(c.text_begin, value);
  if (value == "API_VERSION_UNSPECIFIED") {
    return Bad(c.error_offset, value_at,
               "invalid API version API_VERSION_UNSPECIFIED");
  }
  if (!OneOf(value, {"API_VERSION_ORIGINAL", "API_VERSION_STATUS_RETURNING",
                     "API_VERSION_STATUS_RETURNING_UNIFIED",
                     "API_VERSION_TYPED_FFI"})) {
    return Bad(c.error_offset, value_at,
               absl::StrCat("unknown API version ", value));
  }
  return absl::OkStatus();
}

// One attribute of the instruction; `*has_dimensions` and
// `*branch_computations` set when it is one of those.
absl::Status CheckAttribute(const InstructionContext& c,
                            const HloAttribute& attribute, bool* has_dimensions,
                            bool* branch_computations) {
  const absl::string_view name = attribute.name();
  const absl::string_view value = attribute.value();
  // One length compare per attribute for most (metadata, backend_config,
  // sharding, frontend_attributes...).
  switch (name.size()) {
    case 5:
      if (name == "index" && c.operand_count == 1 &&
          c.opcode == "get-tuple-element") {
        return CheckTupleIndex(c, value);
      }
      if (name == "calls" && (c.flags & kCallsNothing)) {
        return Bad(
            c.error_offset, At(c.text_begin, name),
            absl::StrCat("unexpected attribute 'calls' on '", c.opcode, "'"));
      }
      break;
    case 6:
      if (name == "window")
        return CheckWindow(value, At(c.text_begin, value), c.error_offset);
      break;
    case 10:
      if (name == "dimensions") {
        *has_dimensions = true;
        if (c.flags & kOneDimension) return CheckOneDimension(c, value);
      } else if (name == "dim_labels") {
        return CheckDimLabels(value, At(c.text_begin, value), c.error_offset);
      }
      break;
    case 11:
      if (name == "api_version" && c.opcode == "custom-call") {
        return CheckApiVersion(c, value);
      }
      break;
    case 14:
      if (name == "replica_groups" && absl::StartsWith(value, "mesh")) {
        return CheckMeshGroups(value, At(c.text_begin, value), c.error_offset);
      }
      break;
    case 15:
      if (name == "result_accuracy") {
        if (!(c.flags & kTranscendental) && (c.flags & kArity)) {
          return Bad(c.error_offset, At(c.text_begin, name),
                     absl::StrCat("unexpected attribute 'result_accuracy' "
                                  "on '",
                                  c.opcode, "'"));
        }
        return CheckResultAccuracy(value, At(c.text_begin, value),
                                   c.error_offset);
      }
      break;
    case 19:
      if (name == "branch_computations") *branch_computations = true;
      break;
    case 26:
      if (name == "operand_layout_constraints") {
        return CheckLayoutConstraints(
            value, At(c.text_begin, value), c.operand_count, c.opcode,
            c.operand_shape, c.operand_text, c.unknown, c.error_offset);
      }
      break;
    default:
      break;
  }
  return absl::OkStatus();
}

// The rules on operand 0 of a broadcast without dimensions= and of a
// conditional.
absl::Status CheckOperandRules(const InstructionContext& c, bool has_dimensions,
                               bool branch_computations) {
  if (c.opcode == "broadcast" && !has_dimensions && c.operand_count == 1) {
    HloOperandRule rule;
    rule.kind = HloOperandRule::Kind::kBroadcastOfScalar;
    rule.opcode = c.opcode;
    rule.offset = At(c.text_begin, c.opcode);
    absl::Status status = c.OnOperand(rule);
    if (!status.ok()) return status;
  }
  if (c.opcode == "conditional" && c.operand_count > 0) {
    HloOperandRule rule;
    rule.kind = HloOperandRule::Kind::kConditionalPredicate;
    rule.opcode = c.opcode;
    rule.branch_computations = branch_computations;
    rule.offset = At(c.text_begin, c.opcode);
    absl::Status status = c.OnOperand(rule);
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckHloInstruction(const HloInstruction& in,
                                 const HloOpcodeInfo* info, int stage,
                                 size_t operand_count, const char* text_begin,
                                 HloOperandShapeFn operand_shape,
                                 HloOperandTextFn operand_text,
                                 HloOperandRuleFn unknown,
                                 size_t* error_offset) {
  const uint32_t flags = info != nullptr ? info->flags : 0;
  absl::Status status;
  if (flags & kArity) {
    status = CheckArity(in, info, operand_count, text_begin, error_offset);
    if (!status.ok()) return status;
  }
  if (stage >= 0) {
    status =
        CheckAsyncShape(in, stage, operand_count, text_begin, error_offset);
    if (!status.ok()) return status;
  }
  if (in.shape != nullptr && (flags & kShapeRule)) {
    status = CheckShapeRule(in, text_begin, error_offset);
    if (!status.ok()) return status;
  }
  const InstructionContext context{
      in.opcode_name(), flags,        operand_count, text_begin,
      operand_shape,    operand_text, unknown,       error_offset};
  bool has_dimensions = false;
  bool branch_computations = false;
  for (const HloAttribute& attribute : in.attributes()) {
    status = CheckAttribute(context, attribute, &has_dimensions,
                            &branch_computations);
    if (!status.ok()) return status;
  }
  if (!(flags & kOperandRule)) return absl::OkStatus();
  return CheckOperandRules(context, has_dimensions, branch_computations);
}

namespace {

// A header attribute value, token by token (hlo/attribute_value.h).
using Cursor = HloValueCursor;

// An integer that fits in int64_t, as XLA's lexer reads one (a number past
// it is refused there, not wrapped or dropped); `expects` names what was
// expected when there is no integer at all.
absl::Status Int64(Cursor* c, size_t* error_offset, const char* expects) {
  const absl::string_view digits = c->Integer();
  if (digits.empty()) return Bad(error_offset, c->offset(), expects);
  int64_t value;
  if (!absl::SimpleAtoi(digits, &value)) {
    return Bad(error_offset, c->offset() - digits.size(),
               absl::StrCat("integer ", digits, " is out of range"));
  }
  return absl::OkStatus();
}

absl::Status ShapeIndex(Cursor* c, size_t* error_offset) {
  if (!c->Eat('{')) {
    return Bad(error_offset, c->offset(),
               "expects '{' at the start of a shape index");
  }
  if (c->Eat('}')) return absl::OkStatus();
  while (true) {
    absl::Status status =
        Int64(c, error_offset, "expects an integer in a shape index");
    if (!status.ok()) return status;
    if (c->Eat(',')) continue;
    if (c->Eat('}')) return absl::OkStatus();
    return Bad(error_offset, c->offset(),
               "expects '}' at the end of a shape index");
  }
}

absl::Status CheckAliasing(absl::string_view value, size_t offset,
                           size_t* error_offset) {
  Cursor c(value, offset);
  if (!c.Eat('{')) {
    return Bad(error_offset, c.offset(), "input_output_alias expects '{'");
  }
  const char* format =
      "input_output_alias expects {OUTPUT_INDEX: (PARAMETER, PARAMETER_INDEX"
      "[, may-alias|must-alias]), ...}";
  while (c.Peek() != '}') {
    absl::Status status = ShapeIndex(&c, error_offset);
    if (!status.ok()) return status;
    if (!c.Eat(':') || !c.Eat('('))
      return Bad(error_offset, c.offset(), format);
    status = Int64(&c, error_offset,
                   "input_output_alias expects an integer parameter number");
    if (!status.ok()) return status;
    if (!c.Eat(',')) return Bad(error_offset, c.offset(), format);
    status = ShapeIndex(&c, error_offset);
    if (!status.ok()) return status;
    if (c.Eat(',')) {
      const size_t at = c.offset();
      const absl::string_view kind = c.Word();
      if (kind != "may-alias" && kind != "must-alias") {
        return Bad(error_offset, at,
                   "input_output_alias expects may-alias or must-alias");
      }
    }
    if (!c.Eat(')')) return Bad(error_offset, c.offset(), format);
    if (!c.Eat(',')) break;
  }
  if (!c.Eat('}') || !c.AtEnd()) {
    return Bad(error_offset, c.offset(),
               "input_output_alias expects '}' at the end of the aliasing "
               "description");
  }
  return absl::OkStatus();
}

absl::Status CheckBufferDonor(absl::string_view value, size_t offset,
                              size_t* error_offset) {
  Cursor c(value, offset);
  const char* format =
      "buffer_donor expects {(PARAMETER, PARAMETER_INDEX), ...}";
  if (!c.Eat('{')) return Bad(error_offset, c.offset(), format);
  while (c.Peek() != '}') {
    if (!c.Eat('(')) return Bad(error_offset, c.offset(), format);
    absl::Status status = Int64(
        &c, error_offset, "buffer_donor expects an integer parameter number");
    if (!status.ok()) return status;
    if (!c.Eat(',')) return Bad(error_offset, c.offset(), format);
    status = ShapeIndex(&c, error_offset);
    if (!status.ok()) return status;
    if (!c.Eat(')')) return Bad(error_offset, c.offset(), format);
    if (!c.Eat(',')) break;
  }
  if (!c.Eat('}') || !c.AtEnd()) {
    return Bad(error_offset, c.offset(),
               "buffer_donor expects '}' at the end of the description");
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckHloModuleHeader(const HloModuleHeader& header,
                                  const char* text_begin,
                                  size_t* error_offset) {
  for (const HloAttribute& attribute : header.attributes) {
    const size_t at = At(text_begin, attribute.value());
    absl::Status status;
    if (attribute.name() == "input_output_alias") {
      status = CheckAliasing(attribute.value(), at, error_offset);
    } else if (attribute.name() == "buffer_donor") {
      status = CheckBufferDonor(attribute.value(), at, error_offset);
    } else if (attribute.name() == "debug_attributes") {
      const size_t mode = attribute.value().find("log_mode=");
      if (mode != absl::string_view::npos) {
        Cursor c(attribute.value().substr(mode + 9), at + mode + 9);
        const size_t word_at = c.offset();
        const absl::string_view word = c.Word();
        if (word != "default" && word != "fusion_debugger") {
          return Bad(error_offset, word_at,
                     absl::StrCat("invalid debug_log_mode value: ", word));
        }
      }
    }
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

}  // namespace hlolayout

#include "hlolayout/hlo/module.h"

#include <algorithm>
#include <cstring>
#include <ostream>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "hlolayout/hlo/attribute_value.h"
#include "hlolayout/hlo/scan.h"
#include "hlolayout/util/check.h"

namespace hlolayout {

std::vector<absl::Span<HloOperand>> HloListStore::OperandBlocks() const {
  std::vector<absl::Span<HloOperand>> out;
  out.reserve(operands_.blocks.size());
  for (size_t k = 0; k < operands_.blocks.size(); ++k) {
    out.emplace_back(operands_.blocks[k].get(), operands_.sizes[k]);
  }
  return out;
}

absl::optional<absl::string_view> FindHloAttribute(
    absl::Span<const HloAttribute> attributes, absl::string_view name) {
  for (const HloAttribute& attribute : attributes) {
    if (attribute.name() == name) return attribute.value();
  }
  return absl::nullopt;
}

namespace {

// `s == literal` with the length known at compile time, inlined.
template <size_t N>
inline bool Eq(absl::string_view s, const char (&literal)[N]) {
  return s.size() == N - 1 && std::memcmp(s.data(), literal, N - 1) == 0;
}

// [A-Za-z0-9_.-], one lookup per byte (names of called computations are
// read for every fusion).
struct NameChars {
  bool is[256] = {};
  constexpr NameChars() {
    for (int c = 'a'; c <= 'z'; ++c) is[c] = true;
    for (int c = 'A'; c <= 'Z'; ++c) is[c] = true;
    for (int c = '0'; c <= '9'; ++c) is[c] = true;
    is[static_cast<int>('_')] = true;
    is[static_cast<int>('.')] = true;
    is[static_cast<int>('-')] = true;
  }
};
constexpr NameChars kNameChars;

bool IsNameChar(char c) { return kNameChars.is[static_cast<unsigned char>(c)]; }

// Appends every `%?name` found in `value` ("%a", "{%a, %b}").
void AppendNames(absl::string_view value, std::vector<absl::string_view>* out) {
  const char* const data = value.data();
  const size_t n = value.size();
  size_t i = 0;
  while (i < n) {
    const char c = data[i];
    if (c == '%' || IsNameChar(c)) {
      if (c == '%') ++i;
      const size_t begin = i;
      // Names of fused computations run 20 to 40 bytes: 16 at a time.
      i = hlo_internal::NameCharsEnd(data, i, n);
      if (i > begin) out->push_back(value.substr(begin, i - begin));
      if (i == begin) ++i;
    } else if (c == '/' && i + 1 < n && data[i + 1] == '*') {
      const size_t close = value.find("*/", i + 2);
      i = close == absl::string_view::npos ? n : close + 2;
    } else {
      ++i;
    }
  }
}

}  // namespace

std::vector<absl::string_view> CalledComputationNames(
    const HloInstruction& instruction) {
  std::vector<absl::string_view> names;
  AppendCalledComputationNames(instruction, &names);
  return names;
}

namespace {

// `to_apply={ p0 = f32[] parameter(0) ... }`: a computation written inline
// (newer XLA), which has no name to list.
bool IsInlineComputation(absl::string_view value) {
  if (value.empty() || value[0] != '{') return false;
  size_t p = 1;
  auto space = [&] { p = SkipHloSpace(value, p); };
  space();
  if (value.substr(p, 5) == "ROOT ") return true;
  if (p < value.size() && value[p] == '%') ++p;
  while (p < value.size() &&
         (absl::ascii_isalnum(value[p]) || value[p] == '_' || value[p] == '.' ||
          value[p] == '-')) {
    ++p;
  }
  space();
  return p < value.size() && value[p] == '=';
}

}  // namespace

void AppendCalledComputationNames(const HloInstruction& instruction,
                                  std::vector<absl::string_view>* names) {
  for (const HloAttribute& attribute : instruction.attributes()) {
    if (IsCalleeAttribute(attribute.name())) {
      AppendComputationNamesOf(attribute.value(), names);
    }
  }
}

void AppendComputationNamesOf(absl::string_view value,
                              std::vector<absl::string_view>* names) {
  if (!IsInlineComputation(value)) AppendNames(value, names);
}

std::vector<absl::string_view> HloValueNames(absl::string_view value) {
  std::vector<absl::string_view> names;
  AppendNames(value, &names);
  return names;
}

const HloComputation& HloModule::entry() const {
  HLOLAYOUT_CHECK(entry_index >= 0 &&
                  entry_index < static_cast<int64_t>(computations.size()))
      << "module without an entry computation";
  return computations[entry_index];
}

int64_t HloModule::instruction_count() const {
  int64_t count = 0;
  for (const HloComputation& c : computations) {
    count += static_cast<int64_t>(c.instructions.size());
  }
  return count;
}

absl::string_view HloFusionKindName(HloFusionKind kind) {
  switch (kind) {
    case HloFusionKind::kLoop:
      return "kLoop";
    case HloFusionKind::kInput:
      return "kInput";
    case HloFusionKind::kOutput:
      return "kOutput";
    case HloFusionKind::kCustom:
      return "kCustom";
  }
  return "(unknown fusion kind)";
}

absl::optional<HloFusionKind> ParseHloFusionKind(absl::string_view text) {
  for (HloFusionKind kind : {HloFusionKind::kLoop, HloFusionKind::kInput,
                             HloFusionKind::kOutput, HloFusionKind::kCustom}) {
    if (text == HloFusionKindName(kind)) return kind;
  }
  return absl::nullopt;
}

std::ostream& operator<<(std::ostream& out, HloFusionKind kind) {
  return out << HloFusionKindName(kind);
}

namespace {

// What decoded_attribute holds for `opcode`.
enum class Decoded { kFusionKind, kTargetPosition, kTupleIndex };
Decoded DecodedFor(HloOpcode opcode) {
  if (opcode == HloOpcode::kFusion) return Decoded::kFusionKind;
  if (opcode == HloOpcode::kCustomCall) return Decoded::kTargetPosition;
  return Decoded::kTupleIndex;
}

// The recorded value when it holds `what` (-1: none; kAskAttributes: read
// the attributes).
int32_t Recorded(const HloInstruction& in, Decoded what) {
  if ((in.attribute_facts & kHloFactsKnown) == 0 ||
      DecodedFor(in.opcode) != what) {
    return HloInstruction::kAskAttributes;
  }
  return in.decoded_attribute;
}

}  // namespace

absl::optional<int64_t> HloInstruction::tuple_index() const {
  const int32_t r = Recorded(*this, Decoded::kTupleIndex);
  if (r >= 0) return r;
  if (r == -1) return absl::nullopt;
  absl::optional<absl::string_view> v = FindHloAttribute(attributes(), "index");
  int64_t n = 0;
  if (!v.has_value() || !absl::SimpleAtoi(StripHloSpace(*v), &n) || n < 0) {
    return absl::nullopt;
  }
  return n;
}

absl::optional<HloFusionKind> HloInstruction::fusion_kind() const {
  const int32_t r = Recorded(*this, Decoded::kFusionKind);
  if (r >= 0) return static_cast<HloFusionKind>(r);
  if (r == -1) return absl::nullopt;
  absl::optional<absl::string_view> v = FindHloAttribute(attributes(), "kind");
  if (!v.has_value()) return absl::nullopt;
  return ParseHloFusionKind(StripHloSpace(*v));
}

absl::string_view HloInstruction::custom_call_target() const {
  const int32_t r = Recorded(*this, Decoded::kTargetPosition);
  const size_t at = static_cast<size_t>(r) & kHloTargetPositionMask;
  if (r >= 0 && at < attributes().size()) {
    return StripHloQuotes(attributes()[at].value());
  }
  if (r == -1) return absl::string_view();
  absl::optional<absl::string_view> v =
      FindHloAttribute(attributes(), "custom_call_target");
  return v.has_value() ? StripHloQuotes(*v) : absl::string_view();
}

uint8_t HloInstruction::custom_call_families() const {
  const int32_t r = Recorded(*this, Decoded::kTargetPosition);
  if (r >= 0) return static_cast<uint8_t>(r >> kHloTargetFamilyShift);
  if (r == -1) return 0;
  return HloTargetFamilies(custom_call_target());
}

uint8_t HloTargetFamilies(absl::string_view target) {
  // Every family's mark begins with "__": one pass over those, each
  // followed by the mark's rest (the same as finding each mark anywhere).
  uint8_t f = 0;
  for (size_t p = target.find("__"); p != absl::string_view::npos;
       p = target.find("__", p + 1)) {
    const absl::string_view rest = target.substr(p + 2);
    if (absl::StartsWith(rest, "cublas")) f |= kHloTargetCublas;
    if (absl::StartsWith(rest, "cudnn")) f |= kHloTargetCudnn;
    if (absl::StartsWith(rest, "triton")) f |= kHloTargetTriton;
    if (absl::StartsWith(rest, "onednn")) f |= kHloTargetOnednn;
    if (absl::StartsWith(rest, "xnn")) f |= kHloTargetXnn;
  }
  if (target == "__cublas$lt$matmul") f |= kHloTargetCublasLtMatmul;
  if (target == "__cusolver$cholesky") f |= kHloTargetCusolverCholesky;
  return f;
}

bool HloConfigHas(absl::string_view config, HloConfigHint hint) {
  switch (hint) {
    case HloConfigHint::kGpu:
      return absl::StrContains(config, "operation_queue_id") ||
             absl::StrContains(config, "__triton") ||
             absl::StrContains(config, "fusion_backend_config");
    case HloConfigHint::kCpu:
      return absl::StrContains(config, "outer_dimension_partitions") ||
             absl::StrContains(config, "__ynn_fusion");
    case HloConfigHint::kNvshmem: {
      constexpr absl::string_view kWord = "nvshmem";
      for (size_t i = 0; i + kWord.size() <= config.size(); ++i) {
        if (absl::EqualsIgnoreCase(config.substr(i, kWord.size()), kWord)) {
          return true;
        }
      }
      return false;
    }
  }
  return false;
}

absl::optional<int64_t> HloInstruction::channel_id() const {
  absl::optional<absl::string_view> v =
      FindHloAttribute(attributes(), "channel_id");
  int64_t n = 0;
  if (!v.has_value() || !absl::SimpleAtoi(StripHloSpace(*v), &n) || n < 0) {
    return absl::nullopt;
  }
  return n;
}

absl::string_view HloInstruction::metadata() const {
  if (metadata_attribute >= 0 &&
      static_cast<size_t>(metadata_attribute) < attributes().size()) {
    return attributes()[metadata_attribute].value();
  }
  if (metadata_attribute == -1) return absl::string_view();
  return FindHloAttribute(attributes(), "metadata")
      .value_or(absl::string_view());
}

absl::string_view HloInstruction::backend_config() const {
  return FindHloAttribute(attributes(), "backend_config")
      .value_or(absl::string_view());
}

absl::Span<const HloAliasPair> HloModule::operand_aliasing(
    const HloInstruction& instruction) const {
  auto it = std::lower_bound(operand_aliasing_table.begin(),
                             operand_aliasing_table.end(), instruction.offset,
                             [](const OperandAliasing& e, size_t offset) {
                               return e.offset < offset;
                             });
  for (; it != operand_aliasing_table.end() && it->offset == instruction.offset;
       ++it) {
    if (it->name == instruction.name()) return it->pairs;
  }
  return {};
}

void DecodeHloOperandAliasing(HloModule* module) {
  std::vector<HloModule::OperandAliasing>& table =
      module->operand_aliasing_table;
  table.clear();
  for (const HloComputation& c : module->computations) {
    for (const HloInstruction& in : c.instructions) {
      if (!in.may_have(kHloFactOperandAliasing)) continue;
      absl::optional<absl::string_view> v =
          FindHloAttribute(in.attributes(), "output_to_operand_aliasing");
      if (!v.has_value()) continue;
      table.push_back({in.offset, in.name(), ParseHloAliasPairs(*v)});
    }
  }
  std::stable_sort(
      table.begin(), table.end(),
      [](const HloModule::OperandAliasing& a,
         const HloModule::OperandAliasing& b) { return a.offset < b.offset; });
}

const Shape* OperandShape(const HloComputation& computation,
                          const HloOperand& operand) {
  if (operand.shape != nullptr) return operand.shape;
  if (operand.index < 0 ||
      static_cast<size_t>(operand.index) >= computation.instructions.size()) {
    return nullptr;
  }
  const Shape* shape = computation.instructions[operand.index].shape;
  if (shape == nullptr || !operand.has_output_index()) return shape;
  if (!shape->IsTuple() || operand.output_index >= shape->tuple_size()) {
    return nullptr;
  }
  return &shape->tuple_shape(operand.output_index);
}

int64_t CalledComputation(const HloModule& module,
                          const HloInstruction& instruction,
                          absl::string_view attribute) {
  absl::optional<absl::string_view> value =
      FindHloAttribute(instruction.attributes(), attribute);
  if (!value.has_value()) return -1;
  absl::string_view name = StripHloSpace(*value);
  if (!name.empty() && name[0] == '%') name.remove_prefix(1);
  for (int32_t c : module.callees(instruction)) {
    if (c >= 0 && module.computations[c].header.name == name) return c;
  }
  return -1;
}

}  // namespace hlolayout

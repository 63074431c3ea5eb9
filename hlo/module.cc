#include "hlolayout/hlo/module.h"

#include <cstring>

#include "absl/strings/ascii.h"
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

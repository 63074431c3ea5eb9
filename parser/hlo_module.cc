#include "hlolayout/parser/hlo_module.h"

#include <cstring>

#include "hlolayout/util/check.h"

namespace hlolayout {

absl::optional<absl::string_view> FindHloAttribute(
    absl::Span<const HloAttribute> attributes, absl::string_view name) {
  for (const HloAttribute& attribute : attributes) {
    if (attribute.name == name) return attribute.value;
  }
  return absl::nullopt;
}

namespace {

// `s == literal` with the length known at compile time, inlined.
template <size_t N>
inline bool Eq(absl::string_view s, const char (&literal)[N]) {
  return s.size() == N - 1 && std::memcmp(s.data(), literal, N - 1) == 0;
}

bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
}

// Appends every `%?name` found in `value` ("%a", "{%a, %b}").
void AppendNames(absl::string_view value, std::vector<absl::string_view>* out) {
  size_t i = 0;
  while (i < value.size()) {
    const char c = value[i];
    if (c == '%' || IsNameChar(c)) {
      if (c == '%') ++i;
      const size_t begin = i;
      while (i < value.size() && IsNameChar(value[i])) ++i;
      if (i > begin) out->push_back(value.substr(begin, i - begin));
      if (i == begin) ++i;
    } else if (c == '/' && i + 1 < value.size() && value[i + 1] == '*') {
      const size_t close = value.find("*/", i + 2);
      i = close == absl::string_view::npos ? value.size() : close + 2;
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

void AppendCalledComputationNames(const HloInstruction& instruction,
                                  std::vector<absl::string_view>* names) {
  for (const HloAttribute& attribute : instruction.attributes) {
    const absl::string_view n = attribute.name;
    if (Eq(n, "calls") || Eq(n, "to_apply") || Eq(n, "condition") ||
        Eq(n, "body") || Eq(n, "branch_computations") ||
        Eq(n, "true_computation") || Eq(n, "false_computation")) {
      AppendNames(attribute.value, names);
    }
  }
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

}  // namespace hlolayout

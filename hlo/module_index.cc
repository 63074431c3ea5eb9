#include "hlolayout/hlo/module_index.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "hlolayout/util/check.h"

namespace hlolayout {
namespace {

absl::string_view WithoutPercent(absl::string_view name) {
  if (!name.empty() && name.front() == '%') name.remove_prefix(1);
  return name;
}

}  // namespace

HloModuleIndex::HloModuleIndex(const HloModule& module) : module_(module) {
  const size_t n = module.computations.size();
  HLOLAYOUT_CHECK(n <= INT32_MAX) << "too many computations to index";
  computations_.reserve(n);
  first_of_computation_.reserve(n + 1);
  int64_t total = 0;
  for (size_t c = 0; c < n; ++c) {
    computations_.try_emplace(module.computations[c].header.name,
                              static_cast<int32_t>(c));
    first_of_computation_.push_back(static_cast<int32_t>(total));
    total += static_cast<int64_t>(module.computations[c].instructions.size());
    HLOLAYOUT_CHECK(total <= INT32_MAX) << "too many instructions to index";
  }
  first_of_computation_.push_back(static_cast<int32_t>(total));
  instructions_.reserve(total);
  for (size_t c = 0; c < n; ++c) {
    const std::vector<HloInstruction>& ins =
        module.computations[c].instructions;
    for (size_t i = 0; i < ins.size(); ++i) {
      instructions_.try_emplace(ins[i].name(),
                                HloInstructionPlace{static_cast<int32_t>(c),
                                                    static_cast<int32_t>(i)});
    }
  }
  // Users, counted then placed (one pass each over the operands).
  std::vector<int32_t> defs;  // per use: its definition's number, or -1
  users_begin_.assign(total + 1, 0);
  // The last user each definition was counted for: each user once.
  std::vector<int32_t> counted_for(total, -1);
  for (size_t c = 0; c < n; ++c) {
    const std::vector<HloInstruction>& ins =
        module.computations[c].instructions;
    for (size_t i = 0; i < ins.size(); ++i) {
      for (const HloOperand& operand : ins[i].operands()) {
        int64_t d = operand.index;
        if (d < 0 || static_cast<size_t>(d) >= ins.size()) {
          const HloInstructionPlace p = FindInstruction(operand.name);
          d = p.computation == static_cast<int32_t>(c) ? p.instruction : -1;
        }
        if (d < 0) continue;
        const int32_t def = static_cast<int32_t>(first_of_computation_[c] + d);
        const int32_t user = static_cast<int32_t>(first_of_computation_[c] + i);
        // Each user once: an operand named twice counts once.
        if (counted_for[def] == user) continue;
        counted_for[def] = user;
        defs.push_back(def);
        ++users_begin_[def + 1];
      }
      defs.push_back(-1 - static_cast<int32_t>(i));  // the user's mark
    }
  }
  for (size_t k = 1; k < users_begin_.size(); ++k) {
    users_begin_[k] += users_begin_[k - 1];
  }
  users_.resize(users_begin_.back());
  std::vector<int32_t> next(users_begin_.begin(), users_begin_.end() - 1);
  // The marks say which user the definitions before them belong to.
  size_t start = 0;
  for (size_t k = 0; k < defs.size(); ++k) {
    if (defs[k] >= 0) continue;
    const int32_t user = -1 - defs[k];
    for (size_t j = start; j < k; ++j) users_[next[defs[j]]++] = user;
    start = k + 1;
  }
}

int64_t HloModuleIndex::ComputationIndex(absl::string_view name) const {
  auto it = computations_.find(WithoutPercent(name));
  return it == computations_.end() ? -1 : it->second;
}

const HloComputation* HloModuleIndex::FindComputation(
    absl::string_view name) const {
  const int64_t c = ComputationIndex(name);
  return c < 0 ? nullptr : &module_.computations[c];
}

HloInstructionPlace HloModuleIndex::FindInstruction(
    absl::string_view name) const {
  auto it = instructions_.find(WithoutPercent(name));
  return it == instructions_.end() ? HloInstructionPlace() : it->second;
}

const HloInstruction* HloModuleIndex::Instruction(
    absl::string_view name) const {
  const HloInstructionPlace p = FindInstruction(name);
  if (!p.found()) return nullptr;
  return &module_.computations[p.computation].instructions[p.instruction];
}

absl::Span<const int32_t> HloModuleIndex::users(
    HloInstructionPlace place) const {
  if (!place.found() || static_cast<size_t>(place.computation) + 1 >=
                            first_of_computation_.size()) {
    return {};
  }
  const int64_t k =
      int64_t{first_of_computation_[place.computation]} + place.instruction;
  if (place.instruction < 0 ||
      k >= first_of_computation_[place.computation + 1]) {
    return {};
  }
  return absl::MakeConstSpan(users_).subspan(
      users_begin_[k], users_begin_[k + 1] - users_begin_[k]);
}

}  // namespace hlolayout

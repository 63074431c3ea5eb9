// The links of a module read whole (reader_internal.h: LinkHloModule): names
// are looked up here once, so that analyses follow indices. The cost is one
// hash of each instruction name and operand name of the module.
#include <cstdint>
#include <limits>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "hlolayout/hlo/attribute_value.h"
#include "hlolayout/hlo/module.h"
#include "hlolayout/hlo/reader_internal.h"
#include "hlolayout/util/check.h"

namespace hlolayout {
namespace hlo_internal {

void LinkHloModule(HloModule* module) {
  absl::flat_hash_map<absl::string_view, int32_t> computations;
  computations.reserve(module->computations.size());
  HLOLAYOUT_CHECK(module->computations.size() <
                  static_cast<size_t>(std::numeric_limits<int32_t>::max()));
  for (size_t c = 0; c < module->computations.size(); ++c) {
    // XLA names computations uniquely; the first keeps a repeated name.
    computations.try_emplace(module->computations[c].header.name,
                             static_cast<int32_t>(c));
  }
  module->callee_indices.clear();
  module->control_predecessor_indices.clear();
  absl::flat_hash_map<absl::string_view, int32_t> defined;
  std::vector<absl::string_view> callees;
  for (HloComputation& computation : module->computations) {
    defined.clear();
    defined.reserve(computation.instructions.size());
    HLOLAYOUT_CHECK(computation.instructions.size() <
                    static_cast<size_t>(std::numeric_limits<int32_t>::max()));
    for (size_t i = 0; i < computation.instructions.size(); ++i) {
      HloInstruction& in = computation.instructions[i];
      // Operands are defined before their use: the latest definition so far.
      for (HloOperand& operand : in.operands) {
        auto it = defined.find(operand.name);
        operand.index = it == defined.end() ? -1 : it->second;
      }
      defined.insert_or_assign(in.name, static_cast<int32_t>(i));
      callees.clear();
      AppendCalledComputationNames(in, &callees);
      in.first_callee = static_cast<int32_t>(module->callee_indices.size());
      in.callee_count = static_cast<int32_t>(callees.size());
      for (absl::string_view name : callees) {
        auto it = computations.find(name);
        module->callee_indices.push_back(it == computations.end() ? -1
                                                                  : it->second);
      }
    }
    // Control predecessors may be defined after their successor: looked up
    // once every name of the computation is known.
    for (HloInstruction& in : computation.instructions) {
      in.first_control_predecessor =
          static_cast<int32_t>(module->control_predecessor_indices.size());
      absl::optional<absl::string_view> value =
          FindHloAttribute(in.attributes, "control-predecessors");
      if (!value.has_value()) continue;
      for (absl::string_view name : HloValueNames(*value)) {
        auto it = defined.find(name);
        module->control_predecessor_indices.push_back(
            it == defined.end() ? -1 : it->second);
      }
      in.control_predecessor_count =
          static_cast<int32_t>(module->control_predecessor_indices.size()) -
          in.first_control_predecessor;
    }
  }
  module->header.input_output_alias.clear();
  if (absl::optional<absl::string_view> alias =
          FindHloAttribute(module->header.attributes, "input_output_alias")) {
    module->header.input_output_alias = ParseHloAliasPairs(*alias);
  }
}

}  // namespace hlo_internal
}  // namespace hlolayout

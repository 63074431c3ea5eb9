// hlo/module_index.h: what a compiler pass asks of a module by name and by
// use, answered from one index built once.
//
//   HloModuleIndex index(module);                 // O(instructions)
//   const HloComputation* f = index.FindComputation("fused_computation.3");
//   HloInstructionPlace p = index.FindInstruction("fusion.3");
//   for (int32_t u : index.users(p)) {            // in the same computation
//     const HloInstruction& user = module.computations[p.computation]
//                                      .instructions[u];
//   }
//   OperandShape(computation, operand)            // module.h: O(1)
//
// The index keeps views of the module's names: the module must outlive it,
// unchanged (rebuild the index after editing the module).
#ifndef HLOLAYOUT_HLO_MODULE_INDEX_H_
#define HLOLAYOUT_HLO_MODULE_INDEX_H_

#include <cstdint>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "hlolayout/hlo/module.h"

namespace hlolayout {

// Where an instruction is: module.computations[computation]
// .instructions[instruction]; both -1 when not found.
struct HloInstructionPlace {
  int32_t computation = -1;
  int32_t instruction = -1;
  bool found() const { return computation >= 0; }
  friend bool operator==(HloInstructionPlace a, HloInstructionPlace b) {
    return a.computation == b.computation && a.instruction == b.instruction;
  }
};

class HloModuleIndex {
 public:
  // Cost: O(instructions + operands) time, once; memory: a hash entry (24
  // bytes) per computation and per instruction name, 4 bytes per use and 4
  // per instruction for users(). Operands are linked to their definitions by
  // HloOperand::index (set by ReadHloModules); an operand without one (a
  // module built otherwise) is looked up by name in its computation.
  explicit HloModuleIndex(
      const HloModule& module ABSL_ATTRIBUTE_LIFETIME_BOUND);

  // The computation called `name` (a leading '%' is ignored), by index into
  // module.computations; -1 when none is. O(1).
  int64_t ComputationIndex(absl::string_view name) const;
  // The same computation; null when none is.
  const HloComputation* FindComputation(absl::string_view name) const;

  // The instruction called `name` ('%' ignored); XLA's names are unique in
  // a module: for a module that repeats one, the first in computation order.
  // O(1).
  HloInstructionPlace FindInstruction(absl::string_view name) const;
  // The same instruction; null when none is.
  const HloInstruction* Instruction(absl::string_view name) const;

  // The users of an instruction: the instructions of its computation that
  // name it as an operand (a whole result or `#N`), each once, in order, by
  // index into the computation. Empty for a place not found. O(1).
  absl::Span<const int32_t> users(HloInstructionPlace place) const;

 private:
  const HloModule& module_;
  absl::flat_hash_map<absl::string_view, int32_t> computations_;
  absl::flat_hash_map<absl::string_view, HloInstructionPlace> instructions_;
  // users(): the first instruction of each computation in one numbering,
  // then where each instruction's users begin in users_ (one more).
  std::vector<int32_t> first_of_computation_;
  std::vector<int32_t> users_begin_;
  std::vector<int32_t> users_;
};

}  // namespace hlolayout

#endif  // HLOLAYOUT_HLO_MODULE_INDEX_H_

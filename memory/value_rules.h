// memory/value_rules.h: which results of an HLO instruction are new values
// (buffers the module allocates) and which only alias a value defined
// elsewhere, following XLA's HloDataflowAnalysis (docs/memory.md).
//
//   %t = (f32[8]{0}, s32[]) tuple(%a, %b)     defines only {} (its 16-byte
//                                             index table); {0}, {1} are
//                                             the values of %a and %b
//   %g = f32[8]{0} get-tuple-element(%t), index=0      defines nothing
//   %c = f32[8]{0} bitcast(%custom-call.1#0)           defines nothing
//   %f = (f32[8]{0}, f32[]) fusion(%p), calls=%fused   defines {}, {0}, {1}
//
// Computations: the entry computation and control-flow callees (`while`
// bodies and conditions, `call`, `conditional` branches, async wrapped
// computations) run as part of the schedule, and their instructions define
// values by the rules here, except that control-flow callees' parameters
// alias what the caller passes. Embedded callees (fusion bodies, `to_apply`
// reducers, sort comparators, ...) are not separate steps of the schedule:
// the values inside them are never allocated as module buffers.
#ifndef HLOLAYOUT_MEMORY_VALUE_RULES_H_
#define HLOLAYOUT_MEMORY_VALUE_RULES_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "hlolayout/hlo/opcode.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout {

// How an opcode defines values over the indices of its result shape.
enum class ValueRule : uint8_t {
  kAll,             // every index, tuple nodes included (most opcodes, fusion)
  kNothing,         // bitcast, get-tuple-element, while, call, conditional,
                    // domain, opt-barrier, add-dependency, copy-done,
                    // all-reduce-done
  kTop,             // only {}: tuple, copy
  kTupleNodes,      // only tuple-shaped indices: async-update, async-done,
                    // all-gather-done, collective-permute-done
  kCopyStart,       // {}, {0} (destination), {2} (context); {1} is the operand
  kAsyncStart,      // tuple nodes and all under {2}, {3}, ... (scratch);
                    // {0} holds the operands, {1} the wrapped result
  kAllGatherStart,  // tuple nodes and all under {1}
  kCollectivePermuteStart,  // {}, {1}, {2}, ... (top-level elements)
  kRecvDone,                // {}, {1}
  kSend,                    // {}, {1}, {2}
  kParameter,  // all, when the computation defines its parameters (entry,
               // embedded, uncalled); nothing in control-flow callees
};

// The rule of an opcode ("tuple", "all-gather-start", ...). Unknown
// opcodes define every index, as in XLA.
ValueRule ValueRuleOf(HloOpcode opcode);

// Whether an instruction with `rule` defines a value at `index` of its
// result, whose subshape there is a tuple when `is_tuple_node`.
// `parameters_define`: for kParameter, whether the computation defines its
// parameters.
bool DefinesValueAt(ValueRule rule, absl::Span<const int64_t> index,
                    bool is_tuple_node, bool parameters_define);

// How a caller runs the computations it names (hlo/opcode.h).
using CallKind = HloCallKind;
inline CallKind CallKindOf(HloOpcode caller_opcode) {
  return HloCallKindOf(caller_opcode);
}

// Bytes of a tuple node: 8 per element (XLA's index table of pointers).
inline int64_t TupleTableBytes(const Shape& tuple) {
  return 8 * tuple.tuple_size();
}

}  // namespace hlolayout

#endif  // HLOLAYOUT_MEMORY_VALUE_RULES_H_

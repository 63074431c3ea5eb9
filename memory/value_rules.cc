#include "hlolayout/memory/value_rules.h"

namespace hlolayout {

ValueRule ValueRuleOf(HloOpcode opcode) {
  switch (opcode) {
    case HloOpcode::kBitcast:
    case HloOpcode::kGetTupleElement:
    case HloOpcode::kWhile:
    case HloOpcode::kCall:
    case HloOpcode::kConditional:
    case HloOpcode::kDomain:
    case HloOpcode::kOptBarrier:
    case HloOpcode::kAddDependency:
    case HloOpcode::kCopyDone:
    case HloOpcode::kAllReduceDone:
      return ValueRule::kNothing;
    case HloOpcode::kTuple:
    case HloOpcode::kCopy:
      return ValueRule::kTop;
    case HloOpcode::kAsyncUpdate:
    case HloOpcode::kAsyncDone:
    case HloOpcode::kAllGatherDone:
    case HloOpcode::kCollectivePermuteDone:
      return ValueRule::kTupleNodes;
    case HloOpcode::kCopyStart:
      return ValueRule::kCopyStart;
    case HloOpcode::kAsyncStart:
      return ValueRule::kAsyncStart;
    case HloOpcode::kAllGatherStart:
      return ValueRule::kAllGatherStart;
    case HloOpcode::kCollectivePermuteStart:
      return ValueRule::kCollectivePermuteStart;
    case HloOpcode::kRecvDone:
      return ValueRule::kRecvDone;
    case HloOpcode::kSend:
      return ValueRule::kSend;
    case HloOpcode::kParameter:
      return ValueRule::kParameter;
    default:
      // Most opcodes (add, fusion, custom-call...), sugar for asynchronous
      // wrappers and opcodes of newer XLA versions.
      return ValueRule::kAll;
  }
}

bool DefinesValueAt(ValueRule rule, absl::Span<const int64_t> index,
                    bool is_tuple_node, bool parameters_define) {
  switch (rule) {
    case ValueRule::kAll:
      return true;
    case ValueRule::kNothing:
      return false;
    case ValueRule::kTop:
      return index.empty();
    case ValueRule::kTupleNodes:
      return is_tuple_node;
    case ValueRule::kCopyStart:
      return index.empty() ||
             (index.size() == 1 && (index[0] == 0 || index[0] == 2));
    case ValueRule::kAsyncStart:
      return is_tuple_node || index.empty() || index[0] >= 2;
    case ValueRule::kAllGatherStart:
      return is_tuple_node || index.empty() || index[0] == 1;
    case ValueRule::kCollectivePermuteStart:
      return index.empty() || (index.size() == 1 && index[0] >= 1);
    case ValueRule::kRecvDone:
      return index.empty() || (index.size() == 1 && index[0] == 1);
    case ValueRule::kSend:
      return index.empty() ||
             (index.size() == 1 && (index[0] == 1 || index[0] == 2));
    case ValueRule::kParameter:
      return parameters_define;
  }
  return true;
}

}  // namespace hlolayout

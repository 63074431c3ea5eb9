#include "hlolayout/memory/value_rules.h"

namespace hlolayout {

ValueRule ValueRuleOf(absl::string_view opcode) {
  // Sorted by how often they appear in dumps.
  if (opcode == "fusion") return ValueRule::kAll;
  if (opcode == "get-tuple-element" || opcode == "bitcast" ||
      opcode == "while" || opcode == "call" || opcode == "conditional" ||
      opcode == "domain" || opcode == "opt-barrier" ||
      opcode == "add-dependency" || opcode == "copy-done" ||
      opcode == "all-reduce-done") {
    return ValueRule::kNothing;
  }
  if (opcode == "parameter") return ValueRule::kParameter;
  if (opcode == "tuple" || opcode == "copy") return ValueRule::kTop;
  if (opcode == "async-update" || opcode == "async-done" ||
      opcode == "all-gather-done" || opcode == "collective-permute-done") {
    return ValueRule::kTupleNodes;
  }
  if (opcode == "copy-start") return ValueRule::kCopyStart;
  if (opcode == "async-start") return ValueRule::kAsyncStart;
  if (opcode == "all-gather-start") return ValueRule::kAllGatherStart;
  if (opcode == "collective-permute-start") {
    return ValueRule::kCollectivePermuteStart;
  }
  if (opcode == "recv-done") return ValueRule::kRecvDone;
  if (opcode == "send") return ValueRule::kSend;
  return ValueRule::kAll;
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

CallKind CallKindOf(absl::string_view caller_opcode) {
  if (caller_opcode == "while" || caller_opcode == "call" ||
      caller_opcode == "conditional" || caller_opcode == "async-start" ||
      caller_opcode == "async-update" || caller_opcode == "async-done") {
    return CallKind::kControlFlow;
  }
  return CallKind::kEmbedded;
}

}  // namespace hlolayout

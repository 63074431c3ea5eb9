#include "hlolayout/memory/value_rules.h"

#include <cstring>

namespace hlolayout {

namespace {

// `s == literal` with the length known at compile time: a length test and
// a few word compares, inlined (absl::string_view's operator== is a call
// here, and ValueRuleOf runs for every instruction of a dump).
template <size_t N>
inline bool Eq(absl::string_view s, const char (&literal)[N]) {
  return s.size() == N - 1 && std::memcmp(s.data(), literal, N - 1) == 0;
}

}  // namespace

ValueRule ValueRuleOf(absl::string_view opcode) {
  // By length first: one or two compares per opcode, most opcodes (add,
  // multiply, fusion...) define all of their result.
  switch (opcode.size()) {
    case 4:
      if (Eq(opcode, "call")) return ValueRule::kNothing;
      if (Eq(opcode, "copy")) return ValueRule::kTop;
      if (Eq(opcode, "send")) return ValueRule::kSend;
      break;
    case 5:
      if (Eq(opcode, "while")) return ValueRule::kNothing;
      if (Eq(opcode, "tuple")) return ValueRule::kTop;
      break;
    case 6:
      if (Eq(opcode, "domain")) return ValueRule::kNothing;
      break;
    case 7:
      if (Eq(opcode, "bitcast")) return ValueRule::kNothing;
      break;
    case 9:
      if (Eq(opcode, "copy-done")) return ValueRule::kNothing;
      if (Eq(opcode, "parameter")) return ValueRule::kParameter;
      if (Eq(opcode, "recv-done")) return ValueRule::kRecvDone;
      break;
    case 10:
      if (Eq(opcode, "async-done")) return ValueRule::kTupleNodes;
      if (Eq(opcode, "copy-start")) return ValueRule::kCopyStart;
      break;
    case 11:
      if (Eq(opcode, "conditional") || Eq(opcode, "opt-barrier")) {
        return ValueRule::kNothing;
      }
      if (Eq(opcode, "async-start")) return ValueRule::kAsyncStart;
      break;
    case 12:
      if (Eq(opcode, "async-update")) return ValueRule::kTupleNodes;
      break;
    case 14:
      if (Eq(opcode, "add-dependency")) return ValueRule::kNothing;
      break;
    case 15:
      if (Eq(opcode, "all-reduce-done")) return ValueRule::kNothing;
      if (Eq(opcode, "all-gather-done")) return ValueRule::kTupleNodes;
      break;
    case 16:
      if (Eq(opcode, "all-gather-start")) return ValueRule::kAllGatherStart;
      break;
    case 17:
      if (Eq(opcode, "get-tuple-element")) return ValueRule::kNothing;
      break;
    case 23:
      if (Eq(opcode, "collective-permute-done")) return ValueRule::kTupleNodes;
      break;
    case 24:
      if (Eq(opcode, "collective-permute-start")) {
        return ValueRule::kCollectivePermuteStart;
      }
      break;
    default:
      break;
  }
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
  if (Eq(caller_opcode, "while") || Eq(caller_opcode, "call") ||
      Eq(caller_opcode, "conditional") || Eq(caller_opcode, "async-start") ||
      Eq(caller_opcode, "async-update") || Eq(caller_opcode, "async-done")) {
    return CallKind::kControlFlow;
  }
  return CallKind::kEmbedded;
}

}  // namespace hlolayout

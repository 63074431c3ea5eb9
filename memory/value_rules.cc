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
  // Sorted by how often they appear in dumps.
  if (Eq(opcode, "fusion")) return ValueRule::kAll;
  if (Eq(opcode, "get-tuple-element") || Eq(opcode, "bitcast") ||
      Eq(opcode, "while") || Eq(opcode, "call") || Eq(opcode, "conditional") ||
      Eq(opcode, "domain") || Eq(opcode, "opt-barrier") ||
      Eq(opcode, "add-dependency") || Eq(opcode, "copy-done") ||
      Eq(opcode, "all-reduce-done")) {
    return ValueRule::kNothing;
  }
  if (Eq(opcode, "parameter")) return ValueRule::kParameter;
  if (Eq(opcode, "tuple") || Eq(opcode, "copy")) return ValueRule::kTop;
  if (Eq(opcode, "async-update") || Eq(opcode, "async-done") ||
      Eq(opcode, "all-gather-done") || Eq(opcode, "collective-permute-done")) {
    return ValueRule::kTupleNodes;
  }
  if (Eq(opcode, "copy-start")) return ValueRule::kCopyStart;
  if (Eq(opcode, "async-start")) return ValueRule::kAsyncStart;
  if (Eq(opcode, "all-gather-start")) return ValueRule::kAllGatherStart;
  if (Eq(opcode, "collective-permute-start")) {
    return ValueRule::kCollectivePermuteStart;
  }
  if (Eq(opcode, "recv-done")) return ValueRule::kRecvDone;
  if (Eq(opcode, "send")) return ValueRule::kSend;
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

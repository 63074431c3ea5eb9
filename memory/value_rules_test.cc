#include "hlolayout/memory/value_rules.h"

#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace hlolayout {
namespace {

bool Defines(absl::string_view opcode, std::vector<int64_t> index,
             bool is_tuple_node = false, bool parameters_define = true) {
  return DefinesValueAt(ValueRuleOf(HloOpcodeOf(opcode)), index, is_tuple_node,
                        parameters_define);
}

TEST(ValueRules, EveryOpcodeWithARuleOfItsOwnAndNeighbours) {
  const std::vector<std::pair<absl::string_view, ValueRule>> rules = {
      {"get-tuple-element", ValueRule::kNothing},
      {"bitcast", ValueRule::kNothing},
      {"while", ValueRule::kNothing},
      {"call", ValueRule::kNothing},
      {"conditional", ValueRule::kNothing},
      {"domain", ValueRule::kNothing},
      {"opt-barrier", ValueRule::kNothing},
      {"add-dependency", ValueRule::kNothing},
      {"copy-done", ValueRule::kNothing},
      {"all-reduce-done", ValueRule::kNothing},
      {"parameter", ValueRule::kParameter},
      {"tuple", ValueRule::kTop},
      {"copy", ValueRule::kTop},
      {"async-update", ValueRule::kTupleNodes},
      {"async-done", ValueRule::kTupleNodes},
      {"all-gather-done", ValueRule::kTupleNodes},
      {"collective-permute-done", ValueRule::kTupleNodes},
      {"copy-start", ValueRule::kCopyStart},
      {"async-start", ValueRule::kAsyncStart},
      {"all-gather-start", ValueRule::kAllGatherStart},
      {"collective-permute-start", ValueRule::kCollectivePermuteStart},
      {"recv-done", ValueRule::kRecvDone},
      {"send", ValueRule::kSend},
      // Everything else defines all of its result, names of the same
      // lengths as those above included.
      {"fusion", ValueRule::kAll},
      {"add", ValueRule::kAll},
      {"", ValueRule::kAll},
      {"recv", ValueRule::kAll},
      {"send-done", ValueRule::kAll},
      {"all-reduce-start", ValueRule::kAll},
      {"copy-done.", ValueRule::kAll},
      {"multiply", ValueRule::kAll},
      {"constant", ValueRule::kAll},
      {"Tuple", ValueRule::kAll},
      {"all-gather-dona", ValueRule::kAll},
      {"all-reduce-dona", ValueRule::kAll},
      {"custom-call", ValueRule::kAll},
      {"reduce-scatter", ValueRule::kAll},
      {"dynamic-update-slice", ValueRule::kAll},
  };
  for (const auto& [opcode, rule] : rules) {
    EXPECT_EQ(ValueRuleOf(HloOpcodeOf(opcode)), rule) << opcode;
  }
}

TEST(ValueRules, ForwardingOpcodesDefineNothing) {
  for (absl::string_view op :
       {"bitcast", "get-tuple-element", "while", "call", "conditional",
        "domain", "opt-barrier", "add-dependency", "copy-done",
        "all-reduce-done"}) {
    EXPECT_FALSE(Defines(op, {})) << op;
    EXPECT_FALSE(Defines(op, {0}, false)) << op;
  }
}

TEST(ValueRules, TupleAndCopyDefineOnlyTheirTop) {
  EXPECT_TRUE(Defines("tuple", {}, true));
  EXPECT_FALSE(Defines("tuple", {0}));
  EXPECT_FALSE(Defines("tuple", {1, 0}));
  EXPECT_TRUE(Defines("copy", {}));
  EXPECT_FALSE(Defines("copy", {2}));
}

TEST(ValueRules, AsyncPairs) {
  // copy-start: (destination, source, context).
  EXPECT_TRUE(Defines("copy-start", {}, true));
  EXPECT_TRUE(Defines("copy-start", {0}));
  EXPECT_FALSE(Defines("copy-start", {1}));
  EXPECT_TRUE(Defines("copy-start", {2}));
  // async-start: ((operands), result, scratch...).
  EXPECT_TRUE(Defines("async-start", {}, true));
  EXPECT_TRUE(Defines("async-start", {0}, true));
  EXPECT_FALSE(Defines("async-start", {0, 1}));
  EXPECT_FALSE(Defines("async-start", {1}));
  EXPECT_TRUE(Defines("async-start", {2}));
  EXPECT_TRUE(Defines("async-done", {}, true));
  EXPECT_FALSE(Defines("async-done", {}, false));
  EXPECT_FALSE(Defines("async-done", {0}, false));
  EXPECT_TRUE(Defines("all-gather-start", {1}));
  EXPECT_FALSE(Defines("all-gather-start", {0}));
  EXPECT_TRUE(Defines("collective-permute-start", {1}));
  EXPECT_TRUE(Defines("collective-permute-start", {3}));
  EXPECT_FALSE(Defines("collective-permute-start", {0}));
  EXPECT_FALSE(Defines("collective-permute-done", {}, false));
  EXPECT_TRUE(Defines("recv-done", {1}));
  EXPECT_FALSE(Defines("recv-done", {0}));
  EXPECT_TRUE(Defines("send", {2}));
  EXPECT_FALSE(Defines("send", {0}));
}

TEST(ValueRules, ParametersDependOnTheirComputation) {
  EXPECT_TRUE(Defines("parameter", {}, false, /*parameters_define=*/true));
  EXPECT_FALSE(Defines("parameter", {}, false, /*parameters_define=*/false));
}

TEST(ValueRules, OtherOpcodesDefineEverything) {
  EXPECT_TRUE(Defines("fusion", {}, true));
  EXPECT_TRUE(Defines("fusion", {1}));
  EXPECT_TRUE(Defines("custom-call", {0}));
  EXPECT_TRUE(Defines("some-future-op", {}));
}

TEST(ValueRules, CallKinds) {
  EXPECT_EQ(CallKindOf(HloOpcodeOf("while")), CallKind::kControlFlow);
  EXPECT_EQ(CallKindOf(HloOpcodeOf("conditional")), CallKind::kControlFlow);
  EXPECT_EQ(CallKindOf(HloOpcodeOf("call")), CallKind::kControlFlow);
  EXPECT_EQ(CallKindOf(HloOpcodeOf("async-start")), CallKind::kControlFlow);
  EXPECT_EQ(CallKindOf(HloOpcodeOf("fusion")), CallKind::kEmbedded);
  EXPECT_EQ(CallKindOf(HloOpcodeOf("reduce")), CallKind::kEmbedded);
  EXPECT_EQ(CallKindOf(HloOpcodeOf("all-reduce")), CallKind::kEmbedded);
}

}  // namespace
}  // namespace hlolayout

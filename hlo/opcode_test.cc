// Tests of hlo/opcode.h: every opcode's text reads back as itself, sugar and
// unknown texts are told apart, and near misses are not taken for opcodes.
#include "hlolayout/hlo/opcode.h"

#include <set>
#include <string>

#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/stringify.h"

namespace hlolayout {
namespace {

TEST(HloOpcodeTest, EveryTextReadsBackAsItsOpcode) {
  std::set<std::string> texts;
  for (int k = 0; k < kHloOpcodeCount; ++k) {
    const HloOpcode opcode = static_cast<HloOpcode>(k);
    const absl::string_view text = HloOpcodeName(opcode);
    if (opcode == HloOpcode::kWrappedAsync || opcode == HloOpcode::kUnknown) {
      EXPECT_TRUE(text.empty());
      continue;
    }
    ASSERT_FALSE(text.empty()) << k;
    EXPECT_TRUE(texts.insert(std::string(text)).second) << text;
    EXPECT_EQ(HloOpcodeOf(text), opcode) << text;
  }
  EXPECT_EQ(texts.size(), static_cast<size_t>(kHloOpcodeCount - 2));
}

TEST(HloOpcodeTest, WorkedExamples) {
  EXPECT_EQ(HloOpcodeOf("get-tuple-element"), HloOpcode::kGetTupleElement);
  EXPECT_EQ(HloOpcodeOf("all-reduce-start"), HloOpcode::kAllReduceStart);
  EXPECT_EQ(HloOpcodeOf("async-start"), HloOpcode::kAsyncStart);
  EXPECT_EQ(HloOpcodeOf("custom-call-start"), HloOpcode::kWrappedAsync);
  EXPECT_EQ(HloOpcodeOf("fusion-done"), HloOpcode::kWrappedAsync);
  EXPECT_EQ(HloOpcodeOf("frobnicate"), HloOpcode::kUnknown);
  EXPECT_EQ(HloOpcodeName(HloOpcode::kDynamicUpdateSlice),
            "dynamic-update-slice");
}

TEST(HloOpcodeTest, NearMissesAreUnknown) {
  // A text one byte off an opcode (cut, extended, case changed) is none.
  for (int k = 0; k < static_cast<int>(HloOpcode::kWrappedAsync); ++k) {
    const std::string text(HloOpcodeName(static_cast<HloOpcode>(k)));
    const std::string cut = text.substr(0, text.size() - 1);
    if (HloOpcodeOf(cut) != HloOpcode::kUnknown) {
      // A shorter opcode ("copy" from "copy-start" needs two bytes off).
      EXPECT_NE(HloOpcodeName(HloOpcodeOf(cut)), "") << cut;
    }
    EXPECT_EQ(HloOpcodeOf(text + "x"), HloOpcode::kUnknown) << text;
    // Case matters ("All-gather-done" is at most sugar for "All-gather").
    std::string upper = text;
    upper[0] = static_cast<char>(upper[0] - 'a' + 'A');
    EXPECT_GE(HloOpcodeOf(upper), HloOpcode::kWrappedAsync) << upper;
  }
  EXPECT_EQ(HloOpcodeOf(""), HloOpcode::kUnknown);
}

TEST(HloOpcodeTest, SugarNamesTheWrappedOpcodeAndStage) {
  HloAsyncSugar s = HloAsyncSugarOf("custom-call-update");
  EXPECT_EQ(s.stage, 1);
  EXPECT_EQ(s.wrapped, "custom-call");
  s = HloAsyncSugarOf("fusion-done");
  EXPECT_EQ(s.stage, 2);
  EXPECT_EQ(s.wrapped, "fusion");
  // Opcodes with start/done pairs of their own, and async itself.
  for (const char* own :
       {"async-start", "all-reduce-start", "all-gather-done", "copy-start",
        "send-done", "recv-done", "collective-permute-start",
        "all-to-all-start", "ragged-all-to-all-done", "reduce-scatter-start",
        "collective-broadcast-done", "-start", "start", "add"}) {
    EXPECT_EQ(HloAsyncSugarOf(own).stage, -1) << own;
  }
}

TEST(HloOpcodeTest, UnknownOpcodeWarningCountsInstructions) {
  EXPECT_EQ(UnknownOpcodeWarning("frob", 1),
            "warning: unknown opcode 'frob' (1 instruction, read with its "
            "shape as written)");
  EXPECT_EQ(UnknownOpcodeWarning("frob", 2),
            "warning: unknown opcode 'frob' (2 instructions, read with their "
            "shapes as written)");
}

TEST(HloOpcodeTest, StringifiesAndStreamsItsText) {
  EXPECT_EQ(Stringified(HloOpcode::kGetTupleElement), "get-tuple-element");
  EXPECT_EQ(Streamed(HloOpcode::kGetTupleElement), "get-tuple-element");
  EXPECT_EQ(Streamed(HloOpcode::kUnknown), "(unknown opcode)");
  EXPECT_EQ(Stringified(HloOpcode::kWrappedAsync), "(wrapped async)");
  for (int i = 0; i < kHloOpcodeCount; ++i) {
    const HloOpcode opcode = static_cast<HloOpcode>(i);
    EXPECT_FALSE(Streamed(opcode).empty()) << i;
    EXPECT_EQ(Streamed(opcode), Stringified(opcode));
  }
}

}  // namespace
}  // namespace hlolayout

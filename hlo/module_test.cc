#include "hlolayout/hlo/module.h"

#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace hlolayout {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(HloModule, FindHloAttribute) {
  const std::vector<HloAttribute> attributes = {
      {"kind", "kLoop"}, {"calls", "%f"}, {"kind", "kOutput"}};
  EXPECT_EQ(*FindHloAttribute(attributes, "kind"), "kLoop");
  EXPECT_EQ(*FindHloAttribute(attributes, "calls"), "%f");
  EXPECT_FALSE(FindHloAttribute(attributes, "metadata").has_value());
}

// A module costs about this much per item (module.h's header): a record
// that grows shows here first. 64-bit targets only.
TEST(HloModule, RecordSizes) {
  if (sizeof(void*) != 8) GTEST_SKIP() << "sizes are for 64-bit targets";
  EXPECT_LE(sizeof(HloInstruction), 112u);
  EXPECT_LE(sizeof(HloOperand), 32u);
  EXPECT_LE(sizeof(HloAttribute), 24u);
}

// Views keep 32-bit sizes: a longer one is a broken precondition, never a
// size cut short. (The reader refuses such an instruction: "instruction
// longer than 4 GiB".) Nothing reads the bytes past the name.
TEST(HloModuleDeathTest, ViewsOf4GiBOrMoreAreRefused) {
  if (sizeof(size_t) <= 4) GTEST_SKIP() << "no view can be that long";
  const char text[] = "x";
  const absl::string_view huge(text, size_t{1} << 32);
  HloInstruction in;
  in.set_name(absl::string_view(text, 1));
  EXPECT_EQ(in.name(), "x");
  EXPECT_DEATH(in.set_operand_text(huge), "4 GiB");
  EXPECT_DEATH(HloAttribute("a", huge), "4 GiB");
  in.set_operand_text(huge.substr(0, UINT32_MAX));
  EXPECT_EQ(in.operand_text().size(), UINT32_MAX);
}

// What optional<int32_t> says, in 4 bytes.
TEST(HloParameterNumber, ActsAsAnOptionalNumber) {
  HloParameterNumber n;
  EXPECT_FALSE(n.has_value());
  EXPECT_FALSE(n);
  EXPECT_EQ(n.value_or(-1), -1);
  n = 0;
  EXPECT_TRUE(n.has_value());
  EXPECT_TRUE(n);
  EXPECT_EQ(*n, 0);
  EXPECT_TRUE(n == 0);
  EXPECT_TRUE(n != 1);
  EXPECT_TRUE(n != HloParameterNumber());
  n = INT32_MAX;
  EXPECT_EQ(*n, INT32_MAX);
  EXPECT_EQ(n.value_or(-1), INT32_MAX);
  n.reset();
  EXPECT_EQ(n, HloParameterNumber(absl::nullopt));
  EXPECT_EQ(sizeof(HloParameterNumber), 4u);
}

TEST(HloParameterNumberDeathTest, NegativeNumbersAreRefused) {
  EXPECT_DEATH(HloParameterNumber(-1), "negative parameter number");
}

// A constant's literal is its operand text; no other opcode has one.
TEST(HloModule, LiteralIsTheConstantsOperandText) {
  HloInstruction in;
  in.set_operand_text("{1, 2, 3}");
  in.opcode = HloOpcode::kConstant;
  EXPECT_EQ(in.literal(), "{1, 2, 3}");
  in.opcode = HloOpcode::kAdd;
  EXPECT_THAT(in.literal(), IsEmpty());
}

TEST(HloModule, CalledComputationNames) {
  // The attributes an instruction views (HloInstruction::attributes).
  const HloAttribute a[] = {{"condition", "%cond.1"},
                            {"metadata", "{op_name=\"body\"}"},
                            {"body", "body-2"},
                            {"branch_computations", "{%a, /*index=1*/%b.c}"},
                            {"to_apply", "add"}};
  HloInstruction in;
  in.set_attributes(a);
  EXPECT_THAT(CalledComputationNames(in),
              ElementsAre("cond.1", "body-2", "a", "b.c", "add"));
  // select-and-scatter's two computations; a custom call's several.
  const HloAttribute b[] = {
      {"window", "{size=2}"}, {"select", "%ge"}, {"scatter", "%add.1"}};
  in.set_attributes(b);
  EXPECT_THAT(CalledComputationNames(in), ElementsAre("ge", "add.1"));
  const HloAttribute c[] = {{"custom_call_target", "\"f\""},
                            {"called_computations", "{%c0, %c1}"}};
  in.set_attributes(c);
  EXPECT_THAT(CalledComputationNames(in), ElementsAre("c0", "c1"));
  const HloAttribute d[] = {{"dimensions", "{0}"}};
  in.set_attributes(d);
  EXPECT_THAT(CalledComputationNames(in), IsEmpty());
}

// Lists added to a store keep their place while more are added, across
// blocks, and a list larger than a block gets one of its own.
TEST(HloListStore, ListsStayWhereTheyWereAdded) {
  HloListStore store;
  std::vector<absl::Span<HloOperand>> lists;
  std::vector<HloOperand> items(70000);
  for (size_t i = 0; i < items.size(); ++i) items[i].index = i;
  size_t at = 0;
  for (size_t size : {0, 1, 3, 63, 64, 1, 70000 - 132}) {
    lists.push_back(
        store.Add<HloOperand>(absl::MakeConstSpan(items).subspan(at, size)));
    at += size;
  }
  at = 0;
  for (absl::Span<HloOperand> list : lists) {
    for (const HloOperand& operand : list) {
      EXPECT_EQ(operand.index, static_cast<int32_t>(at++));
    }
  }
  EXPECT_EQ(at, items.size());
  const HloAttribute attribute[] = {{"calls", "%f"}};
  absl::Span<HloAttribute> copy = store.Add<HloAttribute>(attribute);
  ASSERT_EQ(copy.size(), 1u);
  EXPECT_NE(copy.data(), attribute);
  EXPECT_EQ(copy[0].value(), "%f");
}

TEST(HloModule, EntryAndInstructionCount) {
  HloModule m;
  m.computations.resize(2);
  m.computations[0].instructions.resize(3);
  m.computations[1].header.name = "main";
  m.computations[1].instructions.resize(2);
  m.entry_index = 1;
  EXPECT_EQ(m.entry().header.name, "main");
  EXPECT_EQ(m.instruction_count(), 5);
}

TEST(HloModuleDeathTest, EntryWithoutComputations) {
  HloModule m;
  EXPECT_DEATH(m.entry(), "module without an entry computation");
}

}  // namespace
}  // namespace hlolayout

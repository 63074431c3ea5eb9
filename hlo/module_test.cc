#include "hlolayout/hlo/module.h"

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

TEST(HloModule, CalledComputationNames) {
  HloInstruction in;
  in.attributes = {{"condition", "%cond.1"},
                   {"metadata", "{op_name=\"body\"}"},
                   {"body", "body-2"},
                   {"branch_computations", "{%a, /*index=1*/%b.c}"},
                   {"to_apply", "add"}};
  EXPECT_THAT(CalledComputationNames(in),
              ElementsAre("cond.1", "body-2", "a", "b.c", "add"));
  // select-and-scatter's two computations; a custom call's several.
  in.attributes = {
      {"window", "{size=2}"}, {"select", "%ge"}, {"scatter", "%add.1"}};
  EXPECT_THAT(CalledComputationNames(in), ElementsAre("ge", "add.1"));
  in.attributes = {{"custom_call_target", "\"f\""},
                   {"called_computations", "{%c0, %c1}"}};
  EXPECT_THAT(CalledComputationNames(in), ElementsAre("c0", "c1"));
  in.attributes = {{"dimensions", "{0}"}};
  EXPECT_THAT(CalledComputationNames(in), IsEmpty());
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

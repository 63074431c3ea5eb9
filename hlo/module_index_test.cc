#include "hlolayout/hlo/module_index.h"

#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/hlo/module.h"
#include "hlolayout/hlo/reader.h"

namespace hlolayout {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// As today's XLA prints: no shape written at a use, `%name#N` for an
// element of a multi-output instruction.
constexpr absl::string_view kModule = R"(HloModule m

%fused (p0: f32[8], p1: f32[8]) -> f32[8] {
  %p0 = f32[8]{0} parameter(0)
  %p1 = f32[8]{0} parameter(1)
  ROOT %add.1 = f32[8]{0} add(%p0, %p1)
}

ENTRY %main (a: f32[8], b: s32[4]) -> (f32[8], s32[4]) {
  %a = f32[8]{0} parameter(0)
  %b = s32[4]{0} parameter(1)
  %pair = (f32[8]{0}, s32[4]{0}) custom-call(%a, %b), custom_call_target="x"
  %fusion = f32[8]{0} fusion(%a, %pair#0), kind=kLoop, calls=%fused
  %twice = f32[8]{0} add(%fusion, %fusion)
  ROOT %t = (f32[8]{0}, s32[4]{0}) tuple(%twice, %pair#1)
}
)";

TEST(HloModuleIndex, FindsComputationsAndInstructionsByName) {
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(kModule);
  ASSERT_TRUE(modules.ok()) << modules.status();
  const HloModule& m = (*modules)[0];
  const HloModuleIndex index(m);
  EXPECT_EQ(index.ComputationIndex("fused"), 0);
  EXPECT_EQ(index.FindComputation("%main"), &m.computations[1]);
  EXPECT_EQ(index.FindComputation("nothing"), nullptr);
  EXPECT_EQ(index.FindInstruction("%fusion"), (HloInstructionPlace{1, 3}));
  EXPECT_EQ(index.FindInstruction("add.1"), (HloInstructionPlace{0, 2}));
  EXPECT_FALSE(index.FindInstruction("fused").found());
  EXPECT_EQ(index.Instruction("t"), &m.computations[1].instructions[5]);
  EXPECT_EQ(index.Instruction("u"), nullptr);
}

TEST(HloModuleIndex, UsersEachOnceInOrder) {
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(kModule);
  ASSERT_TRUE(modules.ok()) << modules.status();
  HloModule& m = (*modules)[0];
  {
    const HloModuleIndex index(m);
    EXPECT_THAT(index.users(index.FindInstruction("a")), ElementsAre(2, 3));
    EXPECT_THAT(index.users(index.FindInstruction("pair")), ElementsAre(3, 5));
    EXPECT_THAT(index.users(index.FindInstruction("fusion")), ElementsAre(4));
    EXPECT_THAT(index.users(index.FindInstruction("t")), IsEmpty());
    EXPECT_THAT(index.users(index.FindInstruction("p1")), ElementsAre(2));
    EXPECT_THAT(index.users(HloInstructionPlace{}), IsEmpty());
    EXPECT_THAT(index.users(HloInstructionPlace{0, 9}), IsEmpty());
  }
  // A module whose operands are not linked: found by name.
  std::vector<std::vector<HloOperand>> lists;
  for (HloComputation& c : m.computations) {
    for (HloInstruction& in : c.instructions) {
      lists.emplace_back(in.operands().begin(), in.operands().end());
      for (HloOperand& o : lists.back()) o.index = -1;
      in.set_operands(lists.back());
    }
  }
  const HloModuleIndex index(m);
  EXPECT_THAT(index.users(index.FindInstruction("pair")), ElementsAre(3, 5));
  EXPECT_THAT(index.users(index.FindInstruction("fusion")), ElementsAre(4));
}

TEST(HloModuleIndex, OperandShapesWhereTheDumpPrintsNone) {
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(kModule);
  ASSERT_TRUE(modules.ok()) << modules.status();
  const HloComputation& main = (*modules)[0].computations[1];
  const HloInstruction& fusion = main.instructions[3];
  ASSERT_EQ(fusion.operands().size(), 2u);
  EXPECT_EQ(fusion.operands()[0].shape, nullptr);  // not written
  const Shape* a = OperandShape(main, fusion.operands()[0]);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->ToString(true), "f32[8]{0}");
  const Shape* pair0 = OperandShape(main, fusion.operands()[1]);
  ASSERT_NE(pair0, nullptr);
  EXPECT_EQ(pair0->ToString(true), "f32[8]{0}");
  const Shape* pair1 = OperandShape(main, main.instructions[5].operands()[1]);
  ASSERT_NE(pair1, nullptr);
  EXPECT_EQ(pair1->ToString(true), "s32[4]{0}");
  HloOperand unknown;
  EXPECT_EQ(OperandShape(main, unknown), nullptr);
  unknown.index = 0;
  unknown.output_index = 0;  // element 0 of an array
  EXPECT_EQ(OperandShape(main, unknown), nullptr);
}

}  // namespace
}  // namespace hlolayout

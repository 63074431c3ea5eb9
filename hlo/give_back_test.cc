#include "hlolayout/hlo/give_back.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "hlolayout/hlo/module.h"
#include "hlolayout/hlo/reader.h"

namespace hlolayout {
namespace {

// A fused computation, then an entry of `n` adds, each of the previous
// result and the parameter: their operand lists fill whole pages.
std::string ChainModule(int n) {
  std::string text =
      "HloModule chain, is_scheduled=true\n\n"
      "%fused (a: f32[8], b: f32[8]) -> f32[8] {\n"
      "  %a = f32[8]{0} parameter(0)\n"
      "  %b = f32[8]{0} parameter(1)\n"
      "  ROOT %s = f32[8]{0} subtract(f32[8]{0} %a, f32[8]{0} %b)\n"
      "}\n\n"
      "ENTRY %main (p: f32[8]) -> f32[8] {\n"
      "  %p = f32[8]{0} parameter(0)\n"
      "  %v0 = f32[8]{0} fusion(%p, %p), kind=kLoop, calls=%fused\n";
  for (int k = 1; k <= n; ++k) {
    absl::StrAppend(&text, "  ", k == n ? "ROOT " : "", "%v", k,
                    " = f32[8]{0} add(f32[8]{0} %v", k - 1, ", %p)\n");
  }
  return text + "}\n";
}

// Preconditions: `text` outlives the module (its views point into it).
HloModule Read(const std::string& text) {
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
  EXPECT_TRUE(modules.ok()) << modules.status();
  EXPECT_EQ(modules->size(), 1u);
  return std::move(modules->front());
}

int32_t Index(const HloModule& module, absl::string_view name) {
  for (size_t c = 0; c < module.computations.size(); ++c) {
    if (module.computations[c].header.name == name) {
      return static_cast<int32_t>(c);
    }
  }
  return -1;
}

TEST(GiveBackOperandLists, EmptiesTheListsOfTheComputationsGivenOnly) {
  const std::string text = ChainModule(3);
  HloModule module = Read(text);
  const int32_t entry = static_cast<int32_t>(module.entry_index);
  const HloComputation& fused = module.computations[Index(module, "fused")];
  ASSERT_EQ(fused.instructions[2].operands().size(), 2u);

  GiveBackOperandLists(&module, {entry});

  for (const HloInstruction& in : module.entry().instructions) {
    EXPECT_TRUE(in.operands().empty()) << in.name();
  }
  // Nothing else changes.
  const HloInstruction& add = module.entry().instructions[2];
  EXPECT_EQ(add.name(), "v1");
  EXPECT_EQ(add.opcode, HloOpcode::kAdd);
  EXPECT_EQ(add.shape_text(), "f32[8]{0}");
  EXPECT_EQ(module.callees(module.entry().instructions[1]).size(), 1u);
  // The fused computation keeps its lists.
  const absl::Span<const HloOperand> kept = fused.instructions[2].operands();
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(kept[0].name, "a");
  EXPECT_EQ(kept[0].index, 0);
  EXPECT_EQ(kept[1].name, "b");
  EXPECT_EQ(kept[1].index, 1);
}

// Where pages go back (Linux), what was in them reads as zeros: the
// entry's records in the middle of the store's blocks are zeros, the fused
// computation's, in the same store, are not.
TEST(GiveBackOperandLists, GivesBackThePagesOfTheListsOnly) {
#ifndef __linux__
  GTEST_SKIP() << "pages are given back on Linux only";
#endif
  const int n = 20000;                      // 40,000 operand records: 1.2 MiB
  const std::string text = ChainModule(n);  // the module's views point in
  HloModule module = Read(text);
  const HloInstruction& middle = module.entry().instructions[n / 2];
  const HloOperand* record = middle.operands().data();
  ASSERT_EQ(middle.operands().size(), 2u);
  ASSERT_EQ(record->name, absl::StrCat("v", n / 2 - 2));
  const HloComputation& fused = module.computations[Index(module, "fused")];

  GiveBackOperandLists(&module, {static_cast<int32_t>(module.entry_index)});

  // The record's memory is still the store's (allocated until the module
  // goes); its page was given back.
  EXPECT_EQ(record->name.data(), nullptr);
  EXPECT_EQ(record->index, 0);
  EXPECT_EQ(fused.instructions[2].operands()[0].name, "a");
  EXPECT_EQ(fused.instructions[2].operands()[1].name, "b");
}

// A copy shares the stores: the original's lists are emptied, no page is
// given back, and the copy reads its lists as before.
TEST(GiveBackOperandLists, ACopySharingTheStoresKeepsItsLists) {
  const int n = 20000;
  const std::string text = ChainModule(n);
  HloModule module = Read(text);
  const HloModule copy = module;

  GiveBackOperandLists(&module, {static_cast<int32_t>(module.entry_index)});

  EXPECT_TRUE(module.entry().instructions[n / 2].operands().empty());
  const absl::Span<const HloOperand> operands =
      copy.entry().instructions[n / 2].operands();
  ASSERT_EQ(operands.size(), 2u);
  EXPECT_EQ(operands[0].name, absl::StrCat("v", n / 2 - 2));
  EXPECT_EQ(operands[1].name, "p");
  EXPECT_EQ(operands[1].index, 0);
}

// Lists in the caller's memory, not a store's, are emptied and left alone
// (the module has a store of its own, whose pages could go back).
TEST(GiveBackOperandLists, ListsInTheCallersMemoryAreLeftAlone) {
  std::vector<HloOperand> mine(100000);
  for (HloOperand& o : mine) o.index = 7;
  const std::string text = ChainModule(3);
  HloModule module = Read(text);
  ASSERT_EQ(module.lists.size(), 1u);
  module.computations.emplace_back();
  std::vector<HloInstruction>& instructions =
      module.computations.back().instructions;
  instructions.resize(1000);
  for (size_t k = 0; k < instructions.size(); ++k) {
    instructions[k].set_operands(
        absl::MakeConstSpan(mine).subspan(k * 100, 100));
  }

  GiveBackOperandLists(&module,
                       {static_cast<int32_t>(module.computations.size() - 1)});

  for (const HloInstruction& in : instructions) {
    EXPECT_TRUE(in.operands().empty());
  }
  for (const HloOperand& o : mine) ASSERT_EQ(o.index, 7);
  EXPECT_EQ(module.entry().instructions[2].operands().size(), 2u);
}

TEST(GiveBackOperandLists, NoComputationsChangesNothing) {
  const std::string text = ChainModule(3);
  HloModule module = Read(text);
  GiveBackOperandLists(&module, {});
  EXPECT_EQ(module.entry().instructions[2].operands().size(), 2u);
}

TEST(GiveBackOperandListsDeathTest, AComputationOutOfRangeIsRefused) {
  const std::string text = ChainModule(3);
  HloModule module = Read(text);
  EXPECT_DEATH(GiveBackOperandLists(&module, {2}), "computation 2 of 2");
  EXPECT_DEATH(GiveBackOperandLists(&module, {-1}), "computation -1 of 2");
}

}  // namespace
}  // namespace hlolayout

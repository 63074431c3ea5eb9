#include "hlolayout/memory/dump_text.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/memory/live_range.h"
#include "hlolayout/testing/test_data.h"
#include "hlolayout/views/live_range_text.h"

namespace hlolayout {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr char kTwoModules[] = R"(HloModule first, is_scheduled=true
ENTRY %main (p: f32[256]) -> f32[256] {
  %p = f32[256]{0} parameter(0)
  %a = f32[256]{0} frobnicate(%p)
  %b = f32[256]{0} frobnicate(%a)
  ROOT %c = f32[256]{0} negate(%b)
}

// -----

HloModule second, is_scheduled=true
ENTRY %main (p: f32[8]) -> f32[8] {
  %p = f32[8]{0} parameter(0)
  ROOT %n = f32[8]{0} negate(%p)
}
)";

// With two threads the warnings are found while the first module is
// analysed: the same warnings, there before the first module's visit.
TEST(DumpTextTest, VisitsEveryModuleInOrderAndWarnsOfUnknownOpcodes) {
  for (const int threads : {1, 2}) {
    DumpTextOptions options;
    options.file_name = "two.txt";
    options.platform = XlaPlatform::kCpu;
    options.threads = threads;
    std::vector<std::string> warnings, names;
    std::vector<HloModule> kept;
    const absl::Status s = ForEachDumpModule(
        kTwoModules, options, &warnings,
        [&](const HloModule& module, DumpModuleMemory& m) {
          names.push_back(std::string(module.header.name));
          EXPECT_EQ(m.platform, DumpPlatform::kCpu);
          EXPECT_TRUE(m.has_allocations());
          EXPECT_EQ(warnings.size(), 1u) << threads;
          return absl::OkStatus();
        },
        &kept);
    ASSERT_TRUE(s.ok()) << s;
    EXPECT_THAT(names, ElementsAre("first", "second"));
    EXPECT_EQ(kept.size(), 2u);
    EXPECT_THAT(warnings, ElementsAre("two.txt:4:20: warning: unknown opcode "
                                      "'frobnicate' (2 instructions, read "
                                      "with their shapes as written)\n"
                                      "  %a = f32[256]{0} frobnicate(%p)\n"
                                      "                   ^"))
        << threads;
  }
}

// The reader's counts decide which modules are looked at again: none when
// every count is 0 (the warnings emptied), every instruction of a module
// that was not counted (-1).
TEST(DumpTextTest, WarningsFollowTheCountsOfUnknownOpcodes) {
  const absl::StatusOr<std::vector<HloModule>> read =
      ReadHloModules(kTwoModules);
  ASSERT_TRUE(read.ok()) << read.status();
  std::vector<HloModule> modules = *read;
  EXPECT_EQ(modules[0].unknown_opcodes, 2);
  EXPECT_EQ(modules[1].unknown_opcodes, 0);
  EXPECT_EQ(UnknownOpcodeWarnings(kTwoModules, "", modules).size(), 1u);
  modules[0].unknown_opcodes = -1;
  EXPECT_EQ(UnknownOpcodeWarnings(kTwoModules, "", modules).size(), 1u);
  std::vector<std::string> warnings = {"left over"};
  DumpTextOptions options;
  options.platform = XlaPlatform::kCpu;
  const absl::Status s = ForEachDumpModule(
      "HloModule m, is_scheduled=true\nENTRY %e (p: f32[8]) -> f32[8] {\n"
      "  ROOT %p = f32[8]{0} parameter(0)\n}\n",
      options, &warnings,
      [](const HloModule&, DumpModuleMemory&) { return absl::OkStatus(); });
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_TRUE(warnings.empty());
}

TEST(DumpTextTest, TheVisitorsErrorStops) {
  int visits = 0;
  const absl::Status s = ForEachDumpModule(
      kTwoModules, {}, nullptr, [&](const HloModule&, DumpModuleMemory&) {
        ++visits;
        return absl::InvalidArgumentError("stop here");
      });
  EXPECT_EQ(s.message(), "stop here");
  EXPECT_EQ(visits, 1);
}

// text_read is called once, after the reading and before the first
// analysis; never for a text that does not read.
TEST(DumpTextTest, TextReadIsCalledOnceBeforeTheAnalyses) {
  std::vector<std::string> events;
  DumpTextOptions options;
  options.text_read = [&events] { events.push_back("text read"); };
  ASSERT_TRUE(
      ForEachDumpModule(kTwoModules, options, nullptr,
                        [&](const HloModule& module, DumpModuleMemory&) {
                          events.push_back(std::string(module.header.name));
                          return absl::OkStatus();
                        })
          .ok());
  EXPECT_THAT(events, ElementsAre("text read", "first", "second"));
  events.clear();
  EXPECT_FALSE(
      ForEachDumpModule(
          "HloModule m\nENTRY %e () -> f32[] {\n  ROOT %x = f32[] bogus(\n}\n",
          options, nullptr,
          [](const HloModule&, DumpModuleMemory&) { return absl::OkStatus(); })
          .ok());
  EXPECT_TRUE(events.empty());
}

TEST(DumpTextTest, TheFileNameDecidesThePlatform) {
  const std::string text = ReadTestData(
      "memory/testdata/"
      "module_105197.jit_mlp_step.sm_9.0a_gpu_after_optimizations.txt");
  DumpTextOptions options;
  options.file_name =
      "module_105197.jit_mlp_step.sm_9.0a_gpu_after_optimizations.txt";
  std::vector<DumpPlatform> seen;
  ASSERT_TRUE(ForEachDumpModule(text, options, nullptr,
                                [&](const HloModule&, DumpModuleMemory& m) {
                                  seen.push_back(m.platform);
                                  return absl::OkStatus();
                                })
                  .ok());
  EXPECT_THAT(seen, ElementsAre(DumpPlatform::kGpu));
}

// A module that looks like XLA:TPU's (tiled layouts): its answer is the
// live ranges alone.
constexpr char kTpuModule[] = R"(HloModule tpu, is_scheduled=true
%fused (a: f32[8,128], b: f32[8,128]) -> f32[8,128] {
  %a = f32[8,128]{1,0:T(8,128)} parameter(0)
  %b = f32[8,128]{1,0:T(8,128)} parameter(1)
  ROOT %s = f32[8,128]{1,0:T(8,128)} subtract(%a, %b)
}

ENTRY %main (p: f32[8,128]) -> (f32[8,128], f32[8,128]) {
  %p = f32[8,128]{1,0:T(8,128)} parameter(0)
  %n = f32[8,128]{1,0:T(8,128)} negate(%p)
  %f = f32[8,128]{1,0:T(8,128)} fusion(%n, %p), kind=kLoop, calls=%fused
  ROOT %t = (f32[8,128]{1,0:T(8,128)}, f32[8,128]{1,0:T(8,128)}) tuple(%f, %n)
}
)";

// Reads `text` with `options` and returns each module's live ranges as
// XLA writes them, and the modules kept.
std::vector<std::string> LiveRanges(absl::string_view text,
                                    const DumpTextOptions& options,
                                    std::vector<HloModule>* kept) {
  std::vector<std::string> out;
  const absl::Status s = ForEachDumpModule(
      text, options, nullptr,
      [&](const HloModule&, DumpModuleMemory& m) {
        out.push_back(absl::StrCat(DumpPlatformName(m.platform), "\n",
                                   XlaLiveRangeText(m.live_ranges())));
        return absl::OkStatus();
      },
      kept);
  EXPECT_TRUE(s.ok()) << s;
  return out;
}

// give_back_operands: where the answer is the live ranges alone, the
// scheduled computations' operand lists are empty once the module is
// analysed (the fused one keeps its); the answers are the same. A GPU
// module's buffer assignment reads them to the end: they stay.
TEST(DumpTextTest, GiveBackOperandsEmptiesTheScheduledListsOfTpuModules) {
  for (const int threads : {1, 2}) {
    DumpTextOptions options;
    options.threads = threads;
    std::vector<HloModule> plain, given;
    const std::vector<std::string> expected =
        LiveRanges(kTpuModule, options, &plain);
    options.give_back_operands = true;
    EXPECT_EQ(LiveRanges(kTpuModule, options, &given), expected);
    ASSERT_EQ(expected.size(), 1u);
    EXPECT_THAT(expected[0], StartsWith("tpu\n"));
    ASSERT_EQ(given.size(), 1u);
    const HloModule& module = given[0];
    for (const HloInstruction& in : module.entry().instructions) {
      EXPECT_TRUE(in.operands().empty()) << in.name();
    }
    EXPECT_EQ(plain[0].entry().instructions[2].operands().size(), 2u);
    ASSERT_EQ(module.computations[0].header.name, "fused");
    EXPECT_EQ(module.computations[0].instructions[2].operands().size(), 2u);
  }
  const std::string gpu_name =
      "module_105197.jit_mlp_step.sm_9.0a_gpu_after_optimizations.txt";
  const std::string gpu = ReadTestData("memory/testdata/" + gpu_name);
  DumpTextOptions options;
  options.file_name = gpu_name;
  options.give_back_operands = true;
  std::vector<HloModule> kept;
  ASSERT_THAT(LiveRanges(gpu, options, &kept),
              ElementsAre(StartsWith("gpu\n")));
  size_t operands = 0;
  for (const HloInstruction& in : kept[0].entry().instructions) {
    operands += in.operands().size();
  }
  EXPECT_GT(operands, 0u);
}

TEST(DumpTextTest, BadTextIsRefusedLocated) {
  auto never = [](const HloModule&, DumpModuleMemory&) {
    ADD_FAILURE() << "visited";
    return absl::OkStatus();
  };
  DumpTextOptions options;
  options.file_name = "e.txt";
  EXPECT_THAT(ForEachDumpModule("", options, nullptr, never).message(),
              HasSubstr("e.txt"));
  const absl::Status bad = ForEachDumpModule(
      "HloModule m\nENTRY %e () -> f32[] {\n  ROOT %x = f32[] bogus(\n}\n",
      options, nullptr, never);
  EXPECT_FALSE(bad.ok());
  EXPECT_THAT(bad.message(), HasSubstr("e.txt:"));
  // Cut before ENTRY: the last computation is not the module's entry.
  const absl::Status cut = ForEachDumpModule(
      "HloModule m, entry_computation_layout={(f32[4]{0}, "
      "f32[4]{0})->f32[4]{0}}\n"
      "%fused (p: f32[4]) -> f32[4] {\n  %p = f32[4]{0} parameter(0)\n"
      "  ROOT %n = f32[4]{0} negate(%p)\n}\n",
      options, nullptr, never);
  EXPECT_THAT(cut.message(), HasSubstr("cut before its ENTRY"));
}

}  // namespace
}  // namespace hlolayout

#include "hlolayout/memory/dump_text.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/test_data.h"

namespace hlolayout {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

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

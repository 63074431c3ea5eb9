#include "hlolayout/memory/module_figures.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace hlolayout {
namespace {

constexpr char kScheduled[] = R"(HloModule jit_f, is_scheduled=true

ENTRY %main (p: f32[256]) -> f32[256] {
  %p = f32[256]{0} parameter(0)
  %e = f32[256]{0} exponential(%p)
  ROOT %a = f32[256]{0} add(%e, %p)
}
)";

// A scheduled module analysed under the file name's platform.
TEST(ModuleFiguresTest, ScheduledModulesOnly) {
  HloReadOptions read;
  read.file_name = "module_0001.jit_f.cpu_after_optimizations.txt";
  absl::StatusOr<std::vector<ModuleMemoryFigures>> f =
      ModuleMemoryFiguresOf(kScheduled, read);
  ASSERT_TRUE(f.ok()) << f.status();
  ASSERT_EQ(f->size(), 1u);
  const ModuleMemoryFigures& s = (*f)[0];
  EXPECT_TRUE(s.scheduled);
  EXPECT_EQ(s.platform, "cpu");
  EXPECT_EQ(s.error, "");
  // The parameter and the output (1 KiB each) are allocated; the live
  // ranges hold at most the parameter, the exponential and the output.
  EXPECT_EQ(s.allocated_bytes, s.memory_analysis.allocated_bytes());
  EXPECT_GE(s.allocated_bytes, 2048);
  EXPECT_GE(s.peak_bytes, 2048);
}

// No scheduled module: nothing read, no figures.
TEST(ModuleFiguresTest, NoneWithoutSchedule) {
  absl::StatusOr<std::vector<ModuleMemoryFigures>> f = ModuleMemoryFiguresOf(
      "HloModule m\n\nENTRY %e (p: f32[2]) -> f32[2] {\n"
      "  ROOT %p = f32[2]{0} parameter(0)\n}\n",
      HloReadOptions());
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_TRUE(f->empty());
}

}  // namespace
}  // namespace hlolayout

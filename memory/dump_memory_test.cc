#include "hlolayout/memory/dump_memory.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/hlo/reader.h"

namespace hlolayout {
namespace {

constexpr char kPlain[] = R"(HloModule m, is_scheduled=true
ENTRY main {
  p = f32[256]{0} parameter(0)
  ROOT n = f32[256]{0} negate(p)
}
)";

constexpr char kTiled[] = R"(HloModule m, is_scheduled=true
ENTRY main {
  p = f32[8,128]{1,0:T(8,128)} parameter(0)
  ROOT n = f32[8,128]{1,0:T(8,128)} negate(p)
}
)";

HloModule Read(const char* text) {
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
  EXPECT_TRUE(modules.ok()) << modules.status();
  return std::move((*modules)[0]);
}

TEST(DumpMemory, PlatformFromTheFileNameAndTheModule) {
  const HloModule plain = Read(kPlain);
  const HloModule tiled = Read(kTiled);
  EXPECT_EQ(ChooseDumpPlatform(plain, "a.sm_9.0a_gpu_after_optimizations.txt",
                               absl::nullopt),
            DumpPlatform::kGpu);
  EXPECT_EQ(
      ChooseDumpPlatform(plain, "a.cpu_after_optimizations.txt", absl::nullopt),
      DumpPlatform::kCpu);
  EXPECT_EQ(ChooseDumpPlatform(plain, "dir/a.tpu_after_optimizations.txt",
                               absl::nullopt),
            DumpPlatform::kTpu);
  // Tiled layouts say XLA:TPU whatever the name ...
  EXPECT_EQ(ChooseDumpPlatform(tiled, "x.txt", absl::nullopt),
            DumpPlatform::kTpu);
  // ... unless the caller asks for a platform's rules.
  EXPECT_EQ(ChooseDumpPlatform(tiled, "x.txt", XlaPlatform::kCpu),
            DumpPlatform::kCpu);
  EXPECT_EQ(DumpPlatformName(DumpPlatform::kTpu), "tpu");
}

TEST(DumpMemory, TpuModulesGetTheirLiveRangesOnly) {
  const HloModule tiled = Read(kTiled);
  absl::StatusOr<DumpModuleMemory> tpu =
      AnalyzeDumpModule(tiled, DumpPlatform::kTpu);
  ASSERT_TRUE(tpu.ok()) << tpu.status();
  EXPECT_FALSE(tpu->has_allocations());
  EXPECT_TRUE(tpu->memory.buffers.allocations.empty());
  EXPECT_GT(tpu->live_ranges().peak.bytes, 0);
  absl::StatusOr<DumpModuleMemory> gpu =
      AnalyzeDumpModule(tiled, DumpPlatform::kGpu);
  ASSERT_TRUE(gpu.ok()) << gpu.status();
  EXPECT_TRUE(gpu->has_allocations());
  EXPECT_FALSE(gpu->memory.buffers.allocations.empty());
  EXPECT_EQ(gpu->memory.buffers.platform, XlaPlatform::kGpu);
}

}  // namespace
}  // namespace hlolayout

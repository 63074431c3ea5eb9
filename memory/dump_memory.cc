#include "hlolayout/memory/dump_memory.h"

#include <utility>

namespace hlolayout {

absl::string_view DumpPlatformName(DumpPlatform platform) {
  switch (platform) {
    case DumpPlatform::kGpu:
      return "gpu";
    case DumpPlatform::kCpu:
      return "cpu";
    case DumpPlatform::kTpu:
      return "tpu";
  }
  return "gpu";
}

DumpPlatform ChooseDumpPlatform(const HloModule& module,
                                absl::string_view file_name,
                                absl::optional<XlaPlatform> requested) {
  XlaPlatform platform;
  if (requested.has_value()) {
    platform = *requested;
  } else if (LooksLikeXlaTpu(module, file_name)) {
    return DumpPlatform::kTpu;
  } else {
    platform = DetectXlaPlatform(module, file_name);
  }
  return platform == XlaPlatform::kGpu ? DumpPlatform::kGpu
                                       : DumpPlatform::kCpu;
}

absl::StatusOr<DumpModuleMemory> AnalyzeDumpModule(
    const HloModule& module, DumpPlatform platform,
    absl::Span<const std::string> xla_creation_order, int threads,
    const std::function<void(absl::Span<const int32_t>)>& operands_read) {
  DumpModuleMemory out;
  out.platform = platform;
  if (platform == DumpPlatform::kTpu) {
    MemoryAnalysisOptions analysis;
    analysis.threads = threads;
    analysis.operands_read = operands_read;
    absl::StatusOr<MemoryAnalysis> live_ranges =
        AnalyzeMemory(module, analysis);
    if (!live_ranges.ok()) return live_ranges.status();
    out.memory.live_ranges = *std::move(live_ranges);
    return out;
  }
  BufferAssignmentOptions options;
  options.platform =
      platform == DumpPlatform::kGpu ? XlaPlatform::kGpu : XlaPlatform::kCpu;
  options.xla_creation_order.assign(xla_creation_order.begin(),
                                    xla_creation_order.end());
  options.threads = threads;
  absl::StatusOr<ModuleMemory> memory = AnalyzeModuleMemory(module, options);
  if (!memory.ok()) return memory.status();
  out.memory = *std::move(memory);
  return out;
}

}  // namespace hlolayout

#include "hlolayout/memory/dump_memory.h"

#include <utility>

namespace hlolayout {

absl::string_view DumpPlatformName(DumpPlatform platform) {
  return XlaPlatformName(platform);
}

DumpPlatform ChooseDumpPlatform(const HloModule& module,
                                absl::string_view file_name,
                                absl::optional<XlaPlatform> requested) {
  if (requested.has_value()) return *requested;
  return DetectXlaPlatform(module, file_name);
}

absl::StatusOr<DumpModuleMemory> AnalyzeDumpModule(
    const HloModule& module, DumpPlatform platform,
    absl::Span<const std::string> xla_creation_order, int threads,
    const std::function<void(absl::Span<const int32_t>)>& operands_read,
    bool tpu_buffers, absl::optional<TpuGeneration> tpu_generation) {
  DumpModuleMemory out;
  out.platform = platform;
  out.tpu_buffers = platform == DumpPlatform::kTpu && tpu_buffers;
  if (platform == DumpPlatform::kTpu && !tpu_buffers) {
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
  options.platform = platform;
  options.xla_creation_order.assign(xla_creation_order.begin(),
                                    xla_creation_order.end());
  options.threads = threads;
  if (platform == DumpPlatform::kTpu) options.tpu_generation = tpu_generation;
  absl::StatusOr<ModuleMemory> memory = AnalyzeModuleMemory(module, options);
  if (!memory.ok()) return memory.status();
  out.memory = *std::move(memory);
  return out;
}

}  // namespace hlolayout

#include "hlolayout/memory/module_figures.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "hlolayout/memory/dump_memory.h"
#include "hlolayout/memory/live_range.h"

namespace hlolayout {
namespace {

bool IsScheduled(const HloModule& module) {
  for (const HloAttribute& a : module.header.attributes) {
    if (a.name() == "is_scheduled") return a.value() == "true";
  }
  return false;
}

// The figures of one module read from the file `file_name`.
ModuleMemoryFigures FiguresOf(const HloModule& module,
                              absl::string_view file_name) {
  ModuleMemoryFigures f;
  if (!IsScheduled(module)) return f;
  f.scheduled = true;
  const DumpPlatform platform =
      ChooseDumpPlatform(module, file_name, absl::nullopt);
  f.platform = std::string(DumpPlatformName(platform));
  absl::StatusOr<DumpModuleMemory> analysed =
      AnalyzeDumpModule(module, platform);
  if (!analysed.ok()) {
    f.error = std::string(analysed.status().message());
    return f;
  }
  f.peak_bytes = analysed->live_ranges().peak.bytes;
  // XLA:TPU's buffer assignment is not modelled: the live ranges only.
  if (analysed->has_allocations()) {
    f.memory_analysis = analysed->memory.buffers.stats;
    f.allocated_bytes = f.memory_analysis.allocated_bytes();
  }
  return f;
}

}  // namespace

absl::StatusOr<std::vector<ModuleMemoryFigures>> ModuleMemoryFiguresOf(
    absl::string_view text, const HloReadOptions& read) {
  std::vector<ModuleMemoryFigures> figures;
  if (!absl::StrContains(text, "is_scheduled=true")) return figures;
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text, read);
  if (!modules.ok()) return modules.status();
  figures.reserve(modules->size());
  for (const HloModule& module : *modules) {
    figures.push_back(FiguresOf(module, read.file_name));
  }
  return figures;
}

}  // namespace hlolayout

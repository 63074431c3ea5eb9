// The full report (report.h, BuildReport): the text read once into modules
// (ReadHloModules), the rows and totals built from them (ReplayModules),
// then for each module the memory analyses of memory/ and the padding
// wasters ranked by buffer.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/memory/dump_memory.h"
#include "hlolayout/memory/live_range.h"
#include "hlolayout/report/report.h"
#include "hlolayout/report/report_internal.h"

namespace hlolayout::report_internal {
namespace {

bool IsScheduled(const HloModule& module) {
  for (const HloAttribute& a : module.header.attributes) {
    if (a.name() == "is_scheduled") return a.value() == "true";
  }
  return false;
}

// The analyses of one module and its wasters, into `*out`.
void AnalyzeModule(std::shared_ptr<const HloModule> module,
                   const ReportOptions& options, ModuleReport* out) {
  const HloModule& m = *module;
  ModuleMemoryFacts& facts = out->memory;
  facts.scheduled = IsScheduled(m);
  MemoryAnalysisOptions analysis_options;
  analysis_options.keep_dataflow = true;
  analysis_options.allow_unscheduled = true;
  absl::StatusOr<MemoryAnalysis> analysis = AnalyzeMemory(m, analysis_options);
  if (options.top_wasters > 0) {
    if (analysis.ok()) {
      out->top_wasters = BufferWasters(m, *analysis, options.top_wasters);
    } else {
      out->top_wasters = ValueWasters(m, *out, options.top_wasters);
      out->wasters_note = absl::StrCat(
          "each value on its own, aliases not known: the memory analysis "
          "refused the module (",
          analysis.status().message(), ")");
    }
  }
  out->module = std::move(module);
  if (!facts.scheduled) return;
  if (!analysis.ok()) {
    facts.error = std::string(analysis.status().message());
    return;
  }
  const DumpPlatform platform =
      ChooseDumpPlatform(m, options.read.file_name, absl::nullopt);
  facts.platform = std::string(DumpPlatformName(platform));
  if (platform == DumpPlatform::kTpu) {
    analysis->dataflow.reset();  // only the live ranges are kept
    facts.live_ranges =
        std::make_shared<const MemoryAnalysis>(*std::move(analysis));
    return;
  }
  BufferAssignmentOptions buffer_options;
  buffer_options.platform = platform;
  if (!options.allocations) {
    analysis->dataflow.reset();
    facts.live_ranges =
        std::make_shared<const MemoryAnalysis>(*std::move(analysis));
    return;
  }
  absl::StatusOr<BufferAssignment> buffers =
      AssignBuffers(m, *analysis, buffer_options);
  if (!buffers.ok()) {
    facts.error = std::string(buffers.status().message());
    return;
  }
  auto memory = std::make_shared<ModuleMemory>();
  memory->live_ranges = *std::move(analysis);
  memory->buffers = *std::move(buffers);
  facts.live_ranges =
      std::shared_ptr<const MemoryAnalysis>(memory, &memory->live_ranges);
  facts.memory = std::move(memory);
}

}  // namespace

absl::Status AppendFullReport(absl::string_view text,
                              const ReportOptions& options, Report* report) {
  std::vector<absl::Status> errors;
  absl::StatusOr<std::vector<HloModule>> modules =
      ReadHloModules(text, options.read, &errors);
  if (!modules.ok()) return modules.status();
  const size_t first = report->modules.size();
  ReplayModules(*modules, errors, options, report);
  for (size_t i = 0; i < modules->size(); ++i) {
    AnalyzeModule(std::make_shared<const HloModule>(std::move((*modules)[i])),
                  options, &report->modules[first + i]);
  }
  if (!errors.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(errors.size(), " errors in the hlo text"));
  }
  return absl::OkStatus();
}

}  // namespace hlolayout::report_internal

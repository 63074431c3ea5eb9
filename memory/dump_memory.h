// memory/dump_memory.h: the memory answer for one module of a dump, with
// the platform whose rules apply decided in one place for every caller
// (`hlolayout memory`, `memory --html`, `report DIR`, `report --html`,
// hl.memory()).
//
//   HloModule jit_f, is_scheduled=true   (file
//   ...sm_9.0a_gpu_after_optimizations.txt)
//
//   DumpPlatform p = ChooseDumpPlatform(module, file_name, absl::nullopt);
//   // kGpu: the file name says sm_9.0a and gpu
//   absl::StatusOr<DumpModuleMemory> m = AnalyzeDumpModule(module, p);
//   m->has_allocations();                       // true: GPU's rules apply
//   m->memory.buffers.stats.temp_size_in_bytes;
//
// XLA:TPU's buffer assignment (memory spaces, its own heap rules) is not
// modelled: a module that looks like XLA:TPU's gets its live ranges only,
// unless the caller asks for GPU or CPU rules.
//
// Preconditions: `module` was read by ReadHloModules and outlives the
// result (names and shapes point into it).
#ifndef HLOLAYOUT_MEMORY_DUMP_MEMORY_H_
#define HLOLAYOUT_MEMORY_DUMP_MEMORY_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/optional.h"
#include "absl/types/span.h"
#include "hlolayout/hlo/module.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/memory/tpu_chip.h"

namespace hlolayout {

// The one platform enum (memory/buffer_assignment.h), by its older name.
using DumpPlatform = XlaPlatform;

// "gpu", "cpu" or "tpu" (XlaPlatformName).
absl::string_view DumpPlatformName(DumpPlatform platform);

// `requested`: the platform the user asked for, whose rules then apply
// whatever the module looks like. Without one: DetectXlaPlatform (kTpu for
// a module that looks like XLA:TPU's).
DumpPlatform ChooseDumpPlatform(const HloModule& module,
                                absl::string_view file_name,
                                absl::optional<XlaPlatform> requested);

// One module's memory: the live ranges always; for kGpu and kCpu also the
// buffer assignment (`memory.buffers`); for kTpu only when asked for
// (`tpu_buffers`): the model of XLA:TPU's assignment whose rules
// docs/xla-tpu.md lists, not yet XLA:TPU's in every respect, so the
// figures of `memory`'s text are not taken from it.
struct DumpModuleMemory {
  DumpPlatform platform = DumpPlatform::kGpu;
  ModuleMemory memory;
  bool tpu_buffers = false;  // kTpu: memory.buffers holds the TPU model

  bool has_allocations() const { return platform != DumpPlatform::kTpu; }
  const MemoryAnalysis& live_ranges() const { return memory.live_ranges; }
};

// The analysis of `module` under `platform`'s rules (AnalyzeMemory for
// kTpu, AnalyzeModuleMemory for the others); their errors as they give
// them.
// `xla_creation_order`: BufferAssignmentOptions::xla_creation_order.
// `threads`: MemoryAnalysisOptions::threads (the answers do not depend on
// it).
// `operands_read`: MemoryAnalysisOptions::operands_read, for kTpu (may be
// empty). For kGpu and kCpu it is never called: their buffer assignment
// reads the operand lists to the end.
// `tpu_buffers`: for kTpu, the buffer assignment too (XLA:TPU's rules,
// docs/xla-tpu.md; `operands_read` is then not called).
// `tpu_generation`: BufferAssignmentOptions::tpu_generation, for kTpu.
absl::StatusOr<DumpModuleMemory> AnalyzeDumpModule(
    const HloModule& module, DumpPlatform platform,
    absl::Span<const std::string> xla_creation_order = {}, int threads = 1,
    const std::function<void(absl::Span<const int32_t>)>& operands_read =
        nullptr,
    bool tpu_buffers = false,
    absl::optional<TpuGeneration> tpu_generation = absl::nullopt);

}  // namespace hlolayout

#endif  // HLOLAYOUT_MEMORY_DUMP_MEMORY_H_

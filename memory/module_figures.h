// memory/module_figures.h: the memory figures of each module of a text, one
// line each in a dump folder's table (`hlolayout memory DIR`,
// `hlolayout report DIR`, hl.memory(DIR), hl.report(DIR)): whether it is
// scheduled, what XLA will allocate (memory/buffer_assignment.h) and the peak
// of its live ranges (memory/live_range.h).
//
//   HloModule jit_f, is_scheduled=true   (file ..._gpu_after_optimizations.txt)
//
//   HloReadOptions read;
//   read.file_name = "module_0001.jit_f.sm_9.0a_gpu_after_optimizations.txt";
//   absl::StatusOr<std::vector<ModuleMemoryFigures>> f =
//       ModuleMemoryFiguresOf(text, read);
//   (*f)[0].platform         // "gpu"
//   (*f)[0].allocated_bytes  // arguments + temp + outputs - aliases
//   (*f)[0].peak_bytes       // the live-range peak
#ifndef HLOLAYOUT_MEMORY_MODULE_FIGURES_H_
#define HLOLAYOUT_MEMORY_MODULE_FIGURES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/memory/buffer_assignment.h"

namespace hlolayout {

// One module's figures. Not scheduled: scheduled false, the rest unset.
struct ModuleMemoryFigures {
  bool scheduled = false;  // is_scheduled=true
  // "gpu" or "cpu"; "tpu" for a module that looks like XLA:TPU's, whose
  // allocations are not modelled here (allocated_bytes -1, peak_bytes set).
  std::string platform;
  // -1 when not scheduled, not modelled or the analysis failed.
  int64_t allocated_bytes = -1;
  XlaMemoryStats memory_analysis;  // set with allocated_bytes
  int64_t peak_bytes = -1;         // -1 when not scheduled or failed
  std::string error;               // why the analysis failed, or ""
};

// ModuleMemoryFiguresOf
//
// The figures of every module of `text` read with `read` (its file_name
// chooses the platform, memory/dump_memory.h), in text order; none when no
// module of the text is scheduled (the text is then not read). A module
// whose analysis fails has its `error`; the reader's errors are returned.
absl::StatusOr<std::vector<ModuleMemoryFigures>> ModuleMemoryFiguresOf(
    absl::string_view text, const HloReadOptions& read);

}  // namespace hlolayout

#endif  // HLOLAYOUT_MEMORY_MODULE_FIGURES_H_

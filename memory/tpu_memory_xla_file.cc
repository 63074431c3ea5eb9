// The answer of memory/tpu_memory.h for XLA:TPU's own buffer-assignment
// file (memory/xla_buffer_file.h): the same spaces, fit and padding, from
// the allocations XLA:TPU made instead of the model's.
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/optional.h"
#include "hlolayout/hlo/source_location.h"
#include "hlolayout/memory/live_range.h"
#include "hlolayout/memory/tpu_chip.h"
#include "hlolayout/memory/tpu_memory.h"
#include "hlolayout/memory/tpu_memory_internal.h"
#include "hlolayout/memory/xla_buffer_file.h"

namespace hlolayout {

absl::StatusOr<TpuMemory> AnswerTpuMemoryOfXlaFile(
    const XlaBufferFile& file, const TpuMemoryOptions& options) {
  TpuMemory t;
  const absl::optional<TpuGeneration> of_text =
      file.uses_s3 ? absl::optional<TpuGeneration>(TpuGeneration::kV4)
                   : absl::nullopt;
  if (absl::Status s = tpu_memory_internal::ChooseChip(of_text, options, t);
      !s.ok()) {
    return s;
  }
  // XLA's buffer assignment is one device's (for SPMD, every device's).
  t.devices = 1;
  t.figures_from =
      absl::StrCat("XLA:TPU's own buffer assignment (", file.file_name,
                   "); the file does not say when values live: no heap peak");
  t.checked = true;
  const TpuChip* chip =
      t.chip.has_value() ? &TpuChipOf(*TpuGenerationNamed(*t.chip)) : nullptr;
  const MemoryAnalysis none;
  t.spaces = tpu_memory_internal::Spaces(file.assignment, none, chip);
  tpu_memory_internal::FitHbm(t);
  const HloModuleHeader no_header;
  const HloSourceLocations where(no_header);
  t.padding = tpu_memory_internal::HbmPadding(file.assignment, none, where,
                                              options.top);
  // Without live ranges there is no heap peak to count padding at.
  t.padding.heap_bytes = std::nullopt;
  t.padding.bytes = t.padding.own_bytes;
  return t;
}

}  // namespace hlolayout

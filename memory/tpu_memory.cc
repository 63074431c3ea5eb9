// The answer of memory/tpu_memory.h: per memory space, the chip, whether
// the program fits, and the HBM heap at its peak. Tile padding is
// memory/tpu_padding.cc's; the text memory/tpu_memory_text.cc's.
#include "hlolayout/memory/tpu_memory.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/hlo/source_location.h"
#include "hlolayout/memory/live_range.h"
#include "hlolayout/memory/tpu_memory_internal.h"

namespace hlolayout {
namespace tpu_memory_internal {

ValueFacts FactsOf(const MemoryAnalysis& a, int64_t value,
                   const HloSourceLocations& where) {
  ValueFacts facts;
  if (value < 0 || value >= static_cast<int64_t>(a.values.size())) {
    return facts;
  }
  const LiveValue& v = a.values[value];
  if (v.instruction < 0 ||
      v.instruction >= static_cast<int64_t>(a.instructions.size())) {
    return facts;
  }
  const ScheduledInstruction& in = a.instructions[v.instruction];
  facts.name = absl::StrCat(in.name(), ShapeIndexString(v.index()));
  facts.op_name = std::string(in.op_name());
  facts.source = where.Of(in.metadata());
  return facts;
}

// The chip, from XLA:TPU's file first, then --tpu, then what the text
// says (`of_text`: the module's or the buffer file's memory spaces).
absl::Status ChooseChip(absl::optional<TpuGeneration> of_text,
                        const TpuMemoryOptions& options, TpuMemory& t) {
  absl::optional<TpuGeneration> from_file;
  if (!options.target_arguments.empty()) {
    from_file = TpuGenerationOfTargetArguments(options.target_arguments);
  }
  if (from_file.has_value() && options.requested.has_value() &&
      *from_file != *options.requested) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--tpu=", TpuChipOf(*options.requested).name,
        ", but XLA:TPU compiled the module for ", TpuChipOf(*from_file).name,
        " (", options.target_arguments_file, ")"));
  }
  absl::optional<TpuGeneration> chip;
  if (from_file.has_value()) {
    chip = from_file;
    t.chip_from = options.target_arguments_file;
  } else if (options.requested.has_value()) {
    chip = options.requested;
    t.chip_from = "--tpu";
  } else if ((chip = of_text).has_value()) {
    t.chip_from =
        "memory space S(3), which XLA:TPU uses on v4 only (docs/xla-tpu.md)";
  }
  if (chip.has_value()) t.chip = TpuChipOf(*chip).name;
  return absl::OkStatus();
}

// Each memory space's allocations and live-range peak.
std::vector<TpuMemorySpace> Spaces(const BufferAssignment& b,
                                   const MemoryAnalysis& a,
                                   const TpuChip* chip) {
  std::map<int64_t, TpuMemorySpace> by_color;
  auto space = [&by_color](int64_t color) -> TpuMemorySpace& {
    TpuMemorySpace& s = by_color[color];
    s.memory_space = color;
    return s;
  };
  for (const BufferAllocation& x : b.allocations) {
    TpuMemorySpace& s = space(x.color);
    s.allocated_bytes += x.size;
    ++s.allocations;
    if (x.is_parameter) {
      s.parameter_bytes += x.size;
    } else if (x.is_constant || x.is_thread_local) {
      s.other_bytes += x.size;
    } else if (x.maybe_live_out) {
      s.output_bytes += x.size;
    } else {
      s.temp_bytes += x.size;
    }
  }
  for (const MemoryPeak& p : a.space_peaks) {
    TpuMemorySpace& s = space(p.memory_space);
    s.live_range_peak_bytes = p.bytes;
    s.live_range_peak_time = p.time;
  }
  std::vector<TpuMemorySpace> out;
  for (auto& [color, s] : by_color) {
    s.xla_name = XlaTpuMemorySpaceName(color);
    s.title = TpuMemorySpaceTitle(color);
    if (chip != nullptr && color == 0)
      s.capacity_bytes = chip->xla_hbm_limit_bytes;
    if (chip != nullptr && color == 1) s.capacity_bytes = chip->vmem_bytes;
    if (s.capacity_bytes.has_value()) {
      s.left_bytes = *s.capacity_bytes - s.allocated_bytes;
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace tpu_memory_internal

namespace {

using tpu_memory_internal::FactsOf;
using tpu_memory_internal::ValueFacts;

// The HBM heap at its peak: the model's heap simulation of S(0).
std::optional<TpuHeapPeak> HeapPeak(const BufferAssignment& b,
                                    const MemoryAnalysis& a,
                                    const HloSourceLocations& where,
                                    int64_t top) {
  if (b.heap_peak_time < 0) return std::nullopt;
  TpuHeapPeak h;
  for (const BufferAllocation& x : b.allocations) {
    if (x.color == 0 && x.is_temp()) {
      h.allocation = x.index;
      break;
    }
  }
  h.bytes = b.heap_peak;
  h.heap_bytes = b.heap_size;
  h.time = b.heap_peak_time;
  if (h.time < static_cast<int64_t>(a.instructions.size())) {
    h.instruction = std::string(a.instructions[h.time].name());
  }
  for (int64_t k : b.heap_peak_blocks) {
    const HeapBlock& block = b.heap[k];
    const ValueFacts facts = FactsOf(a, block.value, where);
    TpuHeapValue v;
    v.name = facts.name;
    const Shape* shape = a.values[block.value].shape();
    if (shape != nullptr) v.shape = shape->ToString(true);
    v.bytes = block.size;
    v.offset = block.offset;
    v.start = block.start;
    v.end = block.end;
    v.op_name = facts.op_name;
    v.source = facts.source;
    h.values.push_back(std::move(v));
  }
  h.value_count = static_cast<int64_t>(h.values.size());
  std::stable_sort(h.values.begin(), h.values.end(),
                   [](const TpuHeapValue& x, const TpuHeapValue& y) {
                     if (x.bytes != y.bytes) return x.bytes > y.bytes;
                     return x.offset < y.offset;
                   });
  if (top > 0 && static_cast<int64_t>(h.values.size()) > top) {
    h.values.resize(top);
  }
  return h;
}

}  // namespace

namespace tpu_memory_internal {

void FitHbm(TpuMemory& t) {
  for (const TpuMemorySpace& s : t.spaces) {
    if (s.memory_space == 0) t.hbm_bytes = s.allocated_bytes;
  }
  for (const TpuChip& chip : TpuChips()) {
    if (t.hbm_bytes <= chip.xla_hbm_limit_bytes) t.fits_on.push_back(chip.name);
  }
  if (!t.chip.has_value()) return;
  const TpuChip& chip = TpuChipOf(*TpuGenerationNamed(*t.chip));
  t.hbm_limit_bytes = chip.xla_hbm_limit_bytes;
  t.fits = t.hbm_bytes <= chip.xla_hbm_limit_bytes;
  t.hbm_left_bytes = chip.xla_hbm_limit_bytes - t.hbm_bytes;
}

}  // namespace tpu_memory_internal

absl::StatusOr<TpuMemory> AnswerTpuMemory(const HloModule& module,
                                          const DumpModuleMemory& analysed,
                                          const TpuMemoryOptions& options) {
  TpuMemory t;
  if (absl::Status s = tpu_memory_internal::ChooseChip(
          TpuGenerationOfModule(module), options, t);
      !s.ok()) {
    return s;
  }
  t.devices = ModuleDeviceCount(module);
  t.figures_from =
      "the model of XLA:TPU's buffer assignment, rules learned from "
      "XLA:TPU's own files and checked against its compiles "
      "(docs/xla-tpu.md); VMEM offsets not modelled";
  t.checked = false;
  const BufferAssignment& b = analysed.memory.buffers;
  if (b.tpu_tables_guessed) {
    // The generation decides the size of tuple index tables: not known,
    // the model took v4's and v5e's (docs/xla-tpu.md).
    absl::StrAppend(&t.figures_from,
                    "; the chip not known, tuple index tables are sized as "
                    "on v4 and v5e (512-byte units; 32-byte on v5p and v6e)");
  }
  const MemoryAnalysis& a = analysed.live_ranges();
  const TpuChip* chip =
      t.chip.has_value() ? &TpuChipOf(*TpuGenerationNamed(*t.chip)) : nullptr;
  t.spaces = tpu_memory_internal::Spaces(b, a, chip);
  tpu_memory_internal::FitHbm(t);
  const HloSourceLocations where(module.header);
  t.heap_peak = HeapPeak(b, a, where, options.top);
  t.padding = tpu_memory_internal::HbmPadding(b, a, where, options.top);
  return t;
}

}  // namespace hlolayout

// memory/tpu_memory_internal.h: what memory/tpu_memory.cc and
// memory/tpu_padding.cc share. Not part of the library's interface.
#ifndef HLOLAYOUT_MEMORY_TPU_MEMORY_INTERNAL_H_
#define HLOLAYOUT_MEMORY_TPU_MEMORY_INTERNAL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/optional.h"
#include "hlolayout/hlo/source_location.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/memory/live_range.h"
#include "hlolayout/memory/tpu_chip.h"
#include "hlolayout/memory/tpu_memory.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout {
namespace tpu_memory_internal {

// A value's name ("fusion.3{1}"), its instruction's op_name and source
// line; empty for a value not in the live ranges (value < 0).
struct ValueFacts {
  std::string name;
  std::string op_name;
  std::string source;
};
ValueFacts FactsOf(const MemoryAnalysis& a, int64_t value,
                   const HloSourceLocations& where);

// The chip of the answer `t` (chip and chip_from): XLA:TPU's
// target_arguments file, else --tpu, else `of_text` (what the module's or
// buffer file's memory spaces say). Errors: --tpu contradicts the file.
absl::Status ChooseChip(absl::optional<TpuGeneration> of_text,
                        const TpuMemoryOptions& options, TpuMemory& t);

// Each memory space of `b` (its allocations), with `a`'s live-range peaks
// (none from an empty `a`) and `chip`'s capacities (none when null).
std::vector<TpuMemorySpace> Spaces(const BufferAssignment& b,
                                   const MemoryAnalysis& a,
                                   const TpuChip* chip);

// hbm_bytes, fits, hbm_left_bytes and fits_on of `t` from its spaces and
// chip.
void FitHbm(TpuMemory& t);

// What tile padding costs in the HBM allocations (S(0)) of `b`; `top`
// bounds each ranking (0: all).
TpuPadding HbmPadding(const BufferAssignment& b, const MemoryAnalysis& a,
                      const HloSourceLocations& where, int64_t top);

// A layout of the same array that XLA:TPU writes and that pads less: the
// array's shape text in it and its padded bytes. None when no other
// pair of most minor dimensions (the others kept in order) or second-minor tile
// of (8,128), (4,128), (2,128) or (1,128) (with the array's own packing tiles)
// gives fewer padded bytes, or when the shape's layout is not one (a,128) tile
// followed by packing tiles (rank 1, no tiles, a minor tile other than 128).
std::optional<std::pair<std::string, int64_t>> CheaperTpuLayout(
    const Shape& shape);

}  // namespace tpu_memory_internal
}  // namespace hlolayout

#endif  // HLOLAYOUT_MEMORY_TPU_MEMORY_INTERNAL_H_

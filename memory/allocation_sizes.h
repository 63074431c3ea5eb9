// memory/allocation_sizes.h: what sets the size of each allocation of XLA's
// buffer assignment, for `hlolayout memory` (text and --json) and Python.
//
// An allocation of its own (a parameter, constant, output or thread-local
// value) is as large as its largest value. The temp allocation holds XLA's
// heap: its size is the heap's layout, and what memory_analysis() counts
// of it is the most the heap holds at one step, set by the values in it
// then. For a cuBLAS GEMM that is often its workspace:
//
//   ENTRY main {
//     ...
//     custom-call.1 = (f32[512,512]{1,0}, s8[33554432]{0})
//         custom-call(...), custom_call_target="__cublas$gemm"
//   }
//
//   AllocationSizes s = ExplainAllocationSizes(memory);
//   s.heap.time;            // the step of the heap's peak
//   s.heap.values[0].name;  // "custom-call.1{1}", 32 MiB: the workspace
//
// Preconditions: `memory` comes from AnalyzeModuleMemory (its live ranges
// and buffer assignment belong to one module).
#ifndef HLOLAYOUT_MEMORY_ALLOCATION_SIZES_H_
#define HLOLAYOUT_MEMORY_ALLOCATION_SIZES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "hlolayout/memory/buffer_assignment.h"

namespace hlolayout {

// A value that sets an allocation's size.
struct SizingValue {
  std::string name;  // "custom-call.1{1}"
  const Shape* shape = nullptr;
  int64_t bytes = 0;             // its own size
  int64_t offset = 0;            // in its allocation
  int64_t start = -1, end = -1;  // live range; -1 where it has none
};

// The temp allocation's heap at its peak step.
struct HeapPeakSizing {
  int64_t allocation = -1;  // the temp allocation; -1 when there is none
  int64_t size = 0;         // the allocation's size
  int64_t heap_size = 0;    // the heap's layout (size less tuple tables)
  int64_t bytes = 0;        // the most the heap holds at one step
  int64_t time = -1;        // the first step at which it holds `bytes`
  std::string instruction;  // the instruction at `time`
  // The values in the heap at `time`, largest first (then by offset);
  // values sharing one place are each listed.
  std::vector<SizingValue> values;
  // What rounding the listed values' places up to the alignment adds
  // (a shared place counted once).
  int64_t alignment_bytes = 0;
};

// An allocation of its own: the values as large as it is.
struct OwnAllocationSizing {
  int64_t allocation = 0;
  int64_t size = 0;
  std::vector<SizingValue> values;  // in the allocation's value order
};

struct AllocationSizes {
  int64_t alignment = 0;  // 256 on GPU, 64 on CPU
  HeapPeakSizing heap;
  // Every other allocation with a value, largest first (then by index).
  std::vector<OwnAllocationSizing> own;
  // What rounding every allocation up to `alignment` adds: what a device
  // allocator that hands out aligned blocks takes beyond the sizes.
  int64_t rounding_bytes = 0;
};

AllocationSizes ExplainAllocationSizes(const ModuleMemory& memory);

}  // namespace hlolayout

#endif  // HLOLAYOUT_MEMORY_ALLOCATION_SIZES_H_

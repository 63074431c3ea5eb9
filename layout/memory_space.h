// layout/memory_space.h: names of the memory spaces in `S(n)`.
//
//   bf16[32,32,4096]{2,1,0:T(8,128)(2,1)S(1)}   lives in memory space 1
//   MemorySpaceName(1) == "alternate fast memory (VMEM on TPU)"
//
// XLA gives a meaning to 0 (default device memory, HBM), 1 (the generic
// alternate/fast memory, VMEM on a TPU) and 5 (host memory). Other numbers
// are chosen by each backend; they are named "device-specific memory space N".
#ifndef HLOLAYOUT_LAYOUT_MEMORY_SPACE_H_
#define HLOLAYOUT_LAYOUT_MEMORY_SPACE_H_

#include <cstdint>
#include <string>

namespace hlolayout {

// A human name for memory space `space`, for reports and `explain`.
std::string MemorySpaceName(int64_t space);

// A short stable key for JSON and tables: "hbm", "vmem", "host", "s2", ...
std::string MemorySpaceKey(int64_t space);

}  // namespace hlolayout

#endif  // HLOLAYOUT_LAYOUT_MEMORY_SPACE_H_

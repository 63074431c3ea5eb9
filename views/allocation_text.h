// views/allocation_text.h: what XLA will allocate for a module, in words,
// for `hlolayout memory` and the head of `hlolayout report`.
//
//   XLA:GPU will allocate 26.56 MiB (27,850,866 bytes)
//     = arguments 6.53 MiB (6,847,508 bytes)
//     + temp 14.00 MiB (14,685,184 bytes)
//     + outputs 6.03 MiB (6,318,174 bytes)
//     - aliases 0 bytes
//   compiled.memory_analysis(): argument_size_in_bytes=6847508 ...
//   ...
//   live-range peak beside it (...): 21.04 MiB (22,056,980 bytes) at time 27
//   allocations: 54 (10 parameter, 10 live-out, ...)
#ifndef HLOLAYOUT_VIEWS_ALLOCATION_TEXT_H_
#define HLOLAYOUT_VIEWS_ALLOCATION_TEXT_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "hlolayout/memory/allocation_sizes.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/util/bytes.h"  // BytesWithUnit

namespace hlolayout {

// The lines above, each starting with `indent` and ending in a newline:
// what XLA will allocate (arguments + temp + outputs - aliases), the
// figures of compiled.memory_analysis() and what its peak is made of, the
// live-range peak beside them, and the allocations by kind.
std::string XlaAllocationText(const ModuleMemory& memory,
                              absl::string_view indent = "");

// What sets each allocation's size (ExplainAllocationSizes), in words:
//
//   what sets each allocation's size:
//     temp allocation 12, 14.00 MiB (14,685,184 bytes): the heap's layout of
//     14.00 MiB (...); the most it holds at one step, 14.00 MiB (...), at
//     time 27 (loop_add_fusion.2), in 3 values:
//       gemm_fusion_dot.4{}  f32[4,256,1024]{2,1,0}  4194304 B  offset 0  live
//       4-35
//       ...
//     ...
//     allocations of their own, largest first, each as large as its largest
//     value:
//       allocation 0, 2.00 MiB (2,097,152 bytes): params_0__0_.1{}
//       bf16[1024,1024]{1,0}
//     rounding each allocation up to 256 bytes adds 1,234 bytes
//
// `top` bounds each list (0: all). Every line starts with `indent`.
std::string AllocationSizesText(const AllocationSizes& sizes, int64_t top,
                                absl::string_view indent = "");

// For a module that looks like XLA:TPU's (LooksLikeXlaTpu), whose buffer
// assignment is not modelled: a line that says so, then the live-range
// peak line of XlaAllocationText.
std::string TpuAllocationText(const MemoryAnalysis& live_ranges,
                              absl::string_view indent = "");

}  // namespace hlolayout

#endif  // HLOLAYOUT_VIEWS_ALLOCATION_TEXT_H_

// ttmlir/print.h: writing a MetalLayout back as the seed's text.
//
//   TensorTypeToString(layout) ==
//     "tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, "
//     "<3x2>, memref<1x1x!tt.tile<32 x 32, bfp_bf8>, "
//     "#tt.memory_space<l1>>>>"
//
// The output is on one line, dims are named d0, d1, ..., terms are in dim
// order, and the memory space is always written. ParseTensorType reads it
// back to an equal layout.
#ifndef HLOLAYOUT_TTMLIR_PRINT_H_
#define HLOLAYOUT_TTMLIR_PRINT_H_

#include <string>

#include "hlolayout/ttmlir/metal_layout.h"

namespace hlolayout::grid {

// "memref<18x32xf32, #tt.memory_space<l1>>"
std::string MemrefToString(const MetalLayout& layout);

// "#tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, memref<...>>"
std::string MetalLayoutAttrToString(const MetalLayout& layout);

// "tensor<53x63xf32, #tt.metal_layout<...>>"
std::string TensorTypeToString(const MetalLayout& layout);

}  // namespace hlolayout::grid

#endif  // HLOLAYOUT_TTMLIR_PRINT_H_

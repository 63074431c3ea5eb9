// triton/xla_bridge.h: XLA tiled layouts <-> Triton LinearLayouts
// (docs/triton.md, "CuTe and XLA").
//
//   // offset -> (dim0, dim1) of f32[16,256]{1,0:T(8,128)}
//   LinearLayout l = *XlaToLinear(*ParseShape("f32[16,256]{1,0:T(8,128)}"));
//   // offset bases (0,1) .. (0,64), (1,0), (2,0), (4,0), (0,128), (8,0)
//   *LinearToXla(l, F32) == "f32[16,256]{1,0:T(8,128)}"
//
// An XLA layout is linear over F2 when every dim and tile size is a power
// of two and the tiles divide the dims (no padding, no E(n) packing): the
// element offset is then a permutation of the index bits. LinearToXla finds
// a minor-to-major order and at most one tile that give the layout's bit
// permutation.
#ifndef HLOLAYOUT_TRITON_XLA_BRIDGE_H_
#define HLOLAYOUT_TRITON_XLA_BRIDGE_H_

#include <string>

#include "absl/status/statusor.h"
#include "hlolayout/shape/primitive_type.h"
#include "hlolayout/shape/shape.h"
#include "hlolayout/triton/linear_layout.h"

namespace hlolayout::triton {

// XlaToLinear
//
// in-dim "offset" (the element offset in the buffer) -> dim0, dim1, ...
// (the logical index).
absl::StatusOr<LinearLayout> XlaToLinear(const Shape& array_shape);

// LinearToXla
//
// The XLA shape text (element type `type`) whose layout is `l`: one in-dim
// (any name) of the layout's size, out-dims dim0.. each a power of two,
// every basis a single bit of a single dim (a bit permutation).
absl::StatusOr<std::string> LinearToXla(const LinearLayout& l,
                                        PrimitiveType type);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_XLA_BRIDGE_H_

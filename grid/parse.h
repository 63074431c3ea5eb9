// grid/parse.h: reading tt-mlir tensor types with a `#tt.metal_layout`.
//
//   ParseTensorType(
//       "tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, "
//       "<3x2>, memref<18x32xf32, #tt.memory_space<l1>>>>")
//     -> a MetalLayout with shard 18x32 on a 3x2 grid.
//
// The text is tt-mlir's specification's (docs/tt-mlir.md): the attribute holds
// the `linear` map, the `oob_val`, the grid `<AxB...>` and the per-shard
// memref, whose element is the tensor's scalar type or `!tt.tile<H x W, dtype>`
// (`32x32` without spaces is read too). The memory space is
// `#tt.memory_space<system|mmio|dram|l1>`; when the memref has none it is
// `system`. Whitespace and newlines may appear between tokens.
//
// The memref shape is not free: it must equal the shard shape computed from
// the tensor, map and grid (in tiles when tilized); a mismatch names both.
//
// Every error is a ParseError ("1:8: message", the source line, a caret
// under the offending token). Semantic errors point at the part they are
// about: the map for a rank mismatch, the grid dim that is 0, the memref
// shape that disagrees.
#ifndef HLOLAYOUT_GRID_PARSE_H_
#define HLOLAYOUT_GRID_PARSE_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/grid/affine_map.h"
#include "hlolayout/grid/metal_layout.h"

namespace hlolayout::grid {

// ParseTensorType
//
// Reads a whole `tensor<...>` type with its encoding; trailing input is an
// error.
absl::StatusOr<MetalLayout> ParseTensorType(absl::string_view text);

// ParseAffineMap
//
// Reads a layout map on its own: "(d0, d1, d2) -> (d0 * 64 + d1, d2)".
// Dim names may be any identifiers; products need a constant factor;
// parentheses distribute ("(d0 * 3 + d1) * 64 + d2"). Rejected with a
// message: symbols `[s0]`, `-`, floordiv/ceildiv/mod.
absl::StatusOr<AffineMap> ParseAffineMap(absl::string_view text);

}  // namespace hlolayout::grid

#endif  // HLOLAYOUT_GRID_PARSE_H_

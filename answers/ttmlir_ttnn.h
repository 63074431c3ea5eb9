// answers/ttmlir_ttnn.h: one tensor in both Tenstorrent models. The two
// models stand side by side (//ttmlir: tt-mlir's layouts; //ttnn: TTNN as
// tt-metal computes it), each on the shared vocabulary of //tenstorrent;
// what joins them lives here, above both.
//
//   absl::StatusOr<grid::TtnnLayoutAttr> l = grid::TtnnLayoutAttr::Build(...);
//   absl::StatusOr<ttnn::TensorSpecInput> in = TtnnSpecInputOf(*l);
//   absl::StatusOr<ttnn::TensorSpec> spec = ttnn::TensorSpec::Make(*in);
//
// tests/ttnn_two_views_test.cc makes the specs of tt-mlir's layouts and
// checks that both models place every element alike.
#ifndef HLOLAYOUT_ANSWERS_TTMLIR_TTNN_H_
#define HLOLAYOUT_ANSWERS_TTMLIR_TTNN_H_

#include "absl/status/statusor.h"
#include "hlolayout/ttmlir/ttnn_attr.h"
#include "hlolayout/ttnn/tensor_spec.h"

namespace hlolayout {

// TtnnSpecInputOf
//
// The tensor of a `#ttnn.ttnn_layout` in the TTNN model
// (ttnn/tensor_spec.h), for ttnn::TensorSpec::Make: the shape, the memref
// element's data type, TILE with its ttnn::Tile (or ROW_MAJOR), and the
// MemoryConfig: the buffer type, the memory layout and, when sharded, the
// ShardSpec on the core ranges the layout uses with the memref's shard in
// scalars, ROW_MAJOR.
//   <width_sharded> on <1x8>, memref 4x8 tiles of bf16, (0,0)-(7,0)
//   -> bfloat16, TILE 32x32, L1 WIDTH_SHARDED, shard [128, 256].
// Errors: an element TTNN has no data type for (f16, i1, bfp_bf2, ...), a
// tile TTNN does not accept, a buffer other than DRAM or L1 (a TensorSpec
// holds no other), no memory layout, a sharded layout without a placement
// or whose core ranges overlap.
absl::StatusOr<ttnn::TensorSpecInput> TtnnSpecInputOf(
    const grid::TtnnLayoutAttr& layout);

}  // namespace hlolayout

#endif  // HLOLAYOUT_ANSWERS_TTMLIR_TTNN_H_

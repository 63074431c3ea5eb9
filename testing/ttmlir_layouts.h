// testing/ttmlir_layouts.h: one tensor type of each tt-mlir layout form the
// grid commands read, for the tests of their answers and texts.
//
//   absl::StatusOr<GridAnalysis> a = AnalyzeGridText(kTestTtnnLayout);
#ifndef HLOLAYOUT_TESTING_TTMLIR_LAYOUTS_H_
#define HLOLAYOUT_TESTING_TTMLIR_LAYOUTS_H_

namespace hlolayout::grid {

// A TTNN layout: bf16 tiles width-sharded over eight cores of L1.
inline constexpr char kTestTtnnLayout[] =
    "tensor<32x4096xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x8>, "
    "memref<1x16x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>, "
    "<width_sharded>, core_ranges = <[#ttnn.core_range<(0,0), (7,0)>]>>>";
// A ttcore metal layout with collapsed intervals and 32x32 alignments.
inline constexpr char kTestMetalLayout[] =
    "tensor<2x6x2x2x!ttcore.tile<32x32, f32>, #ttcore.metal_layout<"
    "logical_shape = 128x380, dim_alignments = 32x32, collapsed_intervals = "
    "dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>>";
// The older #tt.metal_layout form (an affine map, a grid and a memref).
inline constexpr char kTestSeedMetalLayout[] =
    "tensor<256x32xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, "
    "<4x1>, memref<64x32xf32, #tt.memory_space<l1>>>>";
// A TTNN layout whose buffer type is an alias defined on the line before.
inline constexpr char kTestTtnnAliasedLayout[] =
    "#l1 = #ttnn.buffer_type<l1>\n"
    "tensor<384x32xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <12x1>, "
    "memref<1x1x!ttcore.tile<32x32, bf16>, #l1>, <height_sharded>, "
    "core_ranges = <[#ttnn.core_range<(0,0), (7,0)>, "
    "#ttnn.core_range<(0,1), (3,1)>]>>>";
// Three more of the older #tt.metal_layout form: 32x32 bfp_bf8 tiles, plain
// f32 shards, and a rank-4 tensor over a 2x2x4 device grid.
inline constexpr char kTestSeedTiledLayout[] =
    "tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, "
    "memref<1x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>>>";
inline constexpr char kTestSeedScalarLayout[] =
    "tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, "
    "memref<18x32xf32, #tt.memory_space<l1>>>>";
inline constexpr char kTestSeedMultiDeviceLayout[] =
    "tensor<2x3x64x128xf32, #tt.metal_layout<(d0, d1, d2, d3) -> (d0, d1 * 64 "
    "+ d2, d3), undef, <2x2x4>, memref<1x3x1x!tt.tile<32 x 32, bfp_bf8>, "
    "#tt.memory_space<l1>>>>";

}  // namespace hlolayout::grid

#endif  // HLOLAYOUT_TESTING_TTMLIR_LAYOUTS_H_

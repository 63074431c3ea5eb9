// A TTNN module in the style of tt-mlir's tests: aliases, two sections.
#dram = #ttnn.buffer_type<dram>
#l1 = #ttnn.buffer_type<l1>
#dram_tiled = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>,
    memref<4x4x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
#width = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x8>,
    memref<1x16x!ttcore.tile<32x32, bf16>, #l1>, <width_sharded>,
    core_ranges = <[#ttnn.core_range<(0,0), (7,0)>]>>
module {
  func.func @forward(%arg0: tensor<128x128xf32, #dram_tiled>) -> tensor<32x32xf32, #dram_tiled> {
    // The alias was written for 128x128; tt-mlir's builder gives 32x32 one tile.
    %0 = "ttnn.slice"(%arg0) : (tensor<128x128xf32, #dram_tiled>) -> tensor<32x32xf32, #dram_tiled>
    return %0 : tensor<32x32xf32, #dram_tiled>
  }
  func.func @sharded(%arg0: tensor<32x4096xbf16, #width>) -> tensor<32x4096xbf16, #width> {
    return %arg0 : tensor<32x4096xbf16, #width>
  }
}

// -----

#system_memory = #ttnn.buffer_type<system_memory>
#host = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x32xf32, #system_memory>, <interleaved>>
module {
  func.func @bad(%arg0: tensor<32x32xf32, #host>) -> tensor<32x32xf32, #host> {
    return %arg0 : tensor<32x32xf32, #host>
  }
}

// Parts that read: the TTGIR syntax of Triton's own lit tests, reduced to
// what the report looks at. Each part says what the report must find:
//   // want: converts=N aliases=N not_converted=N
// (convert_layout ops; layout aliases listed; of those, not converted: none
// since every Triton layout kind converts).

// want: converts=1 aliases=3 not_converted=0
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 64], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
#dot_a = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 64 : i32, ttg.target = "hip:gfx942"} {
  tt.func @mfma_operand(%a: tensor<64x32xf16, #blocked>) {
    %0 = ttg.convert_layout %a : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #dot_a>
    %1 = tt.reduce_dummy %0 : tensor<64xf16, #ttg.slice<{dim = 1, parent = #mma}>>
    tt.return
  }
}

// -----

// want: converts=0 aliases=3 not_converted=0
#wmma = #ttg.amd_wmma<{version = 2, ctaLayout = {warp = [[0, 1], [1, 0]]}, isTranspose = true}>
#dot_b = #ttg.dot_op<{opIdx = 1, parent = #wmma, kWidth = 8}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @wmma(%b: tensor<32x64xf16, #dot_b>) {
    tt.return
  }
}

// -----

// want: converts=0 aliases=3 not_converted=0
#blocked = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
#tmem_scales = #ttng.tensor_memory_scales_encoding<>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func @tmem(%x: tensor<128x128xf32, #blocked>) {
    %0 = ttng.tmem_alloc %x : (tensor<128x128xf32, #blocked>) -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    %1 = ttng.tmem_alloc : () -> !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory, mutable>
    tt.return
  }
}

// -----

// want: converts=0 aliases=5 not_converted=0
#broadcast = #ttg.shared_linear<{offset = [[0, 1], [0, 0], [1, 0]]}, alignment = 16>
#padded = #ttg.padded_shared<[128:+16] {order = [1, 0], shape = [32, 64]}>
#padded_ll = #ttg.padded_shared<[64:+4, 256:+8] {offset = [[0, 1], [0, 2], [1, 0], [2, 0]], block = []}>
#inner = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#parts = #ttg.partitioned_shared<{numPartitions = 2, numGroups = 1, partitionDim = 0, partitionLayout = #inner}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @padded(%p: !ttg.memdesc<32x64xf16, #padded, #smem, mutable>, %q: !ttg.memdesc<4x4xf16, #padded_ll, #smem>, %r: !ttg.memdesc<64x64xf16, #parts, #smem>, %b: !ttg.memdesc<2x2xf16, #broadcast, #smem>) {
    tt.return
  }
}

// -----

// want: converts=1 aliases=3 not_converted=0
#rotating = #ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [1, 0]}>
#generic = #ttg.generic_linear<{register = [[1, 0], [0, 1]], lane = [[2, 0], [4, 0], [8, 0], [0, 2], [0, 4]], warp = [[16, 8], [0, 8]], block = []}>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @generic(%x: tensor<32x16xf32, #blocked>, %s: !ttg.memdesc<64x64xf16, #rotating, #ttg.shared_memory>) {
    %0 = ttg.convert_layout %x : tensor<32x16xf32, #blocked> -> tensor<32x16xf32, #generic>
    tt.return
  }
}

// -----

// nvmma_shared with `rank`, a linear layout with an `order` key (ignored),
// a convert of one result of a multi-result op, two aliases on one line.
// want: converts=2 aliases=4 not_converted=0
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}>
#linear = #ttg.linear<{register = [[0, 1], [0, 2]], lane = [[0, 0], [0, 0], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = [], order = [1, 0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @syntax(%x: tensor<32x4xf32, #linear>, %m: !ttg.memdesc<2x64x64xf16, #shared, #ttg.shared_memory>) {
    %11:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %x, %b = %x) -> (tensor<32x4xf32, #linear>, tensor<32x4xf32, #linear>) {
      scf.yield %a, %b : tensor<32x4xf32, #linear>, tensor<32x4xf32, #linear>
    }
    %21 = ttg.convert_layout %11#0 : tensor<32x4xf32, #linear> -> tensor<32x4xf32, #blocked>
    %22 = ttg.convert_layout %21 : tensor<32x4xf32, #blocked> -> tensor<32x4xf32, #blocked1>
    tt.return
  }
}

// -----

// Another dialect's attribute as an encoding: the type still reads.
// want: converts=0 aliases=1 not_converted=0
#padded = #ttg.padded_shared<[128:+8] {order = [1, 0], shape = [128, 32]}>
#pinned = #other.user_layout<#padded>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @pinned() {
    %a = ttg.local_alloc : () -> !ttg.memdesc<128x32xf16, #pinned, #ttg.shared_memory, mutable>
    tt.return
  }
}

// Layout attributes Triton's verifiers refuse: the report refuses them too,
// at the attribute, with Triton's message. Each part says
//   // refused: MESSAGE (a part of the message)

// A CGA whose two bases are the same (not a permutation matrix).
// refused: After removing broadcast bases the CGA encoding must be a permutation matrix
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [0, 1], CGALayout = [[1, 0], [1, 0]]}>

// -----

// A basis of 3 moves two bits at once.
// refused: LinearEncodingAttr requires a permutation matrix layout after removing broadcast bases
#linear = #ttg.linear<{register = [[1], [3]], lane = [], warp = [], block = []}>

// -----

// [1, 1] flattens to 1 + 2 = 3.
// refused: LinearEncodingAttr requires a permutation matrix layout after removing broadcast bases
#linear = #ttg.linear<{register = [[1, 1], [1, 0]], lane = [], warp = [], block = []}>

// -----

// The second warp basis repeats the fourth lane basis.
// refused: LinearEncodingAttr requires a permutation matrix layout after removing broadcast bases
#linear = #ttg.linear<{register = [[0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [0, 1]], warp = [[16, 0], [8, 0]], block = []}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @f(%x: tensor<32x64xi32, #linear>) {
    tt.return
  }
}

// -----

// refused: ttg.dot_op kWidth parameter is not supported when the parent is a blocked layout
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#dot_op = #ttg.dot_op<{opIdx = 1, parent = #blocked, kWidth = 8}>

// -----

// refused: ttg.dot_op opIdx parameter can be 0 or 1, got: 2
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#dot_op = #ttg.dot_op<{opIdx = 2, parent = #blocked}>

// -----

// refused: ttg.dot_op kWidth parameter is mandatory for Ampere or Hopper MMA parent
#mma = #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
#dot_op = #ttg.dot_op<{opIdx = 0, parent = #mma}>

// -----

// refused: ttg.dot_op kWidth parameter can only be non-zero for Ampere or Hopper MMA parent
#mma = #ttg.nvidia_mma<{versionMajor = 1, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
#dot_op = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>

// -----

// refused: ttg.dot_op opIdx parameter must be 0 for Hopper MMA parent
#mma = #ttg.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#dot_op = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>

// -----

// refused: slice dim=2 must be less than the parent rank=2
#slice = #ttg.slice<{dim = 2, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [0, 1]}>}>

// -----

// refused: parent layout must have at least rank >= 2
#slice = #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>}>

// -----

// refused: ttg.dot_op kWidth parameter is mandatory for MFMA parent
#mfma = #ttg.amd_mfma<{version = 2, warpsPerCTA = [1, 1, 1], instrShape = [32, 32, 8], isTransposed = false}>
#dot_op = #ttg.dot_op<{opIdx = 0, parent = #mfma}>

// -----

// refused: ttg.dot_op kWidth parameter must be 4/8/16 for WMMA v2
#wmma = #ttg.amd_wmma<{version = 2, ctaLayout = {warp = [[0, 1], [0, 2]]}}>
#dot_op = #ttg.dot_op<{opIdx = 0, parent = #wmma, kWidth = 2}>

// -----

// refused: version must be in the [0, 4] range
#mfma = #ttg.amd_mfma<{version = 10, warpsPerCTA = [1, 1, 1], instrShape = [32, 32, 8], isTransposed = false}>

// -----

// refused: invalid (mDim, nDim) combination: (16, 8)
#mfma = #ttg.amd_mfma<{version = 2, warpsPerCTA = [1, 1, 1], instrShape = [16, 8, 8], isTransposed = false}>

// -----

// refused: elementBitWidth must be 32 or 64
#mfma = #ttg.amd_mfma<{version = 2, warpsPerCTA = [1, 1, 1], instrShape = [16, 16, 16], isTransposed = false, elementBitWidth = 16}>

// -----

// refused: WMMA version must be in the [1, 3] range
#wmma = #ttg.amd_wmma<{version = 0, ctaLayout = {warp = []}}>

// -----

// refused: invalid WMMA v3 instruction shape
#wmma = #ttg.amd_wmma<{version = 3, ctaLayout = {warp = []}, instrShape = [16, 16, 16]}>

// -----

// refused: fp4Padded tensor memory layout requires colStride 1 but got 2
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 2, fp4Padded = true>

// -----

// refused: blockM must be 64 or 128 but got 32
#tmem = #ttng.tensor_memory_encoding<blockM = 32, blockN = 64, colStride = 1>

// -----

// refused: interval values must all be power of two
#shared = #ttg.padded_shared<[0:+2] {offset = [[0]], block = []}>

// -----

// refused: interval values cannot have duplicates
#shared = #ttg.padded_shared<[2:+1, 2:+4] {offset = [[1]], block = []}>

// -----

// refused: Unexpected attribute "order" found
#shared = #ttg.padded_shared<[2:+1, 4:+2] {offset = [[1, 0], [2, 0]], block = [], order = [0, 1]}>

// -----

// refused: Each offset basis must be 0 or a power of two.
#shared = #ttg.padded_shared<[2:+1, 4:+2] {offset = [[1, 0], [3, 0]], block = []}>

// -----

// refused: Expected basis of 'block' not found
#shared = #ttg.padded_shared<[2:+1, 4:+2] {offset = [[1, 0], [0, 1]]}>

// -----

// refused: Broadcasting in offset dimension is not supported.
#shared = #ttg.padded_shared<[2:+1] {offset = [[0]], block = []}>

// -----

// refused: Mismatch of shape and order ranks in padded layout
#shared = #ttg.padded_shared<[4:+4] {shape = [1, 2, 4], order = [1, 0]}>

// -----

// refused: numPartitions must be a power of 2 and at least 2
#inner = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#parts = #ttg.partitioned_shared<{numPartitions = 3, numGroups = 1, partitionDim = 0, partitionLayout = #inner}>

// -----

// refused: In a generic linear layout, register, lane, and block bases must move in at most one dimension
#generic = #ttg.generic_linear<{register = [[1, 1], [1, 0]], lane = [], warp = [], block = []}>

// -----

// refused: alignment must be specified outside of the linear layout braces
#shared = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [2, 0]], block = [], alignment = 16}>

// -----

// refused: swizzlingByteWidth must be 0, 32, 64, or 128
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 16, transposed = false, elementBitWidth = 16}>

// -----

// refused: order must be a permutation of 0..(rank-1), but was [0, 0]
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 0]}>

// -----

// The bases reach dim0 = 2 only: dim0's value 1 and dim1 are never covered.
// refused: Layout is expected to be surjective
#generic = #ttg.generic_linear<{register = [[2, 0]], lane = [], warp = [], block = []}>

// -----

// Three non-zero offset bases for two output bits: the first and third collide.
// refused: After removing the zero bases the layout must be bijective
#shared = #ttg.shared_linear<{offset = [[1, 0], [0, 1], [1, 0]]}, alignment = 16>

// -----

// The partition layout has rank 2.
// refused: partitionDim (2) must be less than the layout rank (2)
#inner = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#parts = #ttg.partitioned_shared<{numPartitions = 2, numGroups = 1, partitionDim = 2, partitionLayout = #inner}>

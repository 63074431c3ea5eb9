; A hand-written kernel for llir_banks_test.py (not Triton's output): one
; warp of 32 lanes, one shared-memory access per pattern. The comments give
; the ways each access must count under NVIDIA's rules.
@global_smem = external addrspace(3) global [0 x i8], align 16

define ptx_kernel void @banks(ptr addrspace(1) %0) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = urem i32 %tid, 32
  %wid0 = udiv i32 %tid, 32
  %wid = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %wid0, i32 0, i32 31)
  ; 1: 32-bit, lane * 4 + warp * 128: every lane its own bank.
  %a1 = shl i32 %lane, 2
  %w1 = mul i32 %wid, 128
  %o1 = add i32 %a1, %w1
  %p1 = getelementptr inbounds i8, ptr addrspace(3) @global_smem, i32 %o1
  store i32 7, ptr addrspace(3) %p1, align 4
  ; 32: 32-bit, lane * 128: all lanes in bank 0, distinct words.
  %o2 = mul i32 %lane, 128
  %p2 = getelementptr inbounds i8, ptr addrspace(3) @global_smem, i32 %o2
  %v2 = load i32, ptr addrspace(3) %p2, align 4
  ; 1: 128-bit, float index lane * 4 (16 bytes a lane): quarter warps of
  ; 8 lanes cover the 32 banks once.
  %i3 = shl i32 %lane, 2
  %p3 = getelementptr float, ptr addrspace(3) @global_smem, i32 %i3
  %v3 = load <4 x float>, ptr addrspace(3) %p3, align 16
  ; 1: 64-bit, (lane & 15) * 8: the two half warps read the same words.
  %l4 = and i32 %lane, 15
  %o4 = shl nuw i32 %l4, 3
  %p4 = getelementptr inbounds i8, ptr addrspace(3) @global_smem, i32 %o4
  %v4 = load <2 x i32>, ptr addrspace(3) %p4, align 8
  ; 2: 32-bit, (lane / 2) * 4 + (lane odd ? 128 : 0): lanes 2k and 2k+1
  ; share a bank at different words.
  %h5 = lshr i32 %lane, 1
  %b5 = and i32 %lane, 1
  %c5 = icmp eq i32 %b5, 0
  %s5 = select i1 %c5, i32 0, i32 128
  %q5 = shl i32 %h5, 2
  %o5 = or disjoint i32 %q5, %s5
  %p5 = getelementptr inbounds i8, ptr addrspace(3) @global_smem, i32 %o5
  store i32 1, ptr addrspace(3) %p5, align 4
  ; 8: stmatrix.x1, rows 128 bytes apart: the 8 rows of the one matrix
  ; all fall into banks 0-3.
  %p6 = getelementptr inbounds i8, ptr addrspace(3) @global_smem, i32 %o2
  call void @llvm.nvvm.stmatrix.sync.aligned.m8n8.x1.b16.p3(ptr addrspace(3) %p6, i32 0)
  ; 1: ldmatrix.x4, rows 16 bytes apart, XOR-swizzled per matrix.
  %m7 = lshr i32 %lane, 3
  %r7 = and i32 %lane, 7
  %x7 = xor i32 %r7, %m7
  %o7a = shl i32 %x7, 4
  %o7b = shl i32 %m7, 7
  %o7 = add i32 %o7a, %o7b
  %p7 = getelementptr inbounds i8, ptr addrspace(3) @global_smem, i32 %o7
  %v7 = call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) %p7)
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)
declare void @llvm.nvvm.stmatrix.sync.aligned.m8n8.x1.b16.p3(ptr addrspace(3), i32)
declare { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3))

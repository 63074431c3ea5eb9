; A hand-written kernel for llir_banks_test.py (not Triton's output): one
; 64-lane wave. The comments give the ways on gfx942 (32 banks; the phases
; of docs/triton-smem.md, "Banks and phases").
@global_smem = external addrspace(3) global [0 x i8], align 16

define amdgpu_kernel void @banks(ptr addrspace(1) inreg %0) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %lane = and i32 %tid, 63
  ; 1: 32-bit, lane * 4: lanes 0-31 and 32-63 are two phases.
  %o1 = shl i32 %lane, 2
  %p1 = getelementptr inbounds i8, ptr addrspace(3) @global_smem, i32 %o1
  store i32 7, ptr addrspace(3) %p1, align 4
  ; ds_read_b128 at lane * 16: a phase of lanes 0-3 and 20-23 reads bytes
  ; 0-63 and 320-383, banks 0-15 and 16-31: 1 way (so do 8 consecutive
  ; lanes; lanes 0-3 with 16-19, Triton 3.9.0's assumed phase, read bytes
  ; 256-319 in banks 0-15 again: 2 ways).
  %o2 = shl i32 %lane, 4
  %p2 = getelementptr inbounds i8, ptr addrspace(3) @global_smem, i32 %o2
  %v2 = load <4 x i32>, ptr addrspace(3) %p2, align 16
  ; ds_write_b128 at the same addresses: 8 consecutive lanes a phase, 1 way.
  store <4 x i32> %v2, ptr addrspace(3) %p2, align 16
  ; ds_read_b128 at lane * 16 with lane bit 4 giving 192 instead of 256:
  ; lane 20 reads byte 64 ^ 192 = 128, bank 0 as lane 0 but another word:
  ; 2 ways in the phase of lanes 0-3 and 20-23; lanes 0-3 with 16-19 read
  ; bytes 0-63 and 192-255 (banks 0-31 once) and 8 consecutive lanes bytes
  ; 0-127: 1 way under those phases.
  %b4 = lshr i32 %lane, 4
  %b4a = and i32 %b4, 1
  %m4 = mul i32 %b4a, 448
  %o4 = xor i32 %o2, %m4
  %p4 = getelementptr inbounds i8, ptr addrspace(3) @global_smem, i32 %o4
  %v4 = load <4 x i32>, ptr addrspace(3) %p4, align 16
  ; the address of a value read from memory cannot be evaluated.
  %g = load i32, ptr addrspace(1) %0, align 4
  %p3 = getelementptr inbounds i8, ptr addrspace(3) @global_smem, i32 %g
  %v3 = load i32, ptr addrspace(3) %p3, align 4
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()

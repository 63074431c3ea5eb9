// triton/cvt_smem.h: the shared-memory round trip Triton's lowering emits
// for a convert_layout between two register layouts of one CTA: the
// scratch buffer, and every store and load each thread issues, with its
// width (docs/triton.md, "What a convert_layout costs").
//
//   CvtTarget t = *CvtTargetNamed("cuda:90");
//   SmemRoundTrip r = *PlanSmemRoundTrip(src, dst, /*bits=*/16, t);
//   r.scratch_bytes  // 4096
//   r.reps           // 2: two rounds of store, barrier, load
//   r.stores         // {{"stmatrix", 128, 4}}: four stmatrix.x4 per thread
//   r.loads          // {{"ld.shared", 64, 8}}
//
// `src` and `dst` are register layouts (in-dims register, lane, warp and
// optionally block, which must not move data) of the same tensor. Element
// widths below 8 bits are stored as bytes. The rule, after Triton's
// transferWithinBlockSwizzling: broadcast registers are dropped; Triton's
// generic swizzling picks a shared layout and an instruction for each side
// (st.shared/ld.shared -- ds_write/ds_read on AMD --, stmatrix, ldmatrix and
// their transposing forms where the target has them); the registers that
// both layouts hold and the layout does not need in one round become
// rounds (`reps`), the scratch is one round's tile; within a round, a
// vector instruction moves the most consecutive elements (at most 128
// bits) that a register permutation can line up, a matrix instruction
// .x4, .x2 or .x1 core matrices.
#ifndef HLOLAYOUT_TRITON_CVT_SMEM_H_
#define HLOLAYOUT_TRITON_CVT_SMEM_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "hlolayout/triton/cvt_target.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/swizzling.h"

namespace hlolayout::triton {

// One kind of shared-memory instruction of one thread: its PTX (NVIDIA) or
// AMDGPU name without the width, the bits it moves per thread, and how many
// each thread issues over all rounds.
struct SmemInstr {
  std::string instr;  // st.shared, ld.shared, stmatrix, ldmatrix,
                      // stmatrix.trans, ldmatrix.trans, ds_write, ds_read
  int bits = 0;
  int64_t count = 0;

  friend bool operator==(const SmemInstr& a, const SmemInstr& b) {
    return a.instr == b.instr && a.bits == b.bits && a.count == b.count;
  }
};

struct SmemRoundTrip {
  LinearLayout smem;     // vector, bank, segment, reps -> the tensor
  int element_bits = 0;  // as stored: at least 8
  int64_t reps = 1;      // rounds of store, barrier, load
  int64_t scratch_bytes = 0;
  std::vector<SmemInstr> stores;
  std::vector<SmemInstr> loads;
  // Triton's bank-conflict estimate for the chosen instructions: each
  // store (load) wavefront is replayed this many ways (1: conflict-free).
  int store_ways = 1;
  int load_ways = 1;
  // Where a rule fitted to Triton's answers rather than read in its source
  // decided the loads, what it is (gfx950's second ds_read_b128 read phase
  // under Triton 3.9.0); empty otherwise.
  std::string empirical;
};

// PlanSmemRoundTrip
//
// What Triton emits for a conversion that goes through shared memory on
// `target`, for elements of `element_bits` bits. Precondition: the layouts
// describe the same tensor and at most differ within a CTA.
absl::StatusOr<SmemRoundTrip> PlanSmemRoundTrip(const LinearLayout& src,
                                                const LinearLayout& dst,
                                                int element_bits,
                                                const CvtTarget& target);

// LargestVector
//
// Triton's largestVectorisation: the most elements (a power of two, at most
// 128 bits) one instruction of `cvt` (register, lane, warp -> offset) moves:
// the registers holding offsets 1, 2, 4, ... put first, and no other basis
// touching those offset bits.
absl::StatusOr<int> LargestVector(const LinearLayout& cvt, int element_bits);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_CVT_SMEM_H_

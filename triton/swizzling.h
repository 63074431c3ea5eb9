// triton/swizzling.h: the shared-memory layout Triton picks for a
// convert_layout that goes through shared memory, and with it the scratch it
// allocates and the instructions that store and load it. The rule (Triton's
// generic swizzling) is stated in docs/triton-swizzling.md, "The rule", and
// swizzling.cc is written from that statement; docs/triton.md, "What a
// convert_layout costs", says how it is used.
//
//   SmemTarget t = SmemTargetFor(...);   // see cvt_target.h
//   SwizzleChoice c = *OptimalSwizzling(src, dst, SmemTilesFor(16, t), 16, t);
//   c.smem    // (vector, bank, segment, reps) -> the tensor
//   c.store   // kMatrix: stmatrix
//   int64_t elements = *ScratchElements(src, dst, 16, t);
//
// `src` and `dst` are register layouts (register, lane, warp -> dim0..)
// without broadcast registers (see RemoveBroadcastRegisters). The result
// maps (vector, bank, segment, reps) to the tensor: one round of stores and
// loads covers the vector x bank x segment elements, repeated `reps` times,
// so the scratch is the tensor size divided by reps.
#ifndef HLOLAYOUT_TRITON_SWIZZLING_H_
#define HLOLAYOUT_TRITON_SWIZZLING_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "hlolayout/triton/linear_layout.h"

namespace hlolayout::triton {

// The kinds of shared-memory instruction a conversion can use (Triton's
// instruction indices 0, 1, 2): ld.shared/st.shared (AMD: ds_read/ds_write),
// ldmatrix/stmatrix, and their transposing forms.
enum class SmemInstrKind { kVector, kMatrix, kMatrixTrans };

// A shared-memory instruction's access tile (Triton's LocalMemOpTile): the
// lane bits that hold contiguous elements, and the lane bits that give the
// addresses of one access phase.
struct SmemTile {
  std::vector<int> lane_contig;
  std::vector<int> lane_addr;
  SmemInstrKind kind = SmemInstrKind::kVector;
};

struct SmemTiles {
  std::vector<SmemTile> src;  // how registers can be stored
  std::vector<SmemTile> dst;  // how they can be loaded
};

// What the GPU offers and how the Triton version models its banks.
struct SmemTarget {
  bool ld_matrix = false;  // ldmatrix (NVIDIA sm_75+)
  bool st_matrix = false;  // stmatrix (NVIDIA sm_90+)
  // NVIDIA's lowering weighs tiles (ld.shared/st.shared among them) against
  // each other; the generic one (AMD) goes straight to the ld/st layout.
  bool weigh_tiles = true;
  // 4-byte banks served in one phase (Triton 3.6: 32 everywhere; newer: 64
  // on gfx950).
  int banks = 32;
  // How the lanes of one ld/st phase are chosen. false (Triton 3.6): all
  // lanes but those a wide vector spreads over several banks. true (newer):
  // as many lanes as fill the banks (a 64-lane wave over 32 banks takes two
  // phases).
  bool phase_lanes = false;
  // The lane bits of one phase of a 128-bit load when the hardware orders
  // them specially (AMD ds_read_b128, newer Triton); empty: the first ones.
  // The layout this phase gives is weighed against the plain one (fewer
  // bank conflicts, then more rounds), as Triton 3.9.0 is seen to do.
  std::vector<int> b128_load_lanes;
  // A second such phase weighed as well (gfx950 in Triton 3.9.0: lane bits
  // 0, 1, 2, 4, read off its LLVM IR); empty: none.
  std::vector<int> b128_load_lanes_alt;
  // Whether a vector below 64 bits is widened by putting one side's register
  // bases first among the bank bases.
  bool reorder_banks = true;
};

// The tiles Triton considers for elements of `bitwidth` bits
// (getSrcDstTiles): ld.shared/st.shared always; ldmatrix/stmatrix up to
// 32 bits; their transposing forms for 16 bits.
SmemTiles SmemTilesFor(int bitwidth, const SmemTarget& target);

// RemoveBroadcastRegisters
//
// The layout without its all-zero register bases (Triton's
// actionRemoveBroadcastedRegs).
absl::StatusOr<LinearLayout> RemoveBroadcastRegisters(const LinearLayout& l);

// What Triton chose for a conversion: the shared-memory layout (in-dims
// vector, bank, segment, reps; out-dims those of `src`), the store and load
// instructions, and Triton's bank-conflict estimate for them (log2 of the
// ways: 0 is conflict-free).
struct SwizzleChoice {
  LinearLayout smem;
  SmemInstrKind store = SmemInstrKind::kVector;
  SmemInstrKind load = SmemInstrKind::kVector;
  int store_conflicts_log2 = 0;
  int load_conflicts_log2 = 0;
  // The target's second ds_read_b128 read phase (SmemTarget::
  // b128_load_lanes_alt) was chosen: a rule fitted to Triton's answers, not
  // read in its source, which the output says ("empirical").
  bool empirical = false;
};

// OptimalSwizzling
//
// The choice Triton makes (docs/triton-swizzling.md, step 7): over the
// pairs of tiles that fit, the fewest bank conflicts, then the most
// rounds; the plain ld/st layouts when no pair fits, or directly where the
// target's lowering does not weigh tiles. Refuses an element width that is
// not a power of two up to 128 bits, and broadcast registers.
absl::StatusOr<SwizzleChoice> OptimalSwizzling(const LinearLayout& src,
                                               const LinearLayout& dst,
                                               const SmemTiles& tiles,
                                               int bitwidth,
                                               const SmemTarget& target);

// ScratchElements
//
// The elements of scratch a shared-memory conversion from `src` to `dst`
// needs (getNumScratchElemsSwizzledCvt), broadcast registers included in
// the inputs (they are removed here).
absl::StatusOr<int64_t> ScratchElements(const LinearLayout& src,
                                        const LinearLayout& dst, int bitwidth,
                                        const SmemTarget& target);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_SWIZZLING_H_

// triton/swizzling.h: the shared-memory layout Triton picks for a
// convert_layout that goes through shared memory, and hence how much
// scratch it allocates (Triton's GenericSwizzling; docs/triton.md, "What a
// convert_layout costs").
//
//   SmemTiles tiles = SmemTilesFor(/*bitwidth=*/32, kHopper);
//   LinearLayout smem = *OptimalSwizzling(src, dst, tiles, 32);
//   int64_t elements = *ScratchElements(src, dst, 32, kHopper);
//
// `src` and `dst` are register layouts (register, lane, warp, block ->
// dim0..) without broadcast registers (see RemoveBroadcastRegisters). The
// result maps (vector, bank, segment, reps) to the tensor: one round of
// stores and loads covers the vector x bank x segment elements, repeated
// `reps` times, so the scratch is the tensor size divided by reps.
#ifndef HLOLAYOUT_TRITON_SWIZZLING_H_
#define HLOLAYOUT_TRITON_SWIZZLING_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "hlolayout/triton/linear_layout.h"

namespace hlolayout::triton {

// A shared-memory instruction's access tile: the lane bits that hold
// contiguous elements, and the lane bits that give addresses.
struct SmemTile {
  std::vector<int> lane_contig;
  std::vector<int> lane_addr;
};

struct SmemTiles {
  std::vector<SmemTile> src;  // how registers can be stored
  std::vector<SmemTile> dst;  // how they can be loaded
};

// What the GPU offers (Triton's TargetInfo: ldmatrix from sm_75, stmatrix
// from sm_90).
struct SmemTarget {
  bool ld_matrix = true;
  bool st_matrix = true;
};
inline constexpr SmemTarget kHopper{true, true};

// The tiles Triton considers for elements of `bitwidth` bits
// (getSrcDstTiles): ld.shared/st.shared always; ldmatrix/stmatrix up to
// 32 bits; their transposing forms for 16 bits.
SmemTiles SmemTilesFor(int bitwidth, const SmemTarget& target);

// RemoveBroadcastRegisters
//
// The layout without its all-zero register bases (Triton's
// actionRemoveBroadcastedRegs).
absl::StatusOr<LinearLayout> RemoveBroadcastRegisters(const LinearLayout& l);

// OptimalSwizzling
//
// The shared-memory layout (in-dims vector, bank, segment, reps; out-dims
// those of `src`) Triton chooses: fewest bank conflicts over the pairs of
// instructions that fit, then most repetitions.
absl::StatusOr<LinearLayout> OptimalSwizzling(const LinearLayout& src,
                                              const LinearLayout& dst,
                                              const SmemTiles& tiles,
                                              int bitwidth);

// ScratchElements
//
// The elements of scratch a shared-memory conversion from `src` to `dst`
// needs (getNumScratchElemsSwizzledCvt), broadcast registers included in
// the inputs (they are removed here).
absl::StatusOr<int64_t> ScratchElements(const LinearLayout& src,
                                        const LinearLayout& dst, int bitwidth,
                                        const SmemTarget& target = kHopper);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_SWIZZLING_H_

// triton/cvt_cost.h: what a `ttg.convert_layout` between two register
// layouts costs on a given GPU, by Triton's own rule (docs/triton.md, "What
// a convert_layout costs").
//
//   LinearLayout src = *ToLinearLayout(blocked_a, {128, 64});
//   LinearLayout dst = *ToLinearLayout(blocked_b, {128, 64});
//   CvtCost c = *ConvertLayoutCost(src, dst, /*element_bits=*/16,
//                                  *CvtTargetNamed("hip:gfx942"));
//   c.kind           // kSharedMemory
//   c.map            // the minimal conversion: for each hardware position
//                    // of dst, the position of src that holds its element
//   c.scratch_bytes  // the shared memory Triton allocates for it
//   c.smem->stores   // each thread's stores: {{"ds_write", 128, 4}}
//
// The kinds: kRegisters (no data leaves its thread: a free reinterpretation
// or a register permutation), kWarpShuffle (data moves between lanes of a
// warp; shfl.sync, ds_bpermute), kSharedMemory (between warps, through a
// scratch buffer), kCrossCta (between the CTAs of a cluster, distributed
// shared memory). Scratch bytes are 0 unless the kind is kSharedMemory or
// kCrossCta.
#ifndef HLOLAYOUT_TRITON_CVT_COST_H_
#define HLOLAYOUT_TRITON_CVT_COST_H_

#include <cstdint>
#include <optional>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/triton/cvt_smem.h"
#include "hlolayout/triton/cvt_target.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/swizzling.h"

namespace hlolayout::triton {

enum class CvtKind { kRegisters, kWarpShuffle, kSharedMemory, kCrossCta };

// "registers", "warp_shuffle", "shared_memory", "cross_cta".
absl::string_view CvtKindName(CvtKind kind);

struct CvtCost {
  CvtKind kind = CvtKind::kRegisters;
  LinearLayout map;
  int64_t scratch_bytes = 0;
  // For kSharedMemory: the round trip (rounds, stores, loads, their widths
  // and bank conflicts) on the target. Unset for the other kinds (kCrossCta:
  // the scratch bytes only; its instructions are not modelled).
  std::optional<SmemRoundTrip> smem;
  // For kinds that move data inside a warp: how many register<->lane
  // transpositions the shuffle decomposition needs (Triton shuffles when
  // there are fewer than 2); unset when the decomposition does not apply.
  std::optional<int> mixed_transpositions;
};

// MinimalCvtLayout
//
// Triton's minimalCvtLayout: dst.invertAndCompose(src) (dst's hardware
// positions -> src's hardware positions holding the same element), then
// quotiented by
// the in-dims both layouts share, from the slowest (block, warp, lane,
// register), stopping at the first one the map mixes.
absl::StatusOr<LinearLayout> MinimalCvtLayout(const LinearLayout& src,
                                              const LinearLayout& dst);

// WarpShuffleTranspositions
//
// The number of mixed (register, lane) transpositions in Triton's
// decomposition of a within-warp conversion
// (getWarpLayoutConvertDecomposition), or std::nullopt when the register/lane
// map is not a permutation.
std::optional<int> WarpShuffleTranspositions(const LinearLayout& src,
                                             const LinearLayout& dst,
                                             bool local_copies = false);

// ReadsLocalCopies
//
// Whether every destination thread can read its elements in its own warp
// and block once the source's copies are counted (a source broadcast over a
// warp or block bit holds the same data in each), with no warp bit choosing
// a source register: Triton after 3.6 lowers such conversions with warp
// shuffles (when the register/lane part decomposes into fewer than two
// mixed transpositions). An error when the two have different numbers of
// warps or blocks.
absl::StatusOr<bool> ReadsLocalCopies(const LinearLayout& src,
                                      const LinearLayout& dst);

// ConvertLayoutCost
//
// The cost of converting a tensor from `src` to `dst` (register layouts of
// the same shape: in-dims register, lane, warp, block) with elements of
// `element_bits` bits (Triton stores at least 8; pointers are 64) on
// `target`.
absl::StatusOr<CvtCost> ConvertLayoutCost(const LinearLayout& src,
                                          const LinearLayout& dst,
                                          int element_bits,
                                          const CvtTarget& target);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_CVT_COST_H_

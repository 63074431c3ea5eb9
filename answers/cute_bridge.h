// answers/cute_bridge.h: CuTe layouts <-> Triton LinearLayouts, and CuTe
// swizzles <-> Triton's swizzled shared layouts (docs/triton.md, "CuTe and
// XLA").
//
//   // (4,8):(8,1): index -> offset; the weights 8,16 | 1,2,4 share no bits
//   LinearLayout l = *CuteToLinear(*cute::ParseLayout("(4,8):(8,1)"));
//   cute::ToString(*LinearToCute(l)) == "(4,8):(8,1)"
//   CuteToLinear(*cute::ParseLayout("4:3"))   // error: weights 3 and 6
//                                             // overlap (a sum, not an XOR)
//   // Triton's swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8,
//   // order = [1, 0]}> on 64x64 is CuTe's
//   *SwizzledSharedAsCute(s, {64, 64}) == "Swizzle<3,3,3> o (64,64):(64,1)"
//
// A CuTe layout is an integer map (a sum of coordinate times stride); a
// LinearLayout is an XOR of bases. They agree exactly when every mode size
// is a power of two and the nonzero weights stride * 2^j have pairwise
// disjoint binary supports. Anything else is refused with the reason.
#ifndef HLOLAYOUT_ANSWERS_CUTE_BRIDGE_H_
#define HLOLAYOUT_ANSWERS_CUTE_BRIDGE_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "hlolayout/cute/layout.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/named_layouts.h"

namespace hlolayout::triton {

// CuteToLinear
//
// The LinearLayout of a CuTe layout: one in-dim per top-level mode, named
// `in_dims` (default: "index" for an integral or rank-1 layout, else
// "mode0", "mode1", ...), each of log2(mode size) bits in CuTe's
// colexicographic order (a single name puts every mode in that one in-dim:
// the 1-D index); one out-dim `out_dim` whose size is the smallest
// power of two above every offset.
absl::StatusOr<LinearLayout> CuteToLinear(
    const cute::Layout& layout, absl::Span<const std::string> in_dims = {},
    absl::string_view out_dim = "offset");

// LinearToCute
//
// The CuTe layout of a LinearLayout whose flattened out-dims (dim0 fastest,
// CuTe's column-major convention) are a sum of its bases: one top-level mode
// per in-dim (coalesced; a lone in-dim gives a flat layout).
absl::StatusOr<cute::Layout> LinearToCute(const LinearLayout& layout);

struct CuteSwizzle {
  int b = 0;  // bits of the mask
  int m = 0;  // least significant bits kept constant (the vector)
  int s = 0;  // shift
};

// SwizzledSharedAsCute
//
// "Swizzle<B,M,S> o (R,C):(C,1)" (or ":(1,R)" for order [0, 1]) for a rank-2
// swizzled shared layout with maxPhase > 1 at `shape`, when CuTe's swizzle
// computes the same map (vec * maxPhase fits in a row).
absl::StatusOr<std::string> SwizzledSharedAsCute(
    const SwizzledSharedLayout& s, absl::Span<const int64_t> shape);

// SwizzledSharedFromCute
//
// The swizzled shared layout (order [1, 0]) of Swizzle<B,M,S> over a
// row-major rows x cols tile: vec = 2^M, maxPhase = 2^B,
// perPhase = 2^(S+M) / cols.
absl::StatusOr<SwizzledSharedLayout> SwizzledSharedFromCute(CuteSwizzle sw,
                                                            int64_t rows,
                                                            int64_t cols);

// ApplyCuteSwizzle
//
// CuTe's Swizzle<B,M,S>(x) = x ^ ((x & mask) >> S), mask = (2^B - 1) <<
// (M + S).
int64_t ApplyCuteSwizzle(CuteSwizzle sw, int64_t x);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_ANSWERS_CUTE_BRIDGE_H_

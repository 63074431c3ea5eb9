// triton/swizzling_port.h: TEMPORARY. The previous triton/swizzling.cc, a
// function-by-function translation of Triton's GenericSwizzling.cpp, kept
// only so that SwizzlingEquivalenceTest can check the re-implementation in
// triton/swizzling.cc against it (issue 46 item 2). Removed once it passes.
//
//   port::OptimalSwizzling(src, dst, SmemTilesFor(16, t), 16, t)
#ifndef HLOLAYOUT_TRITON_SWIZZLING_PORT_H_
#define HLOLAYOUT_TRITON_SWIZZLING_PORT_H_

#include "absl/status/statusor.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/swizzling.h"

namespace hlolayout::triton::port {

absl::StatusOr<SwizzleChoice> OptimalSwizzling(const LinearLayout& src,
                                               const LinearLayout& dst,
                                               const SmemTiles& tiles,
                                               int bitwidth,
                                               const SmemTarget& target);

}  // namespace hlolayout::triton::port

#endif  // HLOLAYOUT_TRITON_SWIZZLING_PORT_H_

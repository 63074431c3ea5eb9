// cute/internal/regroup.h: the regrouping behind zipped_, tiled_ and
// flat_ divide and product (CuTe's zip2_by on the tiler's profile).
//
// For a by-mode result ((T0,R0),(T1,R1),L2,...) and a tiler of rank 2:
//   Zipped: ((T0,T1),(R0,R1,L2,...))
//   Tiled:  ((T0,T1),R0,R1,L2,...)
//   Flat:   (T0,T1,R0,R1,L2,...)
// For a Layout tiler the input is (T,R): zipped is (T,R) itself.
#ifndef HLOLAYOUT_CUTE_INTERNAL_REGROUP_H_
#define HLOLAYOUT_CUTE_INTERNAL_REGROUP_H_

#include "absl/status/statusor.h"
#include "cute/layout.h"
#include "cute/tiler.h"

namespace hlolayout::cute::internal {

enum class Grouping { kZipped, kTiled, kFlat };

// Regroup
//
// `logical` is the result of logical_divide or logical_product by `tiler`.
// Returns an error for `_` inside the tiler (its mode has no tile/rest
// split) and when the result overflows.
absl::StatusOr<Layout> Regroup(const Layout& logical, const Tiler& tiler,
                               Grouping grouping);

}  // namespace hlolayout::cute::internal

#endif  // HLOLAYOUT_CUTE_INTERNAL_REGROUP_H_

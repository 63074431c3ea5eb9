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

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "hlolayout/cute/layout.h"
#include "hlolayout/cute/tiler.h"

namespace hlolayout::cute::internal {

enum class Grouping { kZipped, kTiled, kFlat };

// Regroup
//
// `logical` is the result of logical_divide or logical_product by `tiler`.
// Returns an error for `_` inside the tiler (its mode has no tile/rest
// split) and when the result overflows.
absl::StatusOr<Layout> Regroup(const Layout& logical, const Tiler& tiler,
                               Grouping grouping);

// DslRegroup
//
// Regroup as the CuTe DSL does it: a tuple of one mode is unpacked too
// (observed: tiled_divide((8,):(1,), (2,)) is ((2),4):((1),2), where C++
// CuTe's repeat<1> keeps ((2),(4))), and `_` in the tiler splits its mode
// as a Layout does. Errors, as the DSL refuses (its zip2_by): a mode split
// by a Layout that does not have two modes, a tuple of the tiler with more
// modes than its mode of `logical`.
absl::StatusOr<Layout> DslRegroup(const Layout& logical, const Tiler& tiler,
                                  Grouping grouping);

// ApplyByMode
//
// The by-mode rule shared by logical_divide and logical_product for a tuple
// tiler <B0, B1, ...>: mode i of A goes through `op(A_i, B_i)`, modes past
// the tiler's rank are kept, and an integral A is its own single mode.
// Error: the tiler has more modes than A.
// Precondition: tiler.kind() == Tiler::Kind::kTuple.
absl::StatusOr<Layout> ApplyByMode(
    const Layout& a, const Tiler& tiler,
    absl::FunctionRef<absl::StatusOr<Layout>(const Layout&, const Tiler&)> op);

}  // namespace hlolayout::cute::internal

#endif  // HLOLAYOUT_CUTE_INTERNAL_REGROUP_H_

// triton/layout_utils.h: the helpers Triton builds its named layouts from
// (lib/Tools/LayoutUtils.cpp; docs/triton.md, "Named layouts").
//
//   // register -> (dim0, dim1), dim1 fastest: 2x4 elements per thread
//   LinearLayout r = *IdentityStandardND("register", {2, 4}, {1, 0});
//   // grow with more registers / zero the largest bases to fit 8x2
//   r = *EnsureLayoutNotSmallerThan(r, {{"dim0", 8}, {"dim1", 2}});
//   r = *EnsureLayoutNotLargerThan(r, {{"dim0", 8}, {"dim1", 2}});
//
// Shapes given as (out-dim, size) pairs must name every out-dim of the
// layout (in any order) with a power-of-two size.
#ifndef HLOLAYOUT_TRITON_LAYOUT_UTILS_H_
#define HLOLAYOUT_TRITON_LAYOUT_UTILS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "hlolayout/triton/linear_layout.h"

namespace hlolayout::triton {

// CheckOrder
//
// OK when `order` is a permutation of 0..rank-1 (rank: its size); else
// Triton's message: "order must be a permutation of 0..(rank-1), but was
// [1, 1]".
absl::Status CheckOrder(absl::Span<const int32_t> order);

// StandardOutDimNames
//
// "dim0", "dim1", ..., "dim<rank-1>".
std::vector<std::string> StandardOutDimNames(int rank);

// IdentityStandardND
//
// The product over i of identity1D(shape[order[i]], in_dim, dim<order[i]>):
// a row-major (by `order`, fastest first) walk of `shape`. Out-dims come in
// `order`'s order.
absl::StatusOr<LinearLayout> IdentityStandardND(
    absl::string_view in_dim, absl::Span<const int32_t> shape,
    absl::Span<const int32_t> order);

// EnsureLayoutNotSmallerThan
//
// For each out-dim smaller than `shape`, multiplies an identity along the
// first in-dim (which must be register or offset).
absl::StatusOr<LinearLayout> EnsureLayoutNotSmallerThan(const LinearLayout& l,
                                                        const NamedInts& shape);

// EnsureLayoutNotLargerThan
//
// For each out-dim larger than `shape`, zeroes its largest basis values
// until it fits (broadcast): every basis of the largest value at once (a
// swizzled layout can repeat an output bit), halving the size each time.
// With broadcast_registers == false, register bases are dropped instead of
// zeroed. The out-dims keep their sizes, clipped to `shape`; the result
// need not be surjective.
absl::StatusOr<LinearLayout> EnsureLayoutNotLargerThan(
    const LinearLayout& l, const NamedInts& shape,
    bool broadcast_registers = true);

// CombineCtaCgaWithShape
//
// Triton's combineCtaCgaWithShape: `cta` (register/lane/warp or offset ->
// dims) combined with the CGA layout `cga` (block -> dims), each resized so
// that the result covers `shape` exactly. Out-dims come out as dim0, dim1...
absl::StatusOr<LinearLayout> CombineCtaCgaWithShape(
    LinearLayout cta, const LinearLayout& cga, absl::Span<const int64_t> shape);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_LAYOUT_UTILS_H_

// triton/ops.h: the operations on Triton LinearLayouts (docs/triton.md,
// "Operations"), as Triton 3.6.0 computes them.
//
//   LinearLayout a = *LinearLayout::Identity1D(4, "in", "out1");
//   LinearLayout b = *LinearLayout::Identity1D(8, "in", "out2");
//   LinearLayout ab = *Product(a, b);   // {in:
//   [[1,0],[2,0],[0,1],[0,2],[0,4]]} *DivideLeft(ab, a) == b LinearLayout p =
//   *Pseudoinvert(ab); // out-dims -> in-dims, ab(p(x)) == x
//
// Where Triton asserts or reports a fatal error these return an
// InvalidArgument status carrying Triton's reason (for example "Supremum does
// not exist" or "A linear layout must be surjective and square to be
// invertible"). Functions that Triton gives an std::optional result return
// std::nullopt exactly where Triton does.
#ifndef HLOLAYOUT_TRITON_OPS_H_
#define HLOLAYOUT_TRITON_OPS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "hlolayout/triton/linear_layout.h"

namespace hlolayout::triton {

// Supremum
//
// The merge of two name lists that keeps both relative orders, preferring
// `x` where both allow (Triton's supremum): sup([a,b],[b,c]) = [a,b,c].
// "Supremum does not exist" when the orders conflict.
absl::StatusOr<std::vector<std::string>> Supremum(
    absl::Span<const std::string> x, absl::Span<const std::string> y);

// Product
//
// Triton's `inner * outer`: the direct sum. Dim lists are the supremum of
// both; per in-dim the inner bases come first; outer bases follow, shifted
// left by log2 inner.outSize(o) for each out-dim o that inner also has.
absl::StatusOr<LinearLayout> Product(const LinearLayout& inner,
                                     const LinearLayout& outer);

// Compose
//
// outer ∘ inner (Triton's inner.compose(outer)): inner's out-dims must be
// outer's in-dims (ignoring order) and no larger.
absl::StatusOr<LinearLayout> Compose(const LinearLayout& inner,
                                     const LinearLayout& outer);

// InvertAndCompose
//
// Triton's b.invertAndCompose(a): C with a(C(x)) == b(x), mapping b's
// in-dims to a's in-dims. Dims that are equal in both layouts map by the
// identity; the rest is the minimum-norm least-squares solution over F2.
absl::StatusOr<LinearLayout> InvertAndCompose(const LinearLayout& b,
                                              const LinearLayout& a);

// Invert, Pseudoinvert
//
// Pseudoinvert maps out-dims to in-dims with A(P(x)) == x for x in the
// image; Invert requires an invertible layout.
absl::StatusOr<LinearLayout> Pseudoinvert(const LinearLayout& a);
absl::StatusOr<LinearLayout> Invert(const LinearLayout& a);

// ReshapeIns, ReshapeOuts, FlattenIns, FlattenOuts
//
// New dims with power-of-two sizes whose product is the total size.
// Flatten* reshape to one dim named like the first one.
absl::StatusOr<LinearLayout> ReshapeIns(const LinearLayout& l,
                                        const NamedInts& new_in_dims);
absl::StatusOr<LinearLayout> ReshapeOuts(const LinearLayout& l,
                                         const NamedInts& new_out_dims);
absl::StatusOr<LinearLayout> FlattenIns(const LinearLayout& l);
absl::StatusOr<LinearLayout> FlattenOuts(const LinearLayout& l);

// TransposeIns, TransposeOuts
//
// The same layout with its dims in the given order (a permutation).
absl::StatusOr<LinearLayout> TransposeIns(const LinearLayout& l,
                                          absl::Span<const std::string> order);
absl::StatusOr<LinearLayout> TransposeOuts(const LinearLayout& l,
                                           absl::Span<const std::string> order);

// Sublayout, SublayoutIsZero
//
// The layout restricted to some in-dims and out-dims (subsets, any order;
// the layout's own order and out sizes are kept).
absl::StatusOr<LinearLayout> Sublayout(const LinearLayout& l,
                                       absl::Span<const std::string> ins,
                                       absl::Span<const std::string> outs);
absl::StatusOr<bool> SublayoutIsZero(const LinearLayout& l,
                                     absl::Span<const std::string> ins,
                                     absl::Span<const std::string> outs);

// ConcatIns, ConcatOuts
//
// ConcatIns: same out-dims and sizes, other's in-dims added. ConcatOuts:
// same in-dims and sizes, out-dims appended and bases concatenated.
absl::StatusOr<LinearLayout> ConcatIns(const LinearLayout& l,
                                       const LinearLayout& other);
absl::StatusOr<LinearLayout> ConcatOuts(const LinearLayout& l,
                                        const LinearLayout& other);

// DivideLeft, DivideRight
//
// C with a == b * C (DivideLeft) or a == C * b (DivideRight), or
// std::nullopt when there is none of the form Triton looks for.
absl::StatusOr<std::optional<LinearLayout>> DivideLeft(const LinearLayout& a,
                                                       const LinearLayout& b);
absl::StatusOr<std::optional<LinearLayout>> DivideRight(const LinearLayout& a,
                                                        const LinearLayout& b);

// IsTrivialOver, Quotient
//
// Trivial: the layout is the identity on `dims` (same in and out sizes)
// and does not mix them with the other dims. Quotient: the sublayout of the
// other dims when trivial, else std::nullopt. A dim that is an in-dim or an
// out-dim only is an error (Triton asserts).
absl::StatusOr<bool> IsTrivialOver(const LinearLayout& l,
                                   absl::Span<const std::string> dims);
absl::StatusOr<std::optional<LinearLayout>> Quotient(
    const LinearLayout& l, absl::Span<const std::string> dims);

// FreeVariableMasks
//
// Per in-dim, the bits that can change without changing the output (the
// non-pivot columns of the reduced matrix). All zero iff injective.
NamedInts FreeVariableMasks(const LinearLayout& l);

// NumConsecutiveInOut
//
// Triton's getNumConsecutiveInOut: how many consecutive inputs of the first
// in-dim map to consecutive values of the first out-dim.
int32_t NumConsecutiveInOut(const LinearLayout& l);

// UnsqueezeIn, UnsqueezeOut, RemoveZeroBasesAlongDim
//
// Drop a size-1 in-dim (out-dim); drop the all-zero bases of one in-dim.
absl::StatusOr<LinearLayout> UnsqueezeIn(const LinearLayout& l,
                                         absl::string_view dim);
absl::StatusOr<LinearLayout> UnsqueezeOut(const LinearLayout& l,
                                          absl::string_view dim);
absl::StatusOr<LinearLayout> RemoveZeroBasesAlongDim(const LinearLayout& l,
                                                     absl::string_view dim);

// ApplyColumnAction
//
// Triton's ColumnAction::apply: the bases of in-dim `dim` replaced by the
// bases at `action` (a selection of indices, possibly dropping some).
absl::StatusOr<LinearLayout> ApplyColumnAction(const LinearLayout& l,
                                               absl::string_view dim,
                                               absl::Span<const int> action);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_OPS_H_

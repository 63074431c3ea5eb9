// triton/layout_verifier.h: Triton's attribute verifiers for the layouts of
// triton/named_layouts.h, with Triton's messages: what `triton-opt` refuses
// when it reads a layout attribute, whatever tensor carries it.
//
//   Layout bad = Layout(LinearEncoding{*LinearLayout::CreateInferred(
//       {{"register", {{1}, {3}}}, {"lane", {}}, {"warp", {}},
//        {"block", {}}}, {"dim0"})});
//   VerifyLayout(bad).message() ==
//       "LinearEncodingAttr requires a permutation matrix layout after "
//       "removing broadcast bases"
//
// The rules (Triton's <Kind>EncodingAttr::verify):
// - blocked: sizePerThread, threadsPerWarp, warpsPerCTA and order have one
//   rank; the sizes are powers of two; order is a permutation of 0..rank-1;
// - every CGA layout (blocked, nvidia_mma, swizzled_shared, nvmma_shared) has
//   the layout's rank and is a permutation matrix once its zero (broadcast)
//   bases are removed; swizzled_shared's order is a permutation;
// - nvmma_shared: swizzlingByteWidth is 0, 32, 64 or 128;
// - linear: a permutation matrix once its zero bases are removed (so no
//   basis moves in two dims or repeats another, whichever in-dim it is of);
// - shared_linear: without its zero bases, bijective (surjectivity is
//   checked when its bases are read);
// - slice: the parent has rank >= 2 and dim is below it;
// - dot_op: opIdx is 0 or 1; the parent is nvidia_mma or blocked (AMD's
//   parents are checked by the TTGIR reader, which does not convert them);
//   with an MMA v2 or v3 parent kWidth is given, with v1 it is not, with v3
//   opIdx is 0; with a blocked parent kWidth is not given.
#ifndef HLOLAYOUT_TRITON_LAYOUT_VERIFIER_H_
#define HLOLAYOUT_TRITON_LAYOUT_VERIFIER_H_

#include "absl/status/status.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/named_layouts.h"

namespace hlolayout::triton {

// VerifyLayout
//
// OK, or InvalidArgument with Triton's message. Parents of slice and dot_op
// layouts are verified too.
absl::Status VerifyLayout(const Layout& layout);

// IsPermutationMatrixLayout
//
// Triton's isPermutationMatrixLayout: with the in-dims and the out-dims
// flattened (dim0 fastest), every non-zero basis is a single bit, no two are
// the same, and together they cover every output bit.
bool IsPermutationMatrixLayout(const LinearLayout& l);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_LAYOUT_VERIFIER_H_

// triton/named_layouts_internal.h: the pieces the conversions of
// named_layouts.cc, named_layouts_amd.cc and named_layouts_memory.cc share
// (Triton's helpers of LinearLayoutConversions.cpp). Not a public header.
//
//   LinearLayout cga = *internal::CgaLayout(b.cga, rank);
//   return CombineCtaCgaWithShape(std::move(cta), cga, shape);
#ifndef HLOLAYOUT_TRITON_NAMED_LAYOUTS_INTERNAL_H_
#define HLOLAYOUT_TRITON_NAMED_LAYOUTS_INTERNAL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/named_layouts.h"

namespace hlolayout::triton::internal {

absl::Status Err(absl::string_view message);
bool IsPow2(int64_t v);

// Every element of `v` a power of two ("Every element in <what> must be a
// power of two.").
absl::Status CheckPow2(absl::string_view what, absl::Span<const int32_t> v);

// The tensor has `rank` dims, each a power of two up to 2^30.
absl::Status CheckShape(absl::Span<const int64_t> shape, int rank);

// identity1D / zeros1D with a 64-bit size (refused above 2^30).
absl::StatusOr<LinearLayout> Id(int64_t size, absl::string_view in,
                                absl::string_view out);
absl::StatusOr<LinearLayout> Zeros(int64_t size, absl::string_view in,
                                   absl::string_view out);

// `layout *= part` (Triton's operator*=).
absl::Status MulInto(LinearLayout& layout, const LinearLayout& part);
// `layout *= identity1D(size, in, out)`.
absl::Status MulId(LinearLayout& layout, int64_t size, absl::string_view in,
                   absl::string_view out);

// The CGA layout block -> dim0.. (Triton's CGAEncodingAttr; the bases are
// read with the names-only constructor, so they must be surjective).
absl::StatusOr<LinearLayout> CgaLayout(const CgaBases& cga, int rank);

// Per dim, how many CTAs split it (Triton's CTASplitNum), and the shape of
// one CTA's piece.
std::vector<int64_t> SplitNum(const CgaBases& cga, int rank);
std::vector<int64_t> ShapePerCta(absl::Span<const int64_t> shape,
                                 const CgaBases& cga);

// The CGA layout of a dot operand (DotOperandEncodingAttr::getCGALayout):
// the parent's, with every block basis zeroed along K (an operand is
// broadcast along K across CTAs) and K's size 1.
absl::StatusOr<LinearLayout> DotOperandCgaLayout(const CgaBases& parent_cga,
                                                 int rank, int op_idx);

// Triton's getMatrixOrder: [rank-1, ..., 0], the first two swapped when not
// row-major.
std::vector<int32_t> MatrixOrder(int rank, bool row_major);

// Triton's getOrderForDotOperand(opIdx, rank, kContig = true).
std::vector<int32_t> DotOperandOrder(int op_idx, int rank);

// Triton's broadcastedDotOperandLayout: identity along `order` except
// zeros along k_dim.
absl::StatusOr<LinearLayout> BroadcastedDotOperandLayout(
    absl::Span<const int32_t> shape, absl::Span<const int32_t> order, int k_dim,
    absl::string_view in_dim);

// The names dim<order[0]>, dim<order[1]>, ... (Triton's permuteDimNames of
// the standard names).
std::vector<std::string> PermutedDimNames(absl::Span<const int32_t> order);

// The layout for `shape`, without the distributed-layout check of
// ToLinearLayout (the dispatcher of named_layouts.cc).
absl::StatusOr<LinearLayout> Convert(const Layout& layout,
                                     absl::Span<const int64_t> shape);

// The per-kind conversions outside named_layouts.cc.
absl::StatusOr<LinearLayout> FromMfma(const AmdMfmaLayout& m,
                                      absl::Span<const int64_t> shape);
absl::StatusOr<LinearLayout> FromMfmaDot(const DotOperandLayout& d,
                                         const AmdMfmaLayout& m,
                                         absl::Span<const int64_t> shape);
absl::StatusOr<LinearLayout> FromWmma(const AmdWmmaLayout& w,
                                      absl::Span<const int64_t> shape);
absl::StatusOr<LinearLayout> FromWmmaDot(const DotOperandLayout& d,
                                         const AmdWmmaLayout& w,
                                         absl::Span<const int64_t> shape);
absl::StatusOr<LinearLayout> FromRotating(const AmdRotatingSharedLayout& s,
                                          absl::Span<const int64_t> shape);
absl::StatusOr<LinearLayout> FromGenericLinear(const GenericLinearEncoding& e,
                                               absl::Span<const int64_t> shape);
absl::StatusOr<LinearLayout> FromPadded(const PaddedSharedLayout& p,
                                        absl::Span<const int64_t> shape);
absl::StatusOr<LinearLayout> FromPartitioned(const PartitionedSharedLayout& p,
                                             absl::Span<const int64_t> shape);
absl::StatusOr<LinearLayout> FromTensorMemory(const TensorMemoryLayout& t,
                                              absl::Span<const int64_t> shape);
absl::StatusOr<LinearLayout> FromTensorMemoryScales(
    const TensorMemoryScalesLayout& t, absl::Span<const int64_t> shape);

// The WMMA CTA layout (register, warp -> dims, in tiles) of either
// spelling; the 3.6 spelling through Triton's chooseWmmaCTALinearLayout.
absl::StatusOr<LinearLayout> WmmaCtaLayout(const AmdWmmaLayout& w);

}  // namespace hlolayout::triton::internal

#endif  // HLOLAYOUT_TRITON_NAMED_LAYOUTS_INTERNAL_H_

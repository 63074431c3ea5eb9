// triton/type_verifier.h: Triton's checks of a layout where a type uses it:
// a `tensor<...>` or `!ttg.memdesc<...>` of a module with a warp size, a
// number of warps and of CTAs (TritonGPU's verifyTensorLayout and
// verifyMemDescLayout, MemDescType::verify), with Triton's messages.
//
//   LayoutUse use;            // tensor<64x64xf32, #mfma> in a module of
//   use.shape = {64, 64};     // 4 warps of 64 threads, one CTA
//   use.element_bits = 32;
//   use.threads_per_warp = 64;
//   use.num_warps = 4;
//   absl::Status s = VerifyLayoutUse(mfma, use);
//   // a 32-lane layout there: "Layout has 32 threads per warp, but the
//   // module specifies 64 threads per warp."
#ifndef HLOLAYOUT_TRITON_TYPE_VERIFIER_H_
#define HLOLAYOUT_TRITON_TYPE_VERIFIER_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/named_layouts.h"

namespace hlolayout::triton {

// A type using a layout, and the module around it.
struct LayoutUse {
  std::vector<int64_t> shape;  // the type's shape (a memdesc: its alloc shape)
  int element_bits = 32;       // the element type's width
  bool memdesc = false;        // !ttg.memdesc (else tensor)
  int threads_per_warp = 32;   // "ttg.threads-per-warp"
  int num_warps = 4;           // "ttg.num-warps"
  int num_ctas = 1;            // "ttg.num-ctas"
};

// VerifyLayoutUse
//
// OK, or InvalidArgument with Triton's message: the layout's rank against
// the type's, its CTAs against the module's, a tensor's layout distributed
// with the module's threads per warp and warps; a memdesc's layout shared
// or tensor memory fitting its shape (tensor memory: the element width
// times colStride at most 32 bits, the allocation at least blockM x blockN
// per CTA; scales: 8-bit, 2-D or 3-D; padded and shared linear layouts
// exactly the allocation's shape). The layout itself must already verify
// (VerifyLayout).
absl::Status VerifyLayoutUse(const Layout& layout, const LayoutUse& use);

// TensorMemoryColumnsPerCta
//
// The 32-bit columns of tensor memory one CTA's share of a tensor memory
// allocation takes: every element of the allocation (a leading buffer dim
// included) at element bits x colStride, over the 128 lanes, over the CTAs
// the layout splits it across (CTASplitM x CTASplitN, or the CGA layout's),
// rounded up. A CTA has 512 (128 lanes x 512 columns of 32 bits: 256 KiB).
// 0 when `use` has no shape.
int64_t TensorMemoryColumnsPerCta(const TensorMemoryLayout& layout,
                                  const LayoutUse& use);
inline constexpr int64_t kTensorMemoryColumns = 512;

// LayoutForUse
//
// VerifyLayoutUse, then the layout's LinearLayout at the type's shape (a
// memdesc's trailing dims: a leading multi-buffering dim is not part of
// the layout; tensor memory: the last two).
absl::StatusOr<LinearLayout> LayoutForUse(const Layout& layout,
                                          const LayoutUse& use);

// NumCtas
//
// Triton's getNumCTAs: the CTAs the layout's CGA layout spans (2^bases,
// broadcast bases included; CTASplitM * CTASplitN in Triton 3.6's tensor
// memory spelling).
int64_t NumCtas(const Layout& layout);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_TYPE_VERIFIER_H_

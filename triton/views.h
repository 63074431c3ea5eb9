// triton/views.h: the printed views of a LinearLayout that Triton's Python
// binding offers (docs/triton.md, "Views"), byte-identical to Triton 3.6.0.
//
//   LinearLayout l = ...;  // in-dims register, lane, warp, block
//   *DistributedView(l, /*hardware=*/false)   // which thread:register holds
//                                             // each element, tensor-shaped
//   *DistributedView(l, /*hardware=*/true)    // the element of each
//                                             // warp/register/lane
//   *SharedView(s, false)                     // for in-dims offset, block
//   MatrixView(l)                             // the F2 matrix, 0/1 entries
//
// The distributed view needs exactly the in-dims register, lane, warp and
// block (in any order), the shared view exactly offset and block, and both
// at least one out-dim; otherwise an error (Triton aborts). Views print one
// entry per element, so layouts of more than 2^22 elements (in or out) are
// refused rather than printed.
#ifndef HLOLAYOUT_TRITON_VIEWS_H_
#define HLOLAYOUT_TRITON_VIEWS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "hlolayout/triton/linear_layout.h"

namespace hlolayout::triton {

inline constexpr int kMaxViewBits = 22;

// Triton's get_distributed_view(use_hw_point_of_view).
absl::StatusOr<std::string> DistributedView(const LinearLayout& l,
                                            bool hardware);

// Triton's get_shared_view(use_hw_point_of_view).
absl::StatusOr<std::string> SharedView(const LinearLayout& l, bool hardware);

// Triton's get_matrix_view(): rows are output bits, columns input bits.
std::vector<std::vector<int>> MatrixView(const LinearLayout& l);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_VIEWS_H_

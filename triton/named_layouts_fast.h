// triton/named_layouts_fast.h: an allocation-light path for the named
// register layouts met most (blocked, NVIDIA MMA v2/v3, dot operands of MMA
// and blocked parents, on one CTA). It follows the same construction as
// named_layouts.cc -- products of identities, then Triton's
// ensureLayoutNotSmallerThan / NotLargerThan -- on plain arrays instead of
// LinearLayout values, and builds one LinearLayout at the end.
//
//   std::optional<LinearLayout> l = FastToLinearLayout(layout, {128, 128});
//   // std::nullopt: not a case this path takes (CGA layouts, shared
//   // layouts, slices, invalid parameters); use ToLinearLayout, which
//   // calls this first and falls back to the general path.
//
// Tests check it against the general path on every case of
// triton/testdata/named_layouts.jsonl and on random layouts.
#ifndef HLOLAYOUT_TRITON_NAMED_LAYOUTS_FAST_H_
#define HLOLAYOUT_TRITON_NAMED_LAYOUTS_FAST_H_

#include <cstdint>
#include <optional>

#include "absl/types/span.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/named_layouts.h"

namespace hlolayout::triton {

std::optional<LinearLayout> FastToLinearLayout(const Layout& layout,
                                               absl::Span<const int64_t> shape);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_NAMED_LAYOUTS_FAST_H_

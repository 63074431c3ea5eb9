// ttmlir/ttmlir_explain.h: one tensor type of any of tt-mlir's layouts,
// analysed. The texts `hlolayout grid explain` and `locate` print are views
// (views/ttmlir_text.h).
//
//   absl::StatusOr<GridAnalysis> a = AnalyzeGridText(
//       "#dram = #ttnn.buffer_type<dram>\n"
//       "tensor<32x32xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, "
//       "memref<1x1x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>>");
//   a->ttnn->memref_shape() == {1, 1}; a->warnings.empty()
//
// The answers (answers/ttmlir.h) and their views are built from it.
#ifndef HLOLAYOUT_TTMLIR_TTMLIR_EXPLAIN_H_
#define HLOLAYOUT_TTMLIR_TTMLIR_EXPLAIN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/optional.h"
#include "absl/types/span.h"
#include "hlolayout/ttmlir/ttcore_metal_layout.h"
#include "hlolayout/ttmlir/ttmlir_attrs.h"
#include "hlolayout/ttmlir/ttmlir_parse.h"
#include "hlolayout/ttmlir/ttnn_attr.h"

namespace hlolayout::grid {

// GridAnalysis
//
// A parsed tensor type and, for the current forms, the layout the builder
// computes (`ttnn` or `metal`); the seed form's layout is `text.seed`.
// `warnings` says where the text differs from the builder (or, for a seed
// form under the `ttcore` name, that tt-mlir no longer reads it).
struct GridAnalysis {
  GridTensorText text;
  absl::optional<TtnnLayoutAttr> ttnn;
  absl::optional<TtcoreMetalLayout> metal;
  std::vector<std::string> warnings;
  std::vector<std::string> notes;
};

// AnalyzeGridTensor
//
// Builds the layout of a parsed type on `device`. Errors: the refusals of
// TtnnLayoutAttr::Build and TtcoreMetalLayout::Build.
absl::StatusOr<GridAnalysis> AnalyzeGridTensor(const GridTensorText& text,
                                               const TtnnDevice& device = {});

// AnalyzeGridText
//
// ParseGridTensor then AnalyzeGridTensor. A refusal names the tensor type
// and the reason: "tensor<32x32xf32, ...>: tt-mlir's verifier refuses it:
// expected (1, 1) grid shape for dram buffer type ..., got (8, 8)".
absl::StatusOr<GridAnalysis> AnalyzeGridText(absl::string_view text,
                                             const TtnnDevice& device = {});

// RefusalMessage
//
// The one-line message of a refusal of `tensor` (cut to 160 characters).
std::string RefusalMessage(absl::string_view tensor, absl::string_view reason);

}  // namespace hlolayout::grid

#endif  // HLOLAYOUT_TTMLIR_TTMLIR_EXPLAIN_H_

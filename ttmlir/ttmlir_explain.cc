#include "hlolayout/ttmlir/ttmlir_explain.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/parser/diagnostic.h"
#include "hlolayout/ttmlir/metal_layout.h"

namespace hlolayout::grid {

std::string RefusalMessage(absl::string_view tensor, absl::string_view reason) {
  std::string t(tensor.substr(0, 160));
  if (tensor.size() > 160) t += "...";
  return absl::StrCat(t, ": ", reason);
}

absl::StatusOr<GridAnalysis> AnalyzeGridTensor(const GridTensorText& text,
                                               const TtnnDevice& device) {
  GridAnalysis a;
  a.text = text;
  switch (text.kind) {
    case GridEncodingKind::kTtnnLayout: {
      absl::StatusOr<TtnnLayoutAttr> l =
          TtnnLayoutAttr::Build(text.shape, *text.ttnn, device);
      if (!l.ok()) return l.status();
      a.warnings = l->warnings();
      a.notes = l->notes();
      a.ttnn = *std::move(l);
      break;
    }
    case GridEncodingKind::kMetalLayout: {
      absl::StatusOr<TtcoreMetalLayout> l = TtcoreMetalLayout::Build(
          text.shape, text.element, *text.metal, device);
      if (!l.ok()) return l.status();
      a.warnings = l->warnings();
      a.metal = *std::move(l);
      break;
    }
    case GridEncodingKind::kSeedMetalLayout:
      if (text.seed_dialect == "ttcore") {
        a.warnings.push_back(
            "the 2024 form #ttcore.metal_layout<map, oob, <grid>, memref> is "
            "no longer read by tt-mlir (its attribute is now logical_shape, "
            "dim_alignments, collapsed_intervals, memory space, memory "
            "layout); explained with the 2024 model");
      }
      break;
  }
  return a;
}

absl::StatusOr<GridAnalysis> AnalyzeGridText(absl::string_view text,
                                             const TtnnDevice& device) {
  absl::StatusOr<GridTensorText> parsed = ParseGridTensor(text);
  if (!parsed.ok()) return parsed.status();
  absl::StatusOr<GridAnalysis> a = AnalyzeGridTensor(*parsed, device);
  if (!a.ok()) {
    return ParseError(text, parsed->encoding_offset, a.status().message());
  }
  return a;
}

}  // namespace hlolayout::grid

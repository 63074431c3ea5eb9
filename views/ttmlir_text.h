// views/ttmlir_text.h: the texts `hlolayout grid explain`, `locate` and
// `report` print, and grid-locate's batch answer: views of tt-mlir's
// answers (answers/ttmlir.h), which keep the values and the JSON.
//
//   absl::StatusOr<GridAnalysis> a = AnalyzeGridText(text, device);
//   ExplainText(*a);          // the explanation `grid explain` prints
//   *LocateText(*a, {2, 1541});
//   *LocateAnswer(*a, {2, 1541});
//   // "shard=0,3 offset=2,5 tile=0,48 in_tile=2,5 core=3,0"
//   FormatGridReport(*ReadGridReport(file_text, "model.mlir", device));
#ifndef HLOLAYOUT_VIEWS_TTMLIR_TEXT_H_
#define HLOLAYOUT_VIEWS_TTMLIR_TEXT_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "hlolayout/answers/ttmlir.h"
#include "hlolayout/ttmlir/ttmlir_explain.h"

namespace hlolayout::grid {

// `hlolayout grid explain`'s and `locate`'s texts.
std::string ExplainText(const GridAnalysis& analysis);
absl::StatusOr<std::string> LocateText(const GridAnalysis& analysis,
                                       absl::Span<const int64_t> index);

// The batch answer of grid-locate for a TTNN or metal layout:
// "shard=0,5 offset=2,5 tile=0,48 in_tile=2,5 core=5,0".
absl::StatusOr<std::string> LocateAnswer(const GridAnalysis& analysis,
                                         absl::Span<const int64_t> index);

// `grid report`'s text.
std::string FormatGridReport(const GridReport& report);

}  // namespace hlolayout::grid

#endif  // HLOLAYOUT_VIEWS_TTMLIR_TEXT_H_

// grid/answers.h: the answers of `hlolayout grid explain/locate/report`, as
// text and JSON, for all three tt-mlir forms, and the batch answers. The CLI
// prints them; Python's hlolayout.grid returns them (one source for both).
//
//   absl::StatusOr<GridAnalysis> a = AnalyzeGridText(text, device);
//   ExplainJson(*a) ->
//     {"kind": "ttnn_layout", "tensor": "...", "grid": [1, 8], ...}
//   LocateJson(*a, {2, 1541}) -> {"index": [2, 1541], ..., "core": [3, 0]}
//   ReadGridReport(file_text, "model.mlir", device)->types.size()
//
// Key lists are in the subcommands' --help and in docs/tt-mlir.md.
#ifndef HLOLAYOUT_GRID_ANSWERS_H_
#define HLOLAYOUT_GRID_ANSWERS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "hlolayout/grid/explain.h"
#include "hlolayout/grid/ttmlir_attrs.h"
#include "hlolayout/grid/ttmlir_explain.h"
#include "hlolayout/grid/ttmlir_parse.h"

namespace hlolayout::grid {

// `hlolayout grid explain`'s answer for the analysis's form (TTNN, metal or
// the 2024 seed form): multi-line text, or one JSON object.
std::string ExplainText(const GridAnalysis& analysis);
std::string ExplainJson(const GridAnalysis& analysis);

// `hlolayout grid locate`'s answer for element `index` (text or JSON); an
// error when the index does not fit the tensor ("index 40 out of range ...").
absl::StatusOr<std::string> LocateText(const GridAnalysis& analysis,
                                       absl::Span<const int64_t> index);
absl::StatusOr<std::string> LocateJson(const GridAnalysis& analysis,
                                       absl::Span<const int64_t> index);

std::string TtnnExplainJson(const grid::GridAnalysis& analysis);
std::string MetalExplainJson(const grid::GridAnalysis& analysis);
std::string SeedExplainJson(const grid::GridExplanation& explanation,
                            const grid::GridAnalysis& analysis);

std::string TtnnLocateJson(const grid::GridAnalysis& analysis,
                           absl::Span<const int64_t> index,
                           const grid::TtnnAttrLocation& location);
std::string MetalLocateJson(const grid::GridAnalysis& analysis,
                            absl::Span<const int64_t> index,
                            const grid::MetalLocation& location);
std::string SeedLocateJson(const grid::GridAnalysis& analysis,
                           absl::Span<const int64_t> index,
                           const grid::ElementLocation& location);

// The batch answer of grid-locate for a TTNN or metal layout:
// "shard=0,5 offset=2,5 tile=0,48 in_tile=2,5 core=5,0".
absl::StatusOr<std::string> LocateAnswer(const grid::GridAnalysis& analysis,
                                         absl::Span<const int64_t> index);

// One line of `grid report`.
struct GridReportType {
  int64_t number = 0;  // 1-based, as --type numbers them
  int64_t line = 0;
  int64_t column = 0;
  int64_t uses = 0;
  std::string written;
  std::string tensor;
  std::string kind;    // "ttnn_layout", "metal_layout", "seed_metal_layout"
  std::string status;  // "ok", "warnings", "refused", "unread"
  std::vector<int64_t> grid;
  std::vector<int64_t> memref_shape;
  std::string memref;
  std::string summary;  // "dram interleaved, tiled" ...
  std::vector<std::string> warnings;
  std::string error;  // refused or unread: the reason
};

struct GridReport {
  std::string file;
  int64_t sections = 0;
  int64_t aliases = 0;
  std::vector<GridReportType> types;
  int64_t ok = 0, warned = 0, refused = 0, unread = 0;
};

// Analyses every type of `scan` (of `text`, named `file` in messages).
GridReport BuildGridReport(const grid::MlirFileScan& scan,
                           absl::string_view text, absl::string_view file,
                           const grid::TtnnDevice& device);
// Scans an .mlir file's `text` (named `file` in messages) and analyses every
// type: the error of a file that cannot be scanned starts with `file: `.
absl::StatusOr<GridReport> ReadGridReport(absl::string_view text,
                                          absl::string_view file,
                                          const TtnnDevice& device);
std::string GridReportJson(const GridReport& report);
std::string FormatGridReport(const GridReport& report);

}  // namespace hlolayout::grid

#endif  // HLOLAYOUT_GRID_ANSWERS_H_

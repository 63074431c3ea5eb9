// cli/grid_json.h: the JSON of `hlolayout grid explain/locate --json`, the
// batch answers and `hlolayout grid report`, for all three tt-mlir forms.
//
//   TtnnExplainJson(analysis) ->
//     {"kind": "ttnn_layout", "tensor": "...", "grid": [1, 8], ...}
//
// Key lists are in the subcommands' --help and in docs/tt-mlir.md.
#ifndef HLOLAYOUT_CLI_GRID_JSON_H_
#define HLOLAYOUT_CLI_GRID_JSON_H_

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

namespace hlolayout::cli {

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
std::string GridReportJson(const GridReport& report);
std::string FormatGridReport(const GridReport& report);

}  // namespace hlolayout::cli

#endif  // HLOLAYOUT_CLI_GRID_JSON_H_

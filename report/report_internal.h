// report/report_internal.h: what the report's source files share; not a
// public header. report.cc builds the rows and totals (streaming, or from
// modules already read: ReplayModules); full_report.cc reads a text once
// into modules for the full report, runs the memory analyses and ranks
// the padding wasters by buffer (wasters.cc).
#ifndef HLOLAYOUT_REPORT_REPORT_INTERNAL_H_
#define HLOLAYOUT_REPORT_REPORT_INTERNAL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "hlolayout/hlo/module.h"
#include "hlolayout/memory/live_range.h"
#include "hlolayout/report/report.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout::report_internal {

// The rows and totals of `modules` (read from one text by ReadHloModules,
// `errors` its keep_going errors), appended to `*report` as ReadHlo into
// the report's builder would append them: one ModuleReport per module, in
// order. Wasters are left to the caller (none are kept here).
void ReplayModules(const std::vector<HloModule>& modules,
                   const std::vector<absl::Status>& errors,
                   const ReportOptions& options, Report* report);

// The full report of `text` (report.h, BuildReport): appends to `*report`.
absl::Status AppendFullReport(absl::string_view text,
                              const ReportOptions& options, Report* report);

// Why each padded array leaf of `shape` is padded; tuple leaves start with
// "{i}: " (`prefix` empty at the top).
void AppendReasons(const Shape& shape, const std::string& prefix,
                   bool is_tuple_leaf, std::vector<std::string>* reasons);

// The `top` buffers of `module` with the most padding (PaddingWaster),
// from `analysis`' dataflow (made with keep_dataflow): each buffer once,
// with the other values it holds and its other names. `module_report`
// (its rows in text order) gives each defining instruction's row.
std::vector<PaddingWaster> BufferWasters(const HloModule& module,
                                         const MemoryAnalysis& analysis,
                                         int64_t top);

// When the analysis refused the module: the `top` array values the module
// defines with the most padding, each on its own (no aliases known), from
// the rows (text order, the roles set) and the module's shapes.
std::vector<PaddingWaster> ValueWasters(const HloModule& module,
                                        const ModuleReport& module_report,
                                        int64_t top);

}  // namespace hlolayout::report_internal

#endif  // HLOLAYOUT_REPORT_REPORT_INTERNAL_H_

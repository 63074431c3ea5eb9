// answers/triton_report.h: `hlolayout triton report` and hl.triton.report():
// the request, the one call that answers it (AnswerKernelReport, on
// triton/kernel_report.h) and the answer as records (util/record.h): one
// field list per record, from which `hlolayout triton report --json`,
// hl.triton.report()'s objects and their to_dict(), and triton.pyi all
// follow. Was triton/kernel_report_record.h.
//
//   TritonReportRequest q;
//   q.path = "k.ttgir";  // or q.text = ..., q.text_name = "<stdin>"
//   KernelReport r = *AnswerKernelReport(q);
//   KernelReportJson(r)
//   // {
//   //   "kernel": "k.ttgir",
//   //   "num_warps": 4,
//   //   ...
//   //   "converts": [
//   //     {
//   //       "line": 12,
//   //       ...
//
// The records: KernelReport, LayoutAlias, LayoutTypes, ConvertLayout (with
// its cost on the first target) and ConvertCost (on each target asked
// for), SmemInstr, SmemOp and SmemOpCost. A cost's `empirical` is absent
// (left out of the JSON, None in Python) where the target's figures are
// not known.
#ifndef HLOLAYOUT_ANSWERS_TRITON_REPORT_H_
#define HLOLAYOUT_ANSWERS_TRITON_REPORT_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "hlolayout/triton/kernel_report.h"
#include "hlolayout/util/record.h"

namespace hlolayout::triton {

// What `triton report` and hl.triton.report() are asked.
struct TritonReportRequest {
  // A TTGIR file, a Triton cache entry's folder or its metadata JSON
  // (triton/report_input.h); without one, `text` is the kernel, named
  // `text_name` in messages ("<stdin>", "<text>").
  std::optional<std::string> path;
  std::string text;
  std::string text_name = "<text>";
  std::string triton;  // whose rules: "3.6.0", "3.9.0"; "": RulesFor's
  std::string target;  // "cuda:90", a comma list, "all"; "": the module's
};

// AnswerKernelReport
//
// The report of the request's kernel (MakeKernelReport). Errors: the
// input's (a missing file or cache entry, named) and MakeKernelReport's.
absl::StatusOr<KernelReport> AnswerKernelReport(TritonReportRequest request);

// Every record of this answer, nested ones first (KernelReport last).
const std::vector<const RecordSpec*>& KernelReportSpecs();

void EmitKernelReport(const KernelReport& r, RecordSink& sink);

// The report as pretty JSON (docs/triton.md lists the keys): kernel,
// num_warps, threads_per_warp, num_ctas, target, triton, triton_rules,
// dump_triton_version, metadata, implicit_module, defaults, cost_target,
// warnings, aliases, types, converts, smem_ops. No trailing newline.
std::string KernelReportJson(const KernelReport& r);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_ANSWERS_TRITON_REPORT_H_

// triton/kernel_report_record.h: a kernel report (triton/kernel_report.h)
// as records (util/record.h): one field list per record, from which
// `hlolayout triton report --json`, hl.triton.report()'s objects and their
// to_dict(), and triton.pyi all follow.
//
//   KernelReport r = *MakeKernelReport(in, "", "");
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
#ifndef HLOLAYOUT_TRITON_KERNEL_REPORT_RECORD_H_
#define HLOLAYOUT_TRITON_KERNEL_REPORT_RECORD_H_

#include <string>
#include <vector>

#include "hlolayout/triton/kernel_report.h"
#include "hlolayout/util/record.h"

namespace hlolayout::triton {

// Every record of this answer, nested ones first (KernelReport last).
const std::vector<const RecordSpec*>& KernelReportSpecs();

void EmitKernelReport(const KernelReport& r, RecordSink& sink);

// The report as pretty JSON (docs/triton.md lists the keys): kernel,
// num_warps, threads_per_warp, num_ctas, target, triton, triton_rules,
// dump_triton_version, metadata, implicit_module, defaults, cost_target,
// warnings, aliases, types, converts, smem_ops. No trailing newline.
std::string KernelReportJson(const KernelReport& r);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_KERNEL_REPORT_RECORD_H_

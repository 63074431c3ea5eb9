// triton/kernel_report.h: the layout facts of a TTGIR kernel dump, what
// `hlolayout triton report` prints and hl.triton.report returns: the
// module's warps, threads per warp, CTAs and target, its layout aliases,
// its types by layout, every convert_layout with its cost on the module's
// target (or on the targets asked for), and every shared-memory store and
// load (triton/smem_report.h).
//
//   ReportInput in = *ReadReportInput("k.ttgir");  // or {text, "<stdin>"}
//   KernelReport r = *MakeKernelReport(in, /*triton_flag=*/"",
//                                      /*target_flag=*/"");
//   std::string json = KernelReportJson(r);  // answers/triton_report.h
//   // {"kernel": "k.ttgir", "num_warps": 4, "threads_per_warp": 32, ...
//   std::string text = KernelReportText(r);  // views/triton_report_text.h
//   // kernel: k.ttgir
//   // module: 4 warps, 32 threads per warp (Triton's default: none named), ...
#ifndef HLOLAYOUT_TRITON_KERNEL_REPORT_H_
#define HLOLAYOUT_TRITON_KERNEL_REPORT_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/triton/cvt_cost.h"
#include "hlolayout/triton/report_input.h"
#include "hlolayout/triton/smem_report.h"
#include "hlolayout/triton/ttgir_parser.h"

namespace hlolayout::triton {

// What one convert_layout costs on one target: the kind always; scratch
// and instructions when the target is modelled.
struct ConvertCost {
  absl::StatusOr<CvtCost> cost = absl::UnknownError("");
  int bits = 0;
  bool bits_assumed = false;    // the element type gave no width
  std::string target;           // the target the figures are for
  bool target_assumed = false;  // the module names no target
  std::string not_modelled;     // why there are no target figures
};

struct KernelReport {
  ReportInput in;
  ReleaseRules rules;
  TtgirModule m;
  std::string flag_target;  // the targets asked for, "" when none
  // Types by layout (encoding; "(none)"), in order of first use.
  std::vector<std::string> encodings;
  std::map<std::string, std::vector<std::string>> uses;
  std::map<std::string, int> counts;
  // Per convert, its cost on each target asked for (the module's when
  // none is).
  std::vector<std::vector<ConvertCost>> costs;
  // Every shared-memory store and load, costed on the same targets.
  std::vector<SmemOpCosts> smem_ops;
};

// MakeKernelReport
//
// The report of `in`, following Triton `triton_flag`'s rules ("3.6.0",
// "3.9.0"; "": the release the metadata names, else the newest: RulesFor)
// with costs on `target_flag` ("cuda:90", a comma list, "all"; "": the
// module's target). Errors: an unknown release or target; text that holds
// no TTGIR, or whose types Triton refuses in the module (warp size, warps,
// CTAs), located in in.text ("<stdin>:1:1: no TTGIR module here: ...").
absl::StatusOr<KernelReport> MakeKernelReport(ReportInput in,
                                              absl::string_view triton_flag,
                                              absl::string_view target_flag);

// TypeText
//
// A type as the report writes it, without its layout:
// "tensor<128x64xf16>", "!ttg.memdesc<64x?xf16>" (? for a dynamic dim).
std::string TypeText(const TtgirType& t);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_KERNEL_REPORT_H_

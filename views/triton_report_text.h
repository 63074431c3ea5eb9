// views/triton_report_text.h: `hlolayout triton report`'s text, a view of
// the answer (answers/triton_report.h, on triton/kernel_report.h): one
// section per part, each convert located ("k.ttgir:12:10: %3 =
// tensor<128x64xf16> #blocked -> #mma") with its cost lines. Was
// KernelReportText in triton/kernel_report.cc.
//
//   std::string text = KernelReportText(*AnswerKernelReport(request));
//   // kernel: k.ttgir
//   // module: 4 warps, 32 threads per warp (Triton's default: none named), ...
#ifndef HLOLAYOUT_VIEWS_TRITON_REPORT_TEXT_H_
#define HLOLAYOUT_VIEWS_TRITON_REPORT_TEXT_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "hlolayout/triton/cvt_cost.h"
#include "hlolayout/triton/kernel_report.h"
#include "hlolayout/triton/smem_report.h"
#include "hlolayout/triton/ttgir_parser.h"

namespace hlolayout::triton {

// KernelReportText
//
// The report in words, one section per part.
std::string KernelReportText(const KernelReport& r);

// Its pieces (were in triton/smem_report, report_input and cvt_report).

// The shared-memory stores and loads section (empty when the module has
// none): each op located, then one cost line per target.
//   shared-memory stores and loads (2):
//     k.ttgir:9:10: %1 = local_load !ttg.memdesc<128x64xf16> #shared -> #mma
//         hip:gfx942: 8 x ds_read 64-bit per thread, bank conflicts 2-way
//         (256 wavefronts a warp, 128 without conflicts)
std::string SmemOpsText(const std::vector<SmemOpCosts>& ops,
                        absl::string_view text, absl::string_view file);

// ModuleFacts
//
// The module line of a report: "4 warps, 64 threads per warp, 1 CTA,
// target hip:gfx942", with what Triton assumes where the module names
// nothing ("32 threads per warp (Triton's default: the module names
// none)") and, for text without a module, that it is read as the implicit
// module `triton-opt` makes.
std::string ModuleFacts(const TtgirModule& m);

// "4 x st.shared 128-bit"; "-" for none.
std::string SmemInstrsText(const std::vector<SmemInstr>& instrs);

// "none", or "stores 2-way, loads 1-way".
std::string BankConflictsText(const SmemRoundTrip& r);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_VIEWS_TRITON_REPORT_TEXT_H_

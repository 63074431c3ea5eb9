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

#include "hlolayout/triton/kernel_report.h"

namespace hlolayout::triton {

// KernelReportText
//
// The report in words, one section per part.
std::string KernelReportText(const KernelReport& r);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_VIEWS_TRITON_REPORT_TEXT_H_

// views/triton_text.h: the texts `hlolayout triton cvt`, `explain` and
// `check` print, views of their answers (answers/triton.h), and of
// `triton apply`'s table (answers/triton_apply.h).
//
//   TritonCvtAnswer a = *AnswerCvt(src, dst, 16, kNewestTriton, false,
//                                  {"cuda:90", "cuda:80"});
//   CvtText(a);
//   // convert_layout of 64x64 (16-bit elements)
//   //   from #ttg.nvidia_mma<...>
//   //   to   #ttg.blocked<...>
//   // kind: shared_memory (warps exchange values through a shared-memory ...
//   // target    scratch  rounds  stores per thread ...
#ifndef HLOLAYOUT_VIEWS_TRITON_TEXT_H_
#define HLOLAYOUT_VIEWS_TRITON_TEXT_H_

#include <string>
#include <vector>

#include "hlolayout/answers/triton.h"
#include "hlolayout/answers/triton_apply.h"
#include "hlolayout/triton/linear_layout.h"

namespace hlolayout::triton {

// The answer as `triton cvt` prints it.
std::string CvtText(const TritonCvtAnswer& a);

// One row per target: scratch bytes, rounds, stores, loads, conflicts.
std::string CvtCostTable(const std::vector<CvtTargetRow>& rows);

// The answer as `triton explain` prints it.
std::string ExplainText(const TritonExplainAnswer& a);

// The answer as `triton check` prints an accepted layout.
std::string CheckText(const TritonCheckAnswer& a);

// One line: "dim0=0,dim1=4" when no range was named; else a line per row,
// "register=1,lane=1 -> dim0=0,dim1=5".
std::string AppliedText(const LinearLayout& l, const AppliedTable& t);

// FreeVariableMasks (triton/ops.h) as "register=0x0,lane=0x3,...".
std::string FreeMasksText(const LinearLayout& l);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_VIEWS_TRITON_TEXT_H_

// triton/cvt_answer.h: what one convert_layout costs on each target asked
// for, the answer `hlolayout triton cvt` prints (the CLI reads the two
// layouts and the flags, then prints one of the two renderings).
//
//   GivenLayout src = *ReadGivenLayout(mma_text, {{64, 64}}, nullptr);
//   GivenLayout dst = *ReadGivenLayout(blocked_text, {{64, 64}}, nullptr);
//   CvtAnswer a = *MakeCvtAnswer(std::move(src), std::move(dst), /*bits=*/16,
//                                kNewestTriton, /*version_given=*/false,
//                                {"cuda:90", "cuda:80"});
//   CvtAnswerText(a);
//   // convert_layout of 64x64 (16-bit elements)
//   //   from #ttg.nvidia_mma<...>
//   //   to   #ttg.blocked<...>
//   // kind: shared_memory (warps exchange values through a shared-memory ...
//   // figures: Triton 3.9.0's rules (the newest modelled; --triton 3.6.0 ...
//   // target    scratch  rounds  stores per thread ...
#ifndef HLOLAYOUT_TRITON_CVT_ANSWER_H_
#define HLOLAYOUT_TRITON_CVT_ANSWER_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "hlolayout/triton/cvt_report.h"
#include "hlolayout/triton/cvt_target.h"
#include "hlolayout/triton/layout_explain.h"

namespace hlolayout::triton {

struct CvtAnswer {
  GivenLayout src, dst;
  int bits = kDefaultElementBits;
  TritonVersion version = kNewestTriton;
  bool version_given = false;    // the release was named (--triton)
  std::vector<TargetCost> rows;  // one per target, in the order asked
};

// MakeCvtAnswer
//
// Costs the conversion from `src` to `dst` (of one shape) for elements of
// `bits` bits on each of `targets` (names CvtTargetsFlag accepts), as
// Triton `version` lowers it. Precondition: `targets` is not empty and
// names modelled targets. Errors: the first target's refusal (Triton's).
absl::StatusOr<CvtAnswer> MakeCvtAnswer(
    GivenLayout src, GivenLayout dst, int bits, TritonVersion version,
    bool version_given, const std::vector<std::string>& targets);

// The answer as `triton cvt` prints it, and as `--json` (pretty, no
// trailing newline).
std::string CvtAnswerText(const CvtAnswer& answer);
std::string CvtAnswerJson(const CvtAnswer& answer);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_CVT_ANSWER_H_

// triton/cvt_report.h: the targets `hlolayout triton cvt` and `triton
// report` cost a convert_layout on, and how `triton report` words the
// shared-memory figures (the figures come from //triton:cvt_cost; `triton
// cvt`'s answer is answers/triton.h's).
//
//   std::vector<std::string> t = *CvtTargetsFlag("all", /*lanes=*/32);
//   // {"cuda:80", "cuda:90", "cuda:100"}
//   SmemInstrsText(round_trip.stores);  // views/triton_report_text.h
#ifndef HLOLAYOUT_TRITON_CVT_REPORT_H_
#define HLOLAYOUT_TRITON_CVT_REPORT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/triton/cvt_cost.h"

namespace hlolayout::triton {

// The targets a `--target` value names: one target, a comma-separated
// list, or "all" (every modelled target whose warp has `lanes` lanes).
// Empty: the default for `lanes` lanes (cuda:90 for 32, hip:gfx942 for 64).
// An unknown name is InvalidArgument; "all" with no target of `lanes`
// lanes is NotFound.
absl::StatusOr<std::vector<std::string>> CvtTargetsFlag(absl::string_view flag,
                                                        int lanes);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_CVT_REPORT_H_

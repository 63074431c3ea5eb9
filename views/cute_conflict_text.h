// views/cute_conflict_text.h: a bank-conflict count
// (cute/atom/bank_conflicts.h) as `hlolayout cute conflicts` prints it (its
// `--json` is answers/cute.h's AnswerConflicts).
//
//   ConflictReport r = *SmemConflicts(tiled_copy, Side::kDestination, smem);
//   ConflictReportText(r, /*all=*/false, "destination side of ...");
//   // destination side of ...
//   // 16-bit values, 8 threads per phase
//   // warp 0 instruction 0: 4 wavefronts (ideal 4, 1.00x)
//   // total: 16 wavefronts for an ideal of 16 (1.00x) over 4 instruction(s)
//   // of 1 warp(s)
#ifndef HLOLAYOUT_VIEWS_CUTE_CONFLICT_TEXT_H_
#define HLOLAYOUT_VIEWS_CUTE_CONFLICT_TEXT_H_

#include <string>

#include "absl/strings/string_view.h"
#include "hlolayout/cute/atom/bank_conflicts.h"

namespace hlolayout::cute {

// `what` on the first line, then each instruction (warp 0's only unless
// `all`) with the phases that collide, their threads grouped by bank (at
// most 8 groups a phase), and the total over every warp.
std::string ConflictReportText(const ConflictReport& r, bool all,
                               absl::string_view what);

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_VIEWS_CUTE_CONFLICT_TEXT_H_

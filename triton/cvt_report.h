// triton/cvt_report.h: how `hlolayout triton cvt` and `triton report` print
// what a convert_layout costs on each target (the figures come from
// //triton:cvt_cost).
//
//   std::vector<std::string> t = *CvtTargetsFlag("all", /*lanes=*/32);
//   // {"cuda:80", "cuda:90", "cuda:100"}
//   io.out << CvtCostTable(rows);
//   // target    scratch  rounds  stores per thread        loads per thread ...
//   // cuda:90   1024 B   1       4 x st.shared 128-bit    8 x ld.shared 64-bit
#ifndef HLOLAYOUT_TRITON_CVT_REPORT_H_
#define HLOLAYOUT_TRITON_CVT_REPORT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/triton/cvt_cost.h"
#include "hlolayout/util/json_writer.h"

namespace hlolayout::triton {

// The targets a `--target` value names: one target, a comma-separated
// list, or "all" (every modelled target whose warp has `lanes` lanes).
// Empty: the default for `lanes` lanes (cuda:90 for 32, hip:gfx942 for 64).
// An unknown name is InvalidArgument; "all" with no target of `lanes`
// lanes is NotFound.
absl::StatusOr<std::vector<std::string>> CvtTargetsFlag(absl::string_view flag,
                                                        int lanes);

// "4 x st.shared 128-bit"; "-" for none.
std::string SmemInstrsText(const std::vector<SmemInstr>& instrs);

// "none", or "stores 2-way, loads 1-way".
std::string BankConflictsText(const SmemRoundTrip& r);

struct TargetCost {
  std::string target;
  CvtCost cost;
};

// One row per target: scratch bytes, rounds, stores, loads, conflicts.
std::string CvtCostTable(const std::vector<TargetCost>& rows);

// The target-dependent keys of a cost: target, scratch_bytes, reps,
// stores, loads ([{"instr", "bits", "count"}] per thread), store_ways,
// load_ways (null where the kind moves no data through shared memory).
void CvtTargetJson(const std::string& target, const CvtCost& cost,
                   JsonWriter& json);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_CVT_REPORT_H_

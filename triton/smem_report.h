// triton/smem_report.h: the shared-memory stores and loads of a TTGIR
// module in `hlolayout triton report` (local_alloc of a tensor,
// local_store, local_load, async copies; the figures come from
// //triton:smem_access), costed (their text: views/triton_report_text.h's
// SmemOpsText; their --json is the KernelReport record,
// answers/triton_report.h).
//
//   std::vector<SmemOpCosts> ops = CostModuleSmemOps(m, text, "");
//   io.out << SmemOpsText(ops, text, "k.ttgir");  // views/
//   // shared-memory stores and loads (2):
//   //   k.ttgir:9:10: %1 = local_load !ttg.memdesc<128x64xf16> #shared -> #mma
//   //       hip:gfx942: 8 x ds_read 64-bit per thread, bank conflicts 2-way
//   //       (256 wavefronts a warp, 128 without conflicts)
#ifndef HLOLAYOUT_TRITON_SMEM_REPORT_H_
#define HLOLAYOUT_TRITON_SMEM_REPORT_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/triton/smem_access.h"
#include "hlolayout/triton/ttgir_parser.h"

namespace hlolayout::triton {

struct SmemOpCosts {
  SmemOp op;
  // One per target asked for: the module's (or `--target`'s), or the
  // default for the layout's warp size when the module names none.
  std::vector<std::pair<std::string, absl::StatusOr<SmemAccessCost>>> costs;
  bool target_assumed = false;
};

// CostModuleSmemOps
//
// Every shared-memory store and load of `m` (parsed from `text`) costed on
// `flag_target` (report's --target: a name, a list or "all"), or on the
// module's target when it is empty.
std::vector<SmemOpCosts> CostModuleSmemOps(const TtgirModule& m,
                                           absl::string_view text,
                                           const std::string& flag_target);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_SMEM_REPORT_H_

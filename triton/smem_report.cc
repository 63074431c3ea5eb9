#include "hlolayout/triton/smem_report.h"

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/triton/cvt_report.h"
#include "hlolayout/triton/cvt_target.h"
#include "hlolayout/triton/named_layouts.h"

namespace hlolayout::triton {
namespace {

// The warp size the tensor's layout gives (32 when it cannot tell).
int LanesOf(const TtgirType& t) {
  if (!t.layout.layout) return 32;
  absl::StatusOr<LinearLayout> l = ToLinearLayout(*t.layout.layout, t.shape);
  if (!l.ok() || !l->HasInDim("lane")) return 32;
  return l->InDimSize(l->InDimIndex("lane"));
}

}  // namespace

std::vector<SmemOpCosts> CostModuleSmemOps(const TtgirModule& m,
                                           absl::string_view text,
                                           const std::string& flag_target) {
  std::vector<SmemOpCosts> out;
  for (SmemOp& op : FindSmemOps(m, text)) {
    SmemOpCosts costs;
    const int lanes = LanesOf(op.tensor);
    std::vector<std::string> targets;
    if (!flag_target.empty()) {
      absl::StatusOr<std::vector<std::string>> named =
          CvtTargetsFlag(flag_target, lanes);
      if (named.ok()) targets = *named;
    }
    if (targets.empty() && !m.target.empty()) targets.push_back(m.target);
    if (targets.empty()) {
      targets.push_back(lanes == 64 ? "hip:gfx942"
                                    : std::string(kDefaultCvtTarget));
      costs.target_assumed = true;
    }
    for (const std::string& name : targets) {
      absl::StatusOr<CvtTarget> t = CvtTargetNamed(name);
      costs.costs.emplace_back(
          name, t.ok() ? CostSmemOp(op, *t)
                       : absl::StatusOr<SmemAccessCost>(t.status()));
    }
    costs.op = std::move(op);
    out.push_back(std::move(costs));
  }
  return out;
}

}  // namespace hlolayout::triton

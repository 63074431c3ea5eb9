#include "hlolayout/triton/smem_report.h"

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/parser/diagnostic.h"
#include "hlolayout/triton/cvt_report.h"
#include "hlolayout/triton/cvt_target.h"
#include "hlolayout/triton/named_layouts.h"

namespace hlolayout::triton {
namespace {

std::string ShapeText(const TtgirType& t) {
  std::vector<std::string> dims;
  for (int64_t d : t.shape) dims.push_back(d < 0 ? "?" : absl::StrCat(d));
  return absl::StrCat(t.memdesc ? "!ttg.memdesc<" : "tensor<",
                      absl::StrJoin(dims, "x"), dims.empty() ? "" : "x",
                      t.element_type, ">");
}

// The warp size the tensor's layout gives (32 when it cannot tell).
int LanesOf(const TtgirType& t) {
  if (!t.layout.layout) return 32;
  absl::StatusOr<LinearLayout> l = ToLinearLayout(*t.layout.layout, t.shape);
  if (!l.ok() || !l->HasInDim("lane")) return 32;
  return l->InDimSize(l->InDimIndex("lane"));
}

std::string CostText(const absl::StatusOr<SmemAccessCost>& c) {
  if (!c.ok()) return absl::StrCat("cost unknown: ", c.status().message());
  std::string out = absl::StrCat(c->count, " x ", c->instr, " ", c->bits,
                                 "-bit per thread, bank conflicts ");
  absl::StrAppend(&out, c->ways == 1 ? "none" : absl::StrCat(c->ways, "-way"),
                  " (", c->wavefronts, " wavefronts a warp");
  if (c->wavefronts != c->ideal_wavefronts) {
    absl::StrAppend(&out, ", ", c->ideal_wavefronts, " without conflicts");
  }
  absl::StrAppend(&out, ")");
  if (!c->note.empty()) absl::StrAppend(&out, "; ", c->note);
  return out;
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

std::string SmemOpsText(const std::vector<SmemOpCosts>& ops,
                        absl::string_view text, absl::string_view file) {
  if (ops.empty()) return "";
  std::string out =
      absl::StrCat("\nshared-memory stores and loads (", ops.size(), "):\n");
  OffsetLocator locator(text);  // the ops come in text order
  for (const SmemOpCosts& o : ops) {
    const SourceLocation loc = locator.Locate(o.op.offset);
    const std::string& from =
        o.op.store ? o.op.tensor.encoding : o.op.memdesc.encoding;
    const std::string& to =
        o.op.store ? o.op.memdesc.encoding : o.op.tensor.encoding;
    absl::StrAppend(&out, "  ", file, ":", loc.line, ":", loc.column, ": ",
                    o.op.result.empty() ? "" : o.op.result + " = ", o.op.op,
                    " ", ShapeText(o.op.memdesc), " ", from, " -> ", to, "\n");
    for (const auto& [target, c] : o.costs) {
      absl::StrAppend(
          &out, "      ", target,
          o.target_assumed ? " (assumed: the module names no target)" : "",
          ": ", CostText(c), "\n");
    }
  }
  return out;
}

}  // namespace hlolayout::triton

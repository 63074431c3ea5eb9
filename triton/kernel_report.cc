#include "hlolayout/triton/kernel_report.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "hlolayout/parser/diagnostic.h"
#include "hlolayout/triton/cvt_report.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/named_layouts.h"

namespace hlolayout::triton {

std::string TypeText(const TtgirType& t) {
  std::vector<std::string> dims;
  for (int64_t d : t.shape) dims.push_back(d < 0 ? "?" : absl::StrCat(d));
  return absl::StrCat(t.memdesc ? "!ttg.memdesc<" : "tensor<",
                      absl::StrJoin(dims, "x"), dims.empty() ? "" : "x",
                      t.element_type, ">");
}

namespace {

absl::StatusOr<LinearLayout> CvtOperand(const TtgirType& t) {
  if (t.layout.layout == nullptr) {
    return absl::InvalidArgumentError(
        t.encoding.empty()
            ? std::string("no layout")
            : absl::StrCat(t.encoding, ": ", t.layout.unsupported));
  }
  if (t.memdesc || t.layout.layout->is_shared()) {
    return absl::InvalidArgumentError("a shared-memory operand");
  }
  for (int64_t d : t.shape) {
    if (d < 0) return absl::InvalidArgumentError("a dynamic shape");
  }
  return ToLinearLayout(*t.layout.layout, t.LayoutShape());
}

// The cost of one convert_layout on the module's target: the kind always;
// scratch and instructions when the target is modelled.
ConvertCost CostOf(const ConvertLayoutOp& op, const std::string& module_target,
                   TritonVersion version) {
  ConvertCost c;
  absl::StatusOr<LinearLayout> src = CvtOperand(op.src);
  absl::StatusOr<LinearLayout> dst =
      src.ok() ? CvtOperand(op.dst) : src.status();
  c.bits = op.src.element_bits;
  if (c.bits == 0) {
    c.bits = kDefaultElementBits;
    c.bits_assumed = true;
  }
  c.target = module_target;
  if (c.target.empty()) {
    const int lanes = src.ok() ? src->InDimSize(1) : 32;
    c.target = lanes == 64 ? "hip:gfx942" : std::string(kDefaultCvtTarget);
    c.target_assumed = true;
  }
  if (!dst.ok()) {
    c.cost = dst.status();
    return c;
  }
  absl::StatusOr<CvtTarget> target = CvtTargetNamed(c.target, version);
  if (target.ok()) {
    c.cost = ConvertLayoutCost(*src, *dst, c.bits, *target);
    return c;
  }
  // Not modelled: the kind (which the layouts decide) without the target's
  // figures.
  c.not_modelled = std::string(target.status().message());
  CvtTarget any = *CvtTargetNamed(
      src->InDimSize(1) == 64 ? "hip:gfx942" : std::string(kDefaultCvtTarget));
  c.cost = ConvertLayoutCost(*src, *dst, c.bits, any);
  if (c.cost.ok()) {
    c.cost->scratch_bytes = 0;
    c.cost->smem.reset();
  }
  return c;
}

// The targets `report` costs a convert on: the module's ("" when it names
// none: CostOf assumes one), or --target's (a target, a comma list, or
// "all": every modelled target whose warp has the source's lanes).
std::vector<std::string> ReportTargets(const ConvertLayoutOp& op,
                                       const std::string& flag,
                                       const std::string& module_target) {
  if (flag.empty()) return {module_target};
  absl::StatusOr<LinearLayout> src = CvtOperand(op.src);
  const int lanes = src.ok() ? src->InDimSize(1) : 32;
  absl::StatusOr<std::vector<std::string>> targets =
      CvtTargetsFlag(flag, lanes);
  if (!targets.ok() || targets->empty()) return {module_target};
  return *targets;
}

// Types by layout (encoding), in order of first use.
void GroupTypes(KernelReport& r) {
  for (const TtgirType& t : r.m.types) {
    const std::string key = t.encoding.empty() ? "(none)" : t.encoding;
    if (r.counts[key]++ == 0) r.encodings.push_back(key);
    const std::string type = TypeText(t);
    auto& u = r.uses[key];
    if (std::find(u.begin(), u.end(), type) == u.end()) u.push_back(type);
  }
}

}  // namespace

absl::StatusOr<KernelReport> MakeKernelReport(ReportInput in,
                                              absl::string_view triton_flag,
                                              absl::string_view target_flag) {
  if (!target_flag.empty() && target_flag != "all") {
    for (absl::string_view t : absl::StrSplit(target_flag, ',')) {
      if (absl::Status s = CvtTargetNamed(t).status(); !s.ok()) return s;
    }
  }
  absl::StatusOr<ReleaseRules> rules = RulesFor(in, triton_flag);
  if (!rules.ok()) return rules.status();
  absl::StatusOr<TtgirModule> m = ParseTtgirModule(in.text, in.file);
  if (!m.ok()) return m.status();
  // Text with no TTGIR is refused, located; and so are layouts Triton
  // refuses in this module (as `check` does).
  absl::Status is_module = RequireTtgirModule(*m, in.text, in.file);
  if (is_module.ok()) is_module = VerifyModuleTypes(*m, in.text, in.file);
  if (!is_module.ok()) return is_module;
  KernelReport r;
  r.in = std::move(in);
  r.rules = *std::move(rules);
  r.m = *std::move(m);
  r.flag_target = std::string(target_flag);
  GroupTypes(r);
  // Per convert, its cost on each target asked for (the module's when
  // no target is given).
  for (const ConvertLayoutOp& op : r.m.converts) {
    r.costs.emplace_back();
    for (const std::string& t : ReportTargets(op, r.flag_target, r.m.target)) {
      r.costs.back().push_back(CostOf(op, t, r.rules.version));
    }
  }
  r.smem_ops = CostModuleSmemOps(r.m, r.in.text, r.flag_target);
  return r;
}

}  // namespace hlolayout::triton

#include "hlolayout/answers/triton_report.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "hlolayout/parser/diagnostic.h"
#include "hlolayout/triton/cvt_cost.h"
#include "hlolayout/triton/kernel_report.h"
#include "hlolayout/triton/report_input.h"
#include "hlolayout/util/fields.h"

namespace hlolayout::triton {
namespace {

std::vector<answer::SmemInstr> InstrsOf(const std::vector<SmemInstr>& in) {
  std::vector<answer::SmemInstr> out;
  out.reserve(in.size());
  for (const SmemInstr& i : in) out.push_back({i.instr, i.bits, i.count});
  return out;
}

// The target's figures of a modelled cost (target to empirical).
void SetTargetFigures(const std::string& target, const CvtCost& cost,
                      answer::ConvertCost& c) {
  c.target = target;
  c.scratch_bytes = cost.scratch_bytes;
  if (!cost.smem.has_value()) {
    // Registers and shuffles use no shared memory (no instructions); a
    // cross-CTA conversion does, but its instructions are not modelled
    // (None).
    if (cost.kind != CvtKind::kCrossCta) {
      c.stores.emplace();
      c.loads.emplace();
    }
    c.empirical = std::optional<std::string>();
    return;
  }
  const SmemRoundTrip& r = *cost.smem;
  c.reps = r.reps;
  c.stores = InstrsOf(r.stores);
  c.loads = InstrsOf(r.loads);
  c.store_ways = r.store_ways;
  c.load_ways = r.load_ways;
  c.empirical = r.empirical.empty() ? std::optional<std::string>()
                                    : std::optional<std::string>(r.empirical);
}

answer::ConvertCost CostOf(const ConvertCost& in) {
  answer::ConvertCost c;
  c.bits = in.bits;
  c.bits_assumed = in.bits_assumed;
  c.target_assumed = in.target_assumed;
  if (!in.not_modelled.empty()) c.not_modelled = in.not_modelled;
  if (in.cost.ok()) {
    c.kind = std::string(CvtKindName(in.cost->kind));
    c.map_str = in.cost->map.ToString();
  }
  if (in.cost.ok() && in.not_modelled.empty()) {
    SetTargetFigures(in.target, *in.cost, c);
    return c;
  }
  c.target = in.target;
  if (!in.cost.ok()) c.error = std::string(in.cost.status().message());
  return c;
}

std::vector<answer::ConvertLayout> ConvertsOf(const KernelReport& r) {
  std::vector<answer::ConvertLayout> out;
  OffsetLocator locator(r.in.text);  // the ops come in text order
  for (size_t i = 0; i < r.m.converts.size(); ++i) {
    const ConvertLayoutOp& op = r.m.converts[i];
    const SourceLocation loc = locator.Locate(op.offset);
    answer::ConvertLayout c;
    c.line = loc.line;
    c.column = loc.column;
    c.result = op.result;
    c.src = op.src.encoding;
    c.dst = op.dst.encoding;
    c.type = TypeText(op.src);
    c.cost = CostOf(r.costs[i][0]);
    if (!r.flag_target.empty()) {
      c.on_targets.emplace();
      for (const ConvertCost& cost : r.costs[i]) {
        c.on_targets->push_back(CostOf(cost));
      }
    }
    out.push_back(std::move(c));
  }
  return out;
}

answer::SmemOpCost SmemCostOf(const std::string& target,
                              const absl::StatusOr<SmemAccessCost>& in) {
  answer::SmemOpCost c;
  c.target = target;
  if (!in.ok()) {
    c.error = std::string(in.status().message());
    return c;
  }
  c.instr = in->instr;
  c.bits = in->bits;
  c.count = in->count;
  c.element_bits = in->element_bits;
  c.ways = in->ways;
  c.wavefronts = in->wavefronts;
  c.ideal_wavefronts = in->ideal_wavefronts;
  if (!in->note.empty()) c.note = in->note;
  return c;
}

std::vector<answer::SmemOp> SmemOpsOf(const KernelReport& r) {
  std::vector<answer::SmemOp> out;
  OffsetLocator locator(r.in.text);
  for (const SmemOpCosts& o : r.smem_ops) {
    const SourceLocation loc = locator.Locate(o.op.offset);
    answer::SmemOp s;
    s.line = loc.line;
    s.column = loc.column;
    s.op = o.op.op;
    s.result = o.op.result;
    s.store = o.op.store;
    s.tensor = o.op.tensor.encoding;
    s.memdesc = o.op.memdesc.encoding;
    s.type = TypeText(o.op.memdesc);
    s.target_assumed = o.target_assumed;
    for (const auto& [target, c] : o.costs) {
      s.costs.push_back(SmemCostOf(target, c));
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<answer::LayoutAlias> AliasesOf(const KernelReport& r) {
  std::vector<answer::LayoutAlias> out;
  for (const std::string& name : r.m.alias_order) {
    const ParsedLayout& pl = r.m.aliases.at(name);
    answer::LayoutAlias a;
    a.name = name;
    a.layout = pl.text;
    a.kind = pl.kind;
    a.converted = pl.layout != nullptr;
    if (pl.layout == nullptr) a.unsupported = pl.unsupported;
    for (const auto& [key, value] : pl.fields)
      a.fields.emplace_back(key, value);
    out.push_back(std::move(a));
  }
  return out;
}

std::optional<std::string> UnlessEmpty(const std::string& s) {
  if (s.empty()) return std::nullopt;
  return s;
}

}  // namespace

answer::KernelReport ReportAnswerOf(const KernelReport& r) {
  answer::KernelReport a;
  a.kernel = r.in.file;
  a.num_warps = r.m.num_warps;
  a.threads_per_warp = r.m.threads_per_warp;
  a.num_ctas = r.m.num_ctas;
  a.target = r.m.target;
  a.triton = std::string(TritonVersionName(r.rules.version));
  a.triton_rules = r.rules.said;
  a.dump_triton_version = UnlessEmpty(r.in.triton_version);
  a.metadata = UnlessEmpty(r.in.metadata);
  a.implicit_module = r.m.module_offset == std::string::npos;
  a.defaults = DefaultedFacts(r.m);
  a.cost_target = UnlessEmpty(r.flag_target);
  a.warnings = r.m.warnings;
  a.aliases = AliasesOf(r);
  for (const std::string& e : r.encodings) {
    a.types.push_back({e, r.counts.at(e), r.uses.at(e)});
  }
  a.converts = ConvertsOf(r);
  a.smem_ops = SmemOpsOf(r);
  return a;
}

absl::StatusOr<KernelReport> AnswerKernelReport(TritonReportRequest request) {
  absl::StatusOr<ReportInput> in;
  if (request.path.has_value()) {
    in = ReadReportInput(*request.path);
  } else {
    in = ReportInput();
    in->text = std::move(request.text);
    in->file = std::move(request.text_name);
  }
  if (!in.ok()) return in.status();
  return MakeKernelReport(*std::move(in), request.triton, request.target);
}

std::string KernelReportJson(const KernelReport& r) {
  return AnswerJson(ReportAnswerOf(r), RecordJsonWriter::Style::kIndented);
}

}  // namespace hlolayout::triton

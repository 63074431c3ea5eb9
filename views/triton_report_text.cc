// views/triton_report_text.cc: the kernel report in words (was in
// triton/kernel_report.cc).
#include "hlolayout/views/triton_report_text.h"

#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/parser/diagnostic.h"
#include "hlolayout/triton/cvt_cost.h"
#include "hlolayout/triton/cvt_report.h"
#include "hlolayout/triton/report_input.h"
#include "hlolayout/triton/smem_report.h"
#include "hlolayout/triton/ttgir_parser.h"

namespace hlolayout::triton {
namespace {

std::string ShapeText(const TtgirType& t) {
  std::vector<std::string> dims;
  for (int64_t d : t.shape) dims.push_back(d < 0 ? "?" : absl::StrCat(d));
  return absl::StrCat(t.memdesc ? "!ttg.memdesc<" : "tensor<",
                      absl::StrJoin(dims, "x"), dims.empty() ? "" : "x",
                      t.element_type, ">");
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

// One convert's cost in words: "shared_memory on cuda:90 (16-bit
// elements): 4096 bytes of scratch in 2 rounds; stores ...".
std::string CostLine(const ConvertCost& c) {
  if (!c.cost.ok()) {
    return absl::StrCat("cost unknown: ", c.cost.status().message());
  }
  std::string out(CvtKindName(c.cost->kind));
  if (!c.not_modelled.empty()) {
    if (c.cost->kind == CvtKind::kSharedMemory ||
        c.cost->kind == CvtKind::kCrossCta) {
      absl::StrAppend(&out,
                      "; scratch and instructions not known: ", c.not_modelled);
    }
    return out;
  }
  absl::StrAppend(
      &out, " on ", c.target,
      c.target_assumed ? " (assumed: the module names no target)" : "", " (",
      c.bits, "-bit elements", c.bits_assumed ? ", assumed" : "", ")");
  if (c.cost->scratch_bytes > 0) {
    absl::StrAppend(&out, ": ", c.cost->scratch_bytes,
                    " bytes of shared-memory scratch");
  }
  if (c.cost->smem.has_value()) {
    const SmemRoundTrip& r = *c.cost->smem;
    absl::StrAppend(&out, " in ", r.reps, r.reps == 1 ? " round" : " rounds",
                    "; per thread stores ", SmemInstrsText(r.stores),
                    ", loads ", SmemInstrsText(r.loads), "; bank conflicts ",
                    BankConflictsText(r));
    if (!r.empirical.empty())
      absl::StrAppend(&out, " (empirical: ", r.empirical, ")");
  }
  return out;
}

}  // namespace

std::string KernelReportText(const KernelReport& r) {
  std::ostringstream out;
  out << "kernel: " << r.in.file << "\n"
      << "module: " << ModuleFacts(r.m) << "\n"
      << "figures: " << r.rules.said << "\n";
  if (!r.flag_target.empty()) {
    out << "costs on: " << r.flag_target << " (--target"
        << (r.m.target.empty() ? "" : "; the module's target is " + r.m.target)
        << ")\n";
  }
  out << "\n";
  out << "layouts (" << r.m.alias_order.size() << "):\n";
  for (const std::string& name : r.m.alias_order) {
    const ParsedLayout& pl = r.m.aliases.at(name);
    out << "  " << name << " = " << pl.text << "\n";
    if (!pl.layout) out << "      not converted: " << pl.unsupported << "\n";
  }
  out << "\ntypes by layout:\n";
  for (const std::string& e : r.encodings) {
    out << "  " << e << ": " << r.counts.at(e) << " use"
        << (r.counts.at(e) == 1 ? "" : "s") << " ("
        << absl::StrJoin(r.uses.at(e), ", ") << ")\n";
  }
  out << "\nconvert_layout ops (" << r.m.converts.size() << "):\n";
  OffsetLocator locator(r.in.text);  // the ops come in text order
  for (size_t i = 0; i < r.m.converts.size(); ++i) {
    const ConvertLayoutOp& op = r.m.converts[i];
    const SourceLocation loc = locator.Locate(op.offset);
    out << "  " << r.in.file << ":" << loc.line << ":" << loc.column << ": "
        << (op.result.empty() ? "" : op.result + " = ") << TypeText(op.src)
        << " " << op.src.encoding << " -> " << op.dst.encoding << "\n";
    for (const ConvertCost& c : r.costs[i]) {
      out << "      " << CostLine(c) << "\n";
    }
  }
  out << SmemOpsText(r.smem_ops, r.in.text, r.in.file);
  return out.str();
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

std::string ModuleFacts(const TtgirModule& m) {
  std::vector<std::string> facts;
  facts.push_back(m.num_warps > 0
                      ? absl::StrCat(m.num_warps, " warps")
                      : std::string("warps not named (Triton has no default "
                                    "for \"ttg.num-warps\": layouts not "
                                    "checked against the module)"));
  facts.push_back(absl::StrCat(
      m.threads_per_warp, " threads per warp",
      m.threads_per_warp_named ? "" : " (Triton's default: none named)"));
  facts.push_back(absl::StrCat(m.num_ctas, m.num_ctas == 1 ? " CTA" : " CTAs",
                               m.num_ctas_named ? "" : " (Triton's default)"));
  if (!m.target.empty()) facts.push_back("target " + m.target);
  std::string out = absl::StrJoin(facts, ", ");
  if (m.module_offset == std::string::npos) {
    out = absl::StrCat(
        "implicit (the text has no module; read as "
        "triton-opt reads it): ",
        out);
  }
  return out;
}

std::string SmemInstrsText(const std::vector<SmemInstr>& instrs) {
  std::vector<std::string> parts;
  for (const SmemInstr& i : instrs) {
    parts.push_back(absl::StrCat(i.count, " x ", i.instr, " ", i.bits, "-bit"));
  }
  return parts.empty() ? "-" : absl::StrJoin(parts, ", ");
}

std::string BankConflictsText(const SmemRoundTrip& r) {
  if (r.store_ways == 1 && r.load_ways == 1) return "none";
  return absl::StrCat("stores ", r.store_ways, "-way, loads ", r.load_ways,
                      "-way");
}

}  // namespace hlolayout::triton

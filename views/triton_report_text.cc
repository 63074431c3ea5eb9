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

}  // namespace hlolayout::triton

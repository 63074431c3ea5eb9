// answers/triton_report.h: `hlolayout triton report` and hl.triton.report():
// the request, the one call that answers it (AnswerKernelReport, on
// triton/kernel_report.h) and the answer as a value (ReportAnswerOf) with
// one field list per type (util/fields.h): `hlolayout triton report
// --json`, hl.triton.report()'s objects and their to_dict(), and
// triton.pyi's classes all follow from the same lists. Was
// triton/kernel_report_record.h.
//
//   TritonReportRequest q;
//   q.path = "k.ttgir";  // or q.text = ..., q.text_name = "<stdin>"
//   KernelReport r = *AnswerKernelReport(q);
//   KernelReportJson(r)   // AnswerJson(ReportAnswerOf(r), kIndented)
//   // {
//   //   "kernel": "k.ttgir",
//   //   "num_warps": 4,
//   //   ...
//   //   "converts": [
//   //     {
//   //       "line": 12,
//   //       ...
//
// The records (namespace answer; their Python names are the types' names,
// apart from triton/'s analyses of the same names): KernelReport,
// LayoutAlias, LayoutTypes, ConvertLayout (with its cost on the first
// target) and ConvertCost (on each target asked for), which share the cost
// fields (ConvertCostFields), SmemInstr, SmemOp and SmemOpCost. A cost's
// `empirical` is absent (left out of the JSON, None in Python) where the
// target's figures are not known.
#ifndef HLOLAYOUT_ANSWERS_TRITON_REPORT_H_
#define HLOLAYOUT_ANSWERS_TRITON_REPORT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "hlolayout/triton/kernel_report.h"
#include "hlolayout/util/fields.h"

namespace hlolayout::triton {

// What `triton report` and hl.triton.report() are asked.
struct TritonReportRequest {
  // A TTGIR file, a Triton cache entry's folder or its metadata JSON
  // (triton/report_input.h); without one, `text` is the kernel, named
  // `text_name` in messages ("<stdin>", "<text>").
  std::optional<std::string> path;
  std::string text;
  std::string text_name = "<text>";
  std::string triton;  // whose rules: "3.6.0", "3.9.0"; "": RulesFor's
  std::string target;  // "cuda:90", a comma list, "all"; "": the module's
};

namespace answer {

struct ConvertCost;
template <typename Fields>
void ConvertCostFields(Fields& f, const ConvertCost& c);

struct SmemInstr {
  std::string instr;
  int64_t bits = 0;
  int64_t count = 0;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const SmemInstr& i) {
    f.Type("SmemInstr",
           "A shared-memory instruction a thread runs, and how many times.");
    const FieldOptions repr = FieldOptions().Repr();
    f("instr", i.instr, "st.shared, ld.shared, stmatrix, ds_write, ...", repr);
    f("bits", i.bits, "Bits per instruction and thread.", repr);
    f("count", i.count, "Instructions per thread.", repr);
  }
};

// What a convert_layout costs on one target: ConvertCost's fields, which
// ConvertLayout holds too (its cost on the first target).
struct ConvertCost {
  int64_t bits = 0;
  bool bits_assumed = false;
  bool target_assumed = false;
  std::optional<std::string> not_modelled;
  std::optional<std::string> kind;
  std::optional<std::string> map_str;
  std::string target;
  std::optional<int64_t> scratch_bytes;
  std::optional<int64_t> reps;
  std::optional<std::vector<SmemInstr>> stores;
  std::optional<std::vector<SmemInstr>> loads;
  std::optional<int64_t> store_ways;
  std::optional<int64_t> load_ways;
  Omit<std::optional<std::string>> empirical;  // absent: not modelled
  std::optional<std::string> error;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const ConvertCost& c) {
    f.Type("ConvertCost", "What a convert_layout costs on one target.");
    ConvertCostFields(f, c);
  }
};

// The fields of a cost, in order: ConvertCost's and ConvertLayout's hooks
// call it.
template <typename Fields>
void ConvertCostFields(Fields& f, const ConvertCost& c) {
  const FieldOptions repr = FieldOptions().Repr();
  f("bits", c.bits, "Bits of an element.");
  f("bits_assumed", c.bits_assumed, "The element type gave no width.");
  f("target_assumed", c.target_assumed, "The module names no target.");
  f("not_modelled", c.not_modelled,
    "Why the target's figures are not known, or None.");
  f("kind", c.kind,
    "'registers', 'warp_shuffle', 'shared_memory', ..., None on error.", repr);
  f("map_str", c.map_str, "The conversion's map, None on error.");
  f("target", c.target, "The target of the figures.", repr);
  f("scratch_bytes", c.scratch_bytes, "Shared-memory scratch bytes, or None.",
    repr);
  f("reps", c.reps, "Rounds of store, barrier, load, or None.");
  f("stores", c.stores,
    "Each thread's shared-memory stores (None: not modelled).");
  f("loads", c.loads,
    "Each thread's shared-memory loads (None: not modelled).");
  f("store_ways", c.store_ways, "Bank-conflict ways of the stores, or None.");
  f("load_ways", c.load_ways, "Bank-conflict ways of the loads, or None.");
  f("empirical", c.empirical,
    "The fitted rule that decided the loads, or None.");
  f("error", c.error, "Why there is no cost, or None.");
}

struct ConvertLayout {
  int64_t line = 0;
  int64_t column = 0;
  std::string result, src, dst, type;
  ConvertCost cost;  // on the first target
  std::optional<std::vector<ConvertCost>> on_targets;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const ConvertLayout& c) {
    f.Type("ConvertLayout",
           "A ttg.convert_layout of the kernel, with its cost on the first "
           "target (the module's when none is asked for).");
    const FieldOptions repr = FieldOptions().Repr();
    f("line", c.line, "Its line (1-based).", repr);
    f("column", c.column, "Its column (1-based).");
    f("result", c.result, "Its result: '%42'.", repr);
    f("src", c.src, "The source layout.", repr);
    f("dst", c.dst, "The destination layout.", repr);
    f("type", c.type, "The source type: 'tensor<128x64xf16>'.");
    ConvertCostFields(f, c.cost);
    f("on_targets", c.on_targets,
      "ConvertCosts on each target asked for (--target), else None.",
      FieldOptions().Json(FieldJson::kOmitIfNone));
  }
};

struct LayoutAlias {
  std::string name, layout, kind;
  bool converted = false;
  std::optional<std::string> unsupported;
  std::vector<std::pair<std::string, std::string>> fields;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const LayoutAlias& a) {
    f.Type("LayoutAlias", "A layout alias of the module (#blocked = ...).");
    const FieldOptions repr = FieldOptions().Repr();
    f("name", a.name, "'#blocked'.", repr);
    f("layout", a.layout, "The attribute as written.");
    f("kind", a.kind, "'blocked', 'amd_mfma', ...", repr);
    f("converted", a.converted, "Whether it converts to a linear layout.",
      repr);
    f("unsupported", a.unsupported, "Why not, or None.");
    f("fields", a.fields,
      "Its fields as written, in order: (name, value) pairs.",
      FieldOptions().Json(FieldJson::kStringPairs));
  }
};

struct LayoutTypes {
  std::string encoding;
  int64_t count = 0;
  std::vector<std::string> types;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const LayoutTypes& t) {
    f.Type("LayoutTypes", "The tensor and memdesc types of one layout.");
    const FieldOptions repr = FieldOptions().Repr();
    f("encoding", t.encoding, "The layout ('(none)' for types without one).",
      repr);
    f("count", t.count, "Uses of the layout.", repr);
    f("types", t.types, "The types, in order of first use.");
  }
};

struct SmemOpCost {
  std::string target;
  std::optional<std::string> instr;
  std::optional<int64_t> bits, count, element_bits, ways, wavefronts,
      ideal_wavefronts;
  std::optional<std::string> note, error;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const SmemOpCost& c) {
    f.Type("SmemOpCost", "A shared-memory store or load on one target.");
    const FieldOptions repr = FieldOptions().Repr();
    f("target", c.target, "The target.", repr);
    f("instr", c.instr, "The instruction, None on error.", repr);
    f("bits", c.bits, "Bits per instruction and thread.");
    f("count", c.count, "Instructions per thread.", repr);
    f("element_bits", c.element_bits, "Bits of an element as stored.");
    f("ways", c.ways, "The worst phase's bank-conflict ways (1: none).", repr);
    f("wavefronts", c.wavefronts, "One warp's wavefronts.");
    f("ideal_wavefronts", c.ideal_wavefronts,
      "Its wavefronts without conflicts.");
    f("note", c.note, "What the figures assume, or None.");
    f("error", c.error, "Why there are no figures, or None.");
  }
};

struct SmemOp {
  int64_t line = 0;
  int64_t column = 0;
  std::string op, result;
  bool store = false;
  std::string tensor, memdesc, type;
  bool target_assumed = false;
  std::vector<SmemOpCost> costs;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const SmemOp& o) {
    f.Type("SmemOp",
           "A shared-memory store or load outside convert_layout (local_alloc "
           "of a tensor, local_store, local_load, async copies).");
    const FieldOptions repr = FieldOptions().Repr();
    f("line", o.line, "Its line (1-based).", repr);
    f("column", o.column, "Its column (1-based).");
    f("op", o.op, "'local_alloc', 'local_store', ...", repr);
    f("result", o.result, "Its result, '' when none.");
    f("store", o.store, "Into shared memory (False: a load).");
    f("tensor", o.tensor, "The registers' layout.");
    f("memdesc", o.memdesc, "The shared-memory layout.");
    f("type", o.type, "The memdesc type.");
    f("target_assumed", o.target_assumed, "The module names no target.");
    f("costs", o.costs, "SmemOpCosts, one per target.", repr);
  }
};

struct KernelReport {
  std::string kernel;
  int64_t num_warps = 0;
  int64_t threads_per_warp = 0;
  int64_t num_ctas = 0;
  std::string target, triton, triton_rules;
  std::optional<std::string> dump_triton_version, metadata;
  bool implicit_module = false;
  std::vector<std::string> defaults;
  std::optional<std::string> cost_target;
  std::vector<std::string> warnings;
  std::vector<LayoutAlias> aliases;
  std::vector<LayoutTypes> types;
  std::vector<ConvertLayout> converts;
  std::vector<SmemOp> smem_ops;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const KernelReport& r) {
    f.Type("KernelReport",
           "The layout facts of a TTGIR kernel dump (`hlolayout triton report "
           "--json`).");
    const FieldOptions repr = FieldOptions().Repr();
    f("kernel", r.kernel, "The file ('<text>' for text).", repr);
    f("num_warps", r.num_warps, "Warps per CTA.", repr);
    f("threads_per_warp", r.threads_per_warp, "Threads per warp.");
    f("num_ctas", r.num_ctas, "CTAs per cluster.");
    f("target", r.target, "The module's target ('' when none).", repr);
    f("triton", r.triton, "The release whose rules the figures follow.");
    f("triton_rules", r.triton_rules, "Why that release.");
    f("dump_triton_version", r.dump_triton_version,
      "The release the metadata names, or None.");
    f("metadata", r.metadata, "The metadata file read, or None.");
    f("implicit_module", r.implicit_module,
      "The text has no module (triton-opt's).");
    f("defaults", r.defaults, "The facts left to Triton's defaults.");
    f("cost_target", r.cost_target,
      "The targets asked for (--target), or None.");
    f("warnings", r.warnings, "Keys Triton ignores.");
    f("aliases", r.aliases, "LayoutAliases, as defined.");
    f("types", r.types, "LayoutTypes, in order of first use.");
    f("converts", r.converts, "ConvertLayouts, in text order.", repr);
    f("smem_ops", r.smem_ops, "SmemOps, in text order.", repr);
  }
};

}  // namespace answer

// AnswerKernelReport
//
// The report of the request's kernel (MakeKernelReport). Errors: the
// input's (a missing file or cache entry, named) and MakeKernelReport's.
absl::StatusOr<KernelReport> AnswerKernelReport(TritonReportRequest request);

// ReportAnswerOf
//
// The report as its answer value: what `--json` prints and Python binds.
answer::KernelReport ReportAnswerOf(const KernelReport& r);

// The report as pretty JSON (docs/triton.md lists the keys): kernel,
// num_warps, threads_per_warp, num_ctas, target, triton, triton_rules,
// dump_triton_version, metadata, implicit_module, defaults, cost_target,
// warnings, aliases, types, converts, smem_ops. No trailing newline.
std::string KernelReportJson(const KernelReport& r);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_ANSWERS_TRITON_REPORT_H_

#include "hlolayout/answers/triton_report.h"

#include <string>
#include <utility>
#include <vector>

#include "hlolayout/parser/diagnostic.h"
#include "hlolayout/triton/cvt_cost.h"
#include "hlolayout/triton/kernel_report.h"
#include "hlolayout/triton/report_input.h"
#include "hlolayout/util/record.h"

namespace hlolayout::triton {
namespace {

// The fields of one convert's cost on one target.
#define HLOLAYOUT_CONVERT_COST                                               \
  {"bits", "Bits of an element.", "int"},                                    \
      {"bits_assumed", "The element type gave no width.", "bool"},           \
      {"target_assumed", "The module names no target.", "bool"},             \
      {"not_modelled", "Why the target's figures are not known, or None.",   \
       "Optional[str]"},                                                     \
      {"kind",                                                               \
       "'registers', 'warp_shuffle', 'shared_memory', ..., None on "         \
       "error.",                                                             \
       "Optional[str]",                                                      \
       FieldJson::kValue,                                                    \
       nullptr,                                                              \
       true},                                                                \
      {"map_str", "The conversion's map, None on error.", "Optional[str]"},  \
      {"target", "The target of the figures.",                               \
       "str",    FieldJson::kValue,                                          \
       nullptr,  true},                                                      \
      {"scratch_bytes", "Shared-memory scratch bytes, or None.",             \
       "Optional[int]", FieldJson::kValue,                                   \
       nullptr,         true},                                               \
      {"reps", "Rounds of store, barrier, load, or None.", "Optional[int]"}, \
      {"stores", "Each thread's shared-memory stores (None: not modelled).", \
       "Optional[Tuple[SmemInstr, ...]]"},                                   \
      {"loads", "Each thread's shared-memory loads (None: not modelled).",   \
       "Optional[Tuple[SmemInstr, ...]]"},                                   \
      {"store_ways", "Bank-conflict ways of the stores, or None.",           \
       "Optional[int]"},                                                     \
      {"load_ways", "Bank-conflict ways of the loads, or None.",             \
       "Optional[int]"},                                                     \
      {"empirical", "The fitted rule that decided the loads, or None.",      \
       "Optional[str]"},                                                     \
  {                                                                          \
    "error", "Why there is no cost, or None.", "Optional[str]"               \
  }

const RecordSpec& SmemInstrSpec() {
  static const RecordSpec spec{
      "SmemInstr",
      "A shared-memory instruction a thread runs, and how many times.",
      {
          {"instr", "st.shared, ld.shared, stmatrix, ds_write, ...", "str",
           FieldJson::kValue, nullptr, true},
          {"bits", "Bits per instruction and thread.", "int", FieldJson::kValue,
           nullptr, true},
          {"count", "Instructions per thread.", "int", FieldJson::kValue,
           nullptr, true},
      }};
  return spec;
}

const RecordSpec& ConvertCostSpec() {
  static const RecordSpec spec{"ConvertCost",
                               "What a convert_layout costs on one target.",
                               {HLOLAYOUT_CONVERT_COST}};
  return spec;
}

const RecordSpec& ConvertLayoutSpec() {
  static const RecordSpec spec{
      "ConvertLayout",
      "A ttg.convert_layout of the kernel, with its cost on the first "
      "target (the module's when none is asked for).",
      {
          {"line", "Its line (1-based).", "int", FieldJson::kValue, nullptr,
           true},
          {"column", "Its column (1-based).", "int"},
          {"result", "Its result: '%42'.", "str", FieldJson::kValue, nullptr,
           true},
          {"src", "The source layout.", "str", FieldJson::kValue, nullptr,
           true},
          {"dst", "The destination layout.", "str", FieldJson::kValue, nullptr,
           true},
          {"type", "The source type: 'tensor<128x64xf16>'.", "str"},
          HLOLAYOUT_CONVERT_COST,
          {"on_targets",
           "ConvertCosts on each target asked for (--target), else None.",
           "Optional[Tuple[ConvertCost, ...]]", FieldJson::kOmitIfNone},
      }};
  return spec;
}

#undef HLOLAYOUT_CONVERT_COST

const RecordSpec& LayoutAliasSpec() {
  static const RecordSpec spec{
      "LayoutAlias",
      "A layout alias of the module (#blocked = ...).",
      {
          {"name", "'#blocked'.", "str", FieldJson::kValue, nullptr, true},
          {"layout", "The attribute as written.", "str"},
          {"kind", "'blocked', 'amd_mfma', ...", "str", FieldJson::kValue,
           nullptr, true},
          {"converted", "Whether it converts to a linear layout.", "bool",
           FieldJson::kValue, nullptr, true},
          {"unsupported", "Why not, or None.", "Optional[str]"},
          {"fields", "Its fields as written, in order: (name, value) pairs.",
           "Tuple[Tuple[str, str], ...]", FieldJson::kStringPairs},
      }};
  return spec;
}

const RecordSpec& LayoutTypesSpec() {
  static const RecordSpec spec{
      "LayoutTypes",
      "The tensor and memdesc types of one layout.",
      {
          {"encoding", "The layout ('(none)' for types without one).", "str",
           FieldJson::kValue, nullptr, true},
          {"count", "Uses of the layout.", "int", FieldJson::kValue, nullptr,
           true},
          {"types", "The types, in order of first use.", "Tuple[str, ...]"},
      }};
  return spec;
}

const RecordSpec& SmemOpCostSpec() {
  static const RecordSpec spec{
      "SmemOpCost",
      "A shared-memory store or load on one target.",
      {
          {"target", "The target.", "str", FieldJson::kValue, nullptr, true},
          {"instr", "The instruction, None on error.", "Optional[str]",
           FieldJson::kValue, nullptr, true},
          {"bits", "Bits per instruction and thread.", "Optional[int]"},
          {"count", "Instructions per thread.", "Optional[int]",
           FieldJson::kValue, nullptr, true},
          {"element_bits", "Bits of an element as stored.", "Optional[int]"},
          {"ways", "The worst phase's bank-conflict ways (1: none).",
           "Optional[int]", FieldJson::kValue, nullptr, true},
          {"wavefronts", "One warp's wavefronts.", "Optional[int]"},
          {"ideal_wavefronts", "Its wavefronts without conflicts.",
           "Optional[int]"},
          {"note", "What the figures assume, or None.", "Optional[str]"},
          {"error", "Why there are no figures, or None.", "Optional[str]"},
      }};
  return spec;
}

const RecordSpec& SmemOpSpec() {
  static const RecordSpec spec{
      "SmemOp",
      "A shared-memory store or load outside convert_layout (local_alloc "
      "of a tensor, local_store, local_load, async copies).",
      {
          {"line", "Its line (1-based).", "int", FieldJson::kValue, nullptr,
           true},
          {"column", "Its column (1-based).", "int"},
          {"op", "'local_alloc', 'local_store', ...", "str", FieldJson::kValue,
           nullptr, true},
          {"result", "Its result, '' when none.", "str"},
          {"store", "Into shared memory (False: a load).", "bool"},
          {"tensor", "The registers' layout.", "str"},
          {"memdesc", "The shared-memory layout.", "str"},
          {"type", "The memdesc type.", "str"},
          {"target_assumed", "The module names no target.", "bool"},
          {"costs", "SmemOpCosts, one per target.", "Tuple[SmemOpCost, ...]",
           FieldJson::kValue, nullptr, true},
      }};
  return spec;
}

const RecordSpec& KernelReportSpec() {
  static const RecordSpec spec{
      "KernelReport",
      "The layout facts of a TTGIR kernel dump (`hlolayout triton report "
      "--json`).",
      {
          {"kernel", "The file ('<text>' for text).", "str", FieldJson::kValue,
           nullptr, true},
          {"num_warps", "Warps per CTA.", "int", FieldJson::kValue, nullptr,
           true},
          {"threads_per_warp", "Threads per warp.", "int"},
          {"num_ctas", "CTAs per cluster.", "int"},
          {"target", "The module's target ('' when none).", "str",
           FieldJson::kValue, nullptr, true},
          {"triton", "The release whose rules the figures follow.", "str"},
          {"triton_rules", "Why that release.", "str"},
          {"dump_triton_version", "The release the metadata names, or None.",
           "Optional[str]"},
          {"metadata", "The metadata file read, or None.", "Optional[str]"},
          {"implicit_module", "The text has no module (triton-opt's).", "bool"},
          {"defaults", "The facts left to Triton's defaults.",
           "Tuple[str, ...]"},
          {"cost_target", "The targets asked for (--target), or None.",
           "Optional[str]"},
          {"warnings", "Keys Triton ignores.", "Tuple[str, ...]"},
          {"aliases", "LayoutAliases, as defined.", "Tuple[LayoutAlias, ...]"},
          {"types", "LayoutTypes, in order of first use.",
           "Tuple[LayoutTypes, ...]"},
          {"converts", "ConvertLayouts, in text order.",
           "Tuple[ConvertLayout, ...]", FieldJson::kValue, nullptr, true},
          {"smem_ops", "SmemOps, in text order.", "Tuple[SmemOp, ...]",
           FieldJson::kValue, nullptr, true},
      }};
  return spec;
}

void EmitInstrs(const std::vector<SmemInstr>& instrs, RecordSink& s) {
  s.BeginList();
  for (const SmemInstr& i : instrs) {
    s.BeginRecord(SmemInstrSpec());
    s.String(i.instr);
    s.Int(i.bits);
    s.Int(i.count);
    s.EndRecord();
  }
  s.EndList();
}

// The target's figures of a modelled cost (target to empirical).
void EmitTargetFigures(const std::string& target, const CvtCost& cost,
                       RecordSink& s) {
  s.String(target);
  s.Int(cost.scratch_bytes);
  if (!cost.smem.has_value()) {
    // Registers and shuffles use no shared memory; a cross-CTA conversion
    // does, but its instructions are not modelled (None).
    const bool none = cost.kind != CvtKind::kCrossCta;
    s.None();
    for (int i = 0; i < 2; ++i) {
      if (none) {
        s.BeginList();
        s.EndList();
      } else {
        s.None();
      }
    }
    s.None();
    s.None();
    s.None();
    return;
  }
  const SmemRoundTrip& r = *cost.smem;
  s.Int(r.reps);
  EmitInstrs(r.stores, s);
  EmitInstrs(r.loads, s);
  s.Int(r.store_ways);
  s.Int(r.load_ways);
  s.OptionalString(!r.empirical.empty(), r.empirical);
}

// The fields of HLOLAYOUT_CONVERT_COST.
void EmitCost(const ConvertCost& c, RecordSink& s) {
  s.Int(c.bits);
  s.Bool(c.bits_assumed);
  s.Bool(c.target_assumed);
  s.OptionalString(!c.not_modelled.empty(), c.not_modelled);
  if (c.cost.ok() && c.not_modelled.empty()) {
    s.String(CvtKindName(c.cost->kind));
    s.String(c.cost->map.ToString());
    EmitTargetFigures(c.target, *c.cost, s);
    s.None();
    return;
  }
  s.OptionalString(c.cost.ok(), c.cost.ok() ? CvtKindName(c.cost->kind) : "");
  s.OptionalString(c.cost.ok(),
                   c.cost.ok() ? c.cost->map.ToString() : std::string());
  s.String(c.target);
  for (int i = 0; i < 6; ++i) s.None();  // scratch_bytes ... load_ways
  s.Absent();                            // empirical
  s.OptionalString(!c.cost.ok(), c.cost.status().message());
}

void EmitConverts(const KernelReport& r, RecordSink& s) {
  s.BeginList();
  OffsetLocator locator(r.in.text);  // the ops come in text order
  for (size_t i = 0; i < r.m.converts.size(); ++i) {
    const ConvertLayoutOp& op = r.m.converts[i];
    const SourceLocation loc = locator.Locate(op.offset);
    s.BeginRecord(ConvertLayoutSpec());
    s.Int(loc.line);
    s.Int(loc.column);
    s.String(op.result);
    s.String(op.src.encoding);
    s.String(op.dst.encoding);
    s.String(TypeText(op.src));
    EmitCost(r.costs[i][0], s);
    if (r.flag_target.empty()) {
      s.None();
    } else {
      s.BeginList();
      for (const ConvertCost& c : r.costs[i]) {
        s.BeginRecord(ConvertCostSpec());
        EmitCost(c, s);
        s.EndRecord();
      }
      s.EndList();
    }
    s.EndRecord();
  }
  s.EndList();
}

void EmitSmemCost(const std::string& target,
                  const absl::StatusOr<SmemAccessCost>& c, RecordSink& s) {
  s.BeginRecord(SmemOpCostSpec());
  s.String(target);
  if (c.ok()) {
    s.String(c->instr);
    s.Int(c->bits);
    s.Int(c->count);
    s.Int(c->element_bits);
    s.Int(c->ways);
    s.Int(c->wavefronts);
    s.Int(c->ideal_wavefronts);
    s.OptionalString(!c->note.empty(), c->note);
    s.None();
  } else {
    for (int i = 0; i < 8; ++i) s.None();  // instr ... note
    s.String(c.status().message());
  }
  s.EndRecord();
}

void EmitSmemOps(const KernelReport& r, RecordSink& s) {
  s.BeginList();
  OffsetLocator locator(r.in.text);
  for (const SmemOpCosts& o : r.smem_ops) {
    const SourceLocation loc = locator.Locate(o.op.offset);
    s.BeginRecord(SmemOpSpec());
    s.Int(loc.line);
    s.Int(loc.column);
    s.String(o.op.op);
    s.String(o.op.result);
    s.Bool(o.op.store);
    s.String(o.op.tensor.encoding);
    s.String(o.op.memdesc.encoding);
    s.String(TypeText(o.op.memdesc));
    s.Bool(o.target_assumed);
    s.BeginList();
    for (const auto& [target, c] : o.costs) EmitSmemCost(target, c, s);
    s.EndList();
    s.EndRecord();
  }
  s.EndList();
}

void EmitAliases(const KernelReport& r, RecordSink& s) {
  s.BeginList();
  for (const std::string& name : r.m.alias_order) {
    const ParsedLayout& pl = r.m.aliases.at(name);
    s.BeginRecord(LayoutAliasSpec());
    s.String(name);
    s.String(pl.text);
    s.String(pl.kind);
    s.Bool(pl.layout != nullptr);
    s.OptionalString(pl.layout == nullptr, pl.unsupported);
    s.BeginList();
    for (const auto& [key, value] : pl.fields) {
      s.BeginList();
      s.String(key);
      s.String(value);
      s.EndList();
    }
    s.EndList();
    s.EndRecord();
  }
  s.EndList();
}

void EmitStrings(const std::vector<std::string>& strings, RecordSink& s) {
  s.BeginList();
  for (const std::string& x : strings) s.String(x);
  s.EndList();
}

}  // namespace

const std::vector<const RecordSpec*>& KernelReportSpecs() {
  static const auto* specs = new std::vector<const RecordSpec*>{
      &SmemInstrSpec(),   &ConvertCostSpec(), &ConvertLayoutSpec(),
      &LayoutAliasSpec(), &LayoutTypesSpec(), &SmemOpCostSpec(),
      &SmemOpSpec(),      &KernelReportSpec()};
  return *specs;
}

void EmitKernelReport(const KernelReport& r, RecordSink& s) {
  s.BeginRecord(KernelReportSpec());
  s.String(r.in.file);
  s.Int(r.m.num_warps);
  s.Int(r.m.threads_per_warp);
  s.Int(r.m.num_ctas);
  s.String(r.m.target);
  s.String(TritonVersionName(r.rules.version));
  s.String(r.rules.said);
  s.OptionalString(!r.in.triton_version.empty(), r.in.triton_version);
  s.OptionalString(!r.in.metadata.empty(), r.in.metadata);
  s.Bool(r.m.module_offset == std::string::npos);
  EmitStrings(DefaultedFacts(r.m), s);
  s.OptionalString(!r.flag_target.empty(), r.flag_target);
  EmitStrings(r.m.warnings, s);
  EmitAliases(r, s);
  s.BeginList();
  for (const std::string& e : r.encodings) {
    s.BeginRecord(LayoutTypesSpec());
    s.String(e);
    s.Int(r.counts.at(e));
    EmitStrings(r.uses.at(e), s);
    s.EndRecord();
  }
  s.EndList();
  EmitConverts(r, s);
  EmitSmemOps(r, s);
  s.EndRecord();
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
  std::string out;
  RecordJsonWriter w(&out, RecordJsonWriter::Style::kIndented);
  EmitKernelReport(r, w);
  return out;
}

}  // namespace hlolayout::triton

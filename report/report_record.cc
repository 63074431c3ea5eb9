#include "hlolayout/report/report_record.h"

#include <string>
#include <vector>

#include "hlolayout/layout/memory_space.h"
#include "hlolayout/report/report.h"
#include "hlolayout/util/record.h"

namespace hlolayout {
namespace {

// The fields of a ByteCounts over array leaves, and over buffers.
#define HLOLAYOUT_ARRAY_LEAF_BYTES                                         \
  {"array_leaf_logical_bytes",                                             \
   "Logical bytes of the array leaves (elements at their storage width).", \
   "int"},                                                                 \
      {"array_leaf_padded_bytes",                                          \
       "Padded bytes of the array leaves (every tile level, L(n), E(n)).", \
       "int"},                                                             \
      {"padding_bytes", "Padded minus logical bytes.", "int"},             \
      {"expansion", "Padded / logical bytes (1.0 when logical is 0).",     \
       "float", FieldJson::kRound6g},                                      \
  {                                                                        \
    "overflow", "A sum passed INT64_MAX and stopped there.", "bool"        \
  }
#define HLOLAYOUT_BUFFER_BYTES                                                \
  {"buffer_logical_bytes", "Logical bytes of the values it defines.", "int"}, \
      {"buffer_padded_bytes",                                                 \
       "Padded bytes of the values it defines.",                              \
       "int",                                                                 \
       FieldJson::kValue,                                                     \
       nullptr,                                                               \
       true},                                                                 \
      {"buffer_padding_bytes", "Their padding.", "int",                       \
       FieldJson::kValue,      nullptr,          true},                       \
  {                                                                           \
    "buffer_overflow", "A buffer sum passed INT64_MAX and stopped there.",    \
        "bool"                                                                \
  }

// The JSON's layout: a module's sections start lines indented by two, its
// wasters and rows one per line indented by four; modules one per line.
constexpr char kSection[] = "  ";
constexpr char kItem[] = "    ";

const RecordSpec& ModuleTotalsSpec() {
  static const RecordSpec spec{
      "ModuleTotals",
      "A module's totals: the buffers it defines (XLA's dataflow rules) "
      "and all instruction results (docs/report.md).",
      {
          {"computations", "Computations in the module.", "int",
           FieldJson::kValue, nullptr, true},
          {"instructions", "Instructions over all computations.", "int",
           FieldJson::kValue, nullptr, true},
          {"instructions_without_shape", "Instructions written without one.",
           "int"},
          {"buffer_values", "The values the module defines.", "int",
           FieldJson::kValue, nullptr, true},
          HLOLAYOUT_BUFFER_BYTES,
          {"array_leaves", "Array leaves of all instruction results.", "int"},
          {"unsized_array_leaves", "Leaves with an unbounded dim (`?`).",
           "int"},
          HLOLAYOUT_ARRAY_LEAF_BYTES,
      }};
  return spec;
}

const RecordSpec& MemorySpaceTotalsSpec() {
  static const RecordSpec spec{
      "MemorySpaceTotals",
      "A module's totals in one memory space S(n).",
      {
          {"memory_space", "n of S(n).", "int", FieldJson::kValue, nullptr,
           true},
          {"key", "'hbm', 'vmem', 'host', 's2', ...", "str", FieldJson::kValue,
           nullptr, true},
          {"name", "A human name of the space.", "str"},
          {"buffer_values", "Values the module defines in this space.", "int"},
          HLOLAYOUT_BUFFER_BYTES,
          {"instructions", "Instructions with an array leaf in this space.",
           "int"},
          {"array_leaves", "Array leaves in this space.", "int"},
          HLOLAYOUT_ARRAY_LEAF_BYTES,
      }};
  return spec;
}

const RecordSpec& ReportRowSpec() {
  static const RecordSpec spec{
      "ReportRow",
      "One instruction of the report.",
      {
          {"computation", "Its computation.", "str", FieldJson::kValue, nullptr,
           true},
          {"instruction", "Its name.", "str", FieldJson::kValue, nullptr, true},
          {"opcode", "Its opcode.", "str", FieldJson::kValue, nullptr, true},
          {"root", "Whether it is its computation's root.", "bool"},
          {"shape", "Its shape as written, None without one.", "Optional[str]",
           FieldJson::kValue, nullptr, true},
          {"memory_space",
           "The memory space key of its array leaves ('hbm', 'vmem', ...), "
           "'mixed', or None without array leaves.",
           "Optional[str]"},
          {"array_leaves", "Array leaves of its result.", "int"},
          {"unsized_array_leaves", "Leaves with an unbounded dim (`?`).",
           "int"},
          HLOLAYOUT_ARRAY_LEAF_BYTES,
          {"buffer",
           "What its result is in memory: 'new', 'part' (some indices "
           "new), 'alias' or 'fused' (inside a fusion body or reducer).",
           "str", FieldJson::kValue, nullptr, true},
          HLOLAYOUT_BUFFER_BYTES,
      }};
  return spec;
}

const RecordSpec& ModuleReportSpec() {
  static const RecordSpec spec{
      "ModuleReport",
      "The report of one module.",
      {
          {"name", "The HloModule name ('' without a header line).", "str",
           FieldJson::kValue, nullptr, true},
          {"entry_computation", "The entry computation's name.", "str"},
          {"totals", "ModuleTotals.", "ModuleTotals", FieldJson::kValue,
           nullptr, true, nullptr, nullptr, kSection},
          {"memory_spaces", "MemorySpaceTotals, by memory space.",
           "Tuple[MemorySpaceTotals, ...]", FieldJson::kValue, nullptr, false,
           nullptr, nullptr, kSection},
          {"padding_wasters_note",
           "None when the wasters are buffers with their aliases; else why "
           "they are each value on its own (the memory analysis refused "
           "the module). None with summary=True.",
           "Optional[str]", FieldJson::kOmitIfNone, nullptr, false, nullptr,
           nullptr, kSection},
          {"top_padding_wasters",
           "PaddingWasters, most padding first; None with summary=True.",
           "Optional[Tuple[PaddingWaster, ...]]", FieldJson::kOmitIfNone,
           nullptr, true, nullptr, kItem, kSection, true},
          {"instructions", "ReportRows in text order; None with summary=True.",
           "Optional[Tuple[ReportRow, ...]]", FieldJson::kOmitIfNone, nullptr,
           true, nullptr, kItem, kSection, true},
      }};
  return spec;
}

const RecordSpec& ReportSpec() {
  static const RecordSpec spec{
      "Report",
      "The memory and padding report of HLO module text "
      "(`hlolayout report --json`).",
      {
          {"modules", "ModuleReports, in text order.",
           "Tuple[ModuleReport, ...]", FieldJson::kValue, nullptr, true,
           nullptr, " ", nullptr, true},
          {"errors",
           "Errors of instructions that were skipped (empty: the reader "
           "stops at the first error, which raises ValueError).",
           "Tuple[str, ...]", FieldJson::kValue, nullptr, false, nullptr,
           nullptr, " "},
      }};
  return spec;
}

void EmitArrayLeafBytes(const ByteCounts& a, RecordSink& s) {
  s.Int(a.logical_bytes);
  s.Int(a.padded_bytes);
  s.Int(a.wasted_bytes());
  s.Double(a.expansion());
  s.Bool(a.overflow);
}

void EmitBufferBytes(const ByteCounts& b, RecordSink& s) {
  s.Int(b.logical_bytes);
  s.Int(b.padded_bytes);
  s.Int(b.wasted_bytes());
  s.Bool(b.overflow);
}

void EmitStrings(const std::vector<std::string>& strings, RecordSink& s) {
  s.BeginList();
  for (const std::string& x : strings) s.String(x);
  s.EndList();
}

void EmitTotals(const ModuleTotals& t, RecordSink& s) {
  s.BeginRecord(ModuleTotalsSpec());
  s.Int(t.computations);
  s.Int(t.instructions);
  s.Int(t.instructions_without_shape);
  s.Int(t.buffer_values);
  EmitBufferBytes(t.buffer_bytes, s);
  s.Int(t.array_leaves);
  s.Int(t.unsized_array_leaves);
  EmitArrayLeafBytes(t.bytes, s);
  s.EndRecord();
}

void EmitSpace(const MemorySpaceTotals& t, RecordSink& s) {
  s.BeginRecord(MemorySpaceTotalsSpec());
  s.Int(t.memory_space);
  s.String(MemorySpaceKey(t.memory_space));
  s.String(MemorySpaceName(t.memory_space));
  s.Int(t.buffer_values);
  EmitBufferBytes(t.buffer_bytes, s);
  s.Int(t.instructions);
  s.Int(t.array_leaves);
  EmitArrayLeafBytes(t.bytes, s);
  s.EndRecord();
}

void EmitRow(const ReportRow& r, RecordSink& s) {
  s.BeginRecord(ReportRowSpec());
  s.String(r.computation);
  s.String(r.name);
  s.String(r.opcode);
  s.Bool(r.is_root);
  s.OptionalString(r.has_shape, r.shape_text);
  if (r.memory_space == ReportRow::kNoMemorySpace) {
    s.None();
  } else if (r.memory_space == ReportRow::kMixedMemorySpaces) {
    s.String("mixed");
  } else {
    s.String(MemorySpaceKey(r.memory_space));
  }
  s.Int(r.array_leaves);
  s.Int(r.unsized_array_leaves);
  EmitArrayLeafBytes(r.bytes, s);
  s.String(BufferRoleName(r.buffer));
  EmitBufferBytes(r.buffer_bytes, s);
  s.EndRecord();
}

void EmitModule(const ModuleReport& m, bool summary, RecordSink& s) {
  s.BeginRecord(ModuleReportSpec());
  s.String(m.name);
  s.String(m.entry_computation);
  EmitTotals(m.totals, s);
  s.BeginList();
  for (const MemorySpaceTotals& t : m.memory_spaces) EmitSpace(t, s);
  s.EndList();
  if (summary) {
    s.None();
    s.None();
    s.None();
    s.EndRecord();
    return;
  }
  s.OptionalString(!m.wasters_note.empty(), m.wasters_note);
  s.BeginList();
  for (const PaddingWaster& w : m.top_wasters) EmitPaddingWaster(w, s);
  s.EndList();
  s.BeginList();
  for (const ReportRow& r : m.rows) EmitRow(r, s);
  s.EndList();
  s.EndRecord();
}

}  // namespace

const RecordSpec& PaddingWasterSpec() {
  static const RecordSpec spec{
      "PaddingWaster",
      "A buffer that pads a lot, listed once however many instructions "
      "name it, with why (docs/report.md).",
      {
          {"computation", "The computation of the instruction that defines it.",
           "str", FieldJson::kValue, nullptr, true},
          {"instruction",
           "The instruction that defines its first value (a loop's initial "
           "value, not the body's result).",
           "str", FieldJson::kValue, nullptr, true},
          {"index",
           "Where in that instruction's result, as a tuple (() for the "
           "whole result).",
           "Tuple[int, ...]", FieldJson::kIndex, nullptr, true},
          {"shape", "The buffer's shape with its layout.", "str",
           FieldJson::kValue, nullptr, true},
          {"memory_space", "Its memory space key ('hbm', 'vmem', ...).", "str"},
          {"array_leaf_logical_bytes",
           "Logical bytes (elements at their storage width).", "int"},
          {"array_leaf_padded_bytes",
           "Padded bytes (every tile level, L(n), E(n)).", "int",
           FieldJson::kValue, nullptr, true},
          {"padding_bytes", "Padded minus logical bytes.", "int",
           FieldJson::kValue, nullptr, true},
          {"expansion", "Padded / logical bytes (1.0 when logical is 0).",
           "float", FieldJson::kRound6g},
          {"overflow", "A sum passed INT64_MAX and stopped there.", "bool"},
          {"reasons",
           "Why: 'dim 0 (size 3) is not a multiple of tile 8 of "
           "T(8,128)(2,1): padded to 8'.",
           "Tuple[str, ...]", FieldJson::kValue},
          {"also_defined_by",
           "The instructions that define the buffer's other values "
           "('scaled', 'copy-start{0}').",
           "Tuple[str, ...]", FieldJson::kValue},
          {"aliases",
           "Its other names: instructions whose result (or an element of "
           "it) is the buffer ('init{1}', 'while{1}', 'result').",
           "Tuple[str, ...]", FieldJson::kValue},
      }};
  return spec;
}

#undef HLOLAYOUT_ARRAY_LEAF_BYTES
#undef HLOLAYOUT_BUFFER_BYTES

const std::vector<const RecordSpec*>& ReportRecordSpecs() {
  static const auto* specs = new std::vector<const RecordSpec*>{
      &ModuleTotalsSpec(), &MemorySpaceTotalsSpec(), &PaddingWasterSpec(),
      &ReportRowSpec(),    &ModuleReportSpec(),      &ReportSpec()};
  return *specs;
}

void EmitPaddingWaster(const PaddingWaster& w, RecordSink& s) {
  s.BeginRecord(PaddingWasterSpec());
  s.String(w.computation);
  s.String(w.name);
  s.BeginList();
  for (int64_t i : w.index) s.Int(i);
  s.EndList();
  s.String(w.shape_text);
  s.String(MemorySpaceKey(w.memory_space));
  EmitArrayLeafBytes(w.bytes, s);
  EmitStrings(w.reasons, s);
  EmitStrings(w.also_defined_by, s);
  EmitStrings(w.aliases, s);
  s.EndRecord();
}

void EmitReport(const Report& report, bool summary, RecordSink& s) {
  s.BeginRecord(ReportSpec());
  s.BeginList();
  for (const ModuleReport& m : report.modules) EmitModule(m, summary, s);
  s.EndList();
  EmitStrings(report.errors, s);
  s.EndRecord();
}

}  // namespace hlolayout

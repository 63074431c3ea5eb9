// report/report_record.h: the memory and padding report (report/report.h)
// as a value with one field list per type (util/fields.h), from which
// `hlolayout report --json FILE`, hl.report(FILE)'s objects and their
// to_dict(), and reports.pyi all follow.
//
//   Report report = BuildReport(text).value();
//   AnswerJson(ReportAnswerOf(report, /*summary=*/false))
//   // {"modules": [
//   //  {"name": "jit_f", "entry_computation": "main.3",
//   //   "totals": {"computations": 2, ...},
//   //   "memory_spaces": [{"memory_space": 0, "key": "hbm", ...}],
//   //   "top_padding_wasters": [
//   //     {"computation": "main.3", "instruction": "copy.3", ...}],
//   //   "instructions": [
//   //     {"computation": "main.3", ...}]}],
//   //  "errors": []}
//
// The records (namespace report_answer; their Python names are the types'
// names, apart from report/'s analyses of the same names): Report,
// ModuleReport, ModuleTotals, MemorySpaceTotals, PaddingWaster, ReportRow.
// The byte counts ModuleTotals, MemorySpaceTotals and ReportRow share are
// two field groups (LeafByteFields, BufferByteFields). With `summary`, a
// module's wasters, their note and its rows are None (left out of the
// JSON).
#ifndef HLOLAYOUT_REPORT_REPORT_RECORD_H_
#define HLOLAYOUT_REPORT_REPORT_RECORD_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hlolayout/report/report.h"
#include "hlolayout/util/fields.h"
#include "hlolayout/util/record.h"

namespace hlolayout {
namespace report_answer {

// A ByteCounts over array leaves (LeafByteFields) and over buffers
// (BufferByteFields): field groups, not records.
struct LeafBytes {
  int64_t logical = 0, padded = 0, padding = 0;
  double expansion = 1;
  bool overflow = false;
};
struct BufferBytes {
  int64_t logical = 0, padded = 0, padding = 0;
  bool overflow = false;
};

template <typename Fields>
void LeafByteFields(Fields& f, const LeafBytes& b) {
  f("array_leaf_logical_bytes", b.logical,
    "Logical bytes of the array leaves (elements at their storage width).");
  f("array_leaf_padded_bytes", b.padded,
    "Padded bytes of the array leaves (every tile level, L(n), E(n)).");
  f("padding_bytes", b.padding, "Padded minus logical bytes.");
  f("expansion", b.expansion, "Padded / logical bytes (1.0 when logical is 0).",
    FieldOptions().Json(FieldJson::kRound6g));
  f("overflow", b.overflow, "A sum passed INT64_MAX and stopped there.");
}

template <typename Fields>
void BufferByteFields(Fields& f, const BufferBytes& b) {
  const FieldOptions repr = FieldOptions().Repr();
  f("buffer_logical_bytes", b.logical,
    "Logical bytes of the values it defines.");
  f("buffer_padded_bytes", b.padded, "Padded bytes of the values it defines.",
    repr);
  f("buffer_padding_bytes", b.padding, "Their padding.", repr);
  f("buffer_overflow", b.overflow,
    "A buffer sum passed INT64_MAX and stopped there.");
}

struct ModuleTotals {
  int64_t computations = 0, instructions = 0, instructions_without_shape = 0,
          buffer_values = 0;
  BufferBytes buffer_bytes;
  int64_t array_leaves = 0, unsized_array_leaves = 0;
  LeafBytes bytes;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const ModuleTotals& t) {
    f.Type("ModuleTotals",
           "A module's totals: the buffers it defines (XLA's dataflow rules) "
           "and all instruction results (docs/report.md).");
    const FieldOptions repr = FieldOptions().Repr();
    f("computations", t.computations, "Computations in the module.", repr);
    f("instructions", t.instructions, "Instructions over all computations.",
      repr);
    f("instructions_without_shape", t.instructions_without_shape,
      "Instructions written without one.");
    f("buffer_values", t.buffer_values, "The values the module defines.", repr);
    BufferByteFields(f, t.buffer_bytes);
    f("array_leaves", t.array_leaves,
      "Array leaves of all instruction results.");
    f("unsized_array_leaves", t.unsized_array_leaves,
      "Leaves with an unbounded dim (`?`).");
    LeafByteFields(f, t.bytes);
  }
};

struct MemorySpaceTotals {
  int64_t memory_space = 0;
  std::string key, name;
  int64_t buffer_values = 0;
  BufferBytes buffer_bytes;
  int64_t instructions = 0, array_leaves = 0;
  LeafBytes bytes;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const MemorySpaceTotals& t) {
    f.Type("MemorySpaceTotals", "A module's totals in one memory space S(n).");
    const FieldOptions repr = FieldOptions().Repr();
    f("memory_space", t.memory_space, "n of S(n).", repr);
    f("key", t.key, "'hbm', 'vmem', 'host', 's2', ...", repr);
    f("name", t.name, "A human name of the space.");
    f("buffer_values", t.buffer_values,
      "Values the module defines in this space.");
    BufferByteFields(f, t.buffer_bytes);
    f("instructions", t.instructions,
      "Instructions with an array leaf in this space.");
    f("array_leaves", t.array_leaves, "Array leaves in this space.");
    LeafByteFields(f, t.bytes);
  }
};

struct ReportRow {
  std::string computation, instruction, opcode;
  bool root = false;
  std::optional<std::string> shape, memory_space;
  int64_t array_leaves = 0, unsized_array_leaves = 0;
  LeafBytes bytes;
  std::string buffer;
  BufferBytes buffer_bytes;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const ReportRow& r) {
    f.Type("ReportRow", "One instruction of the report.");
    const FieldOptions repr = FieldOptions().Repr();
    f("computation", r.computation, "Its computation.", repr);
    f("instruction", r.instruction, "Its name.", repr);
    f("opcode", r.opcode, "Its opcode.", repr);
    f("root", r.root, "Whether it is its computation's root.");
    f("shape", r.shape, "Its shape as written, None without one.", repr);
    f("memory_space", r.memory_space,
      "The memory space key of its array leaves ('hbm', 'vmem', ...), "
      "'mixed', or None without array leaves.");
    f("array_leaves", r.array_leaves, "Array leaves of its result.");
    f("unsized_array_leaves", r.unsized_array_leaves,
      "Leaves with an unbounded dim (`?`).");
    LeafByteFields(f, r.bytes);
    f("buffer", r.buffer,
      "What its result is in memory: 'new', 'part' (some indices "
      "new), 'alias' or 'fused' (inside a fusion body or reducer).",
      repr);
    BufferByteFields(f, r.buffer_bytes);
  }
};

struct PaddingWaster {
  std::string computation, instruction;
  std::vector<int64_t> index;
  std::string shape, memory_space;
  int64_t array_leaf_logical_bytes = 0, array_leaf_padded_bytes = 0,
          padding_bytes = 0;
  double expansion = 1;
  bool overflow = false;
  std::vector<std::string> reasons, also_defined_by, aliases;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const PaddingWaster& w) {
    f.Type("PaddingWaster",
           "A buffer that pads a lot, listed once however many instructions "
           "name it, with why (docs/report.md).");
    const FieldOptions repr = FieldOptions().Repr();
    f("computation", w.computation,
      "The computation of the instruction that defines it.", repr);
    f("instruction", w.instruction,
      "The instruction that defines its first value (a loop's initial "
      "value, not the body's result).",
      repr);
    f("index", w.index,
      "Where in that instruction's result, as a tuple (() for the "
      "whole result).",
      repr.Json(FieldJson::kIndex));
    f("shape", w.shape, "The buffer's shape with its layout.", repr);
    f("memory_space", w.memory_space,
      "Its memory space key ('hbm', 'vmem', ...).");
    f("array_leaf_logical_bytes", w.array_leaf_logical_bytes,
      "Logical bytes (elements at their storage width).");
    f("array_leaf_padded_bytes", w.array_leaf_padded_bytes,
      "Padded bytes (every tile level, L(n), E(n)).", repr);
    f("padding_bytes", w.padding_bytes, "Padded minus logical bytes.", repr);
    f("expansion", w.expansion,
      "Padded / logical bytes (1.0 when logical is 0).",
      FieldOptions().Json(FieldJson::kRound6g));
    f("overflow", w.overflow, "A sum passed INT64_MAX and stopped there.");
    f("reasons", w.reasons,
      "Why: 'dim 0 (size 3) is not a multiple of tile 8 of "
      "T(8,128)(2,1): padded to 8'.");
    f("also_defined_by", w.also_defined_by,
      "The instructions that define the buffer's other values "
      "('scaled', 'copy-start{0}').");
    f("aliases", w.aliases,
      "Its other names: instructions whose result (or an element of "
      "it) is the buffer ('init{1}', 'while{1}', 'result').");
  }
};

struct ModuleReport {
  std::string name, entry_computation;
  ModuleTotals totals;
  std::vector<MemorySpaceTotals> memory_spaces;
  // None with summary (left out of the JSON).
  std::optional<std::string> padding_wasters_note;
  std::optional<std::vector<PaddingWaster>> top_padding_wasters;
  std::optional<std::vector<ReportRow>> instructions;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const ModuleReport& m) {
    // The JSON's layout: a module's sections start lines indented by two,
    // its wasters and rows one per line indented by four.
    const FieldOptions section = FieldOptions().KeyIndent("  ");
    const FieldOptions omitted = section.Json(FieldJson::kOmitIfNone);
    const FieldOptions list = omitted.Repr().ItemIndent("    ", true);
    f.Type("ModuleReport", "The report of one module.");
    f("name", m.name, "The HloModule name ('' without a header line).",
      FieldOptions().Repr());
    f("entry_computation", m.entry_computation,
      "The entry computation's name.");
    f("totals", m.totals, "ModuleTotals.", section.Repr());
    f("memory_spaces", m.memory_spaces, "MemorySpaceTotals, by memory space.",
      section);
    f("padding_wasters_note", m.padding_wasters_note,
      "None when the wasters are buffers with their aliases; else why "
      "they are each value on its own (the memory analysis refused "
      "the module). None with summary=True.",
      omitted);
    f("top_padding_wasters", m.top_padding_wasters,
      "PaddingWasters, most padding first; None with summary=True.", list);
    f("instructions", m.instructions,
      "ReportRows in text order; None with summary=True.", list);
  }
};

struct Report {
  std::vector<ModuleReport> modules;
  std::vector<std::string> errors;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const Report& r) {
    f.Type("Report",
           "The memory and padding report of HLO module text "
           "(`hlolayout report --json`).");
    f("modules", r.modules, "ModuleReports, in text order.",
      FieldOptions().Repr().ItemIndent(" ", true));
    f("errors", r.errors,
      "Errors of instructions that were skipped (empty: the reader "
      "stops at the first error, which raises ValueError).",
      FieldOptions().KeyIndent(" "));
  }
};

}  // namespace report_answer

// ReportAnswerOf
//
// The report as its answer value: what `report --json` prints and Python
// binds. With `summary`, no module has wasters, their note or rows.
report_answer::Report ReportAnswerOf(const Report& report, bool summary);

// One padding waster as its record, as the elements of
// "top_padding_wasters".
report_answer::PaddingWaster PaddingWasterAnswerOf(const PaddingWaster& w);

}  // namespace hlolayout

#endif  // HLOLAYOUT_REPORT_REPORT_RECORD_H_

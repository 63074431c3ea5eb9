// report/dump_folder_record.h: a dump folder's table (report/dump_folder.h)
// as a value with one field list per type (util/fields.h), from which
// `hlolayout report|memory --json DIR`, hl.report(DIR)/hl.memory(DIR)'s
// DumpFolderTable and reports.pyi all follow.
//
//   xla_dump/  module_0001.jit_f.sm_9.0a_gpu_after_optimizations.txt, ...
//
//   DumpFolderTable table = SummarizeDumpFolder(listing, options, open);
//   AnswerJson(DumpFolderAnswerOf(table))
//   // {"folder": "xla_dump", "files_read": 1, "max_bytes_in_flight": 9120,
//   //  "modules": [
//   //   {"file": "module_0001...", "module": "jit_f", ...}
//   // ], "skipped": [], "failed": [], "errors": []}
//
// The records (namespace report_answer; their Python names are the types'
// names, apart from report/'s tables of the same names): DumpFolderTable,
// DumpFolderRow (with memory/'s CompiledMemoryStats), SkippedFile,
// FailedFile.
#ifndef HLOLAYOUT_REPORT_DUMP_FOLDER_RECORD_H_
#define HLOLAYOUT_REPORT_DUMP_FOLDER_RECORD_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hlolayout/memory/compiled_memory_stats.h"
#include "hlolayout/report/dump_folder.h"
#include "hlolayout/util/fields.h"
#include "hlolayout/util/record.h"

namespace hlolayout {
namespace report_answer {

struct DumpFolderRow {
  std::string file, module;
  int64_t computations = 0;
  int64_t instructions = 0;
  int64_t buffer_values = 0;
  int64_t buffer_logical_bytes = 0;
  int64_t buffer_padded_bytes = 0;
  int64_t padding_bytes = 0;
  double expansion = 1;
  bool buffer_overflow = false;
  bool scheduled = false;
  std::optional<std::string> platform;
  std::optional<int64_t> allocated_bytes;
  std::optional<CompiledMemoryStats> memory_analysis;
  std::optional<int64_t> peak_bytes;
  std::optional<std::string> peak_error;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const DumpFolderRow& r) {
    f.Type("DumpFolderRow", "One module of a dump folder's table.");
    const FieldOptions repr = FieldOptions().Repr();
    const FieldOptions omit = FieldOptions().Json(FieldJson::kOmitIfNone);
    f("file", r.file, "Its file's name in the folder.", repr);
    f("module", r.module, "The HloModule name.", repr);
    f("computations", r.computations, "Computations in the module.");
    f("instructions", r.instructions, "Instructions in the module.");
    f("buffer_values", r.buffer_values, "The values the module defines.");
    f("buffer_logical_bytes", r.buffer_logical_bytes, "Their logical bytes.");
    f("buffer_padded_bytes", r.buffer_padded_bytes, "Their padded bytes.",
      repr);
    f("padding_bytes", r.padding_bytes, "Padded minus logical bytes.");
    f("expansion", r.expansion, "Padded / logical bytes.",
      FieldOptions().Json(FieldJson::kFixed4));
    f("buffer_overflow", r.buffer_overflow,
      "A sum passed INT64_MAX and stopped there.");
    f("scheduled", r.scheduled,
      "Whether the module is scheduled (is_scheduled).");
    f("platform", r.platform,
      "'gpu', 'cpu' or 'tpu' for scheduled modules, else None.", omit.Repr());
    f("allocated_bytes", r.allocated_bytes,
      "What XLA will allocate (arguments + temp + outputs - aliases), "
      "None when not modelled or not scheduled.",
      repr);
    f("memory_analysis", r.memory_analysis, "CompiledMemoryStats, or None.");
    f("peak_bytes", r.peak_bytes,
      "The live-range peak of scheduled modules, or None.", repr);
    f("peak_error", r.peak_error, "Why the analysis failed, or None.", omit);
  }
};

struct SkippedFile {
  std::string file, reason;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const SkippedFile& s) {
    f.Type("SkippedFile",
           "A file of a dump folder that holds no module to read.");
    const FieldOptions repr = FieldOptions().Repr();
    f("file", s.file, "Its name.", repr);
    f("reason", s.reason, "Why it was skipped.", repr);
  }
};

struct FailedFile {
  std::string file, error;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const FailedFile& s) {
    f.Type("FailedFile", "A file of a dump folder that could not be read.");
    const FieldOptions repr = FieldOptions().Repr();
    f("file", s.file, "Its name.", repr);
    f("error", s.error, "The reader's message.", repr);
  }
};

struct DumpFolderTable {
  std::string folder;
  int64_t files_read = 0;
  int64_t max_bytes_in_flight = 0;
  std::vector<DumpFolderRow> modules;
  std::vector<SkippedFile> skipped;
  std::vector<FailedFile> failed;
  std::vector<std::string> errors;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const DumpFolderTable& t) {
    f.Type("DumpFolderTable",
           "One row per module of a --xla_dump_to folder (`hlolayout report "
           "--json DIR`).");
    const FieldOptions repr = FieldOptions().Repr();
    f("folder", t.folder, "The folder as given.", repr);
    f("files_read", t.files_read, "Module files read.");
    f("max_bytes_in_flight", t.max_bytes_in_flight,
      "The most file bytes being read at one time.");
    f("modules", t.modules, "DumpFolderRows, in the table's order.",
      repr.ItemIndent("  "));
    f("skipped", t.skipped, "SkippedFiles, by name.");
    f("failed", t.failed, "FailedFiles, by name (the others are in the table).",
      repr);
    f("errors", t.errors,
      "Errors of instructions left out (the CLI's --keep-going; always "
      "empty from Python, where a bad file fails whole).");
  }
};

}  // namespace report_answer

// DumpFolderAnswerOf
//
// The table as its answer value: what `--json DIR` prints and Python binds.
report_answer::DumpFolderTable DumpFolderAnswerOf(const DumpFolderTable& table);

}  // namespace hlolayout

#endif  // HLOLAYOUT_REPORT_DUMP_FOLDER_RECORD_H_

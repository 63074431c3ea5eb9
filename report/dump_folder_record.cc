#include "hlolayout/report/dump_folder_record.h"

#include <vector>

#include "hlolayout/memory/compiled_memory_stats.h"
#include "hlolayout/report/dump_folder.h"
#include "hlolayout/util/fields.h"
#include "hlolayout/util/record.h"

namespace hlolayout {
namespace {

const RecordSpec& DumpFolderRowSpec() {
  static const RecordSpec spec{
      "DumpFolderRow",
      "One module of a dump folder's table.",
      {
          {"file", "Its file's name in the folder.", "str", FieldJson::kValue,
           nullptr, true},
          {"module", "The HloModule name.", "str", FieldJson::kValue, nullptr,
           true},
          {"computations", "Computations in the module.", "int"},
          {"instructions", "Instructions in the module.", "int"},
          {"buffer_values", "The values the module defines.", "int"},
          {"buffer_logical_bytes", "Their logical bytes.", "int"},
          {"buffer_padded_bytes", "Their padded bytes.", "int",
           FieldJson::kValue, nullptr, true},
          {"padding_bytes", "Padded minus logical bytes.", "int"},
          {"expansion", "Padded / logical bytes.", "float", FieldJson::kFixed4},
          {"buffer_overflow", "A sum passed INT64_MAX and stopped there.",
           "bool"},
          {"scheduled", "Whether the module is scheduled (is_scheduled).",
           "bool"},
          {"platform",
           "'gpu', 'cpu' or 'tpu' for scheduled modules, else None.",
           "Optional[str]", FieldJson::kOmitIfNone, nullptr, true},
          {"allocated_bytes",
           "What XLA will allocate (arguments + temp + outputs - aliases), "
           "None when not modelled or not scheduled.",
           "Optional[int]", FieldJson::kValue, nullptr, true},
          {"memory_analysis", "CompiledMemoryStats, or None.",
           "Optional[CompiledMemoryStats]"},
          {"peak_bytes", "The live-range peak of scheduled modules, or None.",
           "Optional[int]", FieldJson::kValue, nullptr, true},
          {"peak_error", "Why the analysis failed, or None.", "Optional[str]",
           FieldJson::kOmitIfNone},
      }};
  return spec;
}

const RecordSpec& SkippedFileSpec() {
  static const RecordSpec spec{
      "SkippedFile",
      "A file of a dump folder that holds no module to read.",
      {
          {"file", "Its name.", "str", FieldJson::kValue, nullptr, true},
          {"reason", "Why it was skipped.", "str", FieldJson::kValue, nullptr,
           true},
      }};
  return spec;
}

const RecordSpec& FailedFileSpec() {
  static const RecordSpec spec{
      "FailedFile",
      "A file of a dump folder that could not be read.",
      {
          {"file", "Its name.", "str", FieldJson::kValue, nullptr, true},
          {"error", "The reader's message.", "str", FieldJson::kValue, nullptr,
           true},
      }};
  return spec;
}

void EmitRow(const DumpFolderRow& r, RecordSink& s) {
  s.BeginRecord(DumpFolderRowSpec());
  s.String(r.file);
  s.String(r.module);
  s.Int(r.computations);
  s.Int(r.instructions);
  s.Int(r.buffer_values);
  s.Int(r.buffer_logical_bytes);
  s.Int(r.buffer_padded_bytes);
  s.Int(r.padding_bytes());
  s.Double(r.expansion());
  s.Bool(r.buffer_overflow);
  s.Bool(r.scheduled);
  s.OptionalString(!r.platform.empty(), r.platform);
  const bool allocated = r.allocated_bytes >= 0;
  s.OptionalInt(allocated, r.allocated_bytes);
  if (allocated) {
    EmitValue(CompiledMemoryStatsOf(r.memory_analysis), s);
  } else {
    s.None();
  }
  s.OptionalInt(r.peak_bytes >= 0, r.peak_bytes);
  s.OptionalString(!r.peak_error.empty(), r.peak_error);
  s.EndRecord();
}

// A file's name and what is said of it (reason or error).
void EmitFile(const RecordSpec& spec, const std::string& name,
              const std::string& said, RecordSink& s) {
  s.BeginRecord(spec);
  s.String(name);
  s.String(said);
  s.EndRecord();
}

}  // namespace

const RecordSpec& DumpFolderTableSpec() {
  static const RecordSpec spec{
      "DumpFolderTable",
      "One row per module of a --xla_dump_to folder (`hlolayout report "
      "--json DIR`).",
      {
          {"folder", "The folder as given.", "str", FieldJson::kValue, nullptr,
           true},
          {"files_read", "Module files read.", "int"},
          {"max_bytes_in_flight", "The most file bytes being read at one time.",
           "int"},
          {"modules", "DumpFolderRows, in the table's order.",
           "Tuple[DumpFolderRow, ...]", FieldJson::kValue, nullptr, true,
           nullptr, "  "},
          {"skipped", "SkippedFiles, by name.", "Tuple[SkippedFile, ...]"},
          {"failed", "FailedFiles, by name (the others are in the table).",
           "Tuple[FailedFile, ...]", FieldJson::kValue, nullptr, true},
          {"errors",
           "Errors of instructions left out (the CLI's --keep-going; always "
           "empty from Python, where a bad file fails whole).",
           "Tuple[str, ...]"},
      }};
  return spec;
}

const std::vector<const RecordSpec*>& DumpFolderRecordSpecs() {
  static const auto* specs = new std::vector<const RecordSpec*>{
      &DumpFolderRowSpec(), &SkippedFileSpec(), &FailedFileSpec(),
      &DumpFolderTableSpec()};
  return *specs;
}

void EmitDumpFolderTable(const DumpFolderTable& table, RecordSink& s) {
  s.BeginRecord(DumpFolderTableSpec());
  s.String(table.folder);
  s.Int(table.files_read);
  s.Int(table.max_bytes_in_flight);
  s.BeginList();
  for (const DumpFolderRow& r : table.rows) EmitRow(r, s);
  s.EndList();
  s.BeginList();
  for (const SkippedDumpFile& f : table.skipped) {
    EmitFile(SkippedFileSpec(), f.name, f.reason, s);
  }
  s.EndList();
  s.BeginList();
  for (const FailedDumpFile& f : table.failed) {
    EmitFile(FailedFileSpec(), f.name, f.error, s);
  }
  s.EndList();
  s.BeginList();
  for (const std::string& e : table.errors) s.String(e);
  s.EndList();
  s.EndRecord();
}

}  // namespace hlolayout

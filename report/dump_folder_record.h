// report/dump_folder_record.h: a dump folder's table (report/dump_folder.h)
// as records (util/record.h): one field list per record, from which
// `hlolayout report|memory --json DIR`, hl.report(DIR)/hl.memory(DIR)'s
// DumpFolderTable and reports.pyi all follow.
//
//   xla_dump/  module_0001.jit_f.sm_9.0a_gpu_after_optimizations.txt, ...
//
//   DumpFolderTable table = SummarizeDumpFolder(listing, options, open);
//   std::string json;
//   RecordJsonWriter w(&json);
//   EmitDumpFolderTable(table, w);
//   // {"folder": "xla_dump", "files_read": 1, "max_bytes_in_flight": 9120,
//   //  "modules": [
//   //   {"file": "module_0001...", "module": "jit_f", ...}
//   // ], "skipped": [], "failed": [], "errors": []}
//
// The records: DumpFolderTable, DumpFolderRow (with memory/'s
// CompiledMemoryStats), SkippedFile, FailedFile.
#ifndef HLOLAYOUT_REPORT_DUMP_FOLDER_RECORD_H_
#define HLOLAYOUT_REPORT_DUMP_FOLDER_RECORD_H_

#include <vector>

#include "hlolayout/report/dump_folder.h"
#include "hlolayout/util/record.h"

namespace hlolayout {

const RecordSpec& DumpFolderTableSpec();

// Every record of this answer but memory/'s CompiledMemoryStats, nested ones
// first.
const std::vector<const RecordSpec*>& DumpFolderRecordSpecs();

void EmitDumpFolderTable(const DumpFolderTable& table, RecordSink& sink);

}  // namespace hlolayout

#endif  // HLOLAYOUT_REPORT_DUMP_FOLDER_RECORD_H_

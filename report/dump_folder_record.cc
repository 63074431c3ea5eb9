#include "hlolayout/report/dump_folder_record.h"

#include <string>
#include <vector>

#include "hlolayout/memory/compiled_memory_stats.h"
#include "hlolayout/report/dump_folder.h"
#include "hlolayout/util/fields.h"
#include "hlolayout/util/record.h"

namespace hlolayout {
namespace {

report_answer::DumpFolderRow RowOf(const DumpFolderRow& r) {
  report_answer::DumpFolderRow row;
  row.file = r.file;
  row.module = r.module;
  row.computations = r.computations;
  row.instructions = r.instructions;
  row.buffer_values = r.buffer_values;
  row.buffer_logical_bytes = r.buffer_logical_bytes;
  row.buffer_padded_bytes = r.buffer_padded_bytes;
  row.padding_bytes = r.padding_bytes();
  row.expansion = r.expansion();
  row.buffer_overflow = r.buffer_overflow;
  row.scheduled = r.scheduled;
  if (!r.platform.empty()) row.platform = r.platform;
  if (r.allocated_bytes >= 0) {
    row.allocated_bytes = r.allocated_bytes;
    row.memory_analysis = CompiledMemoryStatsOf(r.memory_analysis);
  }
  if (r.peak_bytes >= 0) row.peak_bytes = r.peak_bytes;
  if (!r.peak_error.empty()) row.peak_error = r.peak_error;
  return row;
}

}  // namespace

report_answer::DumpFolderTable DumpFolderAnswerOf(
    const DumpFolderTable& table) {
  report_answer::DumpFolderTable t;
  t.folder = table.folder;
  t.files_read = table.files_read;
  t.max_bytes_in_flight = table.max_bytes_in_flight;
  t.modules.reserve(table.rows.size());
  for (const DumpFolderRow& r : table.rows) t.modules.push_back(RowOf(r));
  for (const SkippedDumpFile& f : table.skipped) {
    t.skipped.push_back({f.name, f.reason});
  }
  for (const FailedDumpFile& f : table.failed) {
    t.failed.push_back({f.name, f.error});
  }
  t.errors = table.errors;
  return t;
}

}  // namespace hlolayout

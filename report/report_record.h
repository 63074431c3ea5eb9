// report/report_record.h: the memory and padding report (report/report.h)
// as records (util/record.h): one field list per record, from which
// `hlolayout report --json FILE`, hl.report(FILE)'s objects and their
// to_dict(), and reports.pyi all follow.
//
//   Report report = BuildReport(text).value();
//   std::string json;
//   RecordJsonWriter w(&json);
//   EmitReport(report, /*summary=*/false, w);
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
// The records: Report, ModuleReport, ModuleTotals, MemorySpaceTotals,
// PaddingWaster, ReportRow. With `summary`, a module's wasters, their note
// and its rows are None (left out of the JSON).
#ifndef HLOLAYOUT_REPORT_REPORT_RECORD_H_
#define HLOLAYOUT_REPORT_REPORT_RECORD_H_

#include <vector>

#include "hlolayout/report/report.h"
#include "hlolayout/util/record.h"

namespace hlolayout {

// Every record of this answer, nested ones first (Report last).
const std::vector<const RecordSpec*>& ReportRecordSpecs();

// The padding waster's record (its shape is field 3; Python draws it).
const RecordSpec& PaddingWasterSpec();

void EmitReport(const Report& report, bool summary, RecordSink& sink);

// One padding waster, as the elements of "top_padding_wasters".
void EmitPaddingWaster(const PaddingWaster& waster, RecordSink& sink);

}  // namespace hlolayout

#endif  // HLOLAYOUT_REPORT_REPORT_RECORD_H_

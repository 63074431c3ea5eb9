// views/dump_folder_text.h: a dump folder's table (report/dump_folder.h) as
// `hlolayout report DIR` and `hlolayout memory DIR` print it.
//
//   dump folder dump: 1 module in 1 file, 0 skipped
//   module  instructions  buffers  padding  expansion  XLA allocates  ...
//   jit_f             12  2.9 KiB  2.0 KiB      3.00x  4.0 KiB (gpu)  ...
//
//   std::string text = DumpFolderTableText(table);
//   std::string json = DumpFolderTableJson(table);  // dump_folder_record.h
#ifndef HLOLAYOUT_VIEWS_DUMP_FOLDER_TEXT_H_
#define HLOLAYOUT_VIEWS_DUMP_FOLDER_TEXT_H_

#include <cstdint>
#include <ostream>
#include <string>

#include "absl/strings/string_view.h"
#include "hlolayout/report/dump_folder.h"
#include "hlolayout/report/report.h"

namespace hlolayout {

// The table in words: a line on the folder, the rows aligned in columns,
// the totals, then skipped files by reason and failed files.
std::string DumpFolderTableText(const DumpFolderTable& table);

// The table's JSON document (report/dump_folder_record.h), with a newline.
// `extra`: more keys of the object, written before its end
// (", \"k\": ...").
std::string DumpFolderTableJson(const DumpFolderTable& table,
                                absl::string_view extra = "");

// `report DIR`'s full form: the table, then the `top` padding wasters over
// the folder (most padding first; `report` holds the modules in the table's
// order, `table.rows[i]` made from `report.modules[i]`); with `json` one
// document with "top_padding_wasters" added.
void WriteFolderReport(const Report& report, const DumpFolderTable& table,
                       int64_t top, bool json, std::ostream& out);

}  // namespace hlolayout

#endif  // HLOLAYOUT_VIEWS_DUMP_FOLDER_TEXT_H_

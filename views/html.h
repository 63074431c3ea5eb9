// views/html.h: the memory/padding report (report/report.h) as one
// self-contained HTML page: inline CSS, SVG pictures and a little
// JavaScript; no network, no server.
//
//   hlolayout report --html report.html module_0001.*.after_optimizations.txt
//   hlolayout report --html report.html /tmp/xla_dump      # a dump folder
//
// Everything on the page comes from the report as built (the full report:
// the modules read once, their memory analyses and buffers,
// ModuleReport::module and ::memory); nothing is read or parsed again. The
// page, from the top:
//   - #allocates, "What XLA will allocate": one row per module (what XLA
//     will allocate, arguments, temp, outputs, aliases, the
//     memory_analysis() peak and the live-range peak; for XLA:TPU modules
//     "not modelled" and the live-range peak; why for the others). For a
//     dump folder (HtmlOptions::folder) the folder's table instead: module,
//     instructions, buffers, padding, expansion, what XLA allocates, the
//     live-range peak and the file, then the files skipped or failed;
//   - #memory, "Memory over the schedule": for each scheduled module the
//     live bytes over the flattened schedule (the chart comes first, in the
//     first screen under the table), the values live at the peak, and for
//     XLA:GPU/CPU the memory_analysis() figures and XLA's heap drawn
//     (views/memory_html.h); the other modules say why they have none;
//   - #wasters: the top padding wasters over all modules, buffers each
//     once with their other names, each drawn at tile granularity
//     (views/padding_picture.h) with the reasons in words;
//   - #totals (all instruction results: not memory use), #spaces, #modules;
//   - #instructions, sortable by clicking a column header and filterable by
//     name/opcode text, memory space and "padded only". Large dumps: the
//     table keeps the `max_rows` instructions with the most padded bytes and
//     says so (#cap-note).
//
// The state can be set from the URL fragment, for links and tests:
//   report.html#sort=padded&dir=desc&filter=copy&space=vmem&padded=1
// (sort keys: module computation name opcode shape space logical padded
// expansion wasted).
//
// Element ids tests rely on: #allocates (table.allocation-lead, or
// table.folder with rows tr.folder-row), #memory, #wasters (each waster a
// <div class="waster"> holding an <svg>), #totals, #spaces, #modules,
// #instructions (rows <tr class="row">), #cap-note, #shown-count.
#ifndef HLOLAYOUT_VIEWS_HTML_H_
#define HLOLAYOUT_VIEWS_HTML_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "hlolayout/report/dump_folder.h"
#include "hlolayout/report/report.h"

namespace hlolayout {

struct HtmlOptions {
  std::vector<std::string> inputs;  // file names, for the header
  int64_t max_rows = 5000;          // instruction table cap
  int64_t max_modules = 2000;       // module table cap
  int64_t top_wasters = 10;         // over all modules
  // Modules whose memory over the schedule is drawn (the first ones of the
  // report; the page says how many it leaves out).
  int64_t max_memory_sections = 50;
  // Values listed at each module's peak.
  int64_t peak_values = 20;
  bool summary = false;  // leave out the instruction table
  // A dump folder's table (report/dump_folder.h), which then leads the
  // page in place of the per-module allocation table. Not owned.
  const DumpFolderTable* folder = nullptr;
};

// Precondition: `report` is a full report (BuildReport with keep_rows;
// modules without ModuleReport::module say they were not
// analysed).
void RenderReportHtml(const Report& report, const HtmlOptions& options,
                      std::ostream& out);

}  // namespace hlolayout

#endif  // HLOLAYOUT_VIEWS_HTML_H_

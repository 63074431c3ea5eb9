// report/html.h: the memory/padding report (report/report.h) as one
// self-contained HTML page: inline CSS, SVG pictures and a little
// JavaScript; no network, no server.
//
//   hlolayout report --html report.html module_0001.*.after_optimizations.txt
//
// The page leads with what XLA will allocate for each module (#allocates,
// HtmlOptions::allocation_html), then the bytes of all instruction results
// (#totals: not memory use, the base of padding and expansion); a table of
// modules and one of memory spaces; the top padding wasters over all modules,
// each with a tile-granularity picture of its most padded array
// (draw/layout_picture.h) and the reasons in words; the instruction table,
// sortable by clicking a column header and filterable by name/opcode text,
// memory space and "padded only". Large dumps: the instruction table keeps the
// `max_rows` instructions with the most padded bytes and says so.
//
// The state can be set from the URL fragment, for links and tests:
//   report.html#sort=padded&dir=desc&filter=copy&space=vmem&padded=1
// (sort keys: module computation name opcode shape space logical padded
// expansion wasted).
//
// With HtmlOptions::memory_html (the CLI fills it): the live bytes over
// the schedule of each scheduled module, peak marked and the values live
// there listed; unscheduled modules say why they have no curve.
//
// Element ids tests rely on: #allocates, #totals, #modules, #spaces, #memory,
// #wasters (each waster a <div class="waster"> holding an <svg>), #instructions
// (rows <tr class="row">), #cap-note, #shown-count.
#ifndef HLOLAYOUT_REPORT_HTML_H_
#define HLOLAYOUT_REPORT_HTML_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "hlolayout/report/report.h"

namespace hlolayout {

struct HtmlOptions {
  std::vector<std::string> inputs;  // file names, for the header
  int64_t max_rows = 5000;          // instruction table cap
  int64_t max_modules = 2000;       // module table cap
  int64_t top_wasters = 10;         // over all modules
  bool summary = false;  // leave out the instruction table (report built
                         // without rows)
  // The section "Memory over the schedule" (#memory): HTML fragments of
  // memory/memory_html.h, one per module (a curve, or why there is none).
  // Empty: no such section.
  std::string memory_html;
  // The section that leads the page, "What XLA will allocate"
  // (#allocates): memory/memory_html.h's RenderAllocationTableHtml, one row
  // per module. Empty: the page says it was not computed.
  std::string allocation_html;
};

void RenderReportHtml(const Report& report, const HtmlOptions& options,
                      std::ostream& out);

}  // namespace hlolayout

#endif  // HLOLAYOUT_REPORT_HTML_H_

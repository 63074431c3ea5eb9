// views/memory_html.h: the memory curve of a scheduled HLO module
// (memory/live_range.h) as an HTML fragment: the live bytes over the
// schedule as an inline SVG polyline, XLA's peak moment marked, and a table
// of the values live at the peak. Shared by `hlolayout memory --html` and
// the memory section of `hlolayout report --html` (views/html.h).
//
//   HloModule m, is_scheduled=true
//   ENTRY %main (p: f32[256]) -> f32[256] {
//     %p = f32[256]{0} parameter(0)
//     %a = f32[256]{0} negate(%p)
//     ROOT %b = f32[256]{0} exponential(%a)
//   }
//   -> <section class="module"><h2>module m</h2><p>3 scheduled
//      instructions, ... Peak (XLA's moment): <b>... bytes</b> ...</p>
//      <svg id="curve-0" ...><polyline class="curve" .../><line
//      class="peak" .../>...</svg><table class="live">...</table></section>
//
// The fragment is well-formed XML (names escaped), with no external
// resources. Element classes tests rely on: section.module, svg#curve-N,
// polyline.curve, line.peak, table.live with rows tr.value; an unscheduled
// module gets a section.module with p.no-curve saying why.
#ifndef HLOLAYOUT_VIEWS_MEMORY_HTML_H_
#define HLOLAYOUT_VIEWS_MEMORY_HTML_H_

#include <cstdint>
#include <ostream>

#include "absl/strings/string_view.h"
#include "hlolayout/hlo/module.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/memory/live_range.h"
#include "hlolayout/memory/tpu_memory.h"

namespace hlolayout {

// One analysed module: the curve (at most 2000 points, each the largest
// value of its stretch of the schedule), the peak marked, and the first
// `top` values live at the peak (0: all). `index` numbers the SVG id
// ("curve-<index>") so that several modules share a page.
void RenderMemoryCurveHtml(const MemoryAnalysis& analysis, int64_t top,
                           int index, std::ostream& out);

// One module with its buffer assignment (memory/buffer_assignment.h): what
// XLA will allocate first (arguments + temp + outputs - aliases, the
// live-range peak beside it), then the memory over the schedule (the curve
// and the values live at the peak, as RenderMemoryCurveHtml: the picture
// an XLA engineer opens first), then the figures of
// compiled.memory_analysis() and the temp allocation as a picture
// (svg#heap-<index>: offset
// against schedule time, one rect.block per value of XLA's heap with a
// <title> naming it (name, shape, bytes, offset, live range, op_name and
// source line) and data-value, the moment the heap holds the most bytes
// marked by line.heap-peak; the 10 largest boxes carry data-key="1".. and
// a number, explained by table.heap-legend with rows tr.heap-value).
// `module` (optional: the module `memory` was analysed from) resolves
// stack_frame_id metadata to source lines (hlo/source_location.h);
// without it only source_file/source_line metadata gives them.
void RenderModuleMemoryHtml(const ModuleMemory& memory, int64_t top, int index,
                            std::ostream& out,
                            const HloModule* module = nullptr);

// An XLA:TPU module's answer (memory/tpu_memory.h): a section.module.tpu
// with the lines `hlolayout memory` prints (pre.tpu), the memory spaces
// (table.tpu-spaces, a tr.space per space with data-space="n"), the tile
// padding rankings (table.tpu-padding, rows tr.padded) and HBM's live
// bytes over the schedule with its peak (svg#curve-<index>): each memory
// space on its own, never their sum.
void RenderTpuMemoryHtml(const TpuMemory& t, const MemoryAnalysis& live_ranges,
                         int64_t top, int index, std::ostream& out);

// Every module of an HLO dump text: for each scheduled module its
// allocations and curve (RenderModuleMemoryHtml; the platform from the
// file name or the module, DetectXlaPlatform) and,
// for a module that has no schedule (or that the analysis refuses), a
// section that says why. A text without any `is_scheduled=true` is not
// read at all and gets one such section, named by `file_name`, as does a
// text the reader refuses.
// `*index` numbers the curves and is advanced past the ones written.
// With `lead`, each module (or the file, when it is not read) also gets a
// row tr.lead there for RenderAllocationTableHtml: what XLA will allocate
// with the memory_analysis() figures, or for XLA:TPU "not modelled" and
// the live-range peak instead, or why it is not known.
void RenderMemorySectionsHtml(absl::string_view text,
                              absl::string_view file_name, int64_t top,
                              int* index, std::ostream& out,
                              std::ostream* lead = nullptr);

// One row of the lead table for RenderAllocationTableHtml: `what` (a module
// or file name) and what XLA will allocate for it: `memory`'s buffer
// assignment, or with `live_ranges_only` (XLA:TPU) "not modelled" and the
// live-range peak, or with neither `why` it is not known. For callers that
// analysed the modules themselves (`hlolayout report --html`).
void RenderAllocationRowHtml(absl::string_view what, const ModuleMemory* memory,
                             const MemoryAnalysis* live_ranges_only,
                             absl::string_view why, std::ostream& out);

// The rows of RenderMemorySectionsHtml's `lead` as one table
// (table.allocation-lead): module, what XLA will allocate (td.allocated),
// arguments, temp, outputs, aliases, memory_analysis() peak, live-range
// peak, and where the figures come from.
void RenderAllocationTableHtml(absl::string_view rows, std::ostream& out);

}  // namespace hlolayout

#endif  // HLOLAYOUT_VIEWS_MEMORY_HTML_H_

// views/report_render.h: the memory/padding report (report/report.h) as a text
// table or as JSON.
//
// Text, for one module:
//   module jit_f: entry main.3, 2 computations, 5 instructions
//     computation  instruction  opcode    shape                        memory
//     logical  padded  expansion main.3       copy.3       copy
//     bf16[3,200]{1,0:T(8,128)(2,1)} hbm      1200     4096  3.4x
//   totals: ...
//   memory spaces: ...
//   top padding wasters: ...
//
// JSON (keys name what they count; bytes are sums over array leaves):
//   {"modules": [{"name": "jit_f", "entry_computation": "main.3",
//     "totals": {"computations": 2, "instructions": 5, ...,
//                "array_leaf_logical_bytes": 1200,
//                "array_leaf_padded_bytes": 4096, "expansion": 3.41, ...},
//     "memory_spaces": [...], "top_padding_wasters": [...],
//     "instructions": [...]}], "errors": []}
#ifndef HLOLAYOUT_VIEWS_REPORT_RENDER_H_
#define HLOLAYOUT_VIEWS_REPORT_RENDER_H_

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "hlolayout/report/report.h"
#include "hlolayout/util/bytes.h"        // BytesWithTotal, ShortBytes
#include "hlolayout/util/json_string.h"  // WriteJsonString

namespace hlolayout {

// The text tables pad each column to its widest cell, up to this many
// characters; a wider cell runs past its column. Without the bound one
// tuple shape of 8,000 elements (90 KB of text) padded every row of its
// module to it: 720 MB written for a 525 KB dump.
inline constexpr size_t kMaxColumnWidth = 1000;

struct RenderOptions {
  // Totals and memory spaces only: no instruction table and no padding
  // wasters.
  bool summary = false;
  // Text written under each module's first line, by module index: where
  // missing or empty, the module's lead (ModuleLeadText) when `lead` is set
  // and the module comes from the full report, else nothing.
  std::vector<std::string> module_heads;
  bool lead = true;
};

// ModuleLeadText
//
// What XLA will allocate for a module of the full report
// (ModuleReport::memory): XlaAllocationText (views/allocation_text.h) of
// its buffer assignment; for XLA:TPU modules that it is not modelled and
// the live-range peak; else a line saying why it is not known. Each line
// starts with `indent`.
std::string ModuleLeadText(const ModuleReport& module,
                           absl::string_view indent);

// Writes the text report. Rows are written in the order they are in.
void RenderReportText(const Report& report, const RenderOptions& options,
                      std::ostream& out);

// Writes the JSON report, one line per instruction.
void RenderReportJson(const Report& report, const RenderOptions& options,
                      std::ostream& out);

// One padding waster as the text report lists it ("  3. copy-start{0} in
// main: bf16[8,200]{...S(1)} (vmem)", its padding, reasons, other values
// and aliases); `where` names its computation (and module, for a folder).
void RenderWasterText(const PaddingWaster& waster, int rank,
                      absl::string_view where, std::ostream& out);

// One padding waster as a JSON object (the elements of
// "top_padding_wasters"); `extra`, when not empty, is written first inside
// the braces (`"module": "m", "file": "f.txt"`).
void RenderWasterJson(const PaddingWaster& waster, absl::string_view extra,
                      std::ostream& out);

}  // namespace hlolayout

#endif  // HLOLAYOUT_VIEWS_REPORT_RENDER_H_

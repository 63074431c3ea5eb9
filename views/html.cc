#include "hlolayout/views/html.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "hlolayout/draw/svg.h"
#include "hlolayout/layout/memory_space.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/util/bytes.h"
#include "hlolayout/views/allocation_text.h"
#include "hlolayout/views/memory_html.h"
#include "hlolayout/views/padding_picture.h"
#include "hlolayout/views/report_render.h"

namespace hlolayout {
namespace {

using draw::XmlEscape;

std::string SpaceKey(int64_t space) {
  if (space == ReportRow::kNoMemorySpace) return "-";
  if (space == ReportRow::kMixedMemorySpaces) return "mixed";
  return MemorySpaceKey(space);
}

std::string Num(int64_t v) { return absl::StrCat(v); }

// A numeric cell: sorts by data-v, shows `text`.
std::string NumCell(int64_t v, const std::string& text) {
  return absl::StrCat("<td class=\"n\" data-v=\"", v, "\">", XmlEscape(text),
                      "</td>");
}
std::string NumCell(int64_t v) { return NumCell(v, Num(v)); }
std::string ExpCell(const ByteCounts& b) {
  return absl::StrFormat("<td class=\"n\" data-v=\"%.4f\">%.2fx</td>",
                         b.expansion(), b.expansion());
}
std::string TextCell(absl::string_view text, const char* cls = nullptr) {
  return absl::StrCat(cls ? absl::StrCat("<td class=\"", cls, "\">") : "<td>",
                      XmlEscape(text), "</td>");
}

constexpr char kStyle[] = R"(
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:1.5em;color:#222;max-width:1400px}
h1{font-size:1.5em}h2{margin-top:1.6em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;font-size:.85em;margin:.5em 0}
th,td{border:1px solid #ddd;padding:.25em .5em;text-align:left;vertical-align:top}
th{background:#f3f3f3;position:sticky;top:0}
table.sortable th{cursor:pointer;user-select:none}
th[aria-sort=ascending]::after{content:" \25B2"}th[aria-sort=descending]::after{content:" \25BC"}
td.n{text-align:right;font-variant-numeric:tabular-nums}
td.shape,code{font-family:"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:.95em}
td.shape{max-width:32em;overflow-wrap:anywhere}
.note{color:#555;font-size:.9em}
.filters{margin:.5em 0;display:flex;gap:1em;align-items:center;flex-wrap:wrap}
.waster{border:1px solid #ddd;border-radius:4px;padding:.5em 1em;margin:1em 0}
.waster h3{font-size:1em;margin:.2em 0}.waster svg{display:block}
.picture{overflow-x:auto}
.names{font-size:.85em;color:#333}
section.module h2{font-size:1.15em;border:none;margin-top:1em}
)";

constexpr char kScript[] = R"(
(function () {
  function cellKey(row, c) {
    var td = row.cells[c];
    if (td.hasAttribute('data-v')) return parseFloat(td.getAttribute('data-v'));
    return td.textContent.toLowerCase();
  }
  function sortTable(table, c, dir) {
    var body = table.tBodies[0];
    var keyed = Array.prototype.map.call(body.rows, function (r) {
      return {row: r, key: cellKey(r, c), i: +r.getAttribute('data-i')};
    });
    keyed.sort(function (a, b) {
      var r = a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
      return r * dir || a.i - b.i;
    });
    var frag = document.createDocumentFragment();
    keyed.forEach(function (k) { frag.appendChild(k.row); });
    body.appendChild(frag);
    var ths = table.tHead.rows[0].cells;
    for (var i = 0; i < ths.length; i++) ths[i].removeAttribute('aria-sort');
    ths[c].setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending');
    table.setAttribute('data-sorted', ths[c].getAttribute('data-key') + ':' + (dir > 0 ? 'asc' : 'desc'));
  }
  function columnOf(table, key) {
    var ths = table.tHead.rows[0].cells;
    for (var i = 0; i < ths.length; i++) if (ths[i].getAttribute('data-key') === key) return i;
    return -1;
  }
  Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, c) {
      th.addEventListener('click', function () {
        var now = th.getAttribute('aria-sort');
        var dir = now === 'ascending' ? -1 : now === 'descending' ? 1 : (th.classList.contains('num') ? -1 : 1);
        sortTable(table, c, dir);
      });
    });
  });
  var table = document.getElementById('instructions');
  if (!table) return;
  var text = document.getElementById('filter-text');
  var space = document.getElementById('filter-space');
  var padded = document.getElementById('filter-padded');
  var count = document.getElementById('shown-count');
  var rows = Array.prototype.slice.call(table.tBodies[0].rows);
  function filter() {
    var t = text.value.toLowerCase(), s = space.value, p = padded.checked, n = 0;
    rows.forEach(function (r) {
      var ok = (!t || r.getAttribute('data-text').indexOf(t) >= 0) &&
               (!s || r.getAttribute('data-space') === s) &&
               (!p || +r.getAttribute('data-wasted') > 0);
      r.hidden = !ok;
      if (ok) n++;
    });
    count.textContent = n + ' of ' + rows.length + ' rows shown';
  }
  text.addEventListener('input', filter);
  space.addEventListener('change', filter);
  padded.addEventListener('change', filter);
  var params = {};
  location.hash.replace(/^#/, '').split('&').forEach(function (kv) {
    var i = kv.indexOf('=');
    if (i > 0) params[decodeURIComponent(kv.slice(0, i))] = decodeURIComponent(kv.slice(i + 1));
  });
  if (params.filter) text.value = params.filter;
  if (params.space) space.value = params.space;
  if (params.padded === '1') padded.checked = true;
  if (params.sort) {
    var c = columnOf(table, params.sort);
    if (c >= 0) sortTable(table, c, params.dir === 'asc' ? 1 : -1);
  }
  filter();
})();
)";

struct RowRef {
  const ModuleReport* module;
  const ReportRow* row;
  int64_t index;  // over the whole report, text order
};

std::string ModuleName(const ModuleReport& m) {
  return m.name.empty() ? std::string("(no name)") : std::string(m.name);
}

// #allocates for files: one row per module, from its analyses.
void RenderAllocationLead(const Report& report, std::ostream& out) {
  std::ostringstream rows;
  for (const ModuleReport& m : report.modules) {
    const ModuleMemoryFacts& f = m.memory;
    const std::string name = ModuleName(m);
    if (m.module == nullptr) {
      RenderAllocationRowHtml(name, nullptr, nullptr,
                              "not analysed (a summary report)", rows);
    } else if (!f.scheduled) {
      RenderAllocationRowHtml(
          name, nullptr, nullptr,
          "not scheduled (XLA dumps scheduled modules after optimizations)",
          rows);
    } else if (f.memory != nullptr) {
      RenderAllocationRowHtml(name, f.memory.get(), nullptr, "", rows);
    } else if (f.platform == "tpu" && f.live_ranges != nullptr) {
      RenderAllocationRowHtml(name, nullptr, f.live_ranges.get(), "", rows);
    } else {
      RenderAllocationRowHtml(name, nullptr, nullptr, f.error, rows);
    }
  }
  out << "<p class=\"note\">per module, by XLA's buffer assignment: "
         "arguments + temp + outputs - aliases, as "
         "<code>compiled.memory_analysis()</code> reports them; where the "
         "allocation is not modelled (XLA:TPU) the live-range peak instead, "
         "which is not an allocation.</p>\n";
  RenderAllocationTableHtml(rows.str(), out);
}

// #allocates for a dump folder: the folder's table.
void RenderFolderLead(const DumpFolderTable& t, std::ostream& out) {
  out << "<p class=\"note\">dump folder <code>" << XmlEscape(t.folder)
      << "</code>: " << t.rows.size()
      << (t.rows.size() == 1 ? " module" : " modules") << " in " << t.files_read
      << (t.files_read == 1 ? " file" : " files") << ", " << t.skipped.size()
      << " skipped"
      << (t.failed.empty() ? std::string()
                           : absl::StrCat(", ", t.failed.size(), " failed"))
      << ". What XLA allocates is arguments + temp + outputs - aliases by its "
         "buffer assignment (scheduled GPU/CPU modules); buffers are the "
         "padded bytes of the values a module defines. Click a column header "
         "to sort.</p>\n"
      << "<table class=\"folder sortable\"><thead><tr>"
         "<th data-key=\"module\">module</th>"
         "<th data-key=\"allocated\" class=\"num\">XLA allocates</th>"
         "<th data-key=\"peak\" class=\"num\">live-range peak</th>"
         "<th data-key=\"buffers\" class=\"num\">buffers</th>"
         "<th data-key=\"padding\" class=\"num\">padding</th>"
         "<th data-key=\"expansion\" class=\"num\">expansion</th>"
         "<th data-key=\"instructions\" class=\"num\">instructions</th>"
         "<th data-key=\"file\">file</th></tr></thead>\n<tbody>\n";
  int64_t i = 0;
  for (const DumpFolderRow& r : t.rows) {
    out << "<tr class=\"folder-row\" data-i=\"" << i++ << "\">"
        << TextCell(r.module.empty() ? "(no name)" : r.module)
        << NumCell(r.allocated_bytes, r.allocated_text())
        << NumCell(r.peak_bytes, r.peak_text())
        << NumCell(r.buffer_padded_bytes, ShortBytes(r.buffer_padded_bytes))
        << NumCell(r.padding_bytes(), ShortBytes(r.padding_bytes()))
        << absl::StrFormat("<td class=\"n\" data-v=\"%.4f\">%.2fx</td>",
                           r.expansion(), r.expansion())
        << NumCell(r.instructions) << TextCell(r.file) << "</tr>\n";
  }
  out << "</tbody>\n</table>\n";
  for (const DumpFolderRow& r : t.rows) {
    if (r.peak_error.empty()) continue;
    out << "<p class=\"note\">no peak for "
        << XmlEscape(r.module.empty() ? "(no name)" : r.module) << " ("
        << XmlEscape(r.file) << "): " << XmlEscape(r.peak_error) << "</p>\n";
  }
  if (!t.skipped.empty()) {
    out << "<details><summary>" << t.skipped.size()
        << " files skipped</summary><ul>\n";
    for (const SkippedDumpFile& f : t.skipped) {
      out << "<li><code>" << XmlEscape(f.name)
          << "</code>: " << XmlEscape(f.reason) << "</li>\n";
    }
    out << "</ul></details>\n";
  }
  for (const FailedDumpFile& f : t.failed) {
    out << "<p class=\"note\">failed: <code>" << XmlEscape(f.name)
        << "</code>: " << XmlEscape(f.error) << "</p>\n";
  }
}

// A section that says why a module has no curve.
void NoCurve(const ModuleReport& m, absl::string_view why, std::ostream& out) {
  out << "<section class=\"module\"><h2>module " << XmlEscape(ModuleName(m))
      << "</h2>\n<p class=\"no-curve\">no memory curve: " << XmlEscape(why)
      << "</p></section>\n";
}

// #memory: the memory over the schedule of each module, from its analyses.
void RenderMemorySections(const Report& report, const HtmlOptions& options,
                          std::ostream& out) {
  out << "<div id=\"memory\">\n<p class=\"note\">live bytes at each step of "
         "the flattened schedule, as XLA's HloLiveRange counts them (values "
         "sharing a buffer count each); the peak is XLA's moment.</p>\n";
  int index = 0;
  int64_t shown = 0;
  for (const ModuleReport& m : report.modules) {
    if (shown++ >= options.max_memory_sections) {
      out << "<p class=\"note\">the memory of the first "
          << options.max_memory_sections << " of " << report.modules.size()
          << " modules is drawn; <code>hlolayout memory --html</code> draws "
             "any module's.</p>\n";
      break;
    }
    const ModuleMemoryFacts& f = m.memory;
    if (m.module == nullptr) {
      NoCurve(m, "not analysed (a summary report)", out);
    } else if (!f.scheduled) {
      NoCurve(m,
              "the module is not scheduled (no is_scheduled=true): its text "
              "order is not an execution order, so there is no live range "
              "to compute",
              out);
    } else if (f.memory != nullptr) {
      RenderModuleMemoryHtml(*f.memory, options.peak_values, index++, out,
                             m.module.get());
    } else if (f.live_ranges != nullptr) {
      // XLA:TPU: the table above says that its allocation is not modelled.
      RenderMemoryCurveHtml(*f.live_ranges, options.peak_values, index++, out);
    } else {
      NoCurve(m, f.error, out);
    }
  }
  out << "</div>\n";
}

// "a, b and 3 more" of at most 24 names.
std::string Names(const std::vector<std::string>& names) {
  constexpr size_t kShown = 24;
  std::string out;
  for (size_t i = 0; i < names.size() && i < kShown; ++i) {
    absl::StrAppend(&out, i > 0 ? ", " : "", names[i]);
  }
  if (names.size() > kShown) {
    absl::StrAppend(&out, " and ", names.size() - kShown, " more");
  }
  return out;
}

// #wasters: the top padding wasters over all modules, with pictures.
void RenderWasters(const Report& report, const HtmlOptions& options,
                   std::ostream& out) {
  std::vector<std::pair<const ModuleReport*, const PaddingWaster*>> wasters;
  for (const ModuleReport& m : report.modules) {
    for (const PaddingWaster& w : m.top_wasters) wasters.emplace_back(&m, &w);
  }
  std::stable_sort(
      wasters.begin(), wasters.end(), [](const auto& a, const auto& b) {
        return a.second->bytes.wasted_bytes() > b.second->bytes.wasted_bytes();
      });
  if (static_cast<int64_t>(wasters.size()) > options.top_wasters) {
    wasters.resize(std::max<int64_t>(0, options.top_wasters));
  }
  out << "<div id=\"wasters\">\n<p class=\"note\">buffers, each once: a "
         "buffer is the memory its values share (a loop's state, a "
         "conditional's result, an in-place update), named by the value "
         "defined first, with the other names of it beside it.</p>\n";
  if (wasters.empty()) out << "<p class=\"note\">no padding.</p>\n";
  for (const auto& [m, w] : wasters) {
    out << "<div class=\"waster\">\n<h3><code>%" << XmlEscape(w->BufferName())
        << "</code> <code>" << XmlEscape(w->shape_text) << "</code></h3>\n"
        << "<p>" << BytesWithTotal(w->bytes.wasted_bytes())
        << " of padding: " << BytesWithTotal(w->bytes.logical_bytes)
        << " logical, " << BytesWithTotal(w->bytes.padded_bytes) << " padded ("
        << absl::StrFormat("%.2fx", w->bytes.expansion()) << "); module "
        << XmlEscape(ModuleName(*m)) << ", computation "
        << XmlEscape(w->computation) << "</p>\n<ul>\n";
    for (const std::string& r : w->reasons) {
      out << "<li>" << XmlEscape(r) << "</li>\n";
    }
    out << "</ul>\n";
    if (!w->also_defined_by.empty()) {
      out << "<p class=\"names\">also defined by: "
          << XmlEscape(Names(w->also_defined_by)) << "</p>\n";
    }
    if (!w->aliases.empty()) {
      out << "<p class=\"names\">aliases: " << XmlEscape(Names(w->aliases))
          << "</p>\n";
    }
    absl::StatusOr<std::string> svg = PaddingPictureSvg(w->shape);
    if (svg.ok()) {
      out << "<div class=\"picture\">" << *svg << "</div>\n";
    } else {
      out << "<p class=\"note\">no picture: "
          << XmlEscape(svg.status().message()) << "</p>\n";
    }
    out << "</div>\n";
  }
  for (const ModuleReport& m : report.modules) {
    if (m.wasters_note.empty()) continue;
    out << "<p class=\"note\">module " << XmlEscape(ModuleName(m)) << ": "
        << XmlEscape(m.wasters_note) << "</p>\n";
  }
  out << "</div>\n";
}

// #totals: the sums of all instruction results, and the buffers.
void RenderTotals(const Report& report, std::ostream& out) {
  ModuleTotals all;
  ByteCounts buffers;
  int64_t buffer_values = 0;
  for (const ModuleReport& m : report.modules) {
    all.AddResults(m.totals);
    buffers.Add(m.totals.buffer_bytes);
    buffer_values += m.totals.buffer_values;
  }
  out << "<h2>All instruction results (not memory use)</h2>\n"
         "<p class=\"note\">every instruction's result in every computation "
         "summed, aliases and fused internals counted again: the base of the "
         "padding and expansion figures, not memory a program uses. The "
         "buffers the modules define (each value once) are a row "
         "below.</p>\n<table id=\"totals\">\n<tbody>\n";
  auto total_row = [&](absl::string_view name, const std::string& value) {
    out << "<tr><th>" << name << "</th><td class=\"n\">" << XmlEscape(value)
        << "</td></tr>\n";
  };
  total_row("modules", Num(report.modules.size()));
  total_row("computations", Num(all.computations));
  total_row("instructions", Num(all.instructions));
  total_row("array leaves", Num(all.array_leaves));
  if (all.unsized_array_leaves > 0) {
    total_row("unsized array leaves", Num(all.unsized_array_leaves));
  }
  total_row("logical bytes of all results",
            BytesWithTotal(all.bytes.logical_bytes));
  total_row("padded bytes of all results",
            BytesWithTotal(all.bytes.padded_bytes));
  total_row("padding bytes of all results",
            BytesWithTotal(all.bytes.wasted_bytes()));
  total_row("expansion", absl::StrFormat("%.2fx", all.bytes.expansion()));
  total_row("buffers the modules define (padded bytes, each value once)",
            absl::StrCat(BytesWithTotal(buffers.padded_bytes), " in ",
                         buffer_values, " values"));
  if (all.bytes.overflow) total_row("overflow", "a sum passed INT64_MAX");
  if (!report.errors.empty()) total_row("errors", Num(report.errors.size()));
  out << "</tbody>\n</table>\n";
}

// #spaces and #modules.
void RenderSpacesAndModules(const Report& report, const HtmlOptions& options,
                            std::ostream& out) {
  std::map<int64_t, MemorySpaceTotals> spaces;
  for (const ModuleReport& m : report.modules) {
    for (const MemorySpaceTotals& s : m.memory_spaces) {
      MemorySpaceTotals& t = spaces[s.memory_space];
      t.memory_space = s.memory_space;
      t.AddResults(s);
    }
  }
  out << "<h2>Memory spaces</h2>\n<table id=\"spaces\" class=\"sortable\">\n"
         "<thead><tr><th data-key=\"space\">space</th>"
         "<th data-key=\"name\">name</th>"
         "<th data-key=\"instructions\" class=\"num\">instructions</th>"
         "<th data-key=\"leaves\" class=\"num\">array leaves</th>"
         "<th data-key=\"logical\" class=\"num\">logical bytes</th>"
         "<th data-key=\"padded\" class=\"num\">padded bytes</th>"
         "<th data-key=\"expansion\" class=\"num\">expansion</th></tr></thead>"
         "\n<tbody>\n";
  int64_t i = 0;
  for (const auto& [space, t] : spaces) {
    out << "<tr data-i=\"" << i++ << "\">" << TextCell(SpaceKey(space))
        << TextCell(MemorySpaceName(space)) << NumCell(t.instructions)
        << NumCell(t.array_leaves) << NumCell(t.bytes.logical_bytes)
        << NumCell(t.bytes.padded_bytes) << ExpCell(t.bytes) << "</tr>\n";
  }
  out << "</tbody>\n</table>\n";
  const int64_t nmod = static_cast<int64_t>(report.modules.size());
  out << "<h2>Modules</h2>\n";
  if (nmod > options.max_modules) {
    out << "<p class=\"note\">showing the first " << options.max_modules
        << " of " << nmod << " modules.</p>\n";
  }
  out << "<table id=\"modules\" class=\"sortable\">\n"
         "<thead><tr><th data-key=\"module\">module</th>"
         "<th data-key=\"entry\">entry computation</th>"
         "<th data-key=\"computations\" class=\"num\">computations</th>"
         "<th data-key=\"instructions\" class=\"num\">instructions</th>"
         "<th data-key=\"buffers\" class=\"num\">buffers (padded bytes)</th>"
         "<th data-key=\"logical\" class=\"num\">all results: logical "
         "bytes</th>"
         "<th data-key=\"padded\" class=\"num\">all results: padded bytes</th>"
         "<th data-key=\"expansion\" class=\"num\">expansion</th></tr></thead>"
         "\n<tbody>\n";
  for (int64_t k = 0; k < std::min(nmod, options.max_modules); ++k) {
    const ModuleReport& m = report.modules[k];
    out << "<tr data-i=\"" << k << "\">"
        << TextCell(m.name.empty() ? "(unnamed)" : m.name)
        << TextCell(m.entry_computation) << NumCell(m.totals.computations)
        << NumCell(m.totals.instructions)
        << NumCell(m.totals.buffer_bytes.padded_bytes)
        << NumCell(m.totals.bytes.logical_bytes)
        << NumCell(m.totals.bytes.padded_bytes) << ExpCell(m.totals.bytes)
        << "</tr>\n";
  }
  out << "</tbody>\n</table>\n";
}

// #instructions, with its filters.
void RenderInstructions(const Report& report, const HtmlOptions& options,
                        std::ostream& out) {
  std::vector<RowRef> rows;
  for (const ModuleReport& m : report.modules) {
    for (const ReportRow& r : m.rows) {
      rows.push_back({&m, &r, static_cast<int64_t>(rows.size())});
    }
  }
  const int64_t total_rows = static_cast<int64_t>(rows.size());
  const bool capped = total_rows > options.max_rows;
  if (capped) {
    std::stable_sort(
        rows.begin(), rows.end(), [](const RowRef& a, const RowRef& b) {
          return a.row->bytes.padded_bytes > b.row->bytes.padded_bytes;
        });
    rows.resize(std::max<int64_t>(0, options.max_rows));
    std::sort(rows.begin(), rows.end(), [](const RowRef& a, const RowRef& b) {
      return a.index < b.index;
    });
  }
  out << "<h2>Instructions</h2>\n<p id=\"cap-note\" class=\"note\">";
  if (options.summary) {
    out << "left out (--summary).";
    rows.clear();
  } else if (capped) {
    out << "showing the " << rows.size() << " instructions with the most "
        << "padded bytes out of " << total_rows
        << " (the page is capped; <code>hlolayout report --sort=padded</code> "
           "or <code>--json</code> lists them all).";
  } else {
    out << "all " << total_rows << " instructions.";
  }
  out << " Click a column header to sort.</p>\n";
  std::map<std::string, int> space_keys;
  for (const RowRef& r : rows) space_keys[SpaceKey(r.row->memory_space)]++;
  out << "<div class=\"filters\"><label>filter <input id=\"filter-text\" "
         "type=\"search\" placeholder=\"name, opcode or computation\"></label>"
         "<label>memory space <select id=\"filter-space\"><option "
         "value=\"\">any</option>";
  for (const auto& [key, n] : space_keys) {
    out << "<option value=\"" << XmlEscape(key) << "\">" << XmlEscape(key)
        << " (" << n << ")</option>";
  }
  out << "</select></label><label><input id=\"filter-padded\" "
         "type=\"checkbox\"> padded only</label><span id=\"shown-count\" "
         "class=\"note\"></span></div>\n";
  out << "<table id=\"instructions\" class=\"sortable\">\n<thead><tr>"
         "<th data-key=\"module\">module</th>"
         "<th data-key=\"computation\">computation</th>"
         "<th data-key=\"name\">instruction</th>"
         "<th data-key=\"opcode\">opcode</th>"
         "<th data-key=\"shape\">shape</th>"
         "<th data-key=\"space\">memory</th>"
         "<th data-key=\"logical\" class=\"num\">logical bytes</th>"
         "<th data-key=\"padded\" class=\"num\">padded bytes</th>"
         "<th data-key=\"expansion\" class=\"num\">expansion</th>"
         "<th data-key=\"wasted\" class=\"num\">padding bytes</th>"
         "</tr></thead>\n<tbody>\n";
  for (const RowRef& r : rows) {
    const ReportRow& row = *r.row;
    const std::string text = absl::AsciiStrToLower(
        absl::StrCat(row.name, " ", row.opcode, " ", row.computation));
    out << "<tr class=\"row\" data-i=\"" << r.index << "\" data-space=\""
        << XmlEscape(SpaceKey(row.memory_space)) << "\" data-wasted=\""
        << row.bytes.wasted_bytes() << "\" data-text=\"" << XmlEscape(text)
        << "\">" << TextCell(r.module->name) << TextCell(row.computation)
        << TextCell(absl::StrCat(row.is_root ? "ROOT %" : "%", row.name))
        << TextCell(row.opcode) << TextCell(row.shape_text, "shape")
        << TextCell(SpaceKey(row.memory_space))
        << NumCell(row.bytes.logical_bytes) << NumCell(row.bytes.padded_bytes)
        << ExpCell(row.bytes) << NumCell(row.bytes.wasted_bytes()) << "</tr>\n";
  }
  out << "</tbody>\n</table>\n";
}

}  // namespace

void RenderReportHtml(const Report& report, const HtmlOptions& options,
                      std::ostream& out) {
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
         "charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width\">\n"
         "<title>hlolayout memory and padding report</title>\n<style>"
      << kStyle << "</style>\n</head>\n<body>\n"
      << "<h1>Memory and padding report</h1>\n";
  out << "<p class=\"note\">inputs: "
      << XmlEscape(options.inputs.empty() ? std::string("-")
                                          : absl::StrJoin(options.inputs, ", "))
      << ". Bytes are exact padded bytes (every tile level, L(n) tail "
         "alignment, E(n) packing).</p>\n";
  // What XLA will allocate, first: the figure that decides whether a
  // program fits; the memory over the schedule right under it.
  out << "<h2>What XLA will allocate</h2>\n<div id=\"allocates\">\n";
  if (options.folder != nullptr) {
    RenderFolderLead(*options.folder, out);
  } else {
    RenderAllocationLead(report, out);
  }
  out << "</div>\n<h2>Memory over the schedule</h2>\n";
  RenderMemorySections(report, options, out);
  out << "<h2>Top padding wasters</h2>\n";
  RenderWasters(report, options, out);
  RenderTotals(report, out);
  RenderSpacesAndModules(report, options, out);
  RenderInstructions(report, options, out);
  if (!report.errors.empty()) {
    out << "<h2>Errors</h2>\n<pre>";
    for (const std::string& e : report.errors) out << XmlEscape(e) << "\n";
    out << "</pre>\n";
  }
  out << "<script>" << kScript << "</script>\n</body>\n</html>\n";
}

}  // namespace hlolayout

#include "hlolayout/views/memory_html.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "hlolayout/draw/svg.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/hlo/source_location.h"
#include "hlolayout/memory/dump_memory.h"
#include "hlolayout/memory/tpu_memory.h"
#include "hlolayout/util/bytes.h"
#include "hlolayout/views/allocation_text.h"
#include "hlolayout/views/tpu_memory_text.h"

namespace hlolayout {
namespace {

// `what`: "module NAME" or a file name.
void NoCurve(absl::string_view what, absl::string_view why, std::ostream& out) {
  out << "<section class=\"module\"><h2>"
      << draw::XmlEscape(what.empty() ? "(no name)" : what)
      << "</h2>\n<p class=\"no-curve\">no memory curve: "
      << draw::XmlEscape(why) << "</p></section>\n";
}

// The bytes XLA's heap holds at schedule time t: the union of the slots
// of the values live then (a value handing its slot to a user at t counts
// once).
int64_t HeapBytesAt(const std::vector<HeapBlock>& blocks, int64_t t,
                    std::vector<std::pair<int64_t, int64_t>>* scratch) {
  scratch->clear();
  for (const HeapBlock& b : blocks) {
    if (b.start <= t && t <= b.end && b.size > 0) {
      scratch->emplace_back(b.offset, b.offset + b.size);
    }
  }
  std::sort(scratch->begin(), scratch->end());
  int64_t bytes = 0, covered = 0;
  for (const auto& [from, to] : *scratch) {
    const int64_t start = std::max(from, covered);
    if (to > start) bytes += to - start;
    covered = std::max(covered, to);
  }
  return bytes;
}

// What a heap box stands for, in words: the value's name, shape, bytes,
// op_name and source line.
struct HeapLabel {
  std::string name;   // "fusion.3{1}"
  std::string shape;  // "f32[4,256]{1,0}"
  std::string op_name;
  std::string source;  // "train.py:12" or ""
};

HeapLabel LabelOf(const ModuleMemory& m, const HeapBlock& h,
                  const HloSourceLocations& locations) {
  HeapLabel l;
  const LiveValue& v = m.live_ranges.values[h.value];
  if (v.instruction < 0) {
    l.name = "?";
    return l;
  }
  const ScheduledInstruction& in = m.live_ranges.instructions[v.instruction];
  l.name = absl::StrCat(in.name(), ShapeIndexString(v.index()));
  if (v.shape() != nullptr) l.shape = v.shape()->ToString(true);
  l.op_name = std::string(in.op_name());
  l.source = locations.Of(in.metadata());
  return l;
}

constexpr int kHeapWidth = 800, kHeapHeight = 260;

// The first step at which the heap holds the most bytes, and those bytes.
std::pair<int64_t, int64_t> HeapPeakStep(const std::vector<HeapBlock>& heap,
                                         int64_t end) {
  std::vector<std::pair<int64_t, int64_t>> scratch;
  int64_t peak_time = 0, peak_bytes = -1;
  for (int64_t t = 0; t < end; ++t) {
    const int64_t bytes = HeapBytesAt(heap, t, &scratch);
    if (bytes > peak_bytes) {
      peak_bytes = bytes;
      peak_time = t;
    }
  }
  return {peak_time, peak_bytes};
}

// The `count` largest boxes, numbered 1, 2, ... in this order (ties: lower
// offset, then earlier start, first).
std::vector<size_t> LargestBlocks(const std::vector<HeapBlock>& heap,
                                  size_t count) {
  std::vector<size_t> order;
  for (size_t i = 0; i < heap.size(); ++i) {
    if (heap[i].size > 0) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    const HeapBlock &p = heap[x], &q = heap[y];
    if (p.size != q.size) return p.size > q.size;
    if (p.offset != q.offset) return p.offset < q.offset;
    return p.start < q.start;
  });
  if (order.size() > count) order.resize(count);
  return order;
}

// Schedule time and heap offset as picture coordinates.
struct HeapAxes {
  int64_t end;  // the schedule's length, at least 1
  int64_t top;  // the temp allocation's size, at least 1
  double x(double t) const {
    return 50 + kHeapWidth * t / static_cast<double>(end);
  }
  double y(double offset) const {
    return kHeapHeight - kHeapHeight * offset / static_cast<double>(top);
  }
};

// One value's box with its hover title, numbered `key` (0: none).
void RenderHeapBlock(const HeapBlock& h, const HeapLabel& label, int key,
                     const char* fill, const HeapAxes& axes,
                     std::ostream& out) {
  const double x0 = axes.x(static_cast<double>(h.start));
  const double x1 = axes.x(static_cast<double>(h.end + 1));
  const double y1 = axes.y(static_cast<double>(h.offset));
  const double y0 = axes.y(static_cast<double>(h.offset + h.size));
  const double w = std::max(0.5, x1 - x0), ht = std::max(0.5, y1 - y0);
  std::string title = absl::StrCat(label.name, ": ");
  if (!label.shape.empty()) absl::StrAppend(&title, label.shape, ", ");
  absl::StrAppend(&title, h.size, " bytes at offset ", h.offset, ", live ",
                  h.start, "-", h.end);
  if (!label.op_name.empty()) absl::StrAppend(&title, "; ", label.op_name);
  if (!label.source.empty()) absl::StrAppend(&title, "; ", label.source);
  out << absl::StrFormat(
             "<rect class=\"block\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
             "height=\"%.1f\" fill=\"%s\" stroke=\"#333\" "
             "stroke-width=\"0.5\"",
             x0, y0, w, ht, fill)
      << " data-value=\"" << draw::XmlEscape(label.name) << "\"";
  if (key > 0) out << " data-key=\"" << key << "\"";
  out << "><title>" << draw::XmlEscape(title) << "</title></rect>\n";
  if (key > 0 && w >= 12 && ht >= 11) {
    out << absl::StrFormat(
        "<text class=\"block-key\" x=\"%.1f\" y=\"%.1f\" font-size=\"10\" "
        "text-anchor=\"middle\" pointer-events=\"none\">%d</text>\n",
        x0 + w / 2, y0 + ht / 2 + 3.5, key);
  }
}

// The peak's dashed line and the axes' labels, closing the picture.
void RenderHeapAxes(const HeapAxes& axes, int64_t peak_time,
                    std::ostream& out) {
  const double px = axes.x(static_cast<double>(peak_time) + 0.5);
  out << absl::StrFormat(
      "<line class=\"heap-peak\" x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" "
      "y2=\"%d\" stroke=\"#c02020\" stroke-dasharray=\"4 3\"/>\n",
      px, px, kHeapHeight);
  out << absl::StrFormat(
      "<text x=\"%.1f\" y=\"12\" font-size=\"11\" fill=\"#c02020\">"
      "most bytes, time %d</text>\n",
      px + 3, peak_time);
  out << "<text x=\"53\" y=\"11\" font-size=\"10\">offset " << axes.top
      << "</text><text x=\"53\" y=\"" << kHeapHeight - 3
      << "\" font-size=\"10\">offset 0</text><text x=\"50\" y=\""
      << kHeapHeight + 20 << "\" font-size=\"10\">time 0</text><text x=\""
      << kHeapWidth << "\" y=\"" << kHeapHeight + 20
      << "\" font-size=\"10\">time " << axes.end - 1 << "</text>\n</svg>\n";
}

// The legend of the numbered boxes, and how many are not numbered.
void RenderHeapLegend(const ModuleMemory& m, const HloSourceLocations& where,
                      const std::vector<size_t>& order, std::ostream& out) {
  const std::vector<HeapBlock>& heap = m.buffers.heap;
  out << "<table class=\"heap-legend\"><tr><th>#</th><th>value</th>"
         "<th>shape</th><th>bytes</th><th>offset</th><th>live</th>"
         "<th>op_name</th><th>source</th></tr>\n";
  for (size_t n = 0; n < order.size(); ++n) {
    const HeapBlock& h = heap[order[n]];
    const HeapLabel label = LabelOf(m, h, where);
    out << "<tr class=\"heap-value\"><td>" << n + 1 << "</td><td>"
        << draw::XmlEscape(label.name) << "</td><td>"
        << draw::XmlEscape(label.shape) << "</td><td>" << h.size << "</td><td>"
        << h.offset << "</td><td>" << h.start << "-" << h.end << "</td><td>"
        << draw::XmlEscape(label.op_name) << "</td><td>"
        << draw::XmlEscape(label.source) << "</td></tr>\n";
  }
  out << "</table>\n";
  if (heap.size() > order.size()) {
    out << "<p class=\"note\">the " << order.size() << " largest of "
        << heap.size() << " heap values; every box names its value on "
        << "hover.</p>\n";
  }
}

// The temp allocation: offset (up) against schedule time (right), one
// rectangle per value of the heap, the moment of its most bytes marked.
// Every box has a hover title (name, shape, bytes, offset, live range,
// op_name, source line); the `kLegend` largest carry a number that the
// legend under the picture explains.
void RenderHeapPicture(const ModuleMemory& m, const HloSourceLocations& where,
                       int index, std::ostream& out) {
  constexpr size_t kLegend = 10;
  const BufferAssignment& b = m.buffers;
  const int64_t temp = b.temp_allocation();
  if (b.heap.empty() || temp < 0) {
    out << "<p class=\"no-heap\">No value goes to XLA's heap: every buffer "
           "has an allocation of its own.</p>\n";
    return;
  }
  const HeapAxes axes{std::max<int64_t>(m.live_ranges.schedule_end, 1),
                      std::max<int64_t>(b.allocations[temp].size, 1)};
  const auto [peak_time, peak_bytes] = HeapPeakStep(b.heap, axes.end);
  const std::vector<size_t> order = LargestBlocks(b.heap, kLegend);
  std::vector<int> key(b.heap.size(), 0);
  for (size_t k = 0; k < order.size(); ++k) key[order[k]] = k + 1;

  out << "<p>The temp allocation (" << draw::XmlEscape(BytesWithUnit(axes.top))
      << "): XLA's heap of " << b.heap.size() << " values"
      << (b.heap_offset > 0 ? absl::StrCat(" at offset ", b.heap_offset,
                                           " (tuple tables first)")
                            : std::string())
      << ", each value a box from its first to its last step at its "
         "offset (hover for its name, shape, bytes and source line; the "
         "largest are numbered, see the table below). The most it holds at "
         "one step: <b>"
      << draw::XmlEscape(BytesWithUnit(peak_bytes)) << "</b> at time "
      << peak_time << ".</p>\n";
  out << "<svg id=\"heap-" << index << "\" width=\"" << kHeapWidth + 60
      << "\" height=\"" << kHeapHeight + 30 << "\" viewBox=\"0 0 "
      << kHeapWidth + 60 << " " << kHeapHeight + 30
      << "\" xmlns=\"http://www.w3.org/2000/svg\">\n"
      << "<rect x=\"50\" y=\"0\" width=\"" << kHeapWidth << "\" height=\""
      << kHeapHeight << "\" fill=\"#f8f8f8\" stroke=\"#999\"/>\n";
  static const char* const kFills[] = {"#7fa7d9", "#9fcf8f", "#e3b36b",
                                       "#c98fc9", "#8fcfcf", "#d98f8f"};
  int64_t k = 0;
  for (size_t i = 0; i < b.heap.size(); ++i) {
    const HeapBlock& h = b.heap[i];
    if (h.size <= 0) continue;
    RenderHeapBlock(h, LabelOf(m, h, where), key[i], kFills[k++ % 6], axes,
                    out);
  }
  RenderHeapAxes(axes, peak_time, out);
  RenderHeapLegend(m, where, order, out);
}

// The curve of `curve` (live bytes per schedule time) with `peak` marked
// and its values listed; `what` names the peak, HTML as written ("Peak (XLA's
// moment)").
void RenderCurve(const MemoryAnalysis& a, const std::vector<int64_t>& curve,
                 const MemoryPeak& peak, absl::string_view what, int64_t top,
                 int index, std::ostream& out);

void RenderCurve(const MemoryAnalysis& a, int64_t top, int index,
                 std::ostream& out) {
  RenderCurve(a, a.curve, a.peak, "Peak (XLA's moment)", top, index, out);
}

}  // namespace

void RenderModuleMemoryHtml(const ModuleMemory& m, int64_t top, int index,
                            std::ostream& out, const HloModule* module) {
  const MemoryAnalysis& a = m.live_ranges;
  const BufferAssignment& b = m.buffers;
  const XlaMemoryStats& s = b.stats;
  const int64_t allocated = s.allocated_bytes();
  out << "<section class=\"module\"><h2>module "
      << draw::XmlEscape(a.module_name.empty() ? "(no name)" : a.module_name)
      << "</h2>\n<p class=\"allocates\">" << XlaPlatformTitle(b.platform)
      << " will allocate <b>" << draw::XmlEscape(BytesWithUnit(allocated))
      << "</b>: arguments "
      << draw::XmlEscape(BytesWithUnit(s.argument_size_in_bytes)) << " + temp "
      << draw::XmlEscape(BytesWithUnit(s.temp_size_in_bytes)) << " + outputs "
      << draw::XmlEscape(BytesWithUnit(s.output_size_in_bytes)) << " - aliases "
      << draw::XmlEscape(BytesWithUnit(s.alias_size_in_bytes))
      << ". Live-range peak beside it (the bytes of the values live at "
         "XLA's peak moment, values sharing a buffer counted each; not an "
         "allocation): "
      << draw::XmlEscape(BytesWithUnit(a.peak.bytes)) << " at time "
      << a.peak.time << ".</p>\n";
  // Memory over the schedule first (what XProf's memory viewer opens
  // with), then the figures and XLA's heap.
  RenderCurve(a, top, index, out);
  out << "<table class=\"memory-analysis\"><tr><th>"
         "compiled.memory_analysis()</th><th>bytes</th></tr>\n";
  const std::pair<const char*, int64_t> rows[] = {
      {"argument_size_in_bytes", s.argument_size_in_bytes},
      {"output_size_in_bytes", s.output_size_in_bytes},
      {"alias_size_in_bytes", s.alias_size_in_bytes},
      {"temp_size_in_bytes", s.temp_size_in_bytes},
      {"peak_memory_in_bytes", s.peak_memory_in_bytes}};
  for (const auto& [name, bytes] : rows) {
    out << "<tr><td>" << name << "</td><td>"
        << draw::XmlEscape(BytesWithUnit(bytes)) << "</td></tr>\n";
  }
  out << "</table>\n";
  const HloSourceLocations where(module != nullptr ? module->header
                                                   : HloModuleHeader());
  RenderHeapPicture(m, where, index, out);
  out << "</section>\n";
}

// One module: the live bytes over the schedule as an SVG polyline (at most
// 2000 points, each the largest value of its stretch), XLA's peak moment
// marked, and the values live there.
void RenderMemoryCurveHtml(const MemoryAnalysis& a, int64_t top, int index,
                           std::ostream& out) {
  out << "<section class=\"module\"><h2>module "
      << draw::XmlEscape(a.module_name.empty() ? "(no name)" : a.module_name)
      << "</h2>\n";
  RenderCurve(a, top, index, out);
  out << "</section>\n";
}

namespace {
void RenderCurve(const MemoryAnalysis& a, const std::vector<int64_t>& curve,
                 const MemoryPeak& peak, absl::string_view what, int64_t top,
                 int index, std::ostream& out) {
  constexpr int kWidth = 800, kHeight = 220;
  const int64_t n = static_cast<int64_t>(curve.size());
  int64_t highest = 1;
  for (int64_t b : curve) highest = std::max(highest, b);
  out << "<p>Live ranges: " << a.schedule_end << " scheduled instructions, "
      << a.values.size() << " values. " << what << ": <b>" << peak.bytes
      << " bytes</b> at time " << peak.time;
  if (peak.time < n) {
    out << ", " << draw::XmlEscape(a.instructions[peak.time].name());
    if (!a.instructions[peak.time].op_name().empty()) {
      out << " (" << draw::XmlEscape(a.instructions[peak.time].op_name())
          << ")";
    }
  }
  out << ". Highest point of the curve: " << highest << " bytes.</p>\n";
  out << "<svg id=\"curve-" << index << "\" width=\"" << kWidth + 60
      << "\" height=\"" << kHeight + 30 << "\" viewBox=\"0 0 " << kWidth + 60
      << " " << kHeight + 30 << "\" xmlns=\"http://www.w3.org/2000/svg\">\n"
      << "<rect x=\"50\" y=\"0\" width=\"" << kWidth << "\" height=\""
      << kHeight << "\" fill=\"#f8f8f8\" stroke=\"#999\"/>\n"
      << "<polyline class=\"curve\" fill=\"none\" stroke=\"#2060c0\" "
         "stroke-width=\"1.5\" points=\"";
  const int64_t points = std::min<int64_t>(n, 2000);
  for (int64_t i = 0; i < points; ++i) {
    const int64_t from = i * n / points, to = (i + 1) * n / points;
    int64_t bytes = 0;
    for (int64_t t = from; t < std::max(to, from + 1) && t < n; ++t) {
      bytes = std::max(bytes, curve[t]);
    }
    const double x =
        50 +
        (points <= 1 ? 0.0 : kWidth * static_cast<double>(i) / (points - 1));
    const double y = kHeight - kHeight * static_cast<double>(bytes) / highest;
    out << absl::StrFormat("%.1f,%.1f ", x, y);
  }
  out << "\"/>\n";
  if (n > 0) {
    const double px =
        50 + (n <= 1 ? 0.0 : kWidth * static_cast<double>(peak.time) / (n - 1));
    out << absl::StrFormat(
        "<line class=\"peak\" x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"%d\" "
        "stroke=\"#c02020\" stroke-dasharray=\"4 3\"/>\n",
        px, px, kHeight);
    out << absl::StrFormat(
        "<text x=\"%.1f\" y=\"12\" font-size=\"11\" fill=\"#c02020\">"
        "peak, time %d</text>\n",
        px + 3, peak.time);
  }
  // The byte scale inside the plot's left edge (long numbers do not fit
  // in the margin).
  out << "<text x=\"53\" y=\"11\" font-size=\"10\">" << highest
      << " B</text><text x=\"53\" y=\"" << kHeight - 3
      << "\" font-size=\"10\">0 B</text><text x=\"50\" y=\"" << kHeight + 20
      << "\" font-size=\"10\">time 0</text><text x=\"" << kWidth << "\" y=\""
      << kHeight + 20 << "\" font-size=\"10\">time "
      << std::max<int64_t>(n - 1, 0) << "</text>\n</svg>\n";
  out << "<table class=\"live\"><tr><th>value</th><th>shape</th>"
         "<th>bytes</th><th>share</th><th>padding</th><th>live</th></tr>\n";
  int64_t shown = 0;
  for (int64_t id : peak.values) {
    if (top > 0 && shown++ >= top) break;
    const LiveValue& v = a.values[id];
    out << "<tr class=\"value\"><td>"
        << draw::XmlEscape(a.instructions[v.instruction].name())
        << ShapeIndexString(v.index()) << "</td><td>"
        << draw::XmlEscape(v.shape() != nullptr ? v.shape()->ToString(true)
                                                : "")
        << "</td><td>" << v.bytes() << "</td><td>"
        << PercentOf(v.bytes(), peak.bytes) << "</td><td>"
        << (v.shape() != nullptr && !v.shape()->IsTuple()
                ? v.bytes() - v.logical_bytes()
                : 0)
        << "</td><td>" << v.start << "-" << v.end << "</td></tr>\n";
  }
  out << "</table>\n";
}
}  // namespace

namespace {

// One row of the lead table (RenderAllocationTableHtml): a module (or a
// file) and what XLA will allocate for it, or why that is not known.
void LeadRow(absl::string_view what, const ModuleMemory* memory,
             const MemoryAnalysis* live_ranges_only, absl::string_view why,
             std::ostream& out) {
  auto cell = [&](const std::string& text) {
    out << "<td>" << draw::XmlEscape(text) << "</td>";
  };
  out << "<tr class=\"lead\">";
  cell(std::string(what.empty() ? "(no name)" : what));
  if (memory != nullptr) {
    const XlaMemoryStats& s = memory->buffers.stats;
    out << "<td class=\"n allocated\" data-v=\"" << s.allocated_bytes()
        << "\"><b>" << draw::XmlEscape(BytesWithUnit(s.allocated_bytes()))
        << "</b></td>";
    for (int64_t v : {s.argument_size_in_bytes, s.temp_size_in_bytes,
                      s.output_size_in_bytes, s.alias_size_in_bytes,
                      s.peak_memory_in_bytes, memory->live_ranges.peak.bytes}) {
      out << "<td class=\"n\" data-v=\"" << v << "\">"
          << draw::XmlEscape(BytesWithUnit(v)) << "</td>";
    }
    cell(absl::StrCat(XlaPlatformTitle(memory->buffers.platform),
                      " buffer assignment"));
  } else if (live_ranges_only != nullptr) {
    out << "<td>not modelled (XLA:TPU)</td><td></td><td></td><td></td>"
           "<td></td><td></td>"
        << "<td class=\"n\" data-v=\"" << live_ranges_only->peak.bytes << "\">"
        << draw::XmlEscape(BytesWithUnit(live_ranges_only->peak.bytes))
        << "</td>";
    cell(
        "XLA:TPU's buffer assignment is not modelled: the live-range peak is "
        "shown instead (the values live at the busiest moment; not an "
        "allocation)");
  } else {
    out << "<td>not known</td><td></td><td></td><td></td><td></td><td></td>"
           "<td></td>";
    cell(std::string(why));
  }
  out << "</tr>\n";
}

}  // namespace

void RenderAllocationRowHtml(absl::string_view what, const ModuleMemory* memory,
                             const MemoryAnalysis* live_ranges_only,
                             absl::string_view why, std::ostream& out) {
  LeadRow(what, memory, live_ranges_only, why, out);
}

namespace {

std::string ModuleTitle(const HloModule& module) {
  return module.header.name.empty() ? "(no name)"
                                    : std::string(module.header.name);
}

}  // namespace

void RenderAllocationTableHtml(absl::string_view rows, std::ostream& out) {
  out << "<table class=\"allocation-lead\"><thead><tr><th>module</th>"
         "<th>XLA will allocate</th><th>= arguments</th><th>+ temp</th>"
         "<th>+ outputs</th><th>- aliases</th>"
         "<th>memory_analysis() peak</th><th>live-range peak</th>"
         "<th>from</th></tr></thead>\n<tbody>\n"
      << rows << "</tbody></table>\n";
}

void RenderMemorySectionsHtml(absl::string_view text,
                              absl::string_view file_name, int64_t top,
                              int* index, std::ostream& out,
                              std::ostream* lead) {
  // Without a schedule anywhere in the text there is nothing to analyse:
  // say so without reading the whole dump into memory (report --html on
  // large unscheduled dumps stays as cheap as before).
  if (text.find("is_scheduled=true") == absl::string_view::npos) {
    const char kWhy[] =
        "no module here is scheduled (no is_scheduled=true): the text "
        "order is not an execution order, so there is no live range to "
        "compute";
    NoCurve(file_name, kWhy, out);
    if (lead != nullptr) {
      LeadRow(file_name, nullptr, nullptr,
              "not scheduled (XLA dumps scheduled modules after "
              "optimizations)",
              *lead);
    }
    return;
  }
  HloReadOptions options;
  options.file_name = file_name;
  absl::StatusOr<std::vector<HloModule>> modules =
      ReadHloModules(text, options);
  if (!modules.ok()) {
    NoCurve(file_name, modules.status().message(), out);
    if (lead != nullptr) {
      LeadRow(file_name, nullptr, nullptr, modules.status().message(), *lead);
    }
    return;
  }
  for (const HloModule& module : *modules) {
    const std::string title = ModuleTitle(module);
    absl::StatusOr<DumpModuleMemory> analysed = AnalyzeDumpModule(
        module, ChooseDumpPlatform(module, file_name, absl::nullopt));
    if (!analysed.ok()) {
      NoCurve(absl::StrCat("module ", title), analysed.status().message(), out);
      if (lead != nullptr) {
        LeadRow(title, nullptr, nullptr, analysed.status().message(), *lead);
      }
      continue;
    }
    if (!analysed->has_allocations()) {
      // XLA:TPU: the live ranges only (its allocations are not modelled).
      out << "<p>"
          << draw::XmlEscape(TpuAllocationText(analysed->live_ranges()))
          << "</p>\n";
      RenderMemoryCurveHtml(analysed->live_ranges(), top, (*index)++, out);
      if (lead != nullptr) {
        LeadRow(title, nullptr, &analysed->live_ranges(), "", *lead);
      }
      continue;
    }
    const ModuleMemory* memory = &analysed->memory;
    RenderModuleMemoryHtml(*memory, top, (*index)++, out, &module);
    if (lead != nullptr) LeadRow(title, &*memory, nullptr, "", *lead);
  }
}

namespace {

// The live bytes of memory space `space` at each schedule time.
std::vector<int64_t> SpaceCurve(const MemoryAnalysis& a, int64_t space) {
  const int64_t n = static_cast<int64_t>(a.curve.size());
  std::vector<int64_t> delta(n + 1, 0);
  for (const LiveValue& v : a.values) {
    if (v.memory_space() != space || v.start >= n) continue;
    delta[v.start] += v.bytes();
    delta[std::min<int64_t>(v.end + 1, n)] -= v.bytes();
  }
  std::vector<int64_t> curve(n, 0);
  int64_t live = 0;
  for (int64_t t = 0; t < n; ++t) curve[t] = live += delta[t];
  return curve;
}

std::string Cell(const std::optional<int64_t>& bytes) {
  return bytes.has_value() ? draw::XmlEscape(BytesWithUnit(*bytes)) : "";
}

void RenderTpuSpaces(const TpuMemory& t, std::ostream& out) {
  out << "<table class=\"tpu-spaces\"><tr><th>memory space</th>"
         "<th>XLA:TPU's name</th><th>allocated</th><th>allocations</th>"
         "<th>of</th><th>left</th><th>live-range peak</th></tr>\n";
  for (const TpuMemorySpace& s : t.spaces) {
    out << "<tr class=\"space\" data-space=\"" << s.memory_space << "\"><td>"
        << draw::XmlEscape(s.title)
        << (s.title == absl::StrCat("S(", s.memory_space, ")")
                ? std::string()
                : absl::StrCat(" (S(", s.memory_space, "))"))
        << "</td><td>" << draw::XmlEscape(s.xla_name) << "</td><td data-v=\""
        << s.allocated_bytes << "\">"
        << draw::XmlEscape(BytesWithUnit(s.allocated_bytes)) << "</td><td>"
        << s.allocations << "</td><td>" << Cell(s.capacity_bytes) << "</td><td>"
        << Cell(s.left_bytes) << "</td><td>" << Cell(s.live_range_peak_bytes)
        << "</td></tr>\n";
  }
  out << "</table>\n";
}

void RenderTpuPaddingTable(const std::vector<TpuPaddedArray>& arrays,
                           absl::string_view title, std::ostream& out) {
  if (arrays.empty()) return;
  out << "<table class=\"tpu-padding\"><caption>" << draw::XmlEscape(title)
      << "</caption><tr><th>array</th><th>shape</th><th>bytes</th>"
         "<th>unpadded</th><th>padding</th><th>ratio</th><th>allocation</th>"
         "<th>op_name</th><th>source</th><th>a layout that pads less</th>"
         "</tr>\n";
  for (const TpuPaddedArray& p : arrays) {
    out << "<tr class=\"padded\"><td>" << draw::XmlEscape(p.name) << "</td><td>"
        << draw::XmlEscape(p.shape) << "</td><td>" << p.bytes << "</td><td>"
        << p.logical_bytes << "</td><td>" << p.padding_bytes << "</td><td>"
        << absl::StrFormat("%.2fx", p.ratio) << "</td><td>" << p.allocation
        << " (" << draw::XmlEscape(p.kind) << ")</td><td>"
        << draw::XmlEscape(p.op_name) << "</td><td>"
        << draw::XmlEscape(p.source) << "</td><td>"
        << (p.cheaper_layout.has_value()
                ? draw::XmlEscape(absl::StrCat(*p.cheaper_layout, ": ",
                                               *p.cheaper_bytes, " B"))
                : std::string())
        << "</td></tr>\n";
  }
  out << "</table>\n";
}

}  // namespace

void RenderTpuMemoryHtml(const TpuMemory& t, const MemoryAnalysis& a,
                         int64_t top, int index, std::ostream& out) {
  out << "<section class=\"module tpu\"><h2>module "
      << draw::XmlEscape(a.module_name.empty() ? "(no name)" : a.module_name)
      << "</h2>\n<pre class=\"tpu\">" << draw::XmlEscape(TpuMemoryText(t))
      << "</pre>\n";
  RenderTpuSpaces(t, out);
  RenderTpuPaddingTable(t.padding.by_bytes, "tile padding: most bytes", out);
  RenderTpuPaddingTable(
      t.padding.by_ratio,
      absl::StrCat("tile padding: highest ratio (arrays padding ",
                   ShortBytes(t.padding.ratio_floor_bytes), " or more)"),
      out);
  for (const MemoryPeak& p : a.space_peaks) {
    if (p.memory_space != 0) continue;
    // HBM's live bytes over the schedule, its peak marked.
    RenderCurve(a, SpaceCurve(a, 0), p, "Peak of HBM (S(0))", top, index, out);
  }
  out << "</section>\n";
}

}  // namespace hlolayout

#include "hlolayout/memory/memory_html.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "hlolayout/draw/svg.h"
#include "hlolayout/parser/hlo_reader.h"

namespace hlolayout {
namespace {

std::string Percent(int64_t part, int64_t whole) {
  if (whole == 0) return "0.0%";
  return absl::StrFormat(
      "%.1f%%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

void NoCurve(absl::string_view module_name, absl::string_view why,
             std::ostream& out) {
  out << "<section class=\"module\"><h2>module "
      << draw::XmlEscape(module_name.empty() ? "(no name)" : module_name)
      << "</h2>\n<p class=\"no-curve\">no memory curve: "
      << draw::XmlEscape(why) << "</p></section>\n";
}

}  // namespace

// One module: the live bytes over the schedule as an SVG polyline (at most
// 2000 points, each the largest value of its stretch), XLA's peak moment
// marked, and the values live there.
void RenderMemoryCurveHtml(const MemoryAnalysis& a, int64_t top, int index,
                           std::ostream& out) {
  constexpr int kWidth = 800, kHeight = 220;
  const int64_t n = static_cast<int64_t>(a.curve.size());
  int64_t highest = 1;
  for (int64_t b : a.curve) highest = std::max(highest, b);
  out << "<section class=\"module\"><h2>module "
      << draw::XmlEscape(a.module_name.empty() ? "(no name)" : a.module_name)
      << "</h2>\n<p>" << a.schedule_end << " scheduled instructions, "
      << a.values.size() << " values. Peak (XLA's moment): <b>" << a.peak.bytes
      << " bytes</b> at time " << a.peak.time;
  if (a.peak.time < n) {
    out << ", " << draw::XmlEscape(a.instructions[a.peak.time].name);
    if (!a.instructions[a.peak.time].op_name.empty()) {
      out << " (" << draw::XmlEscape(a.instructions[a.peak.time].op_name)
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
      bytes = std::max(bytes, a.curve[t]);
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
        50 +
        (n <= 1 ? 0.0 : kWidth * static_cast<double>(a.peak.time) / (n - 1));
    out << absl::StrFormat(
        "<line class=\"peak\" x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"%d\" "
        "stroke=\"#c02020\" stroke-dasharray=\"4 3\"/>\n",
        px, px, kHeight);
    out << absl::StrFormat(
        "<text x=\"%.1f\" y=\"12\" font-size=\"11\" fill=\"#c02020\">"
        "peak, time %d</text>\n",
        px + 3, a.peak.time);
  }
  out << "<text x=\"0\" y=\"10\" font-size=\"10\">" << highest
      << " B</text><text x=\"0\" y=\"" << kHeight
      << "\" font-size=\"10\">0</text><text x=\"50\" y=\"" << kHeight + 20
      << "\" font-size=\"10\">time 0</text><text x=\"" << kWidth << "\" y=\""
      << kHeight + 20 << "\" font-size=\"10\">time "
      << std::max<int64_t>(n - 1, 0) << "</text>\n</svg>\n";
  out << "<table class=\"live\"><tr><th>value</th><th>shape</th>"
         "<th>bytes</th><th>share</th><th>padding</th><th>live</th></tr>\n";
  int64_t shown = 0;
  for (int64_t id : a.peak.values) {
    if (top > 0 && shown++ >= top) break;
    const LiveValue& v = a.values[id];
    out << "<tr class=\"value\"><td>"
        << draw::XmlEscape(a.instructions[v.instruction].name)
        << ShapeIndexString(v.index) << "</td><td>"
        << draw::XmlEscape(v.shape != nullptr ? v.shape->ToString(true) : "")
        << "</td><td>" << v.bytes << "</td><td>"
        << Percent(v.bytes, a.peak.bytes) << "</td><td>"
        << (v.shape != nullptr && !v.shape->IsTuple()
                ? v.bytes - v.logical_bytes
                : 0)
        << "</td><td>" << v.start << "-" << v.end << "</td></tr>\n";
  }
  out << "</table></section>\n";
}

void RenderMemorySectionsHtml(absl::string_view text,
                              absl::string_view file_name, int64_t top,
                              int* index, std::ostream& out) {
  HloReadOptions options;
  options.file_name = file_name;
  absl::StatusOr<std::vector<HloModule>> modules =
      ReadHloModules(text, options);
  if (!modules.ok()) {
    NoCurve(file_name, modules.status().message(), out);
    return;
  }
  for (const HloModule& module : *modules) {
    absl::StatusOr<MemoryAnalysis> analysis = AnalyzeMemory(module);
    if (!analysis.ok()) {
      NoCurve(module.header.name, analysis.status().message(), out);
      continue;
    }
    RenderMemoryCurveHtml(*analysis, top, (*index)++, out);
  }
}

}  // namespace hlolayout

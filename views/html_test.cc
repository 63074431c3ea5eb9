#include "hlolayout/views/html.h"

#include <fstream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "hlolayout/draw/xml_reader.h"
#include "hlolayout/report/report.h"
#include "hlolayout/testing/test_data.h"

namespace hlolayout {
namespace {

std::string Dump() {
  std::ifstream in(TestDataPath(
      "examples/module_0001.jit_train_step.after_optimizations.txt"));
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int Count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t p = text.find(what); p != std::string::npos;
       p = text.find(what, p + 1)) {
    ++n;
  }
  return n;
}

TEST(Html, PageHasTablesPicturesAndScript) {
  const std::string dump = Dump();
  ASSERT_FALSE(dump.empty());
  absl::StatusOr<Report> report = BuildReport(dump);
  ASSERT_TRUE(report.ok()) << report.status();
  std::ostringstream out;
  HtmlOptions options;
  options.inputs = {"dump.txt"};
  RenderReportHtml(*report, options, out);
  const std::string html = out.str();
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  for (const char* id : {"totals", "spaces", "modules", "wasters",
                         "instructions", "cap-note", "shown-count"}) {
    EXPECT_NE(html.find(std::string("id=\"") + id + "\""), std::string::npos)
        << id;
  }
  EXPECT_EQ(Count(html, "<tr class=\"row\""),
            report->modules[0].totals.instructions);
  EXPECT_NE(html.find("all 30 instructions."), std::string::npos);
  // Self-contained: no external resources.
  EXPECT_EQ(Count(html, "http://"),
            Count(html, "xmlns=\"http://www.w3.org/2000/svg\""));
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find(" src="), std::string::npos);
  // Every waster has a picture, and every picture (the wasters', the
  // schedule chart) is well-formed SVG.
  const int wasters = Count(html, "<div class=\"waster\">");
  EXPECT_EQ(wasters, 10);
  EXPECT_EQ(Count(html, "<g class=\"padding-picture\">"), wasters);
  int pictures = 0;
  for (size_t p = html.find("<svg "); p != std::string::npos;
       p = html.find("<svg ", p + 1)) {
    const size_t end = html.find("</svg>", p);
    ASSERT_NE(end, std::string::npos);
    absl::StatusOr<draw::XmlNode> svg =
        draw::ReadXml(html.substr(p, end + 6 - p));
    EXPECT_TRUE(svg.ok()) << svg.status();
    ++pictures;
  }
  EXPECT_EQ(pictures, wasters + 1);  // and the module's curve
  // Reasons in words, escaped shapes.
  EXPECT_NE(html.find("is not a multiple of tile"), std::string::npos);
  EXPECT_NE(html.find("{1,0:T(8,128)(2,1)}"), std::string::npos);
}

// The page leads with what XLA will allocate, from the report's own
// analyses, then the memory over the schedule, before the sums of all
// instruction results, which are labelled as not memory use.
TEST(Html, LeadsWithWhatXlaAllocatesThenTheScheduleChart) {
  const std::string dump = Dump();  // The report points into the text.
  absl::StatusOr<Report> report = BuildReport(dump);
  ASSERT_TRUE(report.ok());
  std::ostringstream out;
  RenderReportHtml(*report, HtmlOptions(), out);
  const std::string html = out.str();
  const size_t allocates = html.find("<h2>What XLA will allocate</h2>");
  ASSERT_NE(allocates, std::string::npos);
  EXPECT_LT(html.find("<h1>"), allocates);
  const size_t lead = html.find("<table class=\"allocation-lead\">");
  const size_t curve = html.find("<svg id=\"curve-0\"");
  ASSERT_NE(lead, std::string::npos);
  ASSERT_NE(curve, std::string::npos);
  EXPECT_LT(allocates, lead);
  EXPECT_LT(lead, html.find("<h2>Memory over the schedule</h2>"));
  EXPECT_LT(html.find("<h2>Memory over the schedule</h2>"), curve);
  EXPECT_LT(curve, html.find("id=\"wasters\""));
  EXPECT_LT(curve, html.find("id=\"totals\""));
  EXPECT_NE(html.find("<td>not modelled (XLA:TPU)</td>"), std::string::npos);
  // No byte figure comes before the lead.
  EXPECT_EQ(html.substr(0, allocates).find(" B)"), std::string::npos);
  EXPECT_NE(html.find("<h2>All instruction results (not memory use)</h2>"),
            std::string::npos);
  EXPECT_NE(html.find("<th>logical bytes of all results</th>"),
            std::string::npos);
  EXPECT_NE(html.find("<th>buffers the modules define (padded bytes, each "
                      "value once)</th><td class=\"n\">82.8 KiB (84812 B) in "
                      "18 values</td>"),
            std::string::npos)
      << html;
  // A summary report has no analyses: the page says so.
  ReportOptions summary;
  summary.keep_rows = false;
  summary.top_wasters = 0;
  absl::StatusOr<Report> bare = BuildReport(dump, summary);
  ASSERT_TRUE(bare.ok());
  out.str("");
  RenderReportHtml(*bare, HtmlOptions(), out);
  EXPECT_NE(out.str().find("not analysed (a summary report)"),
            std::string::npos);
}

// Issue 38: the page rendered the waster pictures by parsing the shape text
// again (and read the whole dump again for its memory sections). It draws
// from the report's model now: a waster's decoded Shape, the modules and
// analyses the report kept. Text the page does not need can be anything.
TEST(Html, DrawsFromTheParsedModelNotTheText) {
  const std::string dump = Dump();
  absl::StatusOr<Report> report = BuildReport(dump);
  ASSERT_TRUE(report.ok());
  ModuleReport& m = report->modules[0];
  ASSERT_NE(m.module, nullptr);
  ASSERT_NE(m.memory.live_ranges, nullptr);
  ASSERT_FALSE(m.top_wasters.empty());
  m.top_wasters[0].shape_text = "(not a shape)";
  std::ostringstream out;
  RenderReportHtml(*report, HtmlOptions(), out);
  const std::string html = out.str();
  const size_t waster = html.find("<code>(not a shape)</code>");
  ASSERT_NE(waster, std::string::npos);
  const size_t next = html.find("<div class=\"waster\">", waster);
  const std::string first = html.substr(waster, next - waster);
  EXPECT_NE(first.find("<g class=\"padding-picture\">"), std::string::npos)
      << first;
  EXPECT_NE(first.find("data-rows=\"3\" data-cols=\"104\""), std::string::npos);
  EXPECT_EQ(first.find("no picture"), std::string::npos);
}

TEST(Html, CapsTheInstructionTableAndSaysSo) {
  const std::string dump = Dump();
  absl::StatusOr<Report> report = BuildReport(dump);
  ASSERT_TRUE(report.ok());
  std::ostringstream out;
  HtmlOptions options;
  options.max_rows = 5;
  options.top_wasters = 2;
  RenderReportHtml(*report, options, out);
  const std::string html = out.str();
  EXPECT_EQ(Count(html, "<tr class=\"row\""), 5);
  EXPECT_NE(html.find("showing the 5 instructions with the most padded bytes "
                      "out of 30"),
            std::string::npos);
  EXPECT_EQ(Count(html, "<div class=\"waster\">"), 2);
  // The five kept are the five largest: %out (36864 B padded) among them.
  EXPECT_NE(html.find("<td>ROOT %out</td>"), std::string::npos);
}

TEST(Html, EscapesNames) {
  Report report;
  report.errors.push_back("x.txt:1:1: bad <token> & more");
  std::ostringstream out;
  RenderReportHtml(report, {}, out);
  EXPECT_NE(out.str().find("bad &lt;token&gt; &amp; more"), std::string::npos);
  EXPECT_NE(out.str().find("no padding."), std::string::npos);
}

}  // namespace
}  // namespace hlolayout

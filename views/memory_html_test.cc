#include "hlolayout/views/memory_html.h"

#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "hlolayout/draw/xml_reader.h"

namespace hlolayout {
namespace {

// docs/memory.md's example: XLA's peak moment is 3 (p, b and t live).
constexpr char kScheduled[] = R"(HloModule m, is_scheduled=true
ENTRY %main (p: f32[256]) -> (f32[256]) {
  %p = f32[256]{0} parameter(0)
  %a = f32[256]{0} negate(%p)
  %b = f32[256]{0} exponential(%a)
  ROOT %t = (f32[256]{0}) tuple(%b)
}
)";

int Count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t p = text.find(what); p != std::string::npos;
       p = text.find(what, p + 1)) {
    ++n;
  }
  return n;
}

TEST(MemoryHtml, CurvePeakAndLiveValues) {
  std::ostringstream out;
  int index = 3;
  RenderMemorySectionsHtml(kScheduled, "m.txt", 0, &index, out);
  const std::string html = out.str();
  EXPECT_EQ(index, 4);
  EXPECT_NE(html.find("<svg id=\"curve-3\""), std::string::npos);
  EXPECT_NE(html.find("<b>2056 bytes</b> at time 3, t"), std::string::npos)
      << html;
  EXPECT_EQ(Count(html, "<line class=\"peak\""), 1);
  // The values live at the peak, largest first.
  EXPECT_EQ(Count(html, "<tr class=\"value\">"), 3);
  EXPECT_LT(html.find("<td>p{}</td>"), html.find("<td>t{}</td>"));
  // The whole fragment is well-formed XML (one root element around it).
  absl::StatusOr<draw::XmlNode> xml = draw::ReadXml("<div>" + html + "</div>");
  EXPECT_TRUE(xml.ok()) << xml.status();
}

// Two temps live together; z takes x's slot (it is elementwise on x, which
// dies where z is born). The output is smaller than the temps, so they
// cannot move into its allocation.
constexpr char kTwoTemps[] = R"(HloModule m, is_scheduled=true
ENTRY %main (p: f32[256]) -> f32[128] {
  %p = f32[256]{0} parameter(0)
  %x = f32[256]{0} exponential(%p)
  %y = f32[256]{0} negate(%p)
  %z = f32[256]{0} add(%x, %y)
  ROOT %o = f32[128]{0} slice(%z), slice={[0:128]}
}
)";

TEST(MemoryHtml, LeadsWithWhatXlaAllocatesAndDrawsTheHeap) {
  std::ostringstream out;
  int index = 0;
  RenderMemorySectionsHtml(kTwoTemps, "m.sm_9.0a_gpu.txt", 0, &index, out);
  const std::string html = out.str();
  EXPECT_NE(html.find("<p class=\"allocates\">XLA:GPU will allocate <b>3.50 "
                      "KiB (3,584 bytes)</b>: arguments 1.00 KiB (1,024 "
                      "bytes) + temp 2.00 KiB (2,048 bytes) + outputs 512 "
                      "bytes - aliases 0 bytes."),
            std::string::npos)
      << html;
  // The allocation figures come before the live-range curve.
  EXPECT_LT(html.find("class=\"allocates\""), html.find("<svg id=\"curve-0\""));
  EXPECT_NE(html.find("<td>peak_memory_in_bytes</td>"), std::string::npos);
  EXPECT_NE(html.find("<svg id=\"heap-0\""), std::string::npos);
  EXPECT_EQ(Count(html, "<rect class=\"block\""), 3);
  // On XLA's event clock y lives longer than x alone (x hands its slot to
  // z), so the spatial order places y first.
  EXPECT_NE(html.find("<title>y{}: f32[256]{0}, 1024 bytes at offset 0, "
                      "live 2-3</title>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<title>z{}: f32[256]{0}, 1024 bytes at offset 1024, "
                      "live 3-4</title>"),
            std::string::npos);
  EXPECT_NE(html.find("holds at one step: <b>2.00 KiB (2,048 bytes)</b> at "
                      "time 2"),
            std::string::npos);
  EXPECT_EQ(Count(html, "<line class=\"heap-peak\""), 1);
  absl::StatusOr<draw::XmlNode> xml = draw::ReadXml("<div>" + html + "</div>");
  EXPECT_TRUE(xml.ok()) << xml.status();
}

// The heap's boxes are named: a hover title with name, shape, bytes,
// op_name and source line (source_file/source_line, or stack_frame_id
// through the module's tables), and the largest numbered in a legend.
constexpr char kNamedTemps[] = R"(HloModule m, is_scheduled=true

FileNames
1 "model.py"

FileLocations
1 {file_name_id=1 function_name_id=1 line=42 end_line=42 column=0 end_column=0}

StackFrames
1 {file_location_id=1 parent_frame_id=0}

ENTRY %main (p: f32[256]) -> f32[128] {
  %p = f32[256]{0} parameter(0)
  %x = f32[256]{0} exponential(%p), metadata={op_name="jit(f)/exp" stack_frame_id=1}
  %y = f32[512]{0} concatenate(%p, %p), dimensions={0}, metadata={op_name="jit(f)/cat" source_file="/src/cat.py" source_line=7}
  %z = f32[256]{0} add(%x, %p)
  %w = f32[128]{0} slice(%y), slice={[0:128]}
  ROOT %o = f32[128]{0} add(%w, %w)
}
)";

TEST(MemoryHtml, HeapBoxesAreNamed) {
  std::ostringstream out, lead;
  int index = 0;
  RenderMemorySectionsHtml(kNamedTemps, "m.sm_9.0a_gpu.txt", 0, &index, out,
                           &lead);
  const std::string html = out.str();
  EXPECT_NE(html.find("<title>x{}: f32[256]{0}, 1024 bytes at offset "),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("; jit(f)/exp; model.py:42</title>"), std::string::npos)
      << html;
  EXPECT_NE(html.find("; jit(f)/cat; /src/cat.py:7</title>"),
            std::string::npos);
  // The largest box (y, 2048 bytes) is number 1, in the picture and in the
  // legend; every box has a title.
  EXPECT_EQ(Count(html, "<rect class=\"block\""), Count(html, "<title>"));
  EXPECT_NE(html.find("data-value=\"y{}\" data-key=\"1\""), std::string::npos)
      << html;
  EXPECT_NE(html.find("<tr class=\"heap-value\"><td>1</td><td>y{}</td><td>"
                      "f32[512]{0}</td><td>2048</td>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<td>jit(f)/cat</td><td>/src/cat.py:7</td></tr>"),
            std::string::npos);
  EXPECT_EQ(Count(html, "<tr class=\"heap-value\">"),
            Count(html, "<rect class=\"block\""));  // fewer than 10 values
  absl::StatusOr<draw::XmlNode> xml = draw::ReadXml("<div>" + html + "</div>");
  EXPECT_TRUE(xml.ok()) << xml.status();
  // The lead row: what XLA will allocate for the module.
  EXPECT_EQ(Count(lead.str(), "<tr class=\"lead\">"), 1);
  EXPECT_NE(lead.str().find("<td>m</td><td class=\"n allocated\""),
            std::string::npos)
      << lead.str();
  std::ostringstream table;
  RenderAllocationTableHtml(lead.str(), table);
  xml = draw::ReadXml(table.str());
  EXPECT_TRUE(xml.ok()) << xml.status() << table.str();
}

TEST(MemoryHtml, LeadRowsSayWhyNotKnown) {
  std::ostringstream out, lead;
  int index = 0;
  RenderMemorySectionsHtml(
      "HloModule plain\nENTRY %e (p: f32[2]) -> f32[2] {\n"
      "  ROOT %p = f32[2]{0} parameter(0)\n}\n",
      "plain.txt", 0, &index, out, &lead);
  EXPECT_NE(lead.str().find("<td>plain.txt</td><td>not known</td>"),
            std::string::npos)
      << lead.str();
  EXPECT_NE(lead.str().find("not scheduled"), std::string::npos);
  // XLA:TPU: not modelled, the live-range peak instead.
  lead.str("");
  RenderMemorySectionsHtml(kScheduled, "m.tpu_after_optimizations.txt", 0,
                           &index, out, &lead);
  EXPECT_NE(lead.str().find("<td>not modelled (XLA:TPU)</td>"),
            std::string::npos)
      << lead.str();
  EXPECT_NE(lead.str().find("data-v=\"2056\""), std::string::npos);
}

TEST(MemoryHtml, UnscheduledModuleSaysWhy) {
  const std::string plain =
      "HloModule plain\nENTRY %e (p: f32[2]) -> f32[2] {\n"
      "  ROOT %p = f32[2]{0} parameter(0)\n}\n";
  // Next to a scheduled module: that one gets its curve.
  std::ostringstream out;
  int index = 0;
  RenderMemorySectionsHtml(std::string(kScheduled) + "// -----\n" + plain,
                           "two.txt", 0, &index, out);
  std::string html = out.str();
  EXPECT_EQ(index, 1);
  EXPECT_EQ(Count(html, "<svg "), 1);
  EXPECT_NE(html.find("<h2>module plain</h2>\n<p class=\"no-curve\">no "
                      "memory curve: module plain is not scheduled"),
            std::string::npos)
      << html;
  // Alone, the text is not even read.
  out.str("");
  index = 0;
  RenderMemorySectionsHtml(plain, "plain.txt", 0, &index, out);
  html = out.str();
  EXPECT_EQ(index, 0);
  EXPECT_EQ(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find("<h2>plain.txt</h2>\n<p class=\"no-curve\">no memory "
                      "curve: no module here is scheduled"),
            std::string::npos)
      << html;
}

TEST(MemoryHtml, UnreadableTextSaysWhy) {
  std::ostringstream out;
  int index = 0;
  RenderMemorySectionsHtml(
      "HloModule broken, is_scheduled=true\nENTRY %e {\n  %x = \n", "b.txt", 0,
      &index, out);
  EXPECT_NE(out.str().find("<h2>b.txt</h2>\n<p class=\"no-curve\">no memory "
                           "curve: "),
            std::string::npos)
      << out.str();
  EXPECT_EQ(out.str().find("<svg"), std::string::npos);
}

}  // namespace
}  // namespace hlolayout

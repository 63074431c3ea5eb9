#include "hlolayout/memory/memory_html.h"

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
  EXPECT_NE(html.find("<title>y{}: 1024 bytes at offset 0, live 2-3</title>"),
            std::string::npos)
      << html;
  EXPECT_NE(
      html.find("<title>z{}: 1024 bytes at offset 1024, live 3-4</title>"),
      std::string::npos);
  EXPECT_NE(html.find("holds at one step: <b>2.00 KiB (2,048 bytes)</b> at "
                      "time 2"),
            std::string::npos);
  EXPECT_EQ(Count(html, "<line class=\"heap-peak\""), 1);
  absl::StatusOr<draw::XmlNode> xml = draw::ReadXml("<div>" + html + "</div>");
  EXPECT_TRUE(xml.ok()) << xml.status();
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

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

TEST(MemoryHtml, UnscheduledModuleSaysWhy) {
  std::ostringstream out;
  int index = 0;
  RenderMemorySectionsHtml(
      "HloModule plain\nENTRY %e (p: f32[2]) -> f32[2] {\n"
      "  ROOT %p = f32[2]{0} parameter(0)\n}\n",
      "plain.txt", 0, &index, out);
  const std::string html = out.str();
  EXPECT_EQ(index, 0);
  EXPECT_EQ(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find("<p class=\"no-curve\">no memory curve: module plain "
                      "is not scheduled"),
            std::string::npos)
      << html;
}

TEST(MemoryHtml, UnreadableTextSaysWhy) {
  std::ostringstream out;
  int index = 0;
  RenderMemorySectionsHtml("HloModule broken\nENTRY %e {\n  %x = \n", "b.txt",
                           0, &index, out);
  EXPECT_NE(out.str().find("no memory curve: "), std::string::npos);
  EXPECT_EQ(out.str().find("<svg"), std::string::npos);
}

}  // namespace
}  // namespace hlolayout

// draw/svg.h: a small writer of self-contained, deterministic SVG.
//
//   SvgWriter svg(120, 40);
//   svg.Open("g", {{"class", "element"}, {"data-index", "2,3"}});
//   svg.Element("rect", {{"x", "0"}, {"y", "0"}, {"width", "36"},
//                        {"height", "24"}, {"fill", "#77AADD"}});
//   svg.Text("title", {}, "(2,3) at offset 17");
//   svg.Close();
//   std::string text = std::move(svg).Finish();  // <svg ...>...</svg>\n
//
// Attribute values and text are escaped; output depends only on the calls
// (no clock, no addresses, no locale). The result is well-formed XML.
#ifndef HLOLAYOUT_DRAW_SVG_H_
#define HLOLAYOUT_DRAW_SVG_H_

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"

namespace hlolayout::draw {

// "&lt;a &amp; b&gt;" for "<a & b>"; quotes escaped too.
std::string XmlEscape(absl::string_view text);

// A number for an SVG attribute: integers print without a fraction,
// others with one decimal ("12", "12.5").
std::string SvgNumber(double v);

using SvgAttrs =
    std::initializer_list<std::pair<absl::string_view, absl::string_view>>;

class SvgWriter {
 public:
  // Starts <svg> with the given size in user units (pixels), a white
  // background, the hatch pattern `url(#hatch)` for padding and the
  // shared stylesheet.
  SvgWriter(double width, double height);

  // <tag attrs...> ... Close() writes </tag>.
  void Open(absl::string_view tag, SvgAttrs attrs);
  void Open(absl::string_view tag,
            const std::vector<std::pair<std::string, std::string>>& attrs);
  void Close();
  // <tag attrs.../>
  void Element(absl::string_view tag, SvgAttrs attrs);
  // <tag attrs...>text</tag>
  void Text(absl::string_view tag, SvgAttrs attrs, absl::string_view text);
  // Closes every open element and </svg>.
  std::string Finish() &&;

 private:
  void Attrs(SvgAttrs attrs);
  std::string out_;
  std::vector<std::string> open_;
};

}  // namespace hlolayout::draw

#endif  // HLOLAYOUT_DRAW_SVG_H_

#include "hlolayout/draw/svg.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace hlolayout::draw {

std::string XmlEscape(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        // Control characters are not allowed in XML 1.0.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') {
          out += ' ';
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string SvgNumber(double v) {
  if (!std::isfinite(v)) return "0";
  const double r = std::round(v);
  if (std::fabs(v - r) < 1e-9 && std::fabs(r) < 1e15) {
    return absl::StrCat(static_cast<int64_t>(r));
  }
  return absl::StrFormat("%.1f", v);
}

SvgWriter::SvgWriter(double width, double height) {
  absl::StrAppend(
      &out_, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"",
      SvgNumber(width), "\" height=\"", SvgNumber(height), "\" viewBox=\"0 0 ",
      SvgNumber(width), " ", SvgNumber(height),
      "\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\" "
      "font-size=\"11\">\n",
      "<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" "
      "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
      "<rect width=\"6\" height=\"6\" fill=\"#DDDDDD\"/>"
      "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#888888\" "
      "stroke-width=\"2\"/></pattern></defs>\n"
      "<style>text{dominant-baseline:central;text-anchor:middle;"
      "pointer-events:none}.caption,.heading{text-anchor:start}"
      ".heading{font-weight:bold}.tile-block "
      "rect{stroke:#FFFFFF;stroke-width:0.5}</style>\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"#FFFFFF\"/>\n");
}

void SvgWriter::Attrs(SvgAttrs attrs) {
  for (const auto& [name, value] : attrs) {
    absl::StrAppend(&out_, " ", name, "=\"", XmlEscape(value), "\"");
  }
}

void SvgWriter::Open(absl::string_view tag, SvgAttrs attrs) {
  absl::StrAppend(&out_, "<", tag);
  Attrs(attrs);
  out_ += ">";
  open_.emplace_back(tag);
}

void SvgWriter::Open(
    absl::string_view tag,
    const std::vector<std::pair<std::string, std::string>>& attrs) {
  absl::StrAppend(&out_, "<", tag);
  for (const auto& [name, value] : attrs) {
    absl::StrAppend(&out_, " ", name, "=\"", XmlEscape(value), "\"");
  }
  out_ += ">";
  open_.emplace_back(tag);
}

void SvgWriter::Close() {
  if (open_.empty()) return;
  absl::StrAppend(&out_, "</", open_.back(), ">\n");
  open_.pop_back();
}

void SvgWriter::Element(absl::string_view tag, SvgAttrs attrs) {
  absl::StrAppend(&out_, "<", tag);
  Attrs(attrs);
  out_ += "/>";
}

void SvgWriter::Text(absl::string_view tag, SvgAttrs attrs,
                     absl::string_view text) {
  absl::StrAppend(&out_, "<", tag);
  Attrs(attrs);
  absl::StrAppend(&out_, ">", XmlEscape(text), "</", tag, ">");
}

std::string SvgWriter::Finish() && {
  while (!open_.empty()) Close();
  out_ += "</svg>\n";
  return std::move(out_);
}

}  // namespace hlolayout::draw

// draw/xml_reader.h: a strict reader of the XML the pictures are made of,
// so tests (and tools) can check an SVG is well-formed and read the
// attributes of its SVG contract.
//
//   absl::StatusOr<XmlNode> root = ReadXml("<svg><g
//   data-offset=\"17\"/></svg>"); root->name == "svg";
//   root->children[0].Attr("data-offset") == "17"
//
// Supports elements, attributes in double or single quotes, text, the five
// predefined entities and numeric character references, comments and a
// leading <?xml ...?> declaration. No DTDs, namespaces are kept as written.
// Errors (never a crash): mismatched or unclosed tags, a duplicate
// attribute, a bare '<' or '&', text after the root element.
#ifndef HLOLAYOUT_DRAW_XML_READER_H_
#define HLOLAYOUT_DRAW_XML_READER_H_

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace hlolayout::draw {

struct XmlNode {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attrs;
  std::vector<XmlNode> children;
  std::string text;  // concatenated character data directly inside

  bool HasAttr(absl::string_view name) const;
  // The attribute's value, or "" when absent.
  std::string Attr(absl::string_view name) const;
  // True when the space-separated class attribute contains `cls`.
  bool HasClass(absl::string_view cls) const;
  // Calls `f` on this node and every descendant, in document order.
  void Visit(const std::function<void(const XmlNode&)>& f) const;
  // The first child named `name`, or nullptr.
  const XmlNode* Child(absl::string_view name) const;
};

absl::StatusOr<XmlNode> ReadXml(absl::string_view text);

}  // namespace hlolayout::draw

#endif  // HLOLAYOUT_DRAW_XML_READER_H_

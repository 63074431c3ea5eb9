#include "hlolayout/draw/xml_reader.h"

#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace hlolayout::draw {

bool XmlNode::HasAttr(absl::string_view n) const {
  for (const auto& a : attrs) {
    if (a.first == n) return true;
  }
  return false;
}

std::string XmlNode::Attr(absl::string_view n) const {
  for (const auto& a : attrs) {
    if (a.first == n) return a.second;
  }
  return "";
}

bool XmlNode::HasClass(absl::string_view cls) const {
  for (absl::string_view c :
       absl::StrSplit(Attr("class"), ' ', absl::SkipEmpty())) {
    if (c == cls) return true;
  }
  return false;
}

void XmlNode::Visit(const std::function<void(const XmlNode&)>& f) const {
  f(*this);
  for (const XmlNode& c : children) c.Visit(f);
}

const XmlNode* XmlNode::Child(absl::string_view n) const {
  for (const XmlNode& c : children) {
    if (c.name == n) return &c;
  }
  return nullptr;
}

namespace {

class Reader {
 public:
  explicit Reader(absl::string_view t) : t_(t) {}

  absl::StatusOr<XmlNode> Document() {
    SkipMisc();
    if (Starts("<?xml")) {
      size_t end = t_.find("?>", p_);
      if (end == absl::string_view::npos) return Error("unclosed <?xml");
      p_ = end + 2;
    }
    SkipMisc();
    if (!Starts("<")) return Error("expected the root element");
    XmlNode root;
    absl::Status s = ElementAt(root, 0);
    if (!s.ok()) return s;
    SkipMisc();
    if (p_ != t_.size()) return Error("content after the root element");
    return root;
  }

 private:
  absl::Status Error(absl::string_view what) const {
    return absl::InvalidArgumentError(
        absl::StrCat("xml: ", what, " at byte ", p_));
  }
  bool Starts(absl::string_view s) const {
    return t_.substr(p_, s.size()) == s;
  }
  void SkipSpace() {
    while (p_ < t_.size() && absl::ascii_isspace(t_[p_])) ++p_;
  }
  // Whitespace and comments outside the root.
  void SkipMisc() {
    while (true) {
      SkipSpace();
      if (!Starts("<!--")) return;
      size_t end = t_.find("-->", p_ + 4);
      if (end == absl::string_view::npos) {
        p_ = t_.size();
        return;
      }
      p_ = end + 3;
    }
  }
  static bool NameChar(char c) {
    return absl::ascii_isalnum(c) || c == '-' || c == '_' || c == ':' ||
           c == '.';
  }
  absl::StatusOr<std::string> Name() {
    size_t start = p_;
    if (p_ >= t_.size() ||
        !(absl::ascii_isalpha(t_[p_]) || t_[p_] == '_' || t_[p_] == ':')) {
      return Error("expected a name");
    }
    while (p_ < t_.size() && NameChar(t_[p_])) ++p_;
    return std::string(t_.substr(start, p_ - start));
  }
  // Decodes character data up to `stop` (exclusive) into `out`.
  absl::Status Chars(size_t stop, std::string& out) {
    while (p_ < stop) {
      char c = t_[p_];
      if (c == '<') return Error("'<' in character data");
      if (c != '&') {
        out += c;
        ++p_;
        continue;
      }
      size_t semi = t_.find(';', p_);
      if (semi == absl::string_view::npos || semi > stop) {
        return Error("bare '&'");
      }
      absl::string_view ent = t_.substr(p_ + 1, semi - p_ - 1);
      if (ent == "amp") {
        out += '&';
      } else if (ent == "lt") {
        out += '<';
      } else if (ent == "gt") {
        out += '>';
      } else if (ent == "quot") {
        out += '"';
      } else if (ent == "apos") {
        out += '\'';
      } else if (!ent.empty() && ent[0] == '#') {
        uint32_t code = 0;
        bool ok = ent.size() > 2 && (ent[1] == 'x' || ent[1] == 'X')
                      ? absl::SimpleHexAtoi(ent.substr(2), &code)
                      : absl::SimpleAtoi(ent.substr(1), &code);
        if (!ok || code == 0 || code > 0x10FFFF) {
          return Error("bad character reference");
        }
        // UTF-8 encode.
        if (code < 0x80) {
          out += static_cast<char>(code);
        } else if (code < 0x800) {
          out += static_cast<char>(0xC0 | (code >> 6));
          out += static_cast<char>(0x80 | (code & 0x3F));
        } else if (code < 0x10000) {
          out += static_cast<char>(0xE0 | (code >> 12));
          out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
          out += static_cast<char>(0x80 | (code & 0x3F));
        } else {
          out += static_cast<char>(0xF0 | (code >> 18));
          out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
          out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
          out += static_cast<char>(0x80 | (code & 0x3F));
        }
      } else {
        return Error(absl::StrCat("unknown entity '&", ent, ";'"));
      }
      p_ = semi + 1;
    }
    return absl::OkStatus();
  }
  absl::Status ElementAt(XmlNode& node, int depth) {
    if (depth > 200) return Error("nesting too deep");
    ++p_;  // '<'
    absl::StatusOr<std::string> name = Name();
    if (!name.ok()) return name.status();
    node.name = *name;
    while (true) {
      SkipSpace();
      if (p_ >= t_.size()) return Error("unclosed start tag");
      if (Starts("/>")) {
        p_ += 2;
        return absl::OkStatus();
      }
      if (t_[p_] == '>') {
        ++p_;
        break;
      }
      absl::StatusOr<std::string> attr = Name();
      if (!attr.ok()) return attr.status();
      if (node.HasAttr(*attr)) {
        return Error(absl::StrCat("duplicate attribute '", *attr, "'"));
      }
      SkipSpace();
      if (p_ >= t_.size() || t_[p_] != '=') return Error("expected '='");
      ++p_;
      SkipSpace();
      if (p_ >= t_.size() || (t_[p_] != '"' && t_[p_] != '\'')) {
        return Error("expected a quoted value");
      }
      const char q = t_[p_++];
      size_t end = t_.find(q, p_);
      if (end == absl::string_view::npos) return Error("unclosed value");
      std::string value;
      absl::Status s = Chars(end, value);
      if (!s.ok()) return s;
      p_ = end + 1;
      node.attrs.emplace_back(*attr, std::move(value));
    }
    // Content.
    while (true) {
      if (p_ >= t_.size()) {
        return Error(absl::StrCat("unclosed <", node.name, ">"));
      }
      if (Starts("<!--")) {
        size_t end = t_.find("-->", p_ + 4);
        if (end == absl::string_view::npos) return Error("unclosed comment");
        p_ = end + 3;
      } else if (Starts("</")) {
        p_ += 2;
        absl::StatusOr<std::string> close = Name();
        if (!close.ok()) return close.status();
        if (*close != node.name) {
          return Error(
              absl::StrCat("</", *close, "> closes <", node.name, ">"));
        }
        SkipSpace();
        if (p_ >= t_.size() || t_[p_] != '>') return Error("expected '>'");
        ++p_;
        return absl::OkStatus();
      } else if (t_[p_] == '<') {
        node.children.emplace_back();
        absl::Status s = ElementAt(node.children.back(), depth + 1);
        if (!s.ok()) return s;
      } else {
        size_t end = t_.find('<', p_);
        if (end == absl::string_view::npos) end = t_.size();
        absl::Status s = Chars(end, node.text);
        if (!s.ok()) return s;
      }
    }
  }

  absl::string_view t_;
  size_t p_ = 0;
};

}  // namespace

absl::StatusOr<XmlNode> ReadXml(absl::string_view text) {
  return Reader(text).Document();
}

}  // namespace hlolayout::draw

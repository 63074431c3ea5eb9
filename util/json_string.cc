#include "hlolayout/util/json_string.h"

#include <cstdio>

namespace hlolayout {

void AppendJsonString(std::string* out, absl::string_view value) {
  out->push_back('"');
  for (const char c : value) {
    switch (c) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      case '\b':
        out->append("\\b");
        break;
      case '\f':
        out->append("\\f");
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buffer[8];
          std::snprintf(buffer, sizeof(buffer), "\\u%04x", c);
          out->append(buffer);
        } else {
          out->push_back(c);
        }
    }
  }
  out->push_back('"');
}

void WriteJsonString(std::ostream& out, absl::string_view value) {
  std::string text;
  AppendJsonString(&text, value);
  out << text;
}

}  // namespace hlolayout

#include "hlolayout/util/json_reader.h"

#include <cerrno>
#include <cstdlib>
#include <string>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/parser/diagnostic.h"

namespace hlolayout {
namespace {

class Reader {
 public:
  Reader(absl::string_view text, absl::string_view file)
      : text_(text), file_(file) {}

  absl::StatusOr<JsonValue> Document() {
    JsonValue v;
    if (absl::Status s = Value(v, 0); !s.ok()) return s;
    SkipSpace();
    if (pos_ != text_.size())
      return Fail("expected end of input after the value");
    return v;
  }

 private:
  absl::Status Fail(absl::string_view message) {
    return ParseError(text_, pos_, message, file_);
  }
  absl::Status FailAt(size_t at, absl::string_view message) {
    return ParseError(text_, at, message, file_);
  }

  void SkipSpace() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
      ++pos_;
    }
  }

  bool Literal(absl::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  absl::Status Value(JsonValue& v, int depth) {
    SkipSpace();
    v.offset = pos_;
    if (pos_ >= text_.size())
      return Fail("expected a JSON value, found end of input");
    const char c = text_[pos_];
    if (c == '{' || c == '[') {
      if (depth >= kMaxJsonDepth) {
        return Fail(
            absl::StrCat("JSON nested deeper than ", kMaxJsonDepth, " levels"));
      }
      return c == '{' ? Object(v, depth) : Array(v, depth);
    }
    if (c == '"') {
      v.kind = JsonValue::Kind::kString;
      return String(v.string);
    }
    if (c == '-' || (c >= '0' && c <= '9')) return Number(v);
    if (Literal("true")) {
      v.kind = JsonValue::Kind::kBool;
      v.boolean = true;
      return absl::OkStatus();
    }
    if (Literal("false")) {
      v.kind = JsonValue::Kind::kBool;
      return absl::OkStatus();
    }
    if (Literal("null")) return absl::OkStatus();
    return Fail(absl::StrCat("expected a JSON value, found ",
                             DescribeToken(text_.substr(pos_, 1))));
  }

  absl::Status Array(JsonValue& v, int depth) {
    v.kind = JsonValue::Kind::kArray;
    ++pos_;
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == ']') {
      ++pos_;
      return absl::OkStatus();
    }
    while (true) {
      v.array.emplace_back();
      if (absl::Status s = Value(v.array.back(), depth + 1); !s.ok()) return s;
      SkipSpace();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == ']') {
        ++pos_;
        return absl::OkStatus();
      }
      return Fail(absl::StrCat("expected ',' or ']' in an array, found ",
                               DescribeToken(text_.substr(pos_, 1))));
    }
  }

  absl::Status Object(JsonValue& v, int depth) {
    v.kind = JsonValue::Kind::kObject;
    ++pos_;
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == '}') {
      ++pos_;
      return absl::OkStatus();
    }
    absl::flat_hash_set<std::string> keys;
    while (true) {
      SkipSpace();
      if (pos_ >= text_.size() || text_[pos_] != '"') {
        return Fail(absl::StrCat("expected a string key in an object, found ",
                                 DescribeToken(text_.substr(pos_, 1))));
      }
      const size_t key_at = pos_;
      std::string key;
      if (absl::Status s = String(key); !s.ok()) return s;
      if (!keys.insert(key).second) {
        return FailAt(key_at, absl::StrCat("repeated key \"", key, "\""));
      }
      SkipSpace();
      if (pos_ >= text_.size() || text_[pos_] != ':') {
        return Fail(absl::StrCat("expected ':' after an object key, found ",
                                 DescribeToken(text_.substr(pos_, 1))));
      }
      ++pos_;
      v.object.emplace_back(std::move(key), JsonValue());
      if (absl::Status s = Value(v.object.back().second, depth + 1); !s.ok()) {
        return s;
      }
      SkipSpace();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == '}') {
        ++pos_;
        return absl::OkStatus();
      }
      return Fail(absl::StrCat("expected ',' or '}' in an object, found ",
                               DescribeToken(text_.substr(pos_, 1))));
    }
  }

  static void AppendUtf8(std::string& s, uint32_t cp) {
    if (cp < 0x80) {
      s += static_cast<char>(cp);
    } else if (cp < 0x800) {
      s += static_cast<char>(0xC0 | (cp >> 6));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      s += static_cast<char>(0xE0 | (cp >> 12));
      s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      s += static_cast<char>(0xF0 | (cp >> 18));
      s += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  bool Hex4(uint32_t& cp) {
    if (pos_ + 4 > text_.size()) return false;
    cp = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = text_[pos_ + i];
      cp <<= 4;
      if (c >= '0' && c <= '9') {
        cp |= c - '0';
      } else if (c >= 'a' && c <= 'f') {
        cp |= c - 'a' + 10;
      } else if (c >= 'A' && c <= 'F') {
        cp |= c - 'A' + 10;
      } else {
        return false;
      }
    }
    pos_ += 4;
    return true;
  }

  absl::Status String(std::string& out) {
    const size_t start = pos_;
    ++pos_;  // the opening quote
    while (true) {
      if (pos_ >= text_.size()) return FailAt(start, "unterminated string");
      const char c = text_[pos_];
      if (c == '"') {
        ++pos_;
        return absl::OkStatus();
      }
      if (static_cast<unsigned char>(c) < 0x20) {
        return Fail("control character in a string");
      }
      if (c != '\\') {
        out += c;
        ++pos_;
        continue;
      }
      if (pos_ + 1 >= text_.size()) return FailAt(start, "unterminated string");
      const char e = text_[pos_ + 1];
      const size_t escape_at = pos_;
      pos_ += 2;
      switch (e) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          uint32_t cp;
          if (!Hex4(cp)) return FailAt(escape_at, "bad \\u escape");
          if (cp >= 0xD800 && cp < 0xDC00) {
            uint32_t low;
            if (text_.substr(pos_, 2) != "\\u") {
              return FailAt(escape_at, "unpaired surrogate in \\u escape");
            }
            pos_ += 2;
            if (!Hex4(low) || low < 0xDC00 || low >= 0xE000) {
              return FailAt(escape_at, "unpaired surrogate in \\u escape");
            }
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          } else if (cp >= 0xDC00 && cp < 0xE000) {
            return FailAt(escape_at, "unpaired surrogate in \\u escape");
          }
          AppendUtf8(out, cp);
          break;
        }
        default:
          return FailAt(escape_at,
                        absl::StrCat("bad escape \\", std::string(1, e)));
      }
    }
  }

  absl::Status Number(JsonValue& v) {
    const size_t start = pos_;
    if (text_[pos_] == '-') ++pos_;
    auto digits = [&]() {
      const size_t from = pos_;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
        ++pos_;
      }
      return pos_ - from;
    };
    const size_t int_start = pos_;
    if (digits() == 0) return Fail("expected digits in a number");
    if (text_[int_start] == '0' && pos_ - int_start > 1) {
      return FailAt(int_start, "leading zero in a number");
    }
    bool integral = true;
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      integral = false;
      if (digits() == 0) return Fail("expected digits after '.' in a number");
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      integral = false;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) {
        ++pos_;
      }
      if (digits() == 0) return Fail("expected digits in a number's exponent");
    }
    v.kind = JsonValue::Kind::kNumber;
    const std::string token(text_.substr(start, pos_ - start));
    v.number = std::strtod(token.c_str(), nullptr);
    if (integral) {
      errno = 0;
      char* end = nullptr;
      const long long x = std::strtoll(token.c_str(), &end, 10);
      if (errno == 0) {
        v.is_integer = true;
        v.integer = x;
      }
    }
    return absl::OkStatus();
  }

  absl::string_view text_;
  absl::string_view file_;
  size_t pos_ = 0;
};

}  // namespace

const JsonValue* JsonValue::Find(absl::string_view key) const {
  for (const auto& [k, v] : object) {
    if (k == key) return &v;
  }
  return nullptr;
}

const char* JsonKindName(JsonValue::Kind kind) {
  switch (kind) {
    case JsonValue::Kind::kNull:
      return "null";
    case JsonValue::Kind::kBool:
      return "a boolean";
    case JsonValue::Kind::kNumber:
      return "a number";
    case JsonValue::Kind::kString:
      return "a string";
    case JsonValue::Kind::kArray:
      return "an array";
    case JsonValue::Kind::kObject:
      return "an object";
  }
  return "a value";
}

absl::StatusOr<JsonValue> ParseJson(absl::string_view text,
                                    absl::string_view file_name) {
  return Reader(text, file_name).Document();
}

}  // namespace hlolayout

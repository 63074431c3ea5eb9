#include "hlolayout/hlo/literal.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/charconv.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/shape/primitive_type.h"

namespace hlolayout {
namespace {

// The largest finite value and the stored mantissa bits of each floating
// point type; `ieee`: NaN carries a payload (types with infinities).
struct FloatInfo {
  double max_finite;
  int mantissa_bits;
  bool ieee;
};

FloatInfo InfoOf(PrimitiveType type) {
  switch (type) {
    case F16:
      return {65504.0, 10, true};
    case BF16:
      return {3.3895313892515355e38, 7, true};
    case F32:
      return {static_cast<double>(std::numeric_limits<float>::max()), 23, true};
    case F64:
      return {std::numeric_limits<double>::max(), 52, true};
    case F8E5M2:
      return {57344.0, 2, true};
    case F8E4M3:
      return {240.0, 3, true};
    case F8E3M4:
      return {15.5, 4, true};
    case F8E4M3FN:
      return {448.0, 3, false};
    case F8E4M3B11FNUZ:
      return {30.0, 3, false};
    case F8E5M2FNUZ:
      return {57344.0, 2, false};
    case F8E4M3FNUZ:
      return {240.0, 3, false};
    case F4E2M1FN:
      return {6.0, 1, false};
    case F6E3M2FN:
      return {28.0, 2, false};
    case F6E2M3FN:
      return {7.5, 3, false};
    case F8E8M0FNU:
      return {1.7014118346046923e38, 0, false};
    default:
      return {std::numeric_limits<double>::max(), 52, true};
  }
}

// What Value needs of an element type, worked out once per literal.
struct TypeFacts {
  enum Class : uint8_t { kComplex, kPred, kInteger, kFloat };
  PrimitiveType type = PRIMITIVE_TYPE_INVALID;
  Class cls = kFloat;
  bool is_signed = false;
  int bits = 0;
  // kInteger: the largest magnitudes of positive and negative values.
  uint64_t max_positive = 0;
  uint64_t max_negative = 0;
  FloatInfo info = {0, 0, false};
  PrimitiveType component = PRIMITIVE_TYPE_INVALID;  // kComplex

  explicit TypeFacts(PrimitiveType t) : type(t) {
    if (IsComplexType(t)) {
      cls = kComplex;
      component = ComplexComponentType(t);
    } else if (t == PRED) {
      cls = kPred;
    } else if (IsIntegralType(t)) {
      cls = kInteger;
      is_signed = IsSignedIntegralType(t);
      bits = BitWidth(t);
      if (is_signed) {
        max_positive = (uint64_t{1} << (bits - 1)) - 1;
        max_negative = max_positive + 1;
      } else if (t == U64) {
        // XLA reads u64 values as int64 too, so -1 is 2^64-1 there.
        max_positive = ~uint64_t{0};
        max_negative = uint64_t{1} << 63;
      } else {
        max_positive = (uint64_t{1} << bits) - 1;
      }
    } else {
      cls = kFloat;
      info = InfoOf(t);
    }
  }
};

class Checker {
 public:
  Checker(absl::string_view text, int max_depth)
      : text_(text), max_depth_(max_depth) {}

  absl::Status Check(const Shape& shape, size_t* error_offset) {
    absl::Status status = Literal(shape, 0);
    if (status.ok()) {
      Space();
      if (pos_ < text_.size())
        status = Fail("unexpected text after the literal");
    }
    if (!status.ok()) *error_offset = error_offset_;
    return status;
  }

 private:
  absl::Status Fail(std::string message) {
    error_offset_ = std::min(pos_, text_.size());
    return absl::InvalidArgumentError(std::move(message));
  }
  char Peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void Space() {
    if (pos_ < text_.size() && text_[pos_] != ' ' && text_[pos_] != '/' &&
        text_[pos_] != '\n' && text_[pos_] != '\t' && text_[pos_] != '\r') {
      return;
    }
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        ++pos_;
      } else if (c == '/' && pos_ + 1 < text_.size() &&
                 text_[pos_ + 1] == '*') {
        const size_t close = text_.find("*/", pos_ + 2);
        pos_ = close == absl::string_view::npos ? text_.size() : close + 2;
      } else {
        break;
      }
    }
  }
  bool Elided() {
    if (text_.substr(pos_, 5) == "{...}") {
      pos_ += 5;
      return true;
    }
    return false;
  }
  absl::Status Expect(char c) {
    Space();
    if (Peek() != c) {
      return Fail(
          absl::StrCat("expected '", std::string(1, c), "' in the literal"));
    }
    ++pos_;
    return absl::OkStatus();
  }

  absl::Status Literal(const Shape& shape, int depth) {
    Space();
    if (depth >= max_depth_) return Fail("literal nested too deeply");
    if (shape.IsTuple()) {
      if (Elided()) return absl::OkStatus();
      absl::Status status = Expect('(');
      for (int64_t i = 0; status.ok() && i < shape.tuple_size(); ++i) {
        if (i > 0) status = Expect(',');
        if (status.ok()) status = Literal(shape.tuple_shape(i), depth + 1);
      }
      if (status.ok()) status = Expect(')');
      return status;
    }
    if (!shape.IsArray()) {
      // Tokens and opaque values: nothing to check.
      pos_ = text_.size();
      return absl::OkStatus();
    }
    const TypeFacts facts(shape.element_type());
    if (shape.rank() == 0) {
      return FastValue(facts) ? absl::OkStatus() : Value(facts);
    }
    if (Elided()) return absl::OkStatus();
    // One value for a whole array (`f32[8,8] constant(1)`): XLA's own tests
    // write it and read it.
    if (Peek() != '{') return Value(facts);
    index_.assign(shape.rank(), 0);
    return Array(shape, facts, 0);
  }

  absl::Status Array(const Shape& shape, const TypeFacts& facts, int64_t d) {
    Space();
    if (Elided()) return absl::OkStatus();
    if (Peek() != '{') {
      return Fail(absl::StrCat("expects nested array in rank ", shape.rank(),
                               ", but sees ", d));
    }
    ++pos_;
    const int64_t bound = shape.dimension(d);
    const bool dynamic = shape.is_dynamic_dimension(d);
    int64_t count = 0;
    Space();
    if (Peek() == '}') {
      ++pos_;
    } else {
      while (true) {
        Space();
        if (d + 1 < shape.rank()) {
          if (count < static_cast<int64_t>(index_.size())) index_[d] = count;
          absl::Status status = Array(shape, facts, d + 1);
          if (!status.ok()) return status;
        } else {
          if (Peek() == '{') {
            return Fail(absl::StrCat("expects nested array in rank ",
                                     shape.rank(), ", but sees larger"));
          }
          if (!FastValue(facts)) {
            absl::Status status = Value(facts);
            if (!status.ok()) return status;
          }
        }
        ++count;
        Space();
        if (Peek() == ',') {
          ++pos_;
          continue;
        }
        if (Peek() == '}') {
          ++pos_;
          break;
        }
        return Fail("expected ',' or '}' in the literal");
      }
    }
    const bool fits = dynamic && bound >= 0 ? count <= bound : count == bound;
    if (!fits) {
      std::string where;
      for (int64_t i = 0; i < d; ++i)
        absl::StrAppend(&where, "[", index_[i], "]");
      --pos_;  // at the closing brace
      return Fail(absl::StrCat("expects ", bound, " elements in dimension ", d,
                               where.empty() ? "" : " of element ", where,
                               ", but sees ", count));
    }
    return absl::OkStatus();
  }

  // Where a value token ends: what may follow a value in a literal.
  static bool EndsToken(char c) {
    return c == ',' || c == '}' || c == ')' || c == ' ' || c == '\n' ||
           c == '\t' || c == '\r' || c == '/';
  }
  // The usual values of arrays, without building a token: an integer in
  // range, or a plain decimal whose integer part has fewer digits than the
  // type's largest finite value. True (and past it) when the value is one
  // of those; false for anything else, which Value reads (and refuses).
  bool FastValue(const TypeFacts& facts) {
    const char* const d = text_.data();
    const size_t n = text_.size();
    size_t p = pos_;
    const bool negative = p < n && d[p] == '-';
    if (negative) ++p;
    const size_t digits = p;
    if (facts.cls == TypeFacts::kInteger) {
      uint64_t magnitude = 0;
      while (p < n && d[p] >= '0' && d[p] <= '9' && p - digits < 18) {
        magnitude = magnitude * 10 + static_cast<uint64_t>(d[p++] - '0');
      }
      if (p == digits || (p < n && !EndsToken(d[p])) ||
          magnitude > (negative ? facts.max_negative : facts.max_positive)) {
        return false;
      }
      pos_ = p;
      return true;
    }
    if (facts.cls != TypeFacts::kFloat) return false;
    while (p < n && d[p] == '0') ++p;
    bool any = p > digits;
    const size_t integer = p;
    while (p < n && d[p] >= '0' && d[p] <= '9') ++p;
    const size_t integer_digits = p - integer;
    any = any || integer_digits > 0;
    if (p < n && d[p] == '.') {
      ++p;
      const size_t fraction = p;
      while (p < n && d[p] >= '0' && d[p] <= '9') ++p;
      any = any || p > fraction;
    }
    // 10^digits <= max_finite: every value below 10^digits fits.
    static constexpr double kPowers[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5,
                                         1e6, 1e7, 1e8, 1e9, 1e10};
    if (!any || (p < n && !EndsToken(d[p])) || integer_digits > 10 ||
        kPowers[integer_digits] > facts.info.max_finite) {
      return false;
    }
    pos_ = p;
    return true;
  }

  // One scalar token, from pos_: [-]word with the characters a number, nan,
  // inf or a payload use.
  absl::string_view Token() {
    const size_t begin = pos_;
    if (Peek() == '-' || Peek() == '+') ++pos_;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      const bool exponent_sign =
          (c == '-' || c == '+') && pos_ > begin &&
          (text_[pos_ - 1] == 'e' || text_[pos_ - 1] == 'E');
      if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
          (c >= 'A' && c <= 'Z') || c == '.' || c == '_' || exponent_sign) {
        ++pos_;
      } else {
        break;
      }
    }
    // nan(0x...)
    if (Peek() == '(' && pos_ > begin &&
        absl::string_view(text_.data() + pos_ - 3, 3) == "nan") {
      const size_t close = text_.find(')', pos_);
      if (close != absl::string_view::npos) pos_ = close + 1;
    }
    return text_.substr(begin, pos_ - begin);
  }

  absl::Status Value(const TypeFacts& facts) {
    Space();
    const PrimitiveType type = facts.type;
    if (facts.cls == TypeFacts::kComplex) {
      const size_t begin = pos_;
      const TypeFacts component(facts.component);
      absl::Status status = Expect('(');
      if (status.ok()) status = Value(component);
      if (status.ok()) status = Expect(',');
      if (status.ok()) status = Value(component);
      if (status.ok()) status = Expect(')');
      if (!status.ok() && error_offset_ < begin) error_offset_ = begin;
      return status;
    }
    const size_t begin = pos_;
    const absl::string_view token = Token();
    if (token.empty()) {
      return Fail(absl::StrCat("expected a ", PrimitiveTypeName(type),
                               " value in the literal"));
    }
    absl::Status status;
    if (facts.cls == TypeFacts::kPred) {
      status =
          token == "true" || token == "false" || token == "0" || token == "1"
              ? absl::OkStatus()
              : absl::InvalidArgumentError(absl::StrCat(
                    "expected true or false, found '", token, "'"));
    } else if (facts.cls == TypeFacts::kInteger) {
      status = Integer(token, facts);
    } else {
      status = Float(token, facts);
    }
    if (!status.ok()) error_offset_ = begin;
    return status;
  }

  static absl::Status OutOfRange(absl::string_view token, PrimitiveType type) {
    return absl::InvalidArgumentError(
        absl::StrCat(token, " is out of range for literal's primitive type ",
                     PrimitiveTypeName(type)));
  }

  absl::Status Integer(absl::string_view token, const TypeFacts& facts) {
    const PrimitiveType type = facts.type;
    bool negative = false;
    absl::string_view digits = token;
    if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) {
      negative = digits[0] == '-';
      digits.remove_prefix(1);
    }
    if (digits.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("expected an integer, found '", token, "'"));
    }
    uint64_t magnitude = 0;
    for (char c : digits) {
      if (c < '0' || c > '9') {
        return absl::InvalidArgumentError(
            absl::StrCat("expected an integer, found '", token, "'"));
      }
      const uint64_t d = static_cast<uint64_t>(c - '0');
      if (magnitude > (std::numeric_limits<uint64_t>::max() - d) / 10) {
        return OutOfRange(token, type);
      }
      magnitude = magnitude * 10 + d;
    }
    const int bits = facts.bits;
    if (facts.is_signed) {
      const uint64_t max = (uint64_t{1} << (bits - 1)) - 1;
      if (negative ? magnitude > max + 1 : magnitude > max) {
        return OutOfRange(token, type);
      }
      return absl::OkStatus();
    }
    // Unsigned. XLA reads u64 values as int64 too, so -1 is 2^64-1 there.
    if (type == U64) {
      if (negative && magnitude > (uint64_t{1} << 63)) {
        return OutOfRange(token, type);
      }
      return absl::OkStatus();
    }
    const uint64_t max = (uint64_t{1} << bits) - 1;
    if ((negative && magnitude != 0) || magnitude > max) {
      return OutOfRange(token, type);
    }
    return absl::OkStatus();
  }

  absl::Status Float(absl::string_view token, const TypeFacts& facts) {
    const PrimitiveType type = facts.type;
    absl::string_view body = token;
    if (!body.empty() && (body[0] == '-' || body[0] == '+')) {
      body.remove_prefix(1);
    }
    const FloatInfo& info = facts.info;
    if (body == "inf") return absl::OkStatus();
    if (body.substr(0, 3) == "nan") {
      if (body.size() == 3) return absl::OkStatus();
      // nan(0xPAYLOAD)
      if (body.size() < 8 || body.substr(3, 3) != "(0x" || body.back() != ')') {
        return absl::InvalidArgumentError(
            absl::StrCat("expected nan(0xPAYLOAD), found '", token, "'"));
      }
      uint64_t payload = 0;
      for (char c : body.substr(6, body.size() - 7)) {
        int d;
        if (c >= '0' && c <= '9') {
          d = c - '0';
        } else if (c >= 'a' && c <= 'f') {
          d = c - 'a' + 10;
        } else if (c >= 'A' && c <= 'F') {
          d = c - 'A' + 10;
        } else {
          return absl::InvalidArgumentError(
              absl::StrCat("expected a hex NaN payload, found '", token, "'"));
        }
        if (payload >> 60 != 0) payload = ~uint64_t{0} >> 1;
        payload = payload * 16 + d;
      }
      const bool fits = info.ieee && payload != 0 && info.mantissa_bits < 64 &&
                        payload < (uint64_t{1} << info.mantissa_bits);
      if (!fits) {
        return absl::InvalidArgumentError(
            absl::StrCat("a ", PrimitiveTypeName(type),
                         " NaN cannot carry payload 0x", absl::Hex(payload)));
      }
      return absl::OkStatus();
    }
    // Most values: a plain decimal whose integer part has fewer digits than
    // the type's largest finite value; in range without converting it.
    {
      size_t p = 0;
      while (p < body.size() && body[p] == '0') ++p;
      size_t digits = 0;
      while (p < body.size() && body[p] >= '0' && body[p] <= '9') {
        ++p;
        ++digits;
      }
      if (p < body.size() && body[p] == '.') {
        ++p;
        while (p < body.size() && body[p] >= '0' && body[p] <= '9') ++p;
      }
      // 10^digits <= max_finite: every value below 10^digits fits.
      static constexpr double kPowers[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5,
                                           1e6, 1e7, 1e8, 1e9, 1e10};
      if (p == body.size() && !body.empty() && digits <= 10 &&
          kPowers[digits] <= info.max_finite) {
        return absl::OkStatus();
      }
    }
    double value = 0;
    const absl::from_chars_result result =
        absl::from_chars(token.data() + (token[0] == '+' ? 1 : 0),
                         token.data() + token.size(), value);
    if (result.ptr != token.data() + token.size() ||
        (result.ec != std::errc() &&
         result.ec != std::errc::result_out_of_range)) {
      return absl::InvalidArgumentError(
          absl::StrCat("expected a ", PrimitiveTypeName(type),
                       " value, found '", token, "'"));
    }
    if (result.ec == std::errc::result_out_of_range) {
      // Too large (too small rounds to zero, which XLA accepts).
      bool huge = false;
      for (char c : token) {
        if (c == 'e' || c == 'E') {
          huge = token.find('-', &c - token.data()) == absl::string_view::npos;
          break;
        }
      }
      if (huge || std::isinf(value)) return OutOfRange(token, type);
      return absl::OkStatus();
    }
    // Out of range: what rounds past the largest finite value (at or above
    // it plus half a unit in its last place; -65520 for f16). Printed
    // values such as f32's 3.40282347e+38 round to it and are fine.
    const double half_ulp =
        std::ldexp(1.0, std::ilogb(info.max_finite) - info.mantissa_bits - 1);
    if (std::isinf(value) ||
        (type != F64 && std::fabs(value) >= info.max_finite + half_ulp)) {
      return OutOfRange(token, type);
    }
    return absl::OkStatus();
  }

  absl::string_view text_;
  int max_depth_;
  size_t pos_ = 0;
  size_t error_offset_ = 0;
  std::vector<int64_t> index_;
};

}  // namespace

absl::Status CheckHloLiteral(absl::string_view literal, const Shape& shape,
                             size_t* error_offset, int max_depth) {
  return Checker(literal, max_depth).Check(shape, error_offset);
}

}  // namespace hlolayout

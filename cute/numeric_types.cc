// cute/numeric_types.cc: the table of element widths.
#include "hlolayout/cute/numeric_types.h"

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"

namespace hlolayout::cute {

namespace {

struct NumericType {
  const char* name;
  int bits;
};

constexpr NumericType kTypes[] = {
    {"bool", 8},          {"uint1_t", 1},           {"bin1_t", 1},
    {"int2_t", 2},        {"uint2_t", 2},           {"int4_t", 4},
    {"uint4_t", 4},       {"float_e2m1_t", 4},      {"float_e2m3_t", 6},
    {"float_e3m2_t", 6},  {"uint6_t", 6},           {"int8_t", 8},
    {"uint8_t", 8},       {"float_e4m3_t", 8},      {"float_e5m2_t", 8},
    {"float_ue4m3_t", 8}, {"float_ue8m0_t", 8},     {"half_t", 16},
    {"bfloat16_t", 16},   {"int16_t", 16},          {"uint16_t", 16},
    {"float", 32},        {"tfloat32_t", 32},       {"int32_t", 32},
    {"uint32_t", 32},     {"complex<half_t>", 32},  {"double", 64},
    {"int64_t", 64},      {"uint64_t", 64},         {"complex<float>", 64},
    {"uint128_t", 128},   {"complex<double>", 128},
};

}  // namespace

absl::StatusOr<int> SizeofBits(absl::string_view type) {
  for (const NumericType& t : kTypes) {
    if (type == t.name) return t.bits;
  }
  absl::string_view inner = type;
  if (absl::ConsumePrefix(&inner, "uint_bit_t<") &&
      absl::ConsumeSuffix(&inner, ">")) {
    type = inner;
  }
  int bits;
  if (absl::SimpleAtoi(type, &bits) && bits > 0 && bits <= 4096) return bits;
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown element type '", type, "' (known: ",
      absl::StrJoin(KnownNumericTypes(), ", "), ", or a number of bits)"));
}

std::vector<std::string> KnownNumericTypes() {
  std::vector<std::string> out;
  for (const NumericType& t : kTypes) out.push_back(t.name);
  return out;
}

}  // namespace hlolayout::cute

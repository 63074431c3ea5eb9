#include "hlolayout/util/bytes.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace hlolayout {
namespace {

constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

// `bytes` >= 1024 in the largest unit it reaches: the value and the unit's
// index.
double Scaled(int64_t bytes, int* unit) {
  double value = static_cast<double>(bytes);
  *unit = -1;
  while (value >= 1024.0 && *unit < 5) {
    value /= 1024.0;
    ++*unit;
  }
  return value;
}

}  // namespace

std::string ShortBytes(int64_t bytes) {
  if (bytes < 1024) return absl::StrCat(bytes, " B");
  int unit = 0;
  const double value = Scaled(bytes, &unit);
  return absl::StrFormat("%.1f %s", value, kUnits[unit]);
}

std::string BytesWithTotal(int64_t bytes) {
  if (bytes < 1024) return absl::StrCat(bytes, " B");
  int unit = 0;
  const double value = Scaled(bytes, &unit);
  return absl::StrFormat("%.1f %s (%d B)", value, kUnits[unit], bytes);
}

std::string BytesWithUnit(int64_t bytes) {
  // The magnitude in 64 unsigned bits: -INT64_MIN is not an int64.
  std::string digits = absl::StrCat(bytes < 0 ? 0 - static_cast<uint64_t>(bytes)
                                              : static_cast<uint64_t>(bytes));
  for (int64_t k = static_cast<int64_t>(digits.size()) - 3; k > 0; k -= 3) {
    digits.insert(static_cast<size_t>(k), ",");
  }
  if (bytes < 0) digits = "-" + digits;
  if (bytes > -1024 && bytes < 1024) return absl::StrCat(digits, " bytes");
  double x = static_cast<double>(bytes) / 1024.0;
  int unit = 0;
  while ((x >= 1024.0 || x <= -1024.0) && unit < 5) {
    x /= 1024.0;
    ++unit;
  }
  return absl::StrFormat("%.2f %s (%s bytes)", x, kUnits[unit], digits);
}

std::string CompactBytes(int64_t bytes) {
  const auto scaled = [&](int64_t unit, const char* suffix) {
    // Whole units and the rest apart: bytes * 10 passes int64 from 0.8 EiB
    // on (a TTNN shard of 2^62 bytes is a spec tt-metal describes).
    const int64_t tenths =
        bytes / unit * 10 + (bytes % unit * 10 + unit / 2) / unit;
    return tenths % 10 == 0 || tenths >= 100
               ? absl::StrCat((tenths + 5) / 10, suffix)
               : absl::StrCat(tenths / 10, ".", tenths % 10, suffix);
  };
  if (bytes < 1024) return absl::StrCat(bytes, "B");
  if (bytes < (int64_t{1} << 20)) return scaled(1024, "K");
  if (bytes < (int64_t{1} << 30)) return scaled(int64_t{1} << 20, "M");
  return scaled(int64_t{1} << 30, "G");
}

std::string PercentOf(int64_t part, int64_t whole) {
  if (whole == 0) return "0.0%";
  return absl::StrFormat(
      "%.1f%%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

}  // namespace hlolayout

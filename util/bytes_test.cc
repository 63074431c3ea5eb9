#include "hlolayout/util/bytes.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace hlolayout {
namespace {

TEST(Bytes, ShortBytes) {
  EXPECT_EQ(ShortBytes(0), "0 B");
  EXPECT_EQ(ShortBytes(1023), "1023 B");
  EXPECT_EQ(ShortBytes(1024), "1.0 KiB");
  EXPECT_EQ(ShortBytes(20480), "20.0 KiB");
  EXPECT_EQ(ShortBytes(int64_t{3} << 30), "3.0 GiB");
  EXPECT_EQ(ShortBytes(INT64_MAX), "8.0 EiB");
}

TEST(Bytes, BytesWithTotal) {
  EXPECT_EQ(BytesWithTotal(512), "512 B");
  EXPECT_EQ(BytesWithTotal(20480), "20.0 KiB (20480 B)");
  EXPECT_EQ(BytesWithTotal(int64_t{3} << 30), "3.0 GiB (3221225472 B)");
}

TEST(Bytes, CompactBytes) {
  EXPECT_EQ(CompactBytes(0), "0B");
  EXPECT_EQ(CompactBytes(1023), "1023B");
  EXPECT_EQ(CompactBytes(1024), "1K");
  EXPECT_EQ(CompactBytes(1536), "1.5K");
  EXPECT_EQ(CompactBytes(176128), "172K");
  EXPECT_EQ(CompactBytes(2097152), "2M");
  EXPECT_EQ(CompactBytes(1114112), "1.1M");
  EXPECT_EQ(CompactBytes(int64_t{3} << 30), "3G");
  // Past 0.8 EiB, bytes * 10 no longer fits 64 bits (it wrapped to a
  // negative count of tenths: "1844674406511961702.4G" for 2^62).
  EXPECT_EQ(CompactBytes(int64_t{1} << 62), "4294967296G");
  EXPECT_EQ(CompactBytes(std::numeric_limits<int64_t>::max()), "8589934592G");
}

// The same rounding as a 128-bit reference, for every size up to 64 KiB and
// around every unit's boundaries and the top of int64.
TEST(Bytes, CompactBytesRoundsAsWideArithmetic) {
  const auto reference = [](int64_t bytes) -> std::string {
    if (bytes < 1024) return absl::StrCat(bytes, "B");
    const int shift = bytes < (int64_t{1} << 20)   ? 10
                      : bytes < (int64_t{1} << 30) ? 20
                                                   : 30;
    const __int128 unit = __int128{1} << shift;
    const int64_t tenths =
        static_cast<int64_t>((__int128{bytes} * 10 + unit / 2) / unit);
    const char* suffix = shift == 10 ? "K" : shift == 20 ? "M" : "G";
    return tenths % 10 == 0 || tenths >= 100
               ? absl::StrCat((tenths + 5) / 10, suffix)
               : absl::StrCat(tenths / 10, ".", tenths % 10, suffix);
  };
  std::vector<int64_t> sizes;
  for (int64_t b = 0; b <= 65536; ++b) sizes.push_back(b);
  for (int shift = 10; shift <= 62; ++shift) {
    const int64_t p = int64_t{1} << shift;
    for (int64_t d = -1100; d <= 1100; ++d) sizes.push_back(p + d);
  }
  for (int64_t d = 0; d < 4096; ++d) {
    sizes.push_back(std::numeric_limits<int64_t>::max() - d);
  }
  for (const int64_t b : sizes) {
    ASSERT_EQ(CompactBytes(b), reference(b)) << b;
  }
}

TEST(Bytes, BytesWithUnit) {
  EXPECT_EQ(BytesWithUnit(0), "0 bytes");
  EXPECT_EQ(BytesWithUnit(1023), "1,023 bytes");
  EXPECT_EQ(BytesWithUnit(-1023), "-1,023 bytes");
  EXPECT_EQ(BytesWithUnit(1024), "1.00 KiB (1,024 bytes)");
  EXPECT_EQ(BytesWithUnit(-2048), "-2.00 KiB (-2,048 bytes)");
  // The extremes (negating INT64_MIN was undefined behaviour).
  EXPECT_EQ(BytesWithUnit(std::numeric_limits<int64_t>::min()),
            "-8.00 EiB (-9,223,372,036,854,775,808 bytes)");
  EXPECT_EQ(BytesWithUnit(std::numeric_limits<int64_t>::max()),
            "8.00 EiB (9,223,372,036,854,775,807 bytes)");
  EXPECT_EQ(BytesWithUnit(22056980), "21.04 MiB (22,056,980 bytes)");
  EXPECT_EQ(BytesWithUnit(int64_t{3} << 40),
            "3.00 TiB (3,298,534,883,328 bytes)");
}

TEST(BytesTest, PercentOf) {
  EXPECT_EQ(PercentOf(512, 2048), "25.0%");
  EXPECT_EQ(PercentOf(1, 3), "33.3%");
  EXPECT_EQ(PercentOf(7, 0), "0.0%");
  EXPECT_EQ(PercentOf(2048, 2048), "100.0%");
}

}  // namespace
}  // namespace hlolayout

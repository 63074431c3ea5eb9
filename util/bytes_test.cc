#include "hlolayout/util/bytes.h"

#include <cstdint>

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

TEST(Bytes, BytesWithUnit) {
  EXPECT_EQ(BytesWithUnit(0), "0 bytes");
  EXPECT_EQ(BytesWithUnit(1023), "1,023 bytes");
  EXPECT_EQ(BytesWithUnit(-1023), "-1,023 bytes");
  EXPECT_EQ(BytesWithUnit(1024), "1.00 KiB (1,024 bytes)");
  EXPECT_EQ(BytesWithUnit(-2048), "-2.00 KiB (-2,048 bytes)");
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

#include "hlolayout/layout/memory_space.h"

#include "gtest/gtest.h"

namespace hlolayout {
namespace {

TEST(MemorySpace, KnownNames) {
  EXPECT_EQ(MemorySpaceName(0), "default device memory (HBM)");
  EXPECT_EQ(MemorySpaceName(1), "alternate fast memory (VMEM on TPU)");
  EXPECT_EQ(MemorySpaceName(5), "host memory");
  EXPECT_EQ(MemorySpaceKey(1), "vmem");
}

TEST(MemorySpace, OthersAreDeviceSpecific) {
  EXPECT_EQ(MemorySpaceName(2), "device-specific memory space 2");
  EXPECT_EQ(MemorySpaceName(-3), "device-specific memory space -3");
  EXPECT_EQ(MemorySpaceKey(3), "s3");
}

}  // namespace
}  // namespace hlolayout

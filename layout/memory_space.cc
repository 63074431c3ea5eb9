#include "hlolayout/layout/memory_space.h"

#include "absl/strings/str_cat.h"

namespace hlolayout {

std::string MemorySpaceName(int64_t space) {
  switch (space) {
    case 0:
      return "default device memory (HBM)";
    case 1:
      return "alternate fast memory (VMEM on TPU)";
    case 5:
      return "host memory";
    default:
      return absl::StrCat("device-specific memory space ", space);
  }
}

std::string MemorySpaceKey(int64_t space) {
  switch (space) {
    case 0:
      return "hbm";
    case 1:
      return "vmem";
    case 5:
      return "host";
    default:
      return absl::StrCat("s", space);
  }
}

}  // namespace hlolayout

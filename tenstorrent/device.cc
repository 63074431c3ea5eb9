#include "hlolayout/tenstorrent/device.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "hlolayout/util/edit_distance.h"

namespace hlolayout::tenstorrent {
namespace {

constexpr int64_t kGiB = int64_t{1} << 30;

// The numbers and their sources: docs/ttnn.md, "Devices".
constexpr Device kDevices[] = {
    {"wormhole_n150", "n150", "Wormhole B0", 1, 8, 8, 1499136, 1463968, 6, 12,
     kGiB, 16, 32},
    {"wormhole_n300", "n300", "Wormhole B0", 2, 8, 7, 1499136, 1463968, 6, 12,
     kGiB, 16, 32},
    {"blackhole_p100", "p100", "Blackhole", 1, 11, 10, 1572864, 1531776, 7, 7,
     4278190080, 16, 64},
    {"blackhole_p150", "p150", "Blackhole", 1, 13, 10, 1572864, 1531776, 8, 8,
     4278190080, 16, 64},
};

// "1 GiB" for whole GiB, "3.98 GiB" otherwise.
std::string GiB(int64_t bytes) {
  if (bytes % kGiB == 0) return absl::StrCat(bytes / kGiB, " GiB");
  const int64_t hundredths = (bytes * 100 + kGiB / 2) / kGiB;
  return absl::StrCat(hundredths / 100, ".", hundredths % 100 / 10,
                      hundredths % 10, " GiB");
}

std::string Canonical(absl::string_view name) {
  std::string s = absl::AsciiStrToLower(absl::StripAsciiWhitespace(name));
  absl::StrReplaceAll({{"-", "_"}}, &s);
  return s;
}

}  // namespace

DeviceParams Device::params() const {
  DeviceParams p;
  p.l1_alignment = l1_alignment;
  p.dram_alignment = dram_alignment;
  p.l1_banks = num_cores();
  p.dram_banks = dram_banks;
  return p;
}

std::string Device::Summary() const {
  return absl::StrCat(
      name, " (", arch, ", ", chips, chips == 1 ? " chip" : " chips",
      "): ", grid_x, "x", grid_y, " worker cores, ", l1_bytes_per_core,
      " bytes of L1 each (", l1_usable_per_core, " for buffers), ", dram_banks,
      " DRAM banks of ", GiB(dram_bank_bytes), " on ", dram_channels,
      " channels (", GiB(dram_bytes()), chips == 1 ? "" : " per chip", ")");
}

absl::Span<const Device> KnownDevices() { return kDevices; }

const Device& DefaultDevice() { return kDevices[0]; }

absl::StatusOr<const Device*> FindDevice(absl::string_view name) {
  const std::string want = Canonical(name);
  std::vector<std::string> names;
  for (const Device& d : kDevices) {
    if (want == d.name || want == d.board) return &d;
    names.emplace_back(d.name);
    names.emplace_back(d.board);
  }
  std::string message = absl::StrCat("unknown device '", name, "'");
  std::vector<std::string> near = NearestNames(want, names, 1);
  if (!near.empty() && CloseEnough(want, near[0])) {
    absl::StrAppend(&message, "; did you mean '", near[0], "'?");
  }
  std::vector<std::string> full;
  for (const Device& d : kDevices) full.emplace_back(d.name);
  absl::StrAppend(&message, " (", absl::StrJoin(full, ", "),
                  ", or the board alone: n150, ...)");
  return absl::InvalidArgumentError(message);
}

}  // namespace hlolayout::tenstorrent

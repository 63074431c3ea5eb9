// tenstorrent/device.h: the Tenstorrent boards both Tenstorrent models are
// computed for, and the device numbers a tensor's placement needs: the
// vocabulary the TTNN model (ttnn/: TensorSpec, the fit check of
// ttnn/device.h) and tt-mlir's layouts (ttmlir/: the default worker grid
// and DRAM banks) share.
//
// The boards are the Wormhole n150 and n300 and the Blackhole p100 and p150:
// their worker grid, L1 per core and the part of it buffers may use, DRAM
// banks, channels and sizes, alignments (docs/ttnn.md "Devices" gives each
// number's source in tt-metal).
//
//   const Device& d = *FindDevice("n150");   // wormhole_n150
//   d.grid_x == 8; d.dram_banks == 12; d.params().l1_banks == 64
#ifndef HLOLAYOUT_TENSTORRENT_DEVICE_H_
#define HLOLAYOUT_TENSTORRENT_DEVICE_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "hlolayout/tenstorrent/buffer.h"

namespace hlolayout::tenstorrent {

// The device numbers the TTNN model's TensorSpec needs. The defaults are a
// Wormhole n150's (8x8 worker cores, 12 DRAM banks, L1 alignment 16 and DRAM 32
// bytes), the ones the test data was computed with.
struct DeviceParams {
  int64_t l1_alignment = 16;
  int64_t dram_alignment = 32;
  int64_t l1_banks = 64;
  int64_t dram_banks = 12;

  int64_t page_alignment(BufferType t) const {
    return t == BufferType::kL1 ? l1_alignment : dram_alignment;
  }
  int64_t num_banks(BufferType t) const {
    return t == BufferType::kL1 ? l1_banks : dram_banks;
  }
};

struct Device {
  absl::string_view name;   // "wormhole_n150"
  absl::string_view board;  // "n150"
  absl::string_view arch;   // "Wormhole B0"
  int64_t chips = 1;        // on the board; each chip is one TTNN device
  // The worker (compute-with-storage) grid of one chip: cores (0,0) to
  // (grid_x-1, grid_y-1); L1 sharded and L1 interleaved buffers use these.
  int64_t grid_x = 0;
  int64_t grid_y = 0;
  int64_t l1_bytes_per_core = 0;   // a worker core's L1
  int64_t l1_usable_per_core = 0;  // what buffers may use, above firmware
  int64_t dram_channels = 0;       // GDDR6 channels of one chip
  int64_t dram_banks = 0;          // interleaving banks of one chip
  int64_t dram_bank_bytes = 0;
  int64_t l1_alignment = 0;
  int64_t dram_alignment = 0;

  int64_t num_cores() const { return grid_x * grid_y; }
  int64_t dram_bytes() const { return dram_banks * dram_bank_bytes; }
  // The numbers TensorSpec::Make needs: the alignments, one L1 bank per
  // worker core, the DRAM banks.
  DeviceParams params() const;
  // One line: "wormhole_n150 (Wormhole B0, 1 chip): 8x8 worker cores,
  // 1499136 bytes of L1 each (1463968 for buffers), 12 DRAM banks of 1 GiB
  // on 6 channels (12 GiB)".
  std::string Summary() const;
};

// Every device, the default (wormhole_n150) first.
absl::Span<const Device> KnownDevices();
const Device& DefaultDevice();

// By name: "wormhole_n150" or the board alone ("n150"), any case, '-' for
// '_'. Errors: an unknown name, with the nearest names and the list.
absl::StatusOr<const Device*> FindDevice(absl::string_view name);

}  // namespace hlolayout::tenstorrent

#endif  // HLOLAYOUT_TENSTORRENT_DEVICE_H_

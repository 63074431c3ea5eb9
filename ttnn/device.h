// ttnn/device.h: the Tenstorrent boards a TTNN spec is checked against, and
// the check: does the tensor fit the device it is meant for?
//
// tt-metal's TensorSpec accepts any grid and any shard size; only the
// allocator, on the device, finds that a shard of 2 MiB does not fit a
// core's 1.4 MiB of L1 or that core (9,9) is not on an 8x8 grid. This file
// names the devices (Wormhole n150 and n300, Blackhole p100 and p150: their
// worker grid, L1 per core and the part of it buffers may use, DRAM banks,
// channels and sizes, alignments; docs/ttnn.md "Devices" gives each number's
// source in tt-metal) and checks a spec against one:
//
//   const Device& d = *FindDevice("n150");          // wormhole_n150
//   TensorSpec s = *TensorSpec::Make(in, d.params());
//   absl::StatusOr<FitReport> fit = CheckFit(s, d);
//   // refused (rule device-l1): "each core holds 2097152 bytes (shard [8192,
//   // 128] of bfloat16 in 32x32 tiles), more than the 1463968 bytes of L1 a
//   // wormhole_n150 core has for buffers"
//   // refused (rule device-grid): "the grid (0,0)-(9,9) reaches core (9,9),
//   // outside wormhole_n150's 8x8 worker grid (0,0)-(7,7)"
//   fit->warnings  // "borderline": more than 3/4 of the usable L1 or DRAM bank
#ifndef HLOLAYOUT_TTNN_DEVICE_H_
#define HLOLAYOUT_TTNN_DEVICE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "hlolayout/ttnn/tensor_spec.h"

namespace hlolayout::ttnn {

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

struct FitReport {
  std::vector<std::string> warnings;  // borderline, not refused
};

// Whether `spec` fits `device`. Refused (InvalidArgument with rule
// device-grid, device-l1 or device-dram): an L1 grid reaching a core
// outside the worker grid; more bytes on one L1 bank (core) than its usable
// L1, or on one DRAM bank than the bank holds. Warned: more than 3/4 of
// either, and a DRAM-sharded grid wider than the DRAM banks (a DRAM
// shard's "cores" are DRAM banks: (0,0) to (banks-1,0)).
absl::StatusOr<FitReport> CheckFit(const TensorSpec& spec,
                                   const Device& device);

}  // namespace hlolayout::ttnn

#endif  // HLOLAYOUT_TTNN_DEVICE_H_

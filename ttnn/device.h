// ttnn/device.h: the check of a TTNN spec against the Tenstorrent board it is
// meant for (the boards: tenstorrent/device.h): does the tensor fit?
//
// tt-metal's TensorSpec accepts any grid and any shard size; only the
// allocator, on the device, finds that a shard of 2 MiB does not fit a
// core's 1.4 MiB of L1 or that core (9,9) is not on an 8x8 grid. This file
// checks a spec against one of the devices tenstorrent/device.h names:
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
#include "hlolayout/tenstorrent/device.h"
#include "hlolayout/ttnn/tensor_spec.h"

namespace hlolayout::ttnn {

// The boards and their numbers are the shared vocabulary
// (tenstorrent/device.h).
using tenstorrent::DefaultDevice;
using tenstorrent::Device;
using tenstorrent::FindDevice;
using tenstorrent::KnownDevices;

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

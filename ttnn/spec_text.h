// ttnn/spec_text.h: a TTNN tensor spec checked against a device, and its
// answer in words (what `hlolayout ttnn spec` prints and hl.ttnn's
// TensorSpec shows in Jupyter).
//
//   TensorSpecInput in;
//   in.shape = {64, 64};  // bfloat16, TILE, DRAM interleaved
//   DeviceChoice device;  // the default: a Wormhole n150
//   CheckedSpec c = *CheckSpec(in, device);
//   std::string text = SpecText(in, c, device, /*full=*/false);
//   // bfloat16[64, 64] TILE 32x32, DRAM INTERLEAVED
//   // device            wormhole_n150 (Wormhole B0, 1 chip): ...
//   // memory layout     INTERLEAVED
//   // ...
#ifndef HLOLAYOUT_TTNN_SPEC_TEXT_H_
#define HLOLAYOUT_TTNN_SPEC_TEXT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "hlolayout/ttnn/device.h"
#include "hlolayout/ttnn/tensor_spec.h"

namespace hlolayout::ttnn {

// The device a spec is checked against and the numbers TensorSpec takes
// from it (each may differ from the device's own: the CLI's
// --l1-alignment, ... and hl.ttnn.DeviceParams override them).
struct DeviceChoice {
  const Device* device = &DefaultDevice();
  bool named = false;     // named by the user (else the default)
  bool check_fit = true;  // false: "none", tt-metal's TensorSpec alone
  DeviceParams params = DefaultDevice().params();
};

// A spec tt-metal accepts and that fits the device, with the device's
// warnings (borderline fits).
struct CheckedSpec {
  TensorSpec spec;
  std::vector<std::string> warnings;
};

// CheckSpec
//
// TensorSpec::Make with the choice's numbers, then CheckFit against its
// device (unless check_fit is false): the first refusal of either. `in`
// is taken by value: a caller done with its input moves it in.
absl::StatusOr<CheckedSpec> CheckSpec(TensorSpecInput in,
                                      const DeviceChoice& device);

// DeviceLine
//
// "wormhole_n150 (Wormhole B0, 1 chip): 8x8 worker cores, ...; the default
// (--device)", or for no check "none (--device none: no device check; the
// numbers of a wormhole_n150)".
std::string DeviceLine(const DeviceChoice& device);

// SpecSummary
//
// A one-line summary of a spec for messages and titles: "bfloat16[272, 58]
// TILE 32x32, L1 HEIGHT_SHARDED".
std::string SpecSummary(const TensorSpecInput& in);

// SpecText
//
// The spec in words, one field a line: the summary, the device and its
// warnings, the memory layout, alignment, padded, logical 2-D and physical
// shapes, the page, strides, bytes per bank, and for sharded specs the
// shard spec and which core holds which host pages (the first 16 cores and
// 12 pages each; every one with `full`). Ends with a newline.
std::string SpecText(const TensorSpecInput& in, const CheckedSpec& checked,
                     const DeviceChoice& device, bool full);

}  // namespace hlolayout::ttnn

#endif  // HLOLAYOUT_TTNN_SPEC_TEXT_H_

// cli/ttnn_input.h: the TTNN tensor spec a `hlolayout ttnn` subcommand is
// given, from flags or from JSON.
//
//   hlolayout ttnn spec --shape 272,58 --dtype bfloat16 --layout TILE
//       --memory-layout HEIGHT_SHARDED --buffer-type L1 --grid 0,0-2,0
//       --shard-shape 96,64 --orientation COL_MAJOR
//   hlolayout ttnn spec --spec specs.jsonl      # JSON object or JSON lines
//   echo '{"shape": [64, 64]}' | hlolayout ttnn spec --spec -
//
// --grid takes core ranges "X0,Y0-X1,Y1" separated by ';' (in that order),
// or "WxH" for (0,0)-(W-1,H-1). --shard-shape with --memory-layout
// ND_SHARDED (or --distribution) is an NdShardSpec, else a 2-D ShardSpec;
// a 2-D one without --shard-shape is derived (ttnn/sharded_config.h).
// --device names the device (ttnn/device.h; wormhole_n150 by default).
#ifndef HLOLAYOUT_CLI_TTNN_INPUT_H_
#define HLOLAYOUT_CLI_TTNN_INPUT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/command.h"
#include "hlolayout/ttnn/core_range.h"
#include "hlolayout/ttnn/device.h"
#include "hlolayout/ttnn/spec_text.h"
#include "hlolayout/ttnn/tensor_spec.h"

namespace hlolayout::cli {

// The valued flags every `ttnn` subcommand takes for its spec.
absl::Span<const absl::string_view> TtnnSpecFlags();

// The help lines for them, for the "flags:" section of each subcommand's
// help (a string literal, ends with a newline).
extern const char kTtnnSpecFlagsHelp[];

struct TtnnInputs {
  std::vector<ttnn::TensorSpecInput> specs;
  // The device (--device, else the default; "none": no fit check) and the
  // numbers TensorSpec takes from it, each overridden by its flag
  // (--l1-alignment, ...).
  ttnn::DeviceChoice device;
};

// The specs: from --spec FILE|-|JSON, or `spec_arg` (a positional argument,
// the same forms), or else the flags (--shape needed). Errors: both or
// neither given, bad flag values, bad JSON (located).
absl::StatusOr<TtnnInputs> ReadTtnnInputs(const Args& args,
                                          const std::string* spec_arg,
                                          IoContext& io);

// "0,0-7,0;0,1-3,1" or "8x8".
absl::StatusOr<ttnn::CoreRangeSet> ParseCoreGrid(absl::string_view text);

// "3,4,5" or "3x4x5" -> {3, 4, 5} (empty text: rank 0).
absl::StatusOr<std::vector<int64_t>> ParseDims(absl::string_view text,
                                               absl::string_view what);

}  // namespace hlolayout::cli

#endif  // HLOLAYOUT_CLI_TTNN_INPUT_H_

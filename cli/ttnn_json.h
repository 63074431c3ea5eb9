// cli/ttnn_json.h: the JSON of `hlolayout ttnn spec/locate/mesh --json`.
//
// A spec prints the fields of the TTNN test data's "output", with
// tt-metal's names, keys in alphabetical order:
//   {"alignment": [32, 32], "consumed_bytes_per_bank": {"bytes": 12288,
//    "num_banks": 64, "page_alignment": 16}, "distribution": {...},
//    "logical_2d_shape": [272, 58], "memory_layout": "HEIGHT_SHARDED", ...}
// A refusal prints {"error": "<the rule in words>", "rule": "<its name>"}.
// docs/ttnn.md lists every key.
#ifndef HLOLAYOUT_CLI_TTNN_JSON_H_
#define HLOLAYOUT_CLI_TTNN_JSON_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "hlolayout/ttnn/locate.h"
#include "hlolayout/ttnn/mesh.h"
#include "hlolayout/ttnn/tensor_spec.h"
#include "hlolayout/util/json_writer.h"

namespace hlolayout::cli {

// How much of the distribution to print: the cores (first `cores`), the
// page mapping of the first `mapped_cores` cores and their first `pages`
// host pages. -1: all. The defaults are the test data's.
struct TtnnJsonLimits {
  int64_t cores = 64;
  int64_t mapped_cores = 16;
  int64_t pages = 8;
};

// hlolayout's own keys beside tt-metal's: "device" (the device the spec
// was checked against) and "warnings" (ttnn/device.h's CheckFit; only when
// there are some). "shard_shape_derived": true comes from the spec itself.
struct TtnnSpecNotes {
  std::string device;
  std::vector<std::string> warnings;
};

void WriteTtnnSpecJson(const ttnn::TensorSpec& spec,
                       const TtnnJsonLimits& limits, JsonWriter& json,
                       const TtnnSpecNotes* notes = nullptr);
std::string TtnnSpecJson(const ttnn::TensorSpec& spec,
                         const TtnnJsonLimits& limits = {},
                         const TtnnSpecNotes* notes = nullptr);

// {"error": message, "rule": name} ("rule" only for the model's refusals).
std::string TtnnRefusalJson(const absl::Status& status);

std::string TtnnPlaceJson(const ttnn::TensorSpec& spec,
                          const ttnn::ElementPlace& place);

// The mesh distribution and, for the slices, their spec (or its refusal).
std::string TtnnMeshJson(const ttnn::MeshDistribution& mesh,
                         absl::Span<const ttnn::MeshPlacement> placements,
                         const absl::StatusOr<ttnn::TensorSpec>& slice_spec,
                         const TtnnJsonLimits& limits = {});

}  // namespace hlolayout::cli

#endif  // HLOLAYOUT_CLI_TTNN_JSON_H_

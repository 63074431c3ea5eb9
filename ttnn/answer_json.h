// ttnn/answer_json.h: the answers of the TTNN model as JSON (what
// `hlolayout ttnn spec/locate/mesh --json` print and hl.ttnn's to_dict,
// locate and mesh give back).
//
//   TensorSpecInput in;
//   in.shape = {64, 64};  // bfloat16, TILE, DRAM interleaved
//   std::string j = SpecJson(*TensorSpec::Make(in));
//   // {"alignment": [32, 32], "consumed_bytes_per_bank": {"bytes": 2048, ...
//
// A spec prints the fields of the TTNN test data's "output", with
// tt-metal's names, keys in alphabetical order (the SpecAnswer record of
// ttnn/spec_record.h, which also gives hl.ttnn's to_dict()):
//   {"alignment": [32, 32], "consumed_bytes_per_bank": {"bytes": 12288,
//    "num_banks": 64, "page_alignment": 16}, "distribution": {...},
//    "logical_2d_shape": [272, 58], "memory_layout": "HEIGHT_SHARDED", ...}
// A refusal prints {"error": "<the rule in words>", "rule": "<its name>"}.
// docs/ttnn.md lists every key.
#ifndef HLOLAYOUT_TTNN_ANSWER_JSON_H_
#define HLOLAYOUT_TTNN_ANSWER_JSON_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "hlolayout/ttnn/locate.h"
#include "hlolayout/ttnn/mesh.h"
#include "hlolayout/ttnn/spec_record.h"
#include "hlolayout/ttnn/tensor_spec.h"

namespace hlolayout::ttnn {

// SpecJson
//
// The spec's SpecAnswer record (ttnn/spec_record.h) as one line of JSON;
// `notes`, when given, adds "device" and "warnings".
std::string SpecJson(const TensorSpec& spec, const JsonLimits& limits = {},
                     const SpecNotes* notes = nullptr);

// RefusalJson
//
// {"error": message, "rule": name} ("rule" only for the model's refusals).
std::string RefusalJson(const absl::Status& status);

// PlaceJson
//
// Where one element lives (ttnn/locate.h): {"index", "host_page",
// "in_page", "byte_in_page", "buffer_type", "bank"/"core", "offset", ...}.
std::string PlaceJson(const TensorSpec& spec, const ElementPlace& place);

// MeshJson
//
// The mesh distribution and, for the slices, their spec (or its refusal).
std::string MeshJson(const MeshDistribution& mesh,
                     absl::Span<const MeshPlacement> placements,
                     const absl::StatusOr<TensorSpec>& slice_spec,
                     const JsonLimits& limits = {});

}  // namespace hlolayout::ttnn

#endif  // HLOLAYOUT_TTNN_ANSWER_JSON_H_

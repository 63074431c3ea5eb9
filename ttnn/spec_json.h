// ttnn/spec_json.h: a TensorSpec's inputs read from JSON, with the field
// names of the TTNN test data (ttnn/testdata/README.md):
//
//   {"shape": [272, 58], "dtype": "bfloat16", "layout": "TILE",
//    "tile": [32, 32], "memory_layout": "HEIGHT_SHARDED", "buffer_type": "L1",
//    "shard_spec": {"grid": [[[0, 0], [2, 0]]], "orientation": "COL_MAJOR",
//                   "shape": [96, 64]}}
//
// or, for ND sharding, "nd_shard_spec": {"shard_shape": [...], "grid": ...,
// "orientation": ..., "distribution": "ROUND_ROBIN_1D" | "GRID_2D"}. A row
// of the test data ({"input": {...}, "output": {...}}) is read through its
// "input". Defaults: dtype bfloat16, layout TILE, tile 32x32, INTERLEAVED
// (ND_SHARDED when there is an nd_shard_spec), DRAM, ROW_MAJOR orientation,
// ROUND_ROBIN_1D. A shard_spec without "shape" has it derived as
// ttnn.create_sharded_memory_config does (TensorSpecInput's
// derive_shard_shape). Unknown keys are errors (a typo must not pass silently),
// except the rows' "id", "group", "output", "error" and "ttnn".
#ifndef HLOLAYOUT_TTNN_SPEC_JSON_H_
#define HLOLAYOUT_TTNN_SPEC_JSON_H_

#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/ttnn/tensor_spec.h"
#include "hlolayout/util/json_reader.h"

namespace hlolayout::ttnn {

// SpecInputFromJson
//
// `value` was parsed from `text`; errors point into it ("1:12: expected an
// array of dims, found a string", the line and a caret), prefixed by `file`.
absl::StatusOr<TensorSpecInput> SpecInputFromJson(const JsonValue& value,
                                                  absl::string_view text,
                                                  absl::string_view file = "");

// SpecInputsFromText
//
// One JSON object, or JSON lines (one object per non-empty line). Errors
// carry the line and column in `text`.
absl::StatusOr<std::vector<TensorSpecInput>> SpecInputsFromText(
    absl::string_view text, absl::string_view file = "");

}  // namespace hlolayout::ttnn

#endif  // HLOLAYOUT_TTNN_SPEC_JSON_H_

// ttnn/spec_record.h: a TTNN tensor spec's answer as records (util/record.h):
// one field list from which `hlolayout ttnn spec --json` (RecordJsonWriter),
// hl.ttnn's SpecAnswer objects with their to_dict() (TensorSpec.answer(),
// TensorSpec.to_dict()) and ttnn.pyi's SpecAnswer stubs all follow.
//
//   TensorSpecInput in;
//   in.shape = {64, 64};  // bfloat16, TILE, DRAM interleaved
//   std::string json;
//   RecordJsonWriter w(&json);
//   EmitSpecAnswer(*TensorSpec::Make(in), JsonLimits{}, nullptr, w);
//   // {"alignment": [32, 32], "consumed_bytes_per_bank": {"bytes": 2048,
//   //  "num_banks": 12, "page_alignment": 32}, "logical_2d_shape": [64, 64],
//   //  "memory_layout": "INTERLEAVED", "num_pages": 4, ...}
//
// The records: SpecAnswer (the spec: tt-metal's fields with its names, keys
// in alphabetical order, as the TTNN test data's "output"), BankBytes
// (compute_consumed_memory_bytes_per_bank and its arguments), SpecDistribution
// (the buffer distribution of a sharded spec), CorePages (one core's shards
// and first host pages), ResolvedShardSpec, ResolvedNdShardSpec (the memory
// config after resolution) and ShardSpecBuffer. A field that does not apply
// (no distribution for an interleaved spec, shard_shape_derived when the
// shape was given, no device or warnings without notes) is None, and left
// out of the JSON.
#ifndef HLOLAYOUT_TTNN_SPEC_RECORD_H_
#define HLOLAYOUT_TTNN_SPEC_RECORD_H_

#include <cstdint>
#include <string>
#include <vector>

#include "hlolayout/ttnn/tensor_spec.h"
#include "hlolayout/util/record.h"

namespace hlolayout::ttnn {

// How much of the distribution to print: the cores (first `cores`), the
// page mapping of the first `mapped_cores` cores and their first `pages`
// host pages. -1: all. The defaults are the test data's.
struct JsonLimits {
  int64_t cores = 64;
  int64_t mapped_cores = 16;
  int64_t pages = 8;
};

// hlolayout's own keys beside tt-metal's: "device" (the device the spec
// was checked against) and "warnings" (ttnn/device.h's CheckFit; only when
// there are some). "shard_shape_derived": true comes from the spec itself.
struct SpecNotes {
  std::string device;
  std::vector<std::string> warnings;
};

const RecordSpec& SpecAnswerSpec();

// Every record of the answer, nested ones first (the order a binding
// registers their classes in).
const std::vector<const RecordSpec*>& SpecRecordSpecs();

// EmitSpecAnswer
//
// One SpecAnswer record of `spec`; `notes`, when given, fills "device" and
// "warnings".
void EmitSpecAnswer(const TensorSpec& spec, const JsonLimits& limits,
                    const SpecNotes* notes, RecordSink& sink);

}  // namespace hlolayout::ttnn

#endif  // HLOLAYOUT_TTNN_SPEC_RECORD_H_

// answers/ttnn.h: the answers of `hlolayout ttnn spec/locate/mesh`, as
// values with one field list each (util/fields.h): the CLI's --json is
// AnswerJson(answer), hl.ttnn's TensorSpec.answer() the SpecAnswer object,
// its to_dict() and locate() that JSON as a dict, and ttnn.pyi's record
// classes are written from the same lists.
//
//   TensorSpecInput in;
//   in.shape = {64, 64};  // bfloat16, TILE, DRAM interleaved
//   SpecAnswer a = AnswerSpec(*TensorSpec::Make(in));
//   a.consumed_bytes_per_bank.bytes == 2048
//   AnswerJson(a)
//   // {"alignment": [32, 32], "consumed_bytes_per_bank": {"bytes": 2048,
//   //  "num_banks": 12, "page_alignment": 32}, "logical_2d_shape": [64, 64],
//   //  "memory_layout": "INTERLEAVED", "num_pages": 4, ...}
//
// A spec's answer holds tt-metal's fields with its names, keys in
// alphabetical order, as the TTNN test data's "output". A field that does
// not apply (no distribution for an interleaved spec, shard_shape_derived
// when the shape was given, no device or warnings without notes) is None,
// and left out of the JSON. A refusal is {"error": "<the rule in words>",
// "rule": "<its name>"}. docs/ttnn.md lists every key.
#ifndef HLOLAYOUT_ANSWERS_TTNN_H_
#define HLOLAYOUT_ANSWERS_TTNN_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "hlolayout/ttnn/locate.h"
#include "hlolayout/ttnn/mesh.h"
#include "hlolayout/ttnn/tensor_spec.h"
#include "hlolayout/util/fields.h"

namespace hlolayout::ttnn {

// How much of the distribution to give: the cores (first `cores`), the
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

using IntPair = std::array<int64_t, 2>;
// A core range ((x0, y0), (x1, y1)).
using CoreCorners = std::array<IntPair, 2>;

struct BankBytes {
  int64_t bytes = 0;
  int64_t num_banks = 0;
  int64_t page_alignment = 0;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const BankBytes& b) {
    f.Type("BankBytes",
           "The bytes one bank (or core) holds at most, with the page "
           "alignment and bank count of the spec's buffer type.");
    f("bytes", b.bytes, "compute_consumed_memory_bytes_per_bank.");
    f("num_banks", b.num_banks, "The banks (DRAM) or cores (L1).");
    f("page_alignment", b.page_alignment, "The page alignment in bytes.");
  }
};

struct CorePages {
  IntPair core{};
  std::vector<int64_t> first_host_pages;
  int64_t num_dev_pages = 0;
  int64_t num_shards = 0;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const CorePages& c) {
    f.Type("CorePages",
           "One core of a sharded spec: its device pages and their host "
           "pages.");
    f("core", c.core, "The core (x, y).");
    f("first_host_pages", c.first_host_pages,
      "The host page of its first device pages (-1: padding).");
    f("num_dev_pages", c.num_dev_pages, "Device pages per core.");
    f("num_shards", c.num_shards, "The shards it holds.");
  }
};

struct SpecDistribution {
  std::vector<IntPair> cores;
  int64_t max_num_dev_pages_per_core = 0;
  int64_t max_num_shards_per_core = 0;
  int64_t num_cores = 0;
  int64_t num_cores_with_data = 0;
  int64_t num_shards = 0;
  std::vector<CorePages> page_mapping;
  std::vector<int64_t> shard_shape_in_pages;
  std::vector<int64_t> tensor_shape_in_pages;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const SpecDistribution& d) {
    f.Type("SpecDistribution",
           "How a sharded spec's buffer is spread over its cores.");
    f("cores", d.cores, "The cores shards are dealt to, in order.");
    f("max_num_dev_pages_per_core", d.max_num_dev_pages_per_core,
      "Device pages of the fullest core.");
    f("max_num_shards_per_core", d.max_num_shards_per_core,
      "Shards of the fullest core.");
    f("num_cores", d.num_cores, "The cores of the grid.");
    f("num_cores_with_data", d.num_cores_with_data,
      "The cores holding a shard.");
    f("num_shards", d.num_shards, "The shards.");
    f("page_mapping", d.page_mapping, "The first cores' pages.");
    f("shard_shape_in_pages", d.shard_shape_in_pages,
      "A shard's shape in pages.");
    f("tensor_shape_in_pages", d.tensor_shape_in_pages,
      "The padded shape in pages.");
  }
};

struct ResolvedNdShardSpec {
  std::string distribution;
  std::vector<CoreCorners> grid;
  std::string orientation;
  std::vector<int64_t> shard_shape;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const ResolvedNdShardSpec& s) {
    f.Type("ResolvedNdShardSpec",
           "The ND shard spec after TensorSpec resolved the memory config.");
    f("distribution", s.distribution, "ROUND_ROBIN_1D or GRID_2D.");
    f("grid", s.grid, "The core ranges ((x0, y0), (x1, y1)).");
    f("orientation", s.orientation, "ROW_MAJOR or COL_MAJOR.");
    f("shard_shape", s.shard_shape, "The shard.");
  }
};

struct ResolvedShardSpec {
  std::vector<CoreCorners> grid;
  std::string orientation;
  IntPair shape{};

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const ResolvedShardSpec& s) {
    f.Type("ResolvedShardSpec",
           "The 2-D shard spec after TensorSpec resolved the memory config.");
    f("grid", s.grid, "The core ranges ((x0, y0), (x1, y1)).");
    f("orientation", s.orientation, "ROW_MAJOR or COL_MAJOR.");
    f("shape", s.shape, "The shard (height, width).");
  }
};

struct ShardSpecBufferAnswer {
  int64_t num_pages_per_shard = 0;
  IntPair page_shape{};
  IntPair shard_shape_in_pages{};
  IntPair tensor2d_shape_in_pages{};

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const ShardSpecBufferAnswer& b) {
    f.Type("ShardSpecBuffer",
           "tt-metal's ShardSpecBuffer: a 2-D shard spec in pages.");
    f("num_pages_per_shard", b.num_pages_per_shard, "Pages per shard.");
    f("page_shape", b.page_shape, "The page.");
    f("shard_shape_in_pages", b.shard_shape_in_pages, "The shard in pages.");
    f("tensor2d_shape_in_pages", b.tensor2d_shape_in_pages,
      "The 2-D tensor in pages.");
  }
};

// `hlolayout ttnn spec`'s answer.
struct SpecAnswer {
  std::vector<int64_t> alignment;
  BankBytes consumed_bytes_per_bank;
  std::optional<std::string> device;
  std::optional<SpecDistribution> distribution;
  IntPair logical_2d_shape{};
  std::string memory_layout;
  int64_t num_pages = 0;
  int64_t packed_buffer_size_bytes = 0;
  std::vector<int64_t> padded_shape;
  IntPair page_shape{};
  int64_t page_size_bytes = 0;
  IntPair physical_shape{};
  std::optional<ResolvedNdShardSpec> resolved_nd_shard_spec;
  std::optional<ResolvedShardSpec> resolved_shard_spec;
  std::optional<bool> shard_shape_derived;
  std::optional<ShardSpecBufferAnswer> shard_spec_buffer;
  std::vector<int64_t> strides;
  std::optional<std::vector<std::string>> warnings;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const SpecAnswer& a);
};

// AnswerSpec
//
// The answer of `spec`; `notes`, when given, fills "device" and
// "warnings".
SpecAnswer AnswerSpec(const TensorSpec& spec, const JsonLimits& limits = {},
                      const SpecNotes* notes = nullptr);

// A refusal: the rule in words, and its name for the model's refusals.
struct Refusal {
  std::string error;
  Omit<std::string> rule;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const Refusal& r) {
    f.Type("Refusal", "Why tt-metal refuses the input.");
    f("error", r.error, "The rule in words.");
    f("rule", r.rule, "The rule's name (the model's refusals).");
  }
};

// The refusal of `status` (not OK).
Refusal AnswerRefusal(const absl::Status& status);

// `hlolayout ttnn locate`'s answer: where one element lives. What does not
// apply is absent: the exponent byte (block floats only), low_nibble
// (bfloat4_b only), bank and page_in_bank (interleaved), shard, core and
// device_page (sharded).
struct PlaceAnswer {
  std::vector<int64_t> index;
  int64_t host_page = 0;
  IntPair in_page{};
  int64_t byte_in_page = 0;
  Omit<int64_t> exponent_byte_in_page;
  Omit<bool> low_nibble;
  std::string buffer_type;
  Omit<int64_t> bank;
  Omit<int64_t> page_in_bank;
  Omit<int64_t> shard;
  Omit<IntPair> core;
  Omit<int64_t> device_page;
  int64_t offset = 0;
  int64_t aligned_page_size = 0;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const PlaceAnswer& p);
};

PlaceAnswer AnswerPlace(const TensorSpec& spec, const ElementPlace& place);

struct MeshDevice {
  std::vector<int64_t> device;
  bool holds_data = false;
  Omit<std::vector<int64_t>> begin;
  Omit<std::vector<int64_t>> end;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const MeshDevice& d) {
    f.Type("MeshDevice", "One device of a mesh and its slice.");
    f("device", d.device, "Its mesh coordinate.");
    f("holds_data", d.holds_data, "Whether it holds a slice.");
    f("begin", d.begin, "The slice's first index (inclusive).");
    f("end", d.end, "The slice's end (exclusive).");
  }
};

// `hlolayout ttnn mesh`'s answer: the distribution and, for the slices,
// their spec (or its refusal).
struct MeshAnswer {
  std::vector<int64_t> mesh_shape;
  std::vector<int64_t> distribution_shape;
  std::string placements;
  std::string mode;  // "SUBMESH" or "ROW_MAJOR"
  std::vector<int64_t> slice_shape;
  std::vector<MeshDevice> devices;
  std::variant<SpecAnswer, Refusal> slice_spec;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const MeshAnswer& m) {
    f.Type("MeshAnswer", "A tensor distributed over a mesh of devices.");
    f("mesh_shape", m.mesh_shape, "The mesh.");
    f("distribution_shape", m.distribution_shape, "The distribution.");
    f("placements", m.placements, "The placements, as TTNN prints them.");
    f("mode", m.mode, "SUBMESH or ROW_MAJOR.");
    f("slice_shape", m.slice_shape, "The shape of a slice holding data.");
    f("devices", m.devices, "Every device, in row-major order.");
    f("slice_spec", m.slice_spec, "The slices' spec, or its refusal.");
  }
};

MeshAnswer AnswerMesh(const MeshDistribution& mesh,
                      absl::Span<const MeshPlacement> placements,
                      const absl::StatusOr<TensorSpec>& slice_spec,
                      const JsonLimits& limits = {});

template <typename Fields>
void HlolayoutFields(Fields& f, const SpecAnswer& a) {
  const FieldOptions omit = FieldOptions().Json(FieldJson::kOmitIfNone);
  const FieldOptions repr = FieldOptions().Repr();
  f.Type("SpecAnswer",
         "A TTNN tensor spec as `hlolayout ttnn spec --json` prints it: "
         "tt-metal's fields with its names (TensorSpec.answer()).");
  f("alignment", a.alignment, "The alignment of each dim.");
  f("consumed_bytes_per_bank", a.consumed_bytes_per_bank,
    "The bytes one bank holds at most.");
  f("device", a.device,
    "The device checked against ('none': no check); None without notes.", omit);
  f("distribution", a.distribution, "The buffer distribution (sharded specs).",
    omit);
  f("logical_2d_shape", a.logical_2d_shape, "The logical shape folded to 2-D.");
  f("memory_layout", a.memory_layout, "The memory layout after resolution.",
    repr);
  f("num_pages", a.num_pages, "The pages.", repr);
  f("packed_buffer_size_bytes", a.packed_buffer_size_bytes,
    "The buffer's bytes, pages packed.");
  f("padded_shape", a.padded_shape, "The padded shape.", repr);
  f("page_shape", a.page_shape, "A page (a tile or a row segment).");
  f("page_size_bytes", a.page_size_bytes, "A page's bytes.", repr);
  f("physical_shape", a.physical_shape, "The padded shape folded to 2-D.");
  f("resolved_nd_shard_spec", a.resolved_nd_shard_spec,
    "The ND shard spec (sharded specs).", omit);
  f("resolved_shard_spec", a.resolved_shard_spec,
    "The 2-D shard spec (2-D sharded specs).", omit);
  f("shard_shape_derived", a.shard_shape_derived,
    "True when the shard shape was derived, else None.", omit);
  f("shard_spec_buffer", a.shard_spec_buffer,
    "The shard spec in pages (2-D sharded specs).", omit);
  f("strides", a.strides, "The strides of the padded shape.");
  f("warnings", a.warnings,
    "The device check's warnings; None when there are none.", omit);
}

template <typename Fields>
void HlolayoutFields(Fields& f, const PlaceAnswer& p) {
  f.Type("PlaceAnswer", "Where one element of a TTNN tensor lives.");
  f("index", p.index, "The element's index.");
  f("host_page", p.host_page, "Its host page.");
  f("in_page", p.in_page, "(row, col) in the page.");
  f("byte_in_page", p.byte_in_page, "Its (mantissa's) first byte.");
  f("exponent_byte_in_page", p.exponent_byte_in_page,
    "Block floats: its exponent's byte.");
  f("low_nibble", p.low_nibble, "bfloat4_b: the mantissa's half.");
  f("buffer_type", p.buffer_type, "DRAM or L1.");
  f("bank", p.bank, "Interleaved: the bank.");
  f("page_in_bank", p.page_in_bank, "Interleaved: the bank's page.");
  f("shard", p.shard, "Sharded: the shard.");
  f("core", p.core, "Sharded: the core (x, y).");
  f("device_page", p.device_page, "Sharded: the core's page.");
  f("offset", p.offset, "Bytes from the buffer's base.");
  f("aligned_page_size", p.aligned_page_size, "The aligned page's bytes.");
}

// The requests of `hlolayout ttnn spec|locate --spec FILE|-`: one
// TensorSpecInput per JSON object or line, with the field names of the TTNN
// test data (ttnn/spec_json.h). Errors are located in `text` ("1:12: ...",
// the line and a caret), prefixed by `file`.
absl::StatusOr<std::vector<TensorSpecInput>> SpecRequestsFromText(
    absl::string_view text, absl::string_view file = "");

}  // namespace hlolayout::ttnn

#endif  // HLOLAYOUT_ANSWERS_TTNN_H_

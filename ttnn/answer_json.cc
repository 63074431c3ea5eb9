#include "hlolayout/ttnn/answer_json.h"

#include <algorithm>
#include <vector>

#include "hlolayout/ttnn/refusal.h"

namespace hlolayout::ttnn {
namespace {

void Core(JsonWriter& json, CoreCoord c) {
  json.BeginArray().Int(c.x).Int(c.y).EndArray();
}

void Grid(JsonWriter& json, const CoreRangeSet& grid) {
  json.BeginArray();
  for (const CoreRange& r : grid.ranges()) {
    json.BeginArray();
    Core(json, r.start);
    Core(json, r.end);
    json.EndArray();
  }
  json.EndArray();
}

void Pair(JsonWriter& json, const std::array<int64_t, 2>& p) {
  json.BeginArray().Int(p[0]).Int(p[1]).EndArray();
}

int64_t Limit(int64_t limit, int64_t n) {
  return limit < 0 ? n : std::min(limit, n);
}

void Distribution(JsonWriter& json, const BufferDistribution& d,
                  const JsonLimits& limits) {
  json.BeginObject();
  json.Key("cores").BeginArray();
  for (int64_t i = 0; i < Limit(limits.cores, d.num_cores()); ++i) {
    Core(json, d.cores()[i]);
  }
  json.EndArray();
  json.Key("max_num_dev_pages_per_core").Int(d.max_dev_pages_per_core());
  json.Key("max_num_shards_per_core").Int(d.max_shards_per_core());
  json.Key("num_cores").Int(d.num_cores());
  json.Key("num_cores_with_data").Int(d.num_cores_with_data());
  json.Key("num_shards").Int(d.num_shards());
  json.Key("page_mapping").BeginArray();
  const int64_t dev_pages =
      d.host_pages() == 0 ? 0 : d.max_dev_pages_per_core();
  for (int64_t i = 0; i < Limit(limits.mapped_cores, d.num_cores()); ++i) {
    json.BeginObject();
    json.Key("core");
    Core(json, d.cores()[i]);
    json.Key("first_host_pages").BeginArray();
    for (int64_t p = 0; p < Limit(limits.pages, dev_pages); ++p) {
      json.Int(d.HostPage(i, p));
    }
    json.EndArray();
    json.Key("num_dev_pages").Int(dev_pages);
    json.Key("num_shards").Int(d.ShardsOnCore(i));
    json.EndObject();
  }
  json.EndArray();
  json.Key("shard_shape_in_pages").IntArray(d.shard_shape_in_pages());
  json.Key("tensor_shape_in_pages").IntArray(d.tensor_shape_in_pages());
  json.EndObject();
}

}  // namespace

void WriteSpecJson(const TensorSpec& spec, const JsonLimits& limits,
                   JsonWriter& json, const SpecNotes* notes) {
  const MemoryConfig& m = spec.memory_config();
  json.BeginObject();
  json.Key("alignment").IntArray(spec.alignment());
  json.Key("consumed_bytes_per_bank").BeginObject();
  json.Key("bytes").Int(spec.ConsumedBytesPerBank());
  json.Key("num_banks").Int(spec.num_banks());
  json.Key("page_alignment").Int(spec.page_alignment());
  json.EndObject();
  if (notes != nullptr) json.Key("device").String(notes->device);
  if (spec.distribution()) {
    json.Key("distribution");
    Distribution(json, *spec.distribution(), limits);
  }
  json.Key("logical_2d_shape");
  Pair(json, spec.logical_2d_shape());
  json.Key("memory_layout").String(MemoryLayoutName(m.layout));
  json.Key("num_pages").Int(spec.num_pages());
  json.Key("packed_buffer_size_bytes").Int(spec.packed_buffer_size_bytes());
  json.Key("padded_shape").IntArray(spec.padded_shape());
  json.Key("page_shape");
  Pair(json, spec.page_shape());
  json.Key("page_size_bytes").Int(spec.page_size_bytes());
  json.Key("physical_shape");
  Pair(json, spec.physical_shape());
  if (m.sharded() && m.nd_shard_spec) {
    const NdShardSpec& nd = *m.nd_shard_spec;
    json.Key("resolved_nd_shard_spec").BeginObject();
    json.Key("distribution").String(DistributionName(nd.distribution));
    json.Key("grid");
    Grid(json, nd.grid);
    json.Key("orientation").String(OrientationName(nd.orientation));
    json.Key("shard_shape").IntArray(nd.shard_shape);
    json.EndObject();
  }
  if (m.sharded() && m.shard_spec) {
    json.Key("resolved_shard_spec").BeginObject();
    json.Key("grid");
    Grid(json, m.shard_spec->grid);
    json.Key("orientation").String(OrientationName(m.shard_spec->orientation));
    json.Key("shape");
    Pair(json, m.shard_spec->shape);
    json.EndObject();
  }
  if (spec.shard_shape_derived()) json.Key("shard_shape_derived").Bool(true);
  if (spec.shard_spec_buffer()) {
    const ShardSpecBuffer& b = *spec.shard_spec_buffer();
    json.Key("shard_spec_buffer").BeginObject();
    json.Key("num_pages_per_shard").Int(b.num_pages_per_shard);
    json.Key("page_shape");
    Pair(json, b.page_shape);
    json.Key("shard_shape_in_pages");
    Pair(json, b.shard_shape_in_pages);
    json.Key("tensor2d_shape_in_pages");
    Pair(json, b.tensor2d_shape_in_pages);
    json.EndObject();
  }
  json.Key("strides").IntArray(spec.strides());
  if (notes != nullptr && !notes->warnings.empty()) {
    json.Key("warnings").BeginArray();
    for (const std::string& w : notes->warnings) json.String(w);
    json.EndArray();
  }
  json.EndObject();
}

std::string SpecJson(const TensorSpec& spec, const JsonLimits& limits,
                     const SpecNotes* notes) {
  JsonWriter json;
  WriteSpecJson(spec, limits, json, notes);
  return json.str();
}

std::string RefusalJson(const absl::Status& status) {
  JsonWriter json;
  json.BeginObject();
  json.Key("error").String(status.message());
  if (absl::optional<std::string> rule = RefusalRule(status)) {
    json.Key("rule").String(*rule);
  }
  json.EndObject();
  return json.str();
}

std::string PlaceJson(const TensorSpec& spec, const ElementPlace& p) {
  JsonWriter json;
  json.BeginObject();
  json.Key("index").IntArray(p.index);
  json.Key("host_page").Int(p.host_page);
  json.Key("in_page");
  Pair(json, p.in_page);
  json.Key("byte_in_page").Int(p.byte_in_page);
  if (p.exponent_byte_in_page) {
    json.Key("exponent_byte_in_page").Int(*p.exponent_byte_in_page);
  }
  if (spec.dtype() == DataType::kBfloat4B) {
    json.Key("low_nibble").Bool(p.low_nibble);
  }
  json.Key("buffer_type").String(BufferTypeName(spec.buffer_type()));
  if (p.bank) {
    json.Key("bank").Int(*p.bank);
    json.Key("page_in_bank").Int(*p.page_in_bank);
  }
  if (p.core) {
    json.Key("shard").Int(*p.shard);
    json.Key("core");
    Core(json, *p.core);
    json.Key("device_page").Int(*p.device_page);
  }
  json.Key("offset").Int(p.offset);
  json.Key("aligned_page_size")
      .Int(spec.AlignedPageSize(spec.page_alignment()));
  json.EndObject();
  return json.str();
}

std::string MeshJson(const MeshDistribution& mesh,
                     absl::Span<const MeshPlacement> placements,
                     const absl::StatusOr<TensorSpec>& slice_spec,
                     const JsonLimits& limits) {
  JsonWriter json;
  json.BeginObject();
  json.Key("mesh_shape").IntArray(mesh.mesh_shape);
  json.Key("distribution_shape").IntArray(mesh.distribution_shape);
  json.Key("placements").String(PlacementsToString(placements));
  json.Key("mode").String(mesh.submesh ? "SUBMESH" : "ROW_MAJOR");
  json.Key("slice_shape").IntArray(mesh.slice_shape);
  json.Key("devices").BeginArray();
  for (const MeshSlice& s : mesh.slices) {
    json.BeginObject();
    json.Key("device").IntArray(s.device);
    json.Key("holds_data").Bool(s.holds_data);
    if (s.holds_data) {
      json.Key("begin").IntArray(s.begin);
      json.Key("end").IntArray(s.end);
    }
    json.EndObject();
  }
  json.EndArray();
  json.Key("slice_spec");
  if (slice_spec.ok()) {
    WriteSpecJson(*slice_spec, limits, json);
  } else {
    json.BeginObject().Key("error").String(slice_spec.status().message());
    if (absl::optional<std::string> rule = RefusalRule(slice_spec.status())) {
      json.Key("rule").String(*rule);
    }
    json.EndObject();
  }
  json.EndObject();
  return json.str();
}

}  // namespace hlolayout::ttnn
